// Installs what the real-host tiers will need — Debian's chromium (and libkrb5-dev, bubblewrap),
// Node, code-server for each host, the pinned real agents and the current adapters — into the
// test cache. `npm test` starts it first (test-all.mjs) so that the downloads, which wait mostly on
// the network, run while the type check, lint and unit tier keep the cores busy; it waits for it
// before the first real-host tier. Each `ensure…` is a no-op once its cache is complete, and the tiers
// call them again anyway: a failure here is printed, and met again (with its error) where the tier
// needs the tool.
// The code-servers install one after the other (two at once took longer than in turn on 2 cores:
// extracting and building native modules is CPU work). The agents, plain npm installs that wait on
// the registry, install in a process of their own beside them (`--agents-only`); what it prints is
// shown once it ends.
//   node test/harness/prepare.mjs [--oldest] [--agents]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM } from './codeServer.mjs';
import { ensureCurrentAgents, ensureRealAgents } from './realAgents.mjs';
import { HOSTS, ensureCodeServer, ensureDebianPackages } from './tools.mjs';

const args = process.argv.slice(2);
const t0 = Date.now();
/** @param {string} what @param {() => unknown} fn */
const timed = (what, fn) => {
  const t = Date.now();
  fn();
  console.log(`[prepare] ${what}: ${((Date.now() - t) / 1000).toFixed(0)} s`);
};

if (args.includes('--agents-only')) {
  timed('the pinned real agents', () => ensureRealAgents());
  timed('the current adapters', () => ensureCurrentAgents());
} else {
  // One apt-get for all of them, before the agents' process starts (each ensure… would otherwise run its own update).
  const browser = process.env.ACP_CHROMIUM || fs.existsSync(CHROMIUM) ? [] : ['chromium'];
  if (process.platform === 'linux') timed('Debian packages', () => ensureDebianPackages([...browser, 'libkrb5-dev', ...(args.includes('--agents') ? ['bubblewrap'] : [])]));
  /** @type {Promise<number | null> | undefined} */
  let agents;
  if (args.includes('--agents')) {
    // To a file, not a pipe: this process is busy in synchronous installs and would not read a pipe meanwhile.
    const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-prepare-')), 'agents.log');
    const fd = fs.openSync(logFile, 'w');
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--agents-only'], { stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    agents = new Promise((resolve) => {
      child.on('error', (err) => (fs.appendFileSync(logFile, `${String(err)}\n`), resolve(null)));
      child.on('close', (status) => resolve(status));
    }).then((status) => {
      process.stdout.write(fs.readFileSync(logFile));
      fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
      return status;
    });
  }
  try {
    timed(`code-server ${HOSTS.current.codeServer}`, () => ensureCodeServer(HOSTS.current));
    if (args.includes('--oldest')) timed(`code-server ${HOSTS.oldest.codeServer}`, () => ensureCodeServer(HOSTS.oldest));
  } finally {
    // Never left installing into the cache behind this process (a tier would then install the same set beside it).
    const status = await agents;
    if (agents && status !== 0) {
      console.log(`[prepare] installing the agents failed (exit ${status})`);
      process.exitCode = 1;
    }
  }
  console.log(`[prepare] ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
