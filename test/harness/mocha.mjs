// Runs mocha programmatically in this Node process and returns the counts.
// A `.only` left in a test fails the run (forbidOnly), as does a file that does not load,
// and so does an unhandled promise rejection (test/support/rejections.ts: it fails the
// test it happened in, or the run when it comes after the last one).
import { createRequire } from 'node:module';
import path from 'node:path';
import Mocha from 'mocha';
import { ROOT } from './testEnv.mjs';

/** The root hooks of test/support/rejections.ts, built by `esbuild.mjs --tests` before any tier runs. */
function rejectionHooks() {
  /** @type {typeof import('../support/rejections.js')} */
  const mod = createRequire(import.meta.url)(path.join(ROOT, 'out', 'test', 'support', 'rejections.js'));
  return mod;
}

/**
 * @param {string[]} files
 * @param {{ timeout?: number, grep?: string }} [options]
 * @returns {Promise<{ passed: number, failed: number, skipped: number }>}
 */
export async function runMocha(files, { timeout = 30_000, grep } = {}) {
  const mocha = new Mocha({ ui: 'bdd', timeout, color: false, reporter: 'spec', forbidOnly: true });
  if (grep) mocha.grep(grep);
  const rejections = rejectionHooks();
  rejections.trackUnhandledRejections();
  mocha.rootHooks(rejections.mochaHooks);
  for (const f of files) mocha.addFile(f);
  const counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    await mocha.loadFilesAsync();
  } catch (err) {
    console.log(`\n  FAILED: loading the tests: ${/** @type {Error} */ (err)?.stack ?? err}`);
    mocha.dispose();
    return { ...counts, failed: 1 };
  }
  /** @type {Promise<void>} */
  const finished = new Promise((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', () => counts.passed++);
    runner.on('fail', () => counts.failed++);
    runner.on('pending', () => counts.skipped++);
  });
  await finished;
  mocha.dispose();
  // One that surfaced after the root after-all hook.
  await new Promise((resolve) => setImmediate(resolve));
  const late = rejections.takeUnhandledRejections();
  if (late) {
    console.log(`\n  FAILED: after the last test: ${late.stack ?? late.message}`);
    counts.failed++;
  }
  return counts;
}
