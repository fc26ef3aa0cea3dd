// `npm run test:electron`: the same integration suites under desktop VS Code via
// @vscode/test-electron. It downloads VS Code, so it needs the internet (it
// cannot run on the offline CI machines; the code-server tier covers them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { baseUserSettings } from './codeServer.mjs';
import { ROOT, prepareWorkspace, testAgents } from './testEnv.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-electron-'));
const workspace = prepareWorkspace(tmp);
const userDataDir = path.join(tmp, 'ud');
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
fs.writeFileSync(
  path.join(userDataDir, 'User', 'settings.json'),
  JSON.stringify(baseUserSettings({ 'acpAgents.agents': testAgents(process.execPath, tmp) }), null, 2),
);
const resultsFile = path.join(tmp, 'results.json');
let code = 0;
try {
  await runTests({
    version: process.env.VSCODE_VERSION || 'stable',
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: path.join(ROOT, 'out', 'test', 'integration', 'index'),
    launchArgs: [workspace, '--user-data-dir', userDataDir, '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    extensionTestsEnv: {
      ACP_TEST_RESULTS: resultsFile,
      ACP_TEST_TMP: tmp,
      ACP_TEST_NODE: process.execPath,
      ACP_TEST_FIXTURES: path.join(ROOT, 'test', 'fixtures'),
      ACP_TEST_WORKSPACE: workspace,
    },
  });
} catch (err) {
  console.error(String(/** @type {Error} */ (err)?.message ?? err));
  code = 1;
}
const r = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : { passed: 0, failed: 1, skipped: 0, lines: [] };
if (r.host) console.log(`ran in VS Code: ${r.host}`);
for (const l of r.lines ?? []) console.log(l);
// As in the code-server harness: only one whole run in one extension host counts.
if (fs.existsSync(resultsFile) && (r.done !== true || r.starts?.length !== 1)) {
  console.log(`harness error: the test run ${r.done !== true ? 'never finished' : 'finished'} and was started ${r.starts?.length ?? 0} time(s): the extension host crashed or was restarted`);
  r.failed += 1;
}
console.log(`${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
process.exit(code || r.failed > 0 || r.passed === 0 ? 1 : 0);
