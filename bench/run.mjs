// `npm run bench`: builds, then runs each benchmark and prints its numbers.
// `npm run bench -- --check`: also compares every figure with its budget
// (bench/budgets.mjs), prints the ratio, and exits non-zero when one is over.
// `--only concurrency` (or protocol, replayHost, mcpRelay, editorContext, sizes, webview, terminal) runs one benchmark.
// `--no-ui`: only those that need no workbench (NON_UI in bench/budgets.mjs); `npm test` runs
// `--check --no-ui --packaged` right after `npm run package` (`--packaged`: dist/ and the .vsix
// are that build's, so it is not packaged again).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGETS, NON_UI, compare } from './budgets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const noUi = process.argv.includes('--no-ui');
const packaged = process.argv.includes('--packaged');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const benches = [...new Set(Object.values(BUDGETS).map((b) => b.bench))];
if (only && !benches.includes(only)) {
  console.error(`bench: no benchmark named ${only} (${benches.join(', ')})`);
  process.exit(2);
}
/** The benchmarks this run is to run. */
const wanted = benches.filter((b) => (!only || b === only) && (!noUi || NON_UI.includes(b)));
const figures = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-figures-')), 'figures.jsonl');
const env = { ...process.env, ACP_BENCH_FIGURES: figures };
/** @type {string[]} */
const failed = [];
const run = (/** @type {string} */ name, /** @type {string[]} */ args) => {
  if (!wanted.includes(name)) return;
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) failed.push(name);
};
const build = spawnSync(process.execPath, ['esbuild.mjs', '--tests'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
run('protocol', [path.join(root, 'out', 'bench', 'protocol.js')]);
run('replayHost', [path.join(root, 'out', 'bench', 'replayHost.js')]);
run('mcpRelay', [path.join(root, 'out', 'bench', 'mcpRelay.js')]);
run('editorContext', [path.join(root, 'out', 'bench', 'editorContext.js')]);
if (!packaged && (wanted.includes('webview') || wanted.includes('sizes'))) {
  // The webview benchmarks run against the packaged .vsix in the real host; the sizes are the .vsix's.
  const pkg = spawnSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (pkg.status !== 0) process.exit(pkg.status ?? 1);
}
run('sizes', [path.join(root, 'bench', 'sizes.mjs')]);
run('webview', [path.join(root, 'bench', 'webview.mjs')]);
run('terminal', [path.join(root, 'bench', 'terminal.mjs')]);
run('concurrency', [path.join(root, 'bench', 'concurrency.mjs')]);

if (failed.length > 0) console.log(`\nbenchmarks that failed to run: ${failed.join(', ')}`);
if (check) {
  const recorded = fs.existsSync(figures) ? fs.readFileSync(figures, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  const { lines, over, missing } = compare(recorded, wanted);
  console.log('\nBudgets (bench/budgets.mjs): figure / budget, ratio');
  for (const l of lines) console.log(l);
  if (missing.length > 0) console.log(`  not measured in this run: ${missing.join(', ')}`);
  if (over.length > 0) console.log(`\n${over.length} figure(s) over budget: ${over.join(', ')}`);
  else console.log(`\nall ${lines.length} figure(s) within budget`);
  process.exit(over.length > 0 || failed.length > 0 || missing.length > 0 ? 1 : 0);
}
process.exit(failed.length > 0 ? 1 : 0);
