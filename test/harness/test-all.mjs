// `npm test`: builds, packages the .vsix, then runs the three tiers —
//   unit (mocha in Node), integration (mocha inside code-server's real VS Code
//   extension host), e2e (playwright driving the workbench with the installed .vsix)
// and prints as its last line `N passed, N failed, N skipped`.
// A tier that runs fewer tests than its floor (TIER_FLOORS) fails the run, unless --grep is given.
//   --tier unit|integration|e2e   run one tier (repeatable)
//   --grep PATTERN                only tests whose title matches
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runMocha } from './mocha.mjs';
import { ROOT } from './testEnv.mjs';

const args = process.argv.slice(2);
const tiers = [];
/** @type {string | undefined} */
let grep;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--tier') tiers.push(args[++i]);
  else if (args[i] === '--grep') grep = args[++i];
}
const selected = tiers.length ? tiers : ['unit', 'integration', 'e2e'];
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
 * run. Near the counts of the day (unit 337, integration 115, e2e 42): raise them as tests are
 * added; lower one only with the commit that removes its tests, saying why.
 * @type {Record<string, number>}
 */
const TIER_FLOORS = { unit: 330, integration: 110, e2e: 35 };

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
  const ran = counts.passed + counts.failed;
  if (ran === 0) {
    console.log(`\n${tier}: ran no test — counted as a failure`);
    totals.failed += 1;
  } else if (!grep && ran < (TIER_FLOORS[tier] ?? 0)) {
    console.log(`\n${tier}: ran ${ran} tests, fewer than its floor of ${TIER_FLOORS[tier]} (TIER_FLOORS in test/harness/test-all.mjs) — counted as a failure`);
    totals.failed += 1;
  }
}

const started = Date.now();
try {
  step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
  step('lint', 'npm', ['run', '--silent', 'lint']);
  if (selected.includes('e2e')) step('package the .vsix', 'npm', ['run', '--silent', 'package']);
  // The integration tier runs the extension from dist/ with its test hooks, which the .vsix never has.
  step('build with test hooks', process.execPath, ['esbuild.mjs', '--production', '--test-hooks']);
  step('build the tests', process.execPath, ['esbuild.mjs', '--tests']);

  if (selected.includes('unit')) {
    console.log('\n=== unit tier (mocha in Node) ===');
    add('unit', await runMocha(listFiles(path.join(ROOT, 'out', 'test', 'unit'), '.test.js'), { grep }));
  }
  if (selected.includes('integration')) {
    console.log('\n=== integration tier (mocha inside the VS Code extension host of code-server) ===');
    const { runIntegration } = await import('./integration.mjs');
    add('integration', await runIntegration({ grep }));
  }
  if (selected.includes('e2e')) {
    console.log('\n=== e2e tier (playwright driving the workbench, extension installed from the .vsix) ===');
    // The interop cells append to this file; the README's tested-agents table must be what this run gives
    // (cell by cell for what ran; with no --grep, every row must have been tested: scripts/tested-agents.mjs).
    fs.rmSync(path.join(ROOT, 'out', 'interop', 'results.jsonl'), { force: true });
    add('e2e', await runMocha(listFiles(path.join(ROOT, 'test', 'e2e'), '.test.mjs'), { timeout: 120_000, grep }));
    const { testedAgents } = await import('../../scripts/tested-agents.mjs');
    const problems = testedAgents({ check: true, strict: !grep });
    for (const p of problems) console.log(`\ntested agents: ${p}\n— counted as a failure`);
    totals.failed += problems.length;
  }
} catch (err) {
  console.log(`\nharness error: ${/** @type {Error} */ (err)?.stack ?? err}`);
  totals.failed += 1;
}

console.log('');
for (const t of perTier) console.log(`${t.tier}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
