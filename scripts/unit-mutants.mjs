// The unit mutants of scripts/break-features.mjs, fast enough for `npm test`: one build of the
// tests (out/, `node esbuild.mjs --tests`) serves every mutant. For each one, only the mutated
// file is transpiled again (in memory, with the build's own options), and a mocha child process
// loads it in place of the built file (scripts/mutant-hook.cjs) and runs only the test files that
// hold a test its grep names. No file on disk is changed, so mutants can run side by side, and
// `--here` can run them on the working tree that `npm test` has just built.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const HOOK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mutant-hook.cjs');
const TIMEOUT_MS = 5 * 60_000;

/**
 * @typedef {{ name: string, file: string, find: string, replace: string, grep: string }} UnitMutant
 * @typedef {{ verdict: string, detail: string, secs: number }} Outcome
 */

/**
 * Runs a command, its output appended to a log file; killed (with its group) after TIMEOUT_MS.
 * @param {string[]} args node's arguments
 * @param {string} cwd
 * @param {string} logFile
 * @param {Record<string, string>} [env]
 * @returns {Promise<{ code: number, timedOut: boolean }>}
 */
function node(args, cwd, logFile, env = {}) {
  return new Promise((resolve) => {
    const out = fs.openSync(logFile, 'a');
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', out, out], detached: true, env: { ...process.env, ...env } });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      fs.closeSync(out);
      resolve({ code: code ?? (signal ? 128 : 1), timedOut });
    });
  });
}

/**
 * mocha's arguments for the unit tier as test/unit/.mocharc.json sets it up, without its spec.
 * @param {string} dir
 */
function mochaArgs(dir) {
  const rc = JSON.parse(fs.readFileSync(path.join(dir, 'test', 'unit', '.mocharc.json'), 'utf8'));
  return [
    path.join(dir, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--no-config',
    ...(rc.require ?? []).flatMap((/** @type {string} */ r) => ['--require', r]),
    '--timeout',
    String(rc.timeout ?? 30_000),
    '--forbid-only',
    '--no-color',
  ];
}

/**
 * Every unit test's full title and file, from one dry run of the built tier.
 * @param {string} dir
 * @param {string} logDir
 * @returns {Promise<{ title: string, file: string }[]>}
 */
async function testIndex(dir, logDir) {
  const json = path.join(logDir, 'unit-tests.json');
  const logFile = path.join(logDir, 'unit-tests.log');
  const files = fs
    .readdirSync(path.join(dir, 'out', 'test', 'unit'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => path.join('out', 'test', 'unit', f));
  const r = await node([...mochaArgs(dir), '--dry-run', '--reporter', 'json', '--reporter-option', `output=${json}`, ...files], dir, logFile);
  if (r.code !== 0 || !fs.existsSync(json)) throw new Error(`listing the unit tests failed (exit ${r.code}; ${logFile})`);
  /** @type {{ tests: { fullTitle: string, file: string }[] }} */
  const report = JSON.parse(fs.readFileSync(json, 'utf8'));
  return report.tests.map((t) => ({ title: t.fullTitle, file: t.file }));
}

/**
 * The mutated source, transpiled as `esbuild.mjs --tests` transpiles it (file by file, CommonJS).
 * @param {string} dir
 * @param {UnitMutant} m
 */
async function transpile(dir, m) {
  const src = path.join(dir, m.file);
  const text = fs.readFileSync(src, 'utf8').replace(m.find, () => m.replace);
  const r = await esbuild.build({
    stdin: { contents: text, sourcefile: src, loader: m.file.endsWith('.tsx') ? 'tsx' : 'ts', resolveDir: path.dirname(src) },
    tsconfig: path.join(dir, 'tsconfig.json'),
    write: false,
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'silent',
    define: { __ACP_TEST_HOOKS__: 'true' },
  });
  return r.outputFiles[0]?.text ?? '';
}

/**
 * Runs the unit mutants against the tests already built in `dir/out`, `jobs` at a time.
 * @template {UnitMutant} M
 * @param {string} dir a checkout whose out/ was built from its sources (`node esbuild.mjs --tests`)
 * @param {M[]} mutants
 * @param {{ logDir: string, jobs: number, staleness: (m: M, dir: string) => string | undefined, onDone?: (m: M, o: Outcome) => void }} options
 * @returns {Promise<Map<string, Outcome>>}
 */
export async function runUnitMutants(dir, mutants, { logDir, jobs, staleness, onDone }) {
  const index = await testIndex(dir, logDir);
  /** @type {Map<string, Outcome>} */
  const outcomes = new Map();
  const queue = [...mutants];
  const worker = async () => {
    for (let m = queue.shift(); m; m = queue.shift()) {
      const o = await runOne(dir, m, index, logDir, staleness);
      outcomes.set(m.name, o);
      onDone?.(m, o);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return outcomes;
}

/**
 * @template {UnitMutant} M
 * @param {string} dir
 * @param {M} m
 * @param {{ title: string, file: string }[]} index
 * @param {string} logDir
 * @param {(m: M, dir: string) => string | undefined} staleness
 * @returns {Promise<Outcome>}
 */
async function runOne(dir, m, index, logDir, staleness) {
  const started = Date.now();
  const secs = () => (Date.now() - started) / 1000;
  const stale = staleness(m, dir);
  if (stale) return { verdict: 'stale', detail: stale, secs: 0 };
  const logFile = path.join(logDir, `${m.name}.log`);
  fs.writeFileSync(logFile, `mutant ${m.name}\n${m.file}: ${JSON.stringify(m.find)} -> ${JSON.stringify(m.replace)}\n`);
  let js;
  try {
    js = await transpile(dir, m);
  } catch (err) {
    fs.appendFileSync(logFile, `${/** @type {Error} */ (err).message}\n`);
    return { verdict: 'did not compile', detail: `(${logFile})`, secs: secs() };
  }
  const re = new RegExp(m.grep);
  const files = [...new Set(index.filter((t) => re.test(t.title)).map((t) => t.file))];
  if (!files.length) return { verdict: 'error', detail: `no unit test matches grep ${JSON.stringify(m.grep)}`, secs: secs() };
  const built = path.join(dir, 'out', m.file.replace(/\.tsx?$/, '.js'));
  if (!fs.existsSync(built)) return { verdict: 'error', detail: `${path.relative(dir, built)} was not built (run \`node esbuild.mjs --tests\`)`, secs: secs() };
  const mutated = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-mutant-')), 'mutated.js');
  fs.writeFileSync(mutated, js);
  const start = fs.statSync(logFile).size;
  try {
    const r = await node(['--require', HOOK, ...mochaArgs(dir), '--grep', m.grep, ...files], dir, logFile, {
      ACP_MUTANT_TARGET: built,
      ACP_MUTANT_CODE: mutated,
    });
    const text = fs.readFileSync(logFile, 'utf8').slice(start);
    const passed = Number(/(\d+) passing/.exec(text)?.[1] ?? 0);
    const failed = Number(/(\d+) failing/.exec(text)?.[1] ?? 0);
    if (r.timedOut) return { verdict: 'error', detail: `timed out (${logFile})`, secs: secs() };
    if (!/^acp-mutant: loaded /m.test(text)) return { verdict: 'error', detail: `the tests never loaded ${m.file} (${logFile})`, secs: secs() };
    if (passed + failed === 0) return { verdict: 'error', detail: `no test ran for grep ${JSON.stringify(m.grep)} (${logFile})`, secs: secs() };
    if (r.code !== 0 && failed > 0) return { verdict: 'caught', detail: `${failed} failed, ${passed} passed`, secs: secs() };
    return { verdict: 'survived', detail: `${passed} passed, ${failed} failed, exit ${r.code} (${logFile})`, secs: secs() };
  } finally {
    fs.rmSync(path.dirname(mutated), { recursive: true, force: true });
  }
}
