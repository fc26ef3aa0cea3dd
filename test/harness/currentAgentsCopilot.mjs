// GitHub Copilot CLI (`copilot --acp --stdio`, @github/copilot in the current-agents set of
// realAgents.mjs) as an agent definition for the tests: offline against a loopback OpenAI Chat
// Completions stub (test/fixtures/modelStub/openaiChat.ts) through its BYOK provider variables —
// with COPILOT_PROVIDER_BASE_URL set it needs no GitHub sign-in — and with a HOME of its own under
// the run's tmp (its logs land in $HOME/.copilot/logs). Never the network: the stub is the only
// provider, and the key is a dummy.
// Seen live with 1.0.102: it declares mcpCapabilities {http, sse} and refuses the client's stdio
// MCP servers ("Rejecting non-http/sse MCP server"), so the extension hands them over as loopback
// HTTP; it offers an MCP tool to the model as `<server>-<tool>` and introduces itself to MCP
// servers as clientInfo.name "copilot-cli".
import fs from 'node:fs';
import path from 'node:path';

/** The model Copilot is told to use (any name works with BYOK; this one is in its list of known models). */
export const COPILOT_STUB_MODEL = 'gpt-5.4';

/**
 * @param {string} dir the current-agents directory (ensureCurrentAgents())
 * @param {string} runTmp the run's tmp folder
 * @param {string} baseUrl the Chat Completions stub's URL (without /v1)
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
      // No token of the machine's may reach it (it would try GitHub).
      GH_TOKEN: '',
      GITHUB_TOKEN: '',
      COPILOT_GITHUB_TOKEN: '',
    },
  };
}
