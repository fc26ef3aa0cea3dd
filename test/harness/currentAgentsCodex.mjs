// `acpAgents.agents` entries for the current Codex adapter, @agentclientprotocol/codex-acp 2.x (installed by
// ensureCurrentAgents() in realAgents.mjs), run offline against the loopback Responses stub
// (test/fixtures/modelStub/openai.ts), each with its own HOME and CODEX_HOME:
//   - with a model provider of its own in CODEX_HOME/config.toml: no sign-in;
//   - with no provider: Codex's built-in OpenAI provider, moved to the stub by `openai_base_url`. It answers
//     session/new with "Authentication required" until its `api-key` method is used (the extension's sign-in).
import fs from 'node:fs';
import path from 'node:path';

/** A model id Codex 0.166 offers its plain tool set for (exec_command…, MCP servers as `namespace` tools). */
const MODEL = 'gpt-5.4';

/**
 * @param {string} runTmp
 * @param {string} id
 * @param {string[]} config the lines of CODEX_HOME/config.toml
 */
function codexHome(runTmp, id, config) {
  const home = path.join(runTmp, 'homes', id);
  const codex = path.join(home, '.codex');
  fs.mkdirSync(codex, { recursive: true });
  fs.writeFileSync(path.join(codex, 'config.toml'), `${config.join('\n')}\n`);
  return { home, codex };
}

/** What both entries share: the launcher, a clean environment without keys. */
const base = (/** @type {string} */ dir, /** @type {string} */ runTmp, /** @type {{ home: string, codex: string }} */ h) => ({
  command: path.join(dir, 'node_modules', '.bin', 'codex-acp'),
  args: [],
  env: { ACP_TEST_RUN: runTmp, HOME: h.home, CODEX_HOME: h.codex, XDG_CONFIG_HOME: path.join(h.home, '.config'), OPENAI_API_KEY: '', CODEX_API_KEY: '' },
});

/**
 * codex-acp 2.x with a model provider of its own pointing at the stub (streamed HTTP, no websockets, no
 * retries), whose key is a dummy in the environment: no sign-in is asked.
 * @param {string} dir from ensureCurrentAgents()
 * @param {string} runTmp this run's temporary directory
 * @param {string} baseUrl the stub's URL (without /v1)
 * @param {string} [id]
 * @returns {import('./testEnv.mjs').AgentSetting}
 */
export function codexCurrentWithModelStub(dir, runTmp, baseUrl, id = 'codex-current-stub') {
  const h = codexHome(runTmp, id, [
    `model = "${MODEL}"`,
    'model_provider = "stub"',
    '',
    '[model_providers.stub]',
    'name = "Loopback stub"',
    `base_url = "${baseUrl}/v1"`,
    'env_key = "CODEX_STUB_API_KEY"',
    'wire_api = "responses"',
    'supports_websockets = false',
    'request_max_retries = 0',
    'stream_max_retries = 0',
  ]);
  const b = base(dir, runTmp, h);
  return { id, name: 'Codex 2 (model stub)', ...b, env: { ...b.env, CODEX_STUB_API_KEY: 'sk-offline-dummy-key' } };
}

/**
 * codex-acp 2.x with no model provider of its own: its built-in OpenAI provider, which needs a sign-in
 * (`api-key`, `chat-gpt`), moved to the stub by `openai_base_url`. No key in the environment.
 * @param {string} dir from ensureCurrentAgents()
 * @param {string} runTmp
 * @param {string} baseUrl the stub's URL (without /v1)
 * @param {string} [id]
 * @returns {import('./testEnv.mjs').AgentSetting}
 */
export function codexCurrentSigningIn(dir, runTmp, baseUrl, id = 'codex-current-key') {
  const h = codexHome(runTmp, id, [`model = "${MODEL}"`, `openai_base_url = "${baseUrl}/v1"`]);
  return { id, name: 'Codex 2 (API key)', ...base(dir, runTmp, h) };
}
