// Entry point of the integration tier, loaded by VS Code's extension host as
// `extensionTestsPath`. Host-agnostic: the same `run()` serves code-server
// (test/harness) and @vscode/test-electron (npm run test:electron).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

interface Results {
  host: string;
  passed: number;
  failed: number;
  skipped: number;
  lines: string[];
  failures: { title: string; error: string }[];
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const grep = process.env.ACP_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = fs
    .readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));

  const results: Results = {
    host: `${vscode.env.appName} ${vscode.version} (${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} UI, extension host Node ${process.versions.node})`,
    passed: 0, failed: 0, skipped: 0, lines: [], failures: [] };
  const resultsFile = process.env.ACP_TEST_RESULTS;
  const flush = () => {
    if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  };
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        flush();
        if (failures > 0 || results.passed === 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
      runner.on('pass', (t) => {
        results.passed++;
        results.lines.push(`  ✓ ${t.fullTitle()} (${t.duration ?? 0} ms)`);
        flush();
      });
      runner.on('fail', (t, err: Error) => {
        results.failed++;
        results.lines.push(`  ✗ ${t.fullTitle()}: ${err?.message ?? err}`);
        results.failures.push({ title: t.fullTitle(), error: String(err?.stack ?? err) });
        flush();
      });
      runner.on('pending', (t) => {
        results.skipped++;
        results.lines.push(`  - ${t.fullTitle()} (skipped)`);
      });
    } catch (err) {
      results.failed++;
      results.failures.push({ title: 'loading the integration tests', error: String((err as Error)?.stack ?? err) });
      flush();
      reject(err as Error);
    }
  });
}
