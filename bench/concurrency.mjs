// Ten sessions streaming at once, in the real extension host: each of ten panels
// gets a 20,000-chunk answer at the same moment (test/fixtures/concurrencyBench,
// run through the integration tier's runner). Prints the host's event-loop lag
// (p50, p95, worst) while they stream and the host heap per idle, connected session.
// Not measured here: the keystroke delay in a focused composer while ten stream (the
// webview bench measures it with one session streaming).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIntegration } from '../test/harness/integration.mjs';
import { ROOT } from '../test/harness/testEnv.mjs';
import { figure } from './budgets.mjs';

const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-conc-')), 'result.json');
const results = await runIntegration({
  testsPath: path.join(ROOT, 'out', 'test', 'fixtures', 'concurrencyBench', 'index'),
  realAgents: false,
  env: { ACP_BENCH_OUT: out },
  timeoutMs: 600_000,
  log: () => {},
});
if (!fs.existsSync(out) || results.failed > 0) {
  console.log(`concurrency: no result (${results.failed} failed: ${results.failures.map((f) => `${f.title}: ${f.error.split('\n')[0]}`).join('; ')})`);
  process.exit(1);
}
const r = JSON.parse(fs.readFileSync(out, 'utf8'));
const ms = (/** @type {number} */ n) => `${n.toFixed(1)} ms`;
console.log(`\nconcurrency: ${r.sessions} sessions each streaming 20,000 chunks at once, each into its own panel`);
console.log(`  all turns done after            ${r.seconds.toFixed(2)} s`);
console.log(`  extension-host event-loop lag   p50 ${ms(r.hostLagP50Ms)}, p95 ${ms(r.hostLagP95Ms)}, worst ${ms(r.hostLagMaxMs)}   (target p95 ≤ 50 ms)`);
console.log(`  host heap per idle session      ${r.idleSessionHeapMB.toFixed(2)} MB${r.gcExposed ? '' : ' (no gc() in the host: an upper bound)'}   (target ≤ 5 MB)`);
figure('concurrency.hostLagP95Ms', r.hostLagP95Ms);
figure('concurrency.hostLagMaxMs', r.hostLagMaxMs);
figure('concurrency.idleSessionHeapMB', r.idleSessionHeapMB);
