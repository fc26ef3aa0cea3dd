// Runs mocha programmatically in this Node process and returns the counts.
// A `.only` left in a test fails the run (forbidOnly), as does a file that does not load.
import Mocha from 'mocha';

/**
 * @param {string[]} files
 * @param {{ timeout?: number, grep?: string }} [options]
 * @returns {Promise<{ passed: number, failed: number, skipped: number }>}
 */
export async function runMocha(files, { timeout = 30_000, grep } = {}) {
  const mocha = new Mocha({ ui: 'bdd', timeout, color: false, reporter: 'spec', forbidOnly: true });
  if (grep) mocha.grep(grep);
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
  return counts;
}
