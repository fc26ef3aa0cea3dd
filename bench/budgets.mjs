// The budgets of `npm run bench -- --check`, in one table: each figure a benchmark
// prints is also recorded (figure() below), and --check compares it with its budget,
// prints the ratio, and fails the run when one is over. The workbench's timings are noisy: they
// stay out of `npm test` (run them before a release and after work on a hot path, README); the
// non-UI ones (NON_UI, loose budgets) run in `npm test` (`--check --no-ui`).
import fs from 'node:fs';

/**
 * name → { budget, unit, what, bench }: a figure over its budget fails `bench --check`. `bench` is the
 * benchmark that records it (bench/run.mjs); `npm test` runs those that need no workbench (NON_UI).
 * The non-UI budgets are loose, 3-5× the figures of a loaded 2-core machine: they catch a hot path
 * gone quadratic or a bundle that doubled, not noise.
 */
export const BUDGETS = {
  // Click to visible includes the agent's start and VS Code's webview start-up, whatever the replay:
  // on this 2-core machine shared with other work, a 10-update session took a median of 884-916 ms
  // (841-1,173) at load average 4-7, 1,405 ms (1,173-1,712) at 9-12, and the 10,000-update one
  // 1,041-1,133 ms (985-1,213), resp. 1,334 ms (1,288-1,568); the webview's document starts
  // 350-660 ms after the click, its script ~0.85 s after. Meanwhile the browser spends 0.9-1.7 s of
  // CPU, the extension host 0.06-0.09 s (10 updates) and 0.12-0.29 s (10,000). The 0.5 s aim is
  // below that floor; these budgets are medians of 3 runs (BENCH_REPLAY_RUNS).
  'replay-10k.visibleMs': { budget: 1500, unit: 'ms', what: 'a 10,000-update session clicked in the Sessions view (agent not running) → last message visible, input ready (median)', bench: 'webview' },
  'replay-small.visibleMs': { budget: 1500, unit: 'ms', what: 'a 10-update session clicked in the Sessions view (agent not running) → last message visible, input ready (median): the floor of any past session', bench: 'webview' },
  // The drain is the fake agent's own writing (10,000 writes: 90-290 ms into a reader that does
  // nothing, bench/replayHost.ts) plus the host's reading, on cores the webview's start-up is using:
  // medians of 275 and 292 ms (205-407) at load average 4-7, 458 ms (294-594) at 9-12; 0.3 s the aim.
  'replay-10k.pipeDrainMs': { budget: 700, unit: 'ms', what: "10,000-update replay: the agent's session/load received → all of it written into the pipe (median)", bench: 'webview' },
  'replay-10k.visibleMs.v2': { budget: 1500, unit: 'ms', what: 'the 10,000-update session over ACP v2 (session/resume from the start, v2 shapes) clicked → visible (median)', bench: 'webview' },
  'replay-10k.visibleV2OverV1': { budget: 1.1, unit: '×', what: 'the 10,000-update replay over v2 ÷ over v1, click → visible (medians)', bench: 'webview' },
  'replay-100k.visibleMs': { budget: 3500, unit: 'ms', what: 'a 100,000-update session clicked in the Sessions view → last message visible, input ready', bench: 'webview' },
  'replay-10k.heapMB': { budget: 150, unit: 'MB', what: 'webview JS heap after the 10k replay', bench: 'webview' },
  'replay-100k.heapMB': { budget: 200, unit: 'MB', what: 'webview JS heap after the 100k replay', bench: 'webview' },
  'stream-20k.enterToPaintedMs': { budget: 3000, unit: 'ms', what: '20,000 chunks: Enter → the whole answer painted (median)', bench: 'webview' },
  'stream-20k.enterToPaintedMs.v2': { budget: 3000, unit: 'ms', what: 'the same over ACP v2 (acknowledged prompt, v2 chunks, ended by the idle state; median)', bench: 'webview' },
  'stream-20k.enterToPaintedV2OverV1': { budget: 1.1, unit: '×', what: 'the 20,000-chunk stream over v2 ÷ over v1, Enter → painted (medians)', bench: 'webview' },
  'stream-20k.pipeToPaintMs': { budget: 100, unit: 'ms', what: 'last chunk queued by the agent → painted (median)', bench: 'webview' },
  'stream-20k.longestTaskMs': { budget: 50, unit: 'ms', what: 'longest task in the webview while streaming (median)', bench: 'webview' },
  'stream-20k.keystrokeDelayMs': { budget: 50, unit: 'ms', what: 'worst keystroke delay while streaming (median)', bench: 'webview' },
  'activationMs': { budget: 200, unit: 'ms', what: 'activate() start to end', bench: 'webview' },
  // The registry's archive code (tar, yauzl: ~90 KB) is dist/registryArchive.js, loaded on an install.
  'size.extension.jsKB': { budget: 600, unit: 'KB', what: 'dist/extension.js', bench: 'sizes' },
  'size.webview.jsKB': { budget: 400, unit: 'KB', what: 'dist/webview.js', bench: 'sizes' },
  // 480 until ACP v2 and Edit/Retry (about 10 KB packed): 486 KB measured on 29 Nov. 520 since agents by URL
  // (dist/wsClient.js, the ws library, loaded on a first connection: about 14 KB packed): 507.5 KB on 29 Nov.
  // 540 since session worktrees (#39: about 11 KB packed, 7 of code, 4 of README and strings): 529.2 KB on 30 Nov.
  'size.vsixKB': { budget: 540, unit: 'KB', what: 'the packaged .vsix', bench: 'sizes' },
  'replay-10k.hostLoadMs.v2': { budget: 1000, unit: 'ms', what: 'the same, over ACP v2: session/resume replaying the same conversation in v2 shapes (median)', bench: 'replayHost' },
  // ACP v2 must cost the client no more than v1 (issue 37: within 10%); interleaved runs on the same machine.
  'replay-10k.hostCpuV2OverV1': { budget: 1.1, unit: '×', what: "the 10,000-update open over v2 ÷ over v1: the host's CPU time (the least of 11 interleaved runs each)", bench: 'replayHost' },
  'replay-10k.hostLoadMs': { budget: 1000, unit: 'ms', what: 'no workbench: session/load of 10,000 updates through the agent pipe, connection, AgentSession and transcript (median)', bench: 'replayHost' },
  'protocol.chunks1KB.msPer10k': { budget: 1000, unit: 'ms', what: 'transport + connection: 10,000 session/update notifications of ~1 KB, decoded and dispatched', bench: 'protocol' },
  'protocol.wordChunks.msPer10k': { budget: 400, unit: 'ms', what: 'transport + connection: 10,000 one-word chunks, decoded, joined and dispatched', bench: 'protocol' },
  'protocol.initializeOverheadMs': { budget: 250, unit: 'ms', what: 'spawn → initialized through AgentRuntime, over a raw NDJSON client (median)', bench: 'protocol' },
  'mcpRelay.overheadP50Ms': { budget: 1, unit: 'ms', what: 'the MCP relay on a stdio round trip, over the direct one (p50)', bench: 'mcpRelay' },
  'editorContext.slowestP95Ms': { budget: 100, unit: 'ms', what: 'the slowest editor-context tool through the socket, 20,000 files (p95)', bench: 'editorContext' },
  'terminalFlood.hostLagMs': { budget: 250, unit: 'ms', what: '64 MiB terminal flood: worst extension-host event-loop delay', bench: 'terminal' },
  'concurrency.hostLagP95Ms': { budget: 50, unit: 'ms', what: '10 sessions streaming 20,000 chunks at once: host event-loop lag p95', bench: 'concurrency' },
  'concurrency.hostLagMaxMs': { budget: 500, unit: 'ms', what: '10 sessions streaming at once: worst host event-loop lag', bench: 'concurrency' },
  'concurrency.idleSessionHeapMB': { budget: 5, unit: 'MB', what: 'extension-host heap per idle, connected session', bench: 'concurrency' },
};

/** The benchmarks that need no workbench: `npm run bench -- --check --no-ui`, run by `npm test`. */
export const NON_UI = ['protocol', 'replayHost', 'mcpRelay', 'editorContext', 'sizes'];

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
 * @param {string[]} [benches] the benchmarks that ran (default all): a budget of one of them with no figure is `missing`
 * @returns {{ lines: string[], over: string[], missing: string[] }}
 */
export function compare(figures, benches) {
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
    lines.push(`  ${bad ? 'OVER' : 'ok  '} ${name.padEnd(32)} ${v.toFixed(b.unit === '×' ? 2 : 1).padStart(9)} ${b.unit.padEnd(2)} / ${String(b.budget).padStart(5)} ${b.unit.padEnd(2)}  ${(ratio * 100).toFixed(0).padStart(4)}%   ${b.what}`);
  }
  // A figure with no budget (a name mistyped in a benchmark) is never checked: that fails too.
  for (const name of byName.keys()) {
    if (name in BUDGETS) continue;
    over.push(name);
    lines.push(`  OVER ${name.padEnd(32)} has no budget in bench/budgets.mjs`);
  }
  const missing = Object.entries(BUDGETS)
    .filter(([n, b]) => !byName.has(n) && (!benches || benches.includes(b.bench)))
    .map(([n]) => n);
  return { lines, over, missing };
}
