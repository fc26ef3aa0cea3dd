// `npm test`: builds, packages the .vsix, then runs the three tiers —
//   unit (mocha in Node), integration (mocha inside code-server's real VS Code
//   extension host), e2e (playwright driving the workbench with the installed .vsix)
// and prints as its last line `N passed, N failed, N skipped`.
// A tier that runs fewer tests than its floor (TIER_FLOORS) fails the run, unless --grep is given;
// so does a skipped test on Linux (test/harness/verdict.mjs).
//   --tier unit|integration|e2e|oldest|guards   run one tier (repeatable); `oldest` is the
//                                 integration tier's OLDEST_HOST_SUBSET on the oldest
//                                 VS Code that engines.vscode claims (code-server 4.96.4);
//                                 `guards` the checks that keep the tests honest (runGuard below):
//                                 no stale mutant, the unit mutants caught, the non-UI benchmarks
//                                 within budget, every integration mutant's grep passing in the run
//   --grep PATTERN                only tests whose title matches
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runMocha } from './mocha.mjs';
import { ROOT } from './testEnv.mjs';
import { tierProblems } from './verdict.mjs';

const args = process.argv.slice(2);
const tiers = [];
/** @type {string | undefined} */
let grep;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--tier') tiers.push(args[++i]);
  else if (args[i] === '--grep') grep = args[++i];
}
// With --grep alone, the `oldest` tier and the guards are left out (the pattern may match none of its subset).
const selected = tiers.length ? tiers : grep ? ['unit', 'integration', 'e2e'] : ['unit', 'integration', 'oldest', 'e2e', 'guards'];
const guards = selected.includes('guards') && !grep;

/**
 * The integration tests that also run on the oldest VS Code we claim (engines.vscode ^1.96.0,
 * code-server 4.96.4): the ones that use the VS Code API most widely — activation and
 * contributions, agents and sessions, the panel, file services, terminals, checkpoints and
 * the diff editor, trust, native UI text, keybindings (1.96's own defaults). Not all of the tier:
 * it would add its whole run time to CI; the rest is protocol and panel logic that does not
 * depend on the host's version.
 */
const OLDEST_HOST_SUBSET = [
  'Foundation:',
  'Agents: start',
  'Sessions: new',
  'Client file services',
  'Client terminals',
  'Checkpoints and review',
  'Trust boundaries',
  'Untrusted text in native UI',
  'Keybindings:',
  'User-only settings',
  'Agents by URL',
].join('|');
process.chdir(ROOT);

/**
 * @param {string} title
 * @param {string} cmd
 * @param {string[]} cmdArgs
 */
function step(title, cmd, cmdArgs) {
  console.log(`\n> ${title}`);
  const res = spawnSync(cmd, cmdArgs, { stdio: 'inherit', cwd: ROOT });
  if (res.status !== 0) throw new Error(`${title} failed (exit ${res.status ?? res.signal})`);
}

/**
 * Runs independent steps at once (each its own process; both cores busy), then prints each one's
 * output under its title, in order; fails when any failed.
 * @param {{ title: string, cmd: string, args: string[] }[]} steps
 */
async function stepsTogether(steps) {
  const t0 = Date.now();
  const runs = steps.map(
    ({ title, cmd, args: cmdArgs }) =>
      new Promise((resolve) => {
        /** @type {Buffer[]} */
        const out = [];
        const child = spawn(cmd, cmdArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (d) => out.push(d));
        child.stderr.on('data', (d) => out.push(d));
        child.on('error', (err) => resolve({ title, status: null, signal: String(err), out }));
        child.on('close', (status, signal) => resolve({ title, status, signal, out, s: (Date.now() - t0) / 1000 }));
      }),
  );
  const results = /** @type {{ title: string, status: number | null, signal: string | null, out: Buffer[], s?: number }[]} */ (await Promise.all(runs));
  for (const r of results) {
    console.log(`\n> ${r.title} (${r.s?.toFixed(0) ?? '?'} s, beside ${results.filter((o) => o !== r).map((o) => o.title).join(', ')})`);
    process.stdout.write(Buffer.concat(r.out));
  }
  const failed = results.filter((r) => r.status !== 0);
  if (failed.length) throw new Error(failed.map((r) => `${r.title} failed (exit ${r.status ?? r.signal})`).join('; '));
}

/**
 * @param {string} dir
 * @param {string} suffix
 */
function listFiles(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * The fewest tests each tier may run (without --grep). A tier that suddenly runs fewer — a file
 * that no longer loads its tests, a glob that misses a folder, a describe left empty — fails the
 * run. Within 2 of the counts of a full run (unit 613, integration 178, oldest 67, e2e 104): raise
 * them as tests are added; lower one only with the
 * commit that removes its tests, saying why.
 * @type {Record<string, number>}
 */
const TIER_FLOORS = { unit: 701, integration: 209, oldest: 82, e2e: 118 };

/**
 * The e2e tier's processes at once (ACP_E2E_JOBS overrides). One: two (test/harness/e2eShards.mjs) saved
 * about 60 s of the tier's 1,030 s in a clean clone on 2 cores, and five tests timed out under the load.
 */
const E2E_JOBS = 1;

const totals = { passed: 0, failed: 0, skipped: 0 };
/** @typedef {{ passed: number, failed: number, skipped: number }} Counts */
/** @type {(Counts & { tier: string })[]} */
const perTier = [];
/**
 * @param {string} tier
 * @param {Counts} counts
 */
function add(tier, counts) {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  perTier.push({ tier, ...counts });
  for (const problem of tierProblems(tier, counts, { grep, floors: TIER_FLOORS })) {
    console.log(`\n${problem}`);
    totals.failed += 1;
  }
}

/** The guards' own counts: one pass or failure per guard (a tier of their own in the summary). */
const guardCounts = { passed: 0, failed: 0, skipped: 0 };
/**
 * Runs one guard: a child Node process whose exit code is its verdict (its output shown, or with
 * `quiet` only the lines `show` picks and its last line).
 * @param {string} title
 * @param {string[]} nodeArgs
 * @param {{ quiet?: boolean, show?: RegExp }} [options]
 */
function runGuard(title, nodeArgs, { quiet = false, show } = {}) {
  console.log(`\n> guard: ${title}`);
  const t0 = Date.now();
  const res = spawnSync(process.execPath, nodeArgs, { cwd: ROOT, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (quiet) {
    const lines = `${res.stdout}${res.stderr}`.trimEnd().split('\n');
    for (const l of lines.filter((l, i) => i === lines.length - 1 || show?.test(l))) console.log(l);
  }
  const ok = res.status === 0;
  console.log(`guard: ${title}: ${ok ? 'passed' : `FAILED (exit ${res.status ?? res.signal})`} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  if (ok) guardCounts.passed++;
  else guardCounts.failed++;
}

const started = Date.now();
/**
 * The real-host tiers' tools (test/harness/prepare.mjs), installed in a process of its own while the
 * steps before them run; its output is shown when they need it.
 */
const realHost = ['integration', 'oldest', 'e2e'].filter((t) => selected.includes(t));
/** The line prepare.mjs prints once the integration tier's tools are in place (the rest installs on). */
const PREPARE_READY_FOR_INTEGRATION = /^\[prepare\] ready for the integration tier/m;
/** @type {Buffer[]} what installing the tools has said; printed as the tiers start */
const prepareOut = [];
let prepareShown = 0;
let allToolsShown = false;
/** @type {Promise<void> | undefined} resolves at PREPARE_READY_FOR_INTEGRATION (or when prepare ends) */
let preparedForIntegration;
/** @type {Promise<{ status: number | null, s: number }> | undefined} resolves when prepare ends */
const preparing =
  realHost.length === 0
    ? undefined
    : new Promise((resolve) => {
        const prepareArgs = [
          'test/harness/prepare.mjs',
          ...(selected.includes('oldest') ? ['--oldest'] : []),
          ...(selected.includes('e2e') || selected.includes('integration') ? ['--agents'] : []),
        ];
        const t0 = Date.now();
        /** @type {() => void} */
        let integrationReady = () => {};
        preparedForIntegration = new Promise((r) => (integrationReady = r));
        const child = spawn(process.execPath, prepareArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (d) => {
          prepareOut.push(d);
          if (PREPARE_READY_FOR_INTEGRATION.test(Buffer.concat(prepareOut).toString())) integrationReady();
        });
        child.stderr.on('data', (d) => prepareOut.push(d));
        /** @param {{ status: number | null, s: number }} r */
        const done = (r) => {
          integrationReady();
          resolve(r);
        };
        child.on('error', (err) => {
          prepareOut.push(Buffer.from(String(err)));
          done({ status: null, s: 0 });
        });
        child.on('close', (status) => done({ status, s: (Date.now() - t0) / 1000 }));
      });
/** Prints what installing the tools said since the last time. */
function showPrepareOutput() {
  const all = Buffer.concat(prepareOut);
  process.stdout.write(all.subarray(prepareShown));
  prepareShown = all.length;
}
/**
 * Waits for the tools a tier needs: `integration`, only code-server for today's host and the pinned
 * agents (the rest installs beside that tier); `all`, the install's end.
 * @param {'integration' | 'all'} what
 */
async function toolsReady(what) {
  if (!preparing) return;
  const t0 = Date.now();
  if (what === 'integration') {
    await preparedForIntegration;
    console.log(`\n> the integration tier's tools (waited ${((Date.now() - t0) / 1000).toFixed(0)} s for them; the others install beside it)`);
    showPrepareOutput();
    return;
  }
  if (allToolsShown) return;
  allToolsShown = true;
  const { status, s } = await preparing;
  console.log(`\n> the real-host tiers' tools (installed beside the steps above in ${s.toFixed(0)} s; waited ${((Date.now() - t0) / 1000).toFixed(0)} s for the rest)`);
  showPrepareOutput();
  // Not fatal here: each tier asks for its tools again, and fails there with the install's error.
  if (status !== 0) console.log(`installing the tools failed (exit ${status}); the tiers will try again`);
}
try {
  // Independent and CPU-bound: one on each core.
  await stepsTogether([
    { title: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
    { title: 'lint', cmd: 'npm', args: ['run', '--silent', 'lint'] },
  ]);
  // The mutant table cannot rot: each mutant's string occurs exactly once in its file.
  if (guards) runGuard('no stale mutant (break-features --list)', ['scripts/break-features.mjs', '--list'], { quiet: true, show: /STALE/ });
  if (selected.includes('e2e') || guards) step('package the .vsix', 'npm', ['run', '--silent', 'package']);
  // out/ only (dist/ stays the .vsix's build for the benchmarks below).
  step('build the tests', process.execPath, ['esbuild.mjs', '--tests']);

  if (selected.includes('unit')) {
    console.log('\n=== unit tier (mocha in Node) ===');
    add('unit', await runMocha(listFiles(path.join(ROOT, 'out', 'test', 'unit'), '.test.js'), { grep }));
  }
  // Each unit mutant (a feature broken on purpose) must turn its tests red; about a minute.
  if (guards) runGuard('the unit mutants caught (break-features --tier unit --here)', ['scripts/break-features.mjs', '--tier', 'unit', '--here', '--no-build']);
  // The benchmarks run once the busiest installs (code-server) have ended; what installs after that
  // (npm packages) is far within their budgets' margins.
  await toolsReady(selected.includes('integration') ? 'integration' : 'all');
  // Before the test-hooks build below replaces dist/: the sizes are those of the .vsix's build.
  if (guards) runGuard('the non-UI benchmarks within budget (bench --check --no-ui)', ['bench/run.mjs', '--check', '--no-ui', '--packaged']);
  // The integration tier runs the extension from dist/ with its test hooks, which the .vsix never has.
  if (realHost.length) step('build with test hooks', process.execPath, ['esbuild.mjs', '--production', '--test-hooks']);
  if (selected.includes('integration')) {
    console.log('\n=== integration tier (mocha inside the VS Code extension host of code-server) ===');
    const { runIntegration } = await import('./integration.mjs');
    const results = await runIntegration({ grep });
    add('integration', results);
    // The integration mutants' --baseline, at no cost: each grep must name a test that passed here.
    if (guards) {
      console.log('\n> guard: every integration mutant names a test that passed');
      const { integrationGrepsUnmatched } = await import('../../scripts/break-features.mjs');
      const passed = results.lines.filter((l) => /^\s*✓ /.test(l)).map((l) => l.replace(/^\s*✓ /, '').replace(/ \(\d+ ms\)$/, ''));
      const unmatched = integrationGrepsUnmatched(passed);
      for (const u of unmatched) console.log(`  ${u}`);
      console.log(`guard: every integration mutant names a test that passed: ${unmatched.length ? 'FAILED' : 'passed'}`);
      if (unmatched.length) guardCounts.failed++;
      else guardCounts.passed++;
    }
  }
  await toolsReady('all');
  if (selected.includes('oldest')) {
    console.log('\n=== integration tier, a subset, on the oldest VS Code we claim (code-server 4.96.4) ===');
    const { runIntegration } = await import('./integration.mjs');
    process.env.ACP_TEST_HOST = 'oldest';
    try {
      add('oldest', await runIntegration({ grep: grep ? `(?=.*(${OLDEST_HOST_SUBSET}))(?=.*(${grep}))` : OLDEST_HOST_SUBSET, realAgents: false }));
    } finally {
      delete process.env.ACP_TEST_HOST;
    }
  }
  if (selected.includes('e2e')) {
    console.log('\n=== e2e tier (playwright driving the workbench, extension installed from the .vsix) ===');
    // The interop cells append to this file; the README's tested-agents table must be what this run gives
    // (cell by cell for what ran; with no --grep, every row must have been tested: scripts/tested-agents.mjs).
    fs.rmSync(path.join(ROOT, 'out', 'interop', 'results.jsonl'), { force: true });
    // One by one, here; ACP_E2E_JOBS=2 runs them in two mocha processes at once (test/harness/e2eShards.mjs).
    const e2eFiles = listFiles(path.join(ROOT, 'test', 'e2e'), '.test.mjs');
    const jobs = Number(process.env.ACP_E2E_JOBS ?? E2E_JOBS);
    if (jobs > 1) {
      const { runE2eShards } = await import('./e2eShards.mjs');
      add('e2e', await runE2eShards(e2eFiles, { jobs, timeout: 120_000, grep }));
    } else add('e2e', await runMocha(e2eFiles, { timeout: 120_000, grep }));
    const { testedAgents } = await import('../../scripts/tested-agents.mjs');
    const problems = testedAgents({ check: true, strict: !grep });
    for (const p of problems) console.log(`\ntested agents: ${p}\n— counted as a failure`);
    totals.failed += problems.length;
  }
  if (guards) add('guards', guardCounts);
} catch (err) {
  console.log(`\nharness error: ${/** @type {Error} */ (err)?.stack ?? err}`);
  totals.failed += 1;
}

console.log('');
for (const t of perTier) console.log(`${t.tier}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
