// pi (`pi-acp`, which runs `pi --mode rpc` of @earendil-works/pi-coding-agent) and Cline's CLI
// (`cline --acp`), both in the current-agents set of realAgents.mjs, as agent definitions for the tests:
// offline against a loopback OpenAI Chat Completions stub (test/fixtures/modelStub/openaiChat.ts), each
// with a HOME of its own under the run's tmp, configured as a user would (the agent's own settings files
// and environment). Never the network: the stub is the only provider, and the keys are dummies.
import fs from 'node:fs';
import path from 'node:path';
import { ensureNode } from './tools.mjs';

/** A registry address nothing listens on: pi-acp asks npm for pi's latest version at every session/new. */
const CLOSED_REGISTRY = 'http://127.0.0.1:9/';

/**
 * pi-acp 0.0.34 with pi 1.6.0. pi reads its models from `$HOME/.pi/agent/models.json`: one provider
 * (`api: openai-completions`, the stub's base URL, a dummy key) and its one model, made the default in
 * settings.json (`quietStartup` keeps pi-acp's start-up banner out of the session).
 * - pi needs Node 22.19 or later (`engines`; under Node 20 it dies on `enableCompileCache`): pi-acp and pi
 *   run under the harness's Node 24, first on PATH; PI_ACP_PI_COMMAND names the pinned `pi`.
 * - PI_OFFLINE and PI_SKIP_VERSION_CHECK stop pi's catalog refresh and version check; pi-acp runs
 *   `npm view @earendil-works/pi-coding-agent version` (800 ms timeout) at every session/new, pointed here
 *   at a closed port.
 * Seen live: no permission request ever (pi runs its tools without asking, by design), files written by
 * pi itself (no fs/* delegation), the client's MCP servers never started (pi-acp does not wire them), and
 * session/load replays the conversation.
 * @param {string} dir the current-agents directory (ensureCurrentAgents())
 * @param {string} runTmp the run's tmp folder
 * @param {string} baseUrl the Chat Completions stub's URL (without /v1)
 * @param {string} [id]
 */
export function piWithModelStub(dir, runTmp, baseUrl, id = 'pi-stub') {
  const home = path.join(runTmp, 'homes', id);
  const agentDir = path.join(home, '.pi', 'agent');
  fs.mkdirSync(agentDir, { recursive: true });
  fs.writeFileSync(
    path.join(agentDir, 'models.json'),
    JSON.stringify({ providers: { stub: { name: 'Loopback stub', baseUrl: `${baseUrl}/v1`, api: 'openai-completions', apiKey: 'sk-offline-dummy-key', models: [{ id: 'stub-model', name: 'Stub model' }] } } }, null, 2),
  );
  fs.writeFileSync(path.join(agentDir, 'settings.json'), JSON.stringify({ defaultProvider: 'stub', defaultModel: 'stub-model', quietStartup: true }, null, 2));
  const bin = path.join(dir, 'node_modules', '.bin');
  return {
    id,
    name: 'pi (model stub)',
    command: path.join(bin, 'pi-acp'),
    args: [],
    env: {
      ACP_TEST_RUN: runTmp,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      PATH: `${path.dirname(ensureNode())}${path.delimiter}${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      PI_ACP_PI_COMMAND: path.join(bin, 'pi'),
      PI_OFFLINE: '1',
      PI_SKIP_VERSION_CHECK: '1',
      PI_TELEMETRY: '0',
      npm_config_registry: CLOSED_REGISTRY,
      npm_config_fetch_retries: '0',
    },
  };
}

/**
 * Cline's CLI 3.0.65 in ACP mode (`cline --acp`). Its provider is the one `cline auth -p openai-compatible
 * -b <url> -k <key> -m <model>` writes, `$HOME/.cline/data/settings/providers.json` (written here the same
 * way; without `updatedAt` Cline ignores the entry and talks to api.openai.com).
 * - In ACP mode Cline answers session/new "Authentication required: Call authenticate before starting a
 *   session" unless CLINE_API_KEY is set or it holds one of its online sign-ins (Cline account, ClinePass,
 *   ChatGPT: its three authMethods); CLINE_PROVIDER then picks the configured provider. The extension says
 *   so at the sign-in question (quirks.ts, SIGN_IN_NOTES).
 * - CLINE_SESSION_BACKEND_MODE=local: otherwise it starts a "hub" daemon (`cline --cline-hub-daemon`,
 *   a WebSocket server on 127.0.0.1) that outlives the agent; CLINE_NO_AUTO_UPDATE=1: no update check.
 * Seen live: a permission request before each tool (allow once / always / reject), files written by Cline
 * itself (apply_patch; no fs/* delegation, no diff in the tool call), the client's MCP servers never
 * started, session/load replays the conversation, Stop ends the turn `cancelled`.
 * @param {string} dir the current-agents directory (ensureCurrentAgents())
 * @param {string} runTmp the run's tmp folder
 * @param {string} baseUrl the Chat Completions stub's URL (without /v1)
 * @param {string} [id]
 */
export function clineWithModelStub(dir, runTmp, baseUrl, id = 'cline-stub') {
  const home = path.join(runTmp, 'homes', id);
  const settings = path.join(home, '.cline', 'data', 'settings');
  fs.mkdirSync(settings, { recursive: true });
  const provider = { provider: 'openai-compatible', apiKey: 'sk-offline-dummy-key', model: 'stub-model', baseUrl: `${baseUrl}/v1` };
  fs.writeFileSync(
    path.join(settings, 'providers.json'),
    JSON.stringify({ version: 1, lastUsedProvider: 'openai-compatible', modes: {}, providers: { 'openai-compatible': { settings: provider, updatedAt: new Date().toISOString(), tokenSource: 'manual' } } }, null, 2),
  );
  return {
    id,
    name: 'Cline (model stub)',
    command: path.join(dir, 'node_modules', '.bin', 'cline'),
    args: ['--acp'],
    env: {
      ACP_TEST_RUN: runTmp,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      PATH: `${path.dirname(ensureNode())}${path.delimiter}${process.env.PATH ?? ''}`,
      CLINE_API_KEY: 'sk-offline-dummy-key',
      CLINE_PROVIDER: 'openai-compatible',
      CLINE_SESSION_BACKEND_MODE: 'local',
      CLINE_NO_AUTO_UPDATE: '1',
    },
  };
}
