// The harness must not hide an error. The integration harness must not hide a crash:
// a real run in code-server of a tiny suite (test/fixtures/crashSuite) that passes one
// test and then makes the extension host exit with code 7. The workbench itself still
// reports exit code 0 in that case, so only the harness's own checks can fail the run.
// Nor an error no assertion looks at: an exception, rejection or console error in the
// webview (test/fixtures/webviewErrors), an unhandled rejection in the extension host
// or in a unit test (test/fixtures/rejectionSuite).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runIntegration } from '../harness/integration.mjs';
import { ROOT } from '../harness/testEnv.mjs';

describe('e2e: the integration harness', function () {
  this.timeout(150_000);

  it('fails a run whose extension host exits mid-run, within seconds, naming the exit', async function () {
    /** @type {string[]} */
    const output = [];
    const started = Date.now();
    const results = await runIntegration({
      testsPath: path.join(ROOT, 'out', 'test', 'fixtures', 'crashSuite', 'index'),
      realAgents: false,
      env: { ACP_CRASH_MODE: 'exit' },
      // Far more than it needs: the crash must be noticed long before this.
      timeoutMs: 120_000,
      log: (line) => output.push(line),
    });
    const took = Date.now() - started;
    const report = `${JSON.stringify({ ...results, lines: undefined }, null, 2)}\n--- harness output ---\n${output.join('\n')}`;
    console.log(`      (the whole run took ${(took / 1000).toFixed(1)} s; it ended ${(results.settledAt ?? NaN) - Date.parse(results.starts?.[0]?.at ?? '')} ms after the suite started in the host)`);

    // It really ran in VS Code's extension host: the first test passed there.
    assert.match(results.host ?? '', /^code-server .* extension host Node/, report);
    assert.equal(results.passed, 1, report);
    assert.equal(results.lines.length, 1, report);
    assert.match(results.lines[0] ?? '', /✓ a suite whose extension host dies passes first/, report);
    assert.equal(results.starts?.length, 1, report);
    assert.equal(results.done, false, report);
    // And the harness failed it, saying why.
    assert.ok(results.failed >= 1, report);
    assert.match(results.harnessError ?? '', /the extension host crashed or exited before the tests finished after 1 passed, 0 failed/, report);
    assert.match(results.harnessError ?? '', /Extension Host Process exited with code: 7/, report);
    assert.match(results.harnessError ?? '', /the test run never finished/, report);
    assert.ok(results.failures.some((f) => f.title === 'the integration run' && /crashed or exited/.test(f.error)), report);
    // Noticed at once, not at the time limit: within seconds of the suite's start in the host.
    const sinceStart = (results.settledAt ?? Infinity) - Date.parse(results.starts?.[0]?.at ?? '');
    assert.ok(sinceStart < 10_000, `the run ended ${sinceStart} ms after the suite started\n${report}`);
    assert.ok(took < 90_000, `took ${took} ms\n${report}`);
  });

  it('fails a run whose extension host is killed with SIGKILL mid-run, within seconds', async function () {
    /** @type {string[]} */
    const output = [];
    const results = await runIntegration({
      testsPath: path.join(ROOT, 'out', 'test', 'fixtures', 'crashSuite', 'index'),
      realAgents: false,
      env: { ACP_CRASH_MODE: 'kill' },
      timeoutMs: 120_000,
      log: (line) => output.push(line),
    });
    const report = `${JSON.stringify({ ...results, lines: undefined }, null, 2)}\n--- harness output ---\n${output.join('\n')}`;
    assert.equal(results.passed, 1, report);
    assert.equal(results.done, false, report);
    assert.ok(results.failed >= 1, report);
    assert.match(results.harnessError ?? '', /the extension host crashed or exited before the tests finished after 1 passed, 0 failed/, report);
    assert.match(results.harnessError ?? '', /is gone|terminated unexpectedly|exited with code/, report);
    const sinceStart = (results.settledAt ?? Infinity) - Date.parse(results.starts?.[0]?.at ?? '');
    assert.ok(sinceStart < 10_000, `the run ended ${sinceStart} ms after the suite started\n${report}`);
  });

  it('fails a run that runs no test (a --grep that matches nothing)', async function () {
    /** @type {string[]} */
    const output = [];
    const results = await runIntegration({
      testsPath: path.join(ROOT, 'out', 'test', 'fixtures', 'crashSuite', 'index'),
      realAgents: false,
      grep: 'a title no test of the crash suite has',
      timeoutMs: 120_000,
      log: (line) => output.push(line),
    });
    const report = `${JSON.stringify({ ...results, lines: undefined }, null, 2)}\n--- harness output ---\n${output.join('\n')}`;
    assert.equal(results.passed, 0, report);
    assert.equal(results.failed, 1, report);
    assert.match(results.harnessError ?? '', /the run had no test to run/, report);
  });
});

/**
 * Runs test files through the e2e/unit tiers' runner (test/harness/mocha.mjs) in a child Node process.
 * @param {string} file
 */
function runMochaInChild(file) {
  const script = `import { runMocha } from ${JSON.stringify(path.join(ROOT, 'test', 'harness', 'mocha.mjs'))};
const counts = await runMocha([${JSON.stringify(file)}], { timeout: 120_000 });
console.log('COUNTS ' + JSON.stringify(counts));`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  const output = `${res.stdout}\n${res.stderr}`;
  const line = res.stdout.split('\n').find((l) => l.startsWith('COUNTS '));
  return { counts: line ? JSON.parse(line.slice(7)) : undefined, output };
}

describe('e2e: the harness turns an error no assertion sees into a failure', function () {
  this.timeout(240_000);

  it('an exception, an unhandled rejection and a console.error in the webview each fail the test they happen in', function () {
    const { counts, output } = runMochaInChild(path.join(ROOT, 'test', 'fixtures', 'webviewErrors', 'suite.mjs'));
    // Every test passed its own assertions; each one failed for its webview's error, and only for its own.
    assert.deepEqual(counts, { passed: 3, failed: 3, skipped: 0 }, output);
    assert.match(output, /throws in the webview and passes its assertions:\s*Error: 1 error\(s\) in the webview[^]*?- uncaught in the webview \([^)]*webview\/browser\/pre\/[^)]*\): Error: injected webview exception/, output);
    assert.match(output, /rejects in the webview and passes its assertions:\s*Error: 1 error\(s\) in the webview[^]*?- uncaught in the webview [^:]*: Error: injected webview rejection/, output);
    assert.match(output, /consoles in the webview and passes its assertions:\s*Error: 1 error\(s\) in the webview[^]*?- console\.error in the webview [^:]*: injected webview console error/, output);
  });

  it('an unhandled rejection in a unit test fails that test, both under npm run test:unit and under the harness', function () {
    const file = path.join(ROOT, 'out', 'test', 'fixtures', 'rejectionSuite', 'rejection.test.js');
    // `npm run test:unit`: mocha with test/unit/.mocharc.json's setup (its spec swapped for the fixture).
    const rc = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'unit', '.mocharc.json'), 'utf8'));
    const requires = /** @type {string[]} */ (rc.require ?? []).flatMap((r) => ['--require', r]);
    const cli = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-config', ...requires, file], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    const cliOut = `${cli.stdout}\n${cli.stderr}`;
    assert.equal(cli.status, 1, cliOut);
    assert.match(cliOut, /2 passing/, cliOut);
    assert.match(cliOut, /1 failing/, cliOut);
    assert.match(cliOut, /leaves a rejected promise unhandled:\s*an unhandled promise rejection: Error: injected rejection in the extension host/, cliOut);
    // The harness's runner (the unit tier of npm test).
    const { counts, output } = runMochaInChild(file);
    assert.deepEqual(counts, { passed: 2, failed: 1, skipped: 0 }, output);
    assert.match(output, /leaves a rejected promise unhandled:\s*an unhandled promise rejection: Error: injected rejection in the extension host/, output);
  });

  it('an unhandled rejection in the extension host fails the integration test it happens in, and the run', async function () {
    /** @type {string[]} */
    const output = [];
    const results = await runIntegration({
      testsPath: path.join(ROOT, 'out', 'test', 'fixtures', 'rejectionSuite', 'index'),
      realAgents: false,
      timeoutMs: 120_000,
      log: (line) => output.push(line),
    });
    const report = `${JSON.stringify({ ...results, lines: undefined }, null, 2)}\n--- harness output ---\n${output.join('\n')}`;
    assert.match(results.host ?? '', /^code-server .* extension host Node/, report);
    // The run finished in one host; the test that left the rejection failed with it, the other passed.
    assert.equal(results.done, true, report);
    assert.equal(results.passed, 2, report);
    assert.equal(results.failed, 1, report);
    assert.equal(results.exitCode, 1, report);
    assert.equal(results.failures.length, 1, report);
    assert.equal(results.failures[0]?.title, 'a suite with an unhandled rejection passes its assertions but leaves a rejected promise unhandled', report);
    assert.match(results.failures[0]?.error ?? '', /an unhandled promise rejection: Error: injected rejection in the extension host/, report);
  });
});
