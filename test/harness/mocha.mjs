// Runs mocha programmatically in this Node process and returns the counts.
import Mocha from 'mocha';

export async function runMocha(files, { timeout = 30_000, grep } = {}) {
  const mocha = new Mocha({ ui: 'bdd', timeout, color: false, reporter: 'spec' });
  if (grep) mocha.grep(grep);
  for (const f of files) mocha.addFile(f);
  await mocha.loadFilesAsync();
  const counts = { passed: 0, failed: 0, skipped: 0 };
  await new Promise((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', () => counts.passed++);
    runner.on('fail', () => counts.failed++);
    runner.on('pending', () => counts.skipped++);
  });
  mocha.dispose();
  return counts;
}
