// The e2e tier in two processes at once. Its tests spend about a fifth of their time waiting (on a
// workbench starting, an agent, a model stub, a wall-clock minute for gemini-cli), which on a 2-core
// machine a second mocha process fills. Each file runs whole in one shard; a shard is a child Node
// process running test/harness/mocha.mjs on its files and printing its counts last.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './testEnv.mjs';

/**
 * Seconds each e2e file took in a clean-clone run (cc26, 2 cores): the shards are balanced by these.
 * A file not listed counts as DEFAULT_SECONDS.
 */
const SECONDS = {
  'chat.test.mjs': 122,
  'harness.test.mjs': 138,
  'interop-claude-codex-opencode.test.mjs': 88,
  'interop-gemini-qwen.test.mjs': 84,
  'dialogs.test.mjs': 63,
  'interop-codex-current.test.mjs': 56,
  'composer.test.mjs': 51,
  'interop-claude-current.test.mjs': 48,
  'pins.test.mjs': 44,
  'interop-cline.test.mjs': 41,
  'interop-pi.test.mjs': 38,
  'interop-copilot.test.mjs': 37,
  'sessions.test.mjs': 37,
  'registry.test.mjs': 31,
  'palette.test.mjs': 29,
  'xss.test.mjs': 29,
  'nativeText.test.mjs': 26,
  'trust.test.mjs': 22,
  'l10n.test.mjs': 21,
  'start.test.mjs': 20,
  'bundle.test.mjs': 4,
};
const DEFAULT_SECONDS = 30;

/**
 * Files that must share the first shard, one after the other: `npm start` (start.test.mjs) rebuilds
 * dist/, which the harness's own integration runs (harness.test.mjs) load as the development
 * extension and bundle.test.mjs reads.
 */
const FIRST_SHARD = ['start.test.mjs', 'harness.test.mjs', 'bundle.test.mjs'];

/**
 * Splits files into `jobs` shards of about equal expected time (longest first, each to the shard with
 * the least so far), FIRST_SHARD's files all in shard 0. Each shard keeps the files' sorted order.
 * @param {string[]} files
 * @param {number} jobs
 * @returns {string[][]}
 */
export function shardFiles(files, jobs) {
  const n = Math.max(1, Math.min(jobs, files.length));
  /** @type {{ files: string[], seconds: number }[]} */
  const shards = Array.from({ length: n }, () => ({ files: [], seconds: 0 }));
  const cost = (/** @type {string} */ f) => SECONDS[/** @type {keyof typeof SECONDS} */ (path.basename(f))] ?? DEFAULT_SECONDS;
  const pinned = files.filter((f) => FIRST_SHARD.includes(path.basename(f)));
  for (const f of pinned) {
    shards[0].files.push(f);
    shards[0].seconds += cost(f);
  }
  const rest = files.filter((f) => !pinned.includes(f)).sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
  for (const f of rest) {
    const least = shards.reduce((best, s) => (s.seconds < best.seconds ? s : best));
    least.files.push(f);
    least.seconds += cost(f);
  }
  return shards.filter((s) => s.files.length > 0).map((s) => s.files.sort());
}

/**
 * Runs the files in `jobs` child processes at once; each line a shard prints is shown as it comes,
 * after its shard's tag. A shard that dies without its counts is a failure.
 * @param {string[]} files
 * @param {{ jobs: number, timeout: number, grep?: string }} options
 * @returns {Promise<{ passed: number, failed: number, skipped: number }>}
 */
export async function runE2eShards(files, { jobs, timeout, grep }) {
  const shards = shardFiles(files, jobs);
  for (const [i, s] of shards.entries()) console.log(`[e2e ${i + 1}] ${s.map((f) => path.basename(f)).join(', ')}`);
  const runs = shards.map(
    (shard, i) =>
      new Promise((resolve) => {
        const tag = `[e2e ${i + 1}]`;
        const script = `import { runMocha } from ${JSON.stringify(path.join(ROOT, 'test', 'harness', 'mocha.mjs'))};
const counts = await runMocha(${JSON.stringify(shard)}, { timeout: ${timeout}, grep: ${JSON.stringify(grep ?? null)} ?? undefined });
console.log('COUNTS ' + JSON.stringify(counts));
process.exit(0);`;
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        /** @type {{ passed: number, failed: number, skipped: number } | undefined} */
        let counts;
        /** @param {string} line */
        const show = (line) => {
          if (line.startsWith('COUNTS ')) counts = JSON.parse(line.slice(7));
          else console.log(`${tag} ${line}`);
        };
        /** Each stream's unfinished last line. */
        const partial = { out: '', err: '' };
        /** @param {'out' | 'err'} stream */
        const onData = (stream) => (/** @type {string} */ d) => {
          const lines = (partial[stream] + d).split('\n');
          partial[stream] = lines.pop() ?? '';
          for (const l of lines) show(l);
        };
        child.stdout.setEncoding('utf8');
        child.stderr.setEncoding('utf8');
        child.stdout.on('data', onData('out'));
        child.stderr.on('data', onData('err'));
        child.on('error', (err) => console.log(`${tag} could not start: ${err.message}`));
        child.on('close', (code, signal) => {
          for (const rest of [partial.out, partial.err]) if (rest) show(rest);
          if (!counts) {
            console.log(`${tag} FAILED: the shard ended (exit ${code ?? signal}) without its counts`);
            resolve({ passed: 0, failed: 1, skipped: 0 });
          } else resolve(counts);
        });
      }),
  );
  const all = /** @type {{ passed: number, failed: number, skipped: number }[]} */ (await Promise.all(runs));
  return all.reduce((sum, c) => ({ passed: sum.passed + c.passed, failed: sum.failed + c.failed, skipped: sum.skipped + c.skipped }), { passed: 0, failed: 0, skipped: 0 });
}
