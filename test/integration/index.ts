// Entry point of the integration tier, loaded by VS Code's extension host as
// `extensionTestsPath`. Host-agnostic: the same `run()` serves code-server
// (test/harness) and @vscode/test-electron (npm run test:electron).
//
// The results file ($ACP_TEST_RESULTS) is how the harness learns the verdict, so
// it must not be able to lie: it is written atomically, says which extension host
// process started the run (`starts`: one pid per start — a host restarted after a
// crash runs this file again, and the harness fails a run started twice), and only
// a run that reached its end says `done: true` with its exit code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { mochaHooks, takeUnhandledRejections, trackUnhandledRejections } from '../support/rejections';

interface Results {
  host: string;
  /** The extension host process of every start of this run, in order (more than one: the host was restarted). */
  starts: { pid: number; at: string }[];
  passed: number;
  failed: number;
  skipped: number;
  lines: string[];
  failures: { title: string; error: string }[];
  /** The run reached its end (mocha's callback ran). */
  done: boolean;
  /** With `done`: what `run()` settles with — 0 resolves, 1 rejects (failures, or no test passed). */
  exitCode?: number;
}

function readPrevious(file: string): Partial<Results> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Results>;
  } catch {
    return undefined;
  }
}

/** Runs every `*.test.js` under `dir` (recursively) with mocha, writing the results file as it goes. */
export function runSuite(dir: string): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec', forbidOnly: true });
  const grep = process.env.ACP_TEST_GREP;
  if (grep) mocha.grep(grep);
  // An unhandled promise rejection in the extension host fails the test it happened in (or the run).
  trackUnhandledRejections();
  mocha.rootHooks(mochaHooks);
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(path.join(dir, f));

  const resultsFile = process.env.ACP_TEST_RESULTS;
  const previous = resultsFile ? readPrevious(resultsFile) : undefined;
  const results: Results = {
    host: `${vscode.env.appName} ${vscode.version} (${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} UI, extension host Node ${process.versions.node})`,
    starts: [...(previous?.starts ?? []), { pid: process.pid, at: new Date().toISOString() }],
    passed: 0,
    failed: 0,
    skipped: 0,
    lines: [],
    failures: [],
    done: false,
  };
  if (results.starts.length > 1) {
    // Keep what the earlier start reported: its passes must not be taken for this run's.
    results.failed++;
    results.failures.push({
      title: 'the extension host',
      error: `the tests were started again, by extension host pid ${process.pid} after pid ${results.starts.at(-2)?.pid}: the host was restarted (a crash?)`,
    });
  }
  const flush = () => {
    if (!resultsFile) return;
    // Atomically: a host killed mid-write leaves the previous version, never half a file.
    const tmp = `${resultsFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(results, null, 2));
    fs.renameSync(tmp, resultsFile);
  };
  flush();
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run(async (failures) => {
        // One that surfaced after the root after-all hook.
        await new Promise<void>((r) => setImmediate(r));
        const late = takeUnhandledRejections();
        if (late) {
          results.failed++;
          results.lines.push(`  ✗ after the last test: ${late.message}`);
          results.failures.push({ title: 'after the last test', error: String(late.stack ?? late) });
        }
        const ok = failures === 0 && results.failed === 0 && results.passed > 0;
        results.done = true;
        results.exitCode = ok ? 0 : 1;
        flush();
        if (ok) resolve();
        else reject(new Error(`${results.failed} integration test(s) failed, ${results.passed} passed`));
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
        flush();
      });
    } catch (err) {
      // Also a `.only` left in a test (forbidOnly).
      results.failed++;
      results.failures.push({ title: 'loading the integration tests', error: String((err as Error)?.stack ?? err) });
      results.done = true;
      results.exitCode = 1;
      flush();
      reject(err as Error);
    }
  });
}

export function run(): Promise<void> {
  return runSuite(__dirname);
}
