// GitHub Copilot CLI (`copilot --acp --stdio`, @github/copilot in the current-agents set of
// realAgents.mjs) as an agent definition for the tests: offline against a loopback OpenAI Responses
// stub (test/fixtures/modelStub/openai.ts) through its BYOK provider variables —
// with COPILOT_PROVIDER_BASE_URL set it needs no GitHub sign-in — and with a HOME of its own under
// the run's tmp (its logs land in $HOME/.copilot/logs). Never the network: the stub is the only
// provider, and the key is a dummy.
// Seen live with 1.0.102: it declares mcpCapabilities {http, sse} and refuses the client's stdio
// MCP servers ("Rejecting non-http/sse MCP server"), so the extension hands them over as loopback
// HTTP; it offers an MCP tool to the model as `<server>-<tool>` and introduces itself to MCP
// servers as clientInfo.name "copilot-cli". It edits files through `apply_patch`, a custom (freeform)
// tool: over Chat Completions (its default wire API) that tool has no function shape, so the tests use
// the Responses wire API ("use responses for GPT-5 series models", `copilot help providers`).
import fs from 'node:fs';
import path from 'node:path';

/** The model Copilot is told to use (any name works with BYOK; this one is in its list of known models). */
export const COPILOT_STUB_MODEL = 'gpt-5.4';

/**
 * @param {string} dir the current-agents directory (ensureCurrentAgents())
 * @param {string} runTmp the run's tmp folder
 * @param {string} baseUrl the Responses stub's URL (without /v1)
 * @param {string} [id]
 */
export function copilotWithModelStub(dir, runTmp, baseUrl, id = 'copilot-stub') {
  const home = path.join(runTmp, 'homes', id);
  fs.mkdirSync(home, { recursive: true });
  return {
    id,
    name: 'Copilot (model stub)',
    command: path.join(dir, 'node_modules', '.bin', 'copilot'),
    args: ['--acp', '--stdio'],
    env: {
      ACP_TEST_RUN: runTmp,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      COPILOT_PROVIDER_BASE_URL: `${baseUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: 'sk-offline-dummy-key',
      COPILOT_MODEL: COPILOT_STUB_MODEL,
      COPILOT_PROVIDER_WIRE_API: 'responses',
      // No token of the machine's may reach it (it would try GitHub).
      GH_TOKEN: '',
      GITHUB_TOKEN: '',
      COPILOT_GITHUB_TOKEN: '',
    },
  };
}
