// A 64 MiB terminal flood in the real host: how long it takes, how often and how
// much the panel is sent, and the extension host's worst event-loop delay while
// it runs. Prints numbers (bench --check compares them with bench/budgets.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure } from './budgets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-term-')), 'result.json');
spawnSync(process.execPath, [path.join(root, 'test', 'harness', 'test-all.mjs'), '--tier', 'integration', '--grep', '64 MiB of terminal output'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, ACP_BENCH_OUT: out },
});
if (!fs.existsSync(out)) {
  console.log('terminal flood: no result (the run failed; see npm run test:integration)');
  process.exit(1);
}
const r = JSON.parse(fs.readFileSync(out, 'utf8'));
console.log('\nterminal flood (64 MiB, no outputByteLimit, 1 MiB kept)');
console.log(`  whole turn                    ${r.seconds.toFixed(2)} s`);
console.log(`  panel deltas                  ${r.panelDeltas} (largest ${r.maxDeltaChars} characters, ${r.panelChars} in all)`);
// A flood that fits in one flush reaches the panel as whole updates of its card instead.
console.log(`  whole updates of the card     ${r.panelWholes ?? '?'}`);
console.log(`  worst extension-host delay    ${r.maxHostLagMs} ms (a 20 ms timer, late by)`);
figure('terminalFlood.hostLagMs', r.maxHostLagMs);
