// Installs what the real-host tiers will need — Debian's chromium (and libkrb5-dev, bubblewrap),
// Node, code-server for each host, the pinned real agents and the current adapters — into the
// test cache, in one process of its own. `npm test` starts it first (test-all.mjs) so that the
// downloads, which wait mostly on the network, run while the type check, lint and unit tier keep
// the cores busy. What the integration tier needs (code-server for today's host, the pinned real
// agents) comes first and is announced by the READY line below: the integration tier starts there,
// and the rest (the current adapters, the oldest host) installs beside it; the oldest and e2e
// tiers wait for the process to end. Each `ensure…` is a no-op once
// its cache is complete, and the tiers call them again anyway: a failure here is printed, and
// met again (with its error) where the tier needs the tool.
// One install at a time: two code-servers installed at once took longer than one after the other on
// 2 cores (extracting and building native modules is CPU work, not a network wait).
//   node test/harness/prepare.mjs [--oldest] [--agents]
import fs from 'node:fs';
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
// One apt-get for all of them (each ensure… below would otherwise run its own update).
const browser = process.env.ACP_CHROMIUM || fs.existsSync(CHROMIUM) ? [] : ['chromium'];
if (process.platform === 'linux') timed('Debian packages', () => ensureDebianPackages([...browser, 'libkrb5-dev', ...(args.includes('--agents') ? ['bubblewrap'] : [])]));
timed(`code-server ${HOSTS.current.codeServer}`, () => ensureCodeServer(HOSTS.current));
if (args.includes('--agents')) timed('the pinned real agents', () => ensureRealAgents());
// Read by test-all.mjs (PREPARE_READY_FOR_INTEGRATION): stdout to a pipe is written synchronously on
// Linux, so the line is out before the installs below block this process.
console.log(`[prepare] ready for the integration tier in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
if (args.includes('--agents')) timed('the current adapters', () => ensureCurrentAgents());
if (args.includes('--oldest')) timed(`code-server ${HOSTS.oldest.codeServer}`, () => ensureCodeServer(HOSTS.oldest));
console.log(`[prepare] ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
