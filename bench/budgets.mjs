// The budgets of `npm run bench -- --check`, in one table: each figure a benchmark
// prints is also recorded (figure() below), and --check compares it with its budget,
// prints the ratio, and fails the run when one is over. Timings are noisy: this stays
// out of `npm test`; run it before a release and after work on a hot path (README).
import fs from 'node:fs';

/** name → { budget, unit, what }: a figure over its budget fails `bench --check`. */
export const BUDGETS = {
  'replay-10k.visibleMs': { budget: 1000, unit: 'ms', what: 'session/load of 10,000 updates → last message visible, input ready' },
  'replay-100k.visibleMs': { budget: 3000, unit: 'ms', what: 'session/load of 100,000 updates → last message visible, input ready' },
  'replay-10k.heapMB': { budget: 150, unit: 'MB', what: 'webview JS heap after the 10k replay' },
  'replay-100k.heapMB': { budget: 200, unit: 'MB', what: 'webview JS heap after the 100k replay' },
  'stream-20k.enterToPaintedMs': { budget: 3000, unit: 'ms', what: '20,000 chunks: Enter → the whole answer painted (median)' },
  'stream-20k.pipeToPaintMs': { budget: 100, unit: 'ms', what: 'last chunk queued by the agent → painted (median)' },
  'stream-20k.longestTaskMs': { budget: 50, unit: 'ms', what: 'longest task in the webview while streaming (median)' },
  'stream-20k.keystrokeDelayMs': { budget: 50, unit: 'ms', what: 'worst keystroke delay while streaming (median)' },
  'activationMs': { budget: 200, unit: 'ms', what: 'activate() start to end' },
  'size.extension.jsKB': { budget: 600, unit: 'KB', what: 'dist/extension.js' },
  'size.webview.jsKB': { budget: 400, unit: 'KB', what: 'dist/webview.js' },
  'size.vsixKB': { budget: 700, unit: 'KB', what: 'the packaged .vsix' },
  'terminalFlood.hostLagMs': { budget: 250, unit: 'ms', what: '64 MiB terminal flood: worst extension-host event-loop delay' },
  'concurrency.hostLagP95Ms': { budget: 50, unit: 'ms', what: '10 sessions streaming 20,000 chunks at once: host event-loop lag p95' },
  'concurrency.hostLagMaxMs': { budget: 500, unit: 'ms', what: '10 sessions streaming at once: worst host event-loop lag' },
  'concurrency.idleSessionHeapMB': { budget: 5, unit: 'MB', what: 'extension-host heap per idle, connected session' },
};

/**
 * Records one figure for `--check` (a no-op unless bench/run.mjs asked for figures).
 * @param {string} name one of BUDGETS' keys
 * @param {number} value
 */
export function figure(name, value) {
  if (!(name in BUDGETS)) throw new Error(`bench: no budget named ${name}`);
  const file = process.env.ACP_BENCH_FIGURES;
  if (file) fs.appendFileSync(file, `${JSON.stringify({ name, value })}\n`);
}

/**
 * Compares recorded figures with their budgets.
 * @param {{ name: string, value: number }[]} figures
 * @returns {{ lines: string[], over: string[], missing: string[] }}
 */
export function compare(figures) {
  /** @type {string[]} */
  const lines = [];
  /** @type {string[]} */
  const over = [];
  const byName = new Map(figures.map((f) => [f.name, f.value]));
  for (const [name, b] of Object.entries(BUDGETS)) {
    const v = byName.get(name);
    if (v === undefined) continue;
    const ratio = v / b.budget;
    const bad = !Number.isFinite(v) || ratio > 1;
    if (bad) over.push(name);
    lines.push(`  ${bad ? 'OVER' : 'ok  '} ${name.padEnd(32)} ${v.toFixed(1).padStart(9)} ${b.unit.padEnd(2)} / ${String(b.budget).padStart(5)} ${b.unit.padEnd(2)}  ${(ratio * 100).toFixed(0).padStart(4)}%   ${b.what}`);
  }
  const missing = Object.keys(BUDGETS).filter((n) => !byName.has(n));
  return { lines, over, missing };
}
