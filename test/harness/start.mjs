// `npm start`: builds the extension, then serves a real VS Code (code-server)
// on 127.0.0.1 with the extension loaded from this source tree, a sample
// workspace, and the Demo Agent (a scripted fake agent: no account, no network)
// in that instance's user settings. Prints the URL to open. Ctrl+C stops it.
//   PORT=8080 npm start    choose the port (default: 8080, or a free one)
//   npm start -- --watch   rebuild on change (reload the window to pick it up)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { ensureNode } from './tools.mjs';
import { ROOT, prepareWorkspace, testAgents } from './testEnv.mjs';

const watch = process.argv.includes('--watch');
process.chdir(ROOT);
const build = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

/**
 * @param {number} port
 * @returns {Promise<boolean>}
 */
async function portFree(port) {
  return await new Promise((resolve) => {
    const s = net.createServer().once('error', () => resolve(false)).once('listening', () => s.close(() => resolve(true)));
    s.listen(port, '127.0.0.1');
  });
}

const nodeBin = ensureNode();
const home = path.join(os.homedir(), '.cache', 'acp-agents-test', 'start');
fs.mkdirSync(home, { recursive: true });
const tmp = fs.mkdtempSync(path.join(home, 'run-'));
const workspace = prepareWorkspace(tmp);
const wanted = Number(process.env.PORT || 8080);
const port = (await portFree(wanted)) ? wanted : await freePort();
const server = await startCodeServer({
  port,
  userSettings: {
    'acpAgents.agents': testAgents(nodeBin).filter((a) => a.id === 'demo'),
    'acpAgents.defaultAgent': '',
  },
});
const payload = [
  ['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${ROOT}`],
  ['skipWelcome', 'true'],
  ['skipReleaseNotes', 'true'],
];
const url = workbenchUrl(server, workspace, payload);
/** @type {import('node:child_process').ChildProcess | undefined} */
let watcher;
if (watch) watcher = spawn(process.execPath, ['esbuild.mjs', '--watch'], { stdio: 'inherit' });

console.log(`
ACP Agents is running in VS Code (code-server) with the Demo Agent configured.

  Open: ${url}

  Then: F1 → "ACP: New Session…" → "Demo Agent".
  Log:  ${path.join(server.dir, 'code-server.log')}
  Stop: Ctrl+C
`);

const stop = async () => {
  watcher?.kill();
  await server.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
