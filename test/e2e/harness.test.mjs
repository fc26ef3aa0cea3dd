// The harness must not hide an error. The integration harness must not hide a crash:
// a real run in code-server of a tiny suite (test/fixtures/crashSuite) that passes one
// test and then makes the extension host exit with code 7. The workbench itself still
// reports exit code 0 in that case, so only the harness's own checks can fail the run.
// Nor an error no assertion looks at: an exception, rejection or console error in the
// webview (test/fixtures/webviewErrors), an unhandled rejection in the extension host
// or in a unit test (test/fixtures/rejectionSuite). Nor a run that only looks green: a host
// started twice, exit codes that disagree, an agent process left running (test/fixtures/harnessFaults),
// a tier below its floor, a skipped test on Linux (test/harness/verdict.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { runE2eShards, shardFiles } from '../harness/e2eShards.mjs';
import { runIntegration } from '../harness/integration.mjs';
import { ROOT } from '../harness/testEnv.mjs';
import { tierProblems } from '../harness/verdict.mjs';

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

  /**
   * The fixture suite of harness faults, run in the real host with one fault.
   * @param {string} fault
   */
  async function runFault(fault) {
    /** @type {string[]} */
    const output = [];
    const results = await runIntegration({
      testsPath: path.join(ROOT, 'out', 'test', 'fixtures', 'harnessFaults', 'index'),
      realAgents: false,
      env: { ACP_HARNESS_FAULT: fault },
      timeoutMs: 120_000,
      log: (line) => output.push(line),
    });
    const report = `${JSON.stringify({ ...results, lines: undefined }, null, 2)}\n--- harness output ---\n${output.join('\n')}`;
    // It ran in a real extension host, and no test failed: only the fault can fail the run.
    assert.match(results.host ?? '', /^code-server .* extension host Node/, report);
    assert.ok(!results.lines.some((l) => /✗/.test(l)), report);
    return { results, output, report };
  }

  it('fails a run whose tests were started twice (a restarted extension host)', async function () {
    const { results, report } = await runFault('twice');
    assert.ok(results.failed >= 1, report);
    assert.match(results.harnessError ?? '', /the tests were started 2 times \(extension host pids 1, \d+\)/, report);
    assert.ok(results.failures.some((f) => /the tests were started again, by extension host pid \d+ after pid 1/.test(f.error)), report);
  });

  it('fails a run whose workbench exit code disagrees with the results file', async function () {
    const { results, report } = await runFault('disagree');
    assert.ok(results.lines.some((l) => /✓ a suite with a fault only the harness sees passes/.test(l)), report);
    assert.equal(results.done, true, report);
    assert.equal(results.exitCode, 0, report);
    assert.equal(results.passed, 2, report);
    assert.equal(results.failed, 1, report);
    assert.match(results.harnessError ?? '', /the workbench reported exit code 1, the test run 0/, report);
  });

  it('fails a run that leaves an agent process running after VS Code stops, and ends that process', async function () {
    const { results, output, report } = await runFault('leftover');
    // The run itself was clean: one start, done, exit code 0, both tests passed.
    assert.equal(results.done, true, report);
    assert.equal(results.exitCode, 0, report);
    assert.equal(results.passed, 2, report);
    assert.equal(results.harnessError, undefined, report);
    // Only the leftover failed it, by its pid; and the harness killed it.
    assert.equal(results.failed, 1, report);
    // Named by its pid and what it runs.
    const line = output.find((l) => /FAILED: 1 agent process\(es\) still running after VS Code stopped: \d+ \(.+\)$/.test(l));
    assert.ok(line, report);
    const pid = Number(/stopped: (\d+) /.exec(line ?? '')?.[1]);
    const gone = await waitFor(() => !alive(pid), 10_000);
    assert.ok(gone, `the leftover agent (pid ${pid}) is still running\n${report}`);
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

/**
 * Whether a process runs (a zombie no longer does: in a container nothing may reap it).
 * @param {number} pid
 */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * @param {() => boolean} check
 * @param {number} ms
 */
async function waitFor(check, ms) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe('e2e: a tier fails below its floor, and with a skipped test on Linux', function () {
  this.timeout(240_000);

  it('a tier that ran fewer tests than its floor fails, unless --grep narrowed it; one that ran none always fails', function () {
    const floors = { unit: 10 };
    assert.deepEqual(tierProblems('unit', { passed: 10, failed: 0, skipped: 0 }, { floors, platform: 'linux' }), []);
    assert.match(tierProblems('unit', { passed: 8, failed: 1, skipped: 0 }, { floors, platform: 'linux' }).join('\n'), /unit: ran 9 tests, fewer than its floor of 10/);
    assert.deepEqual(tierProblems('unit', { passed: 3, failed: 0, skipped: 0 }, { floors, grep: 'x', platform: 'linux' }), []);
    assert.match(tierProblems('unit', { passed: 0, failed: 0, skipped: 0 }, { floors, grep: 'x', platform: 'linux' }).join('\n'), /unit: ran no test/);
  });

  it('a skipped test — even one behind a platform guard the lint accepts — fails the tier on Linux, as the runner counts it', function () {
    const { counts, output } = runMochaInChild(path.join(ROOT, 'out', 'test', 'fixtures', 'skipSuite', 'skip.test.js'));
    // Its two skips are Linux's (this.skip() and a test without its function); elsewhere both tests pass.
    assert.deepEqual(counts, process.platform === 'linux' ? { passed: 1, failed: 0, skipped: 2 } : { passed: 2, failed: 0, skipped: 0 }, output);
    const floors = { unit: 1 };
    assert.match(tierProblems('unit', counts, { floors, platform: 'linux' }).join('\n'), /unit: 2 test\(s\) skipped on Linux/, output);
    // Elsewhere a guarded skip is what the guard is for.
    assert.deepEqual(tierProblems('unit', counts, { floors, platform: 'win32' }), []);
  });
});

describe('e2e: the tier in two processes at once', function () {
  this.timeout(120_000);

  it('each file runs in exactly one shard, the files that rebuild or load dist/ in the first, the rest balanced', function () {
    const files = fs.readdirSync(path.join(ROOT, 'test', 'e2e')).filter((f) => f.endsWith('.test.mjs'));
    const shards = shardFiles(files, 2);
    assert.equal(shards.length, 2);
    assert.deepEqual(shards.flat().sort(), [...files].sort());
    for (const f of ['start.test.mjs', 'harness.test.mjs', 'bundle.test.mjs']) assert.ok(shards[0].includes(f), `${f} in ${shards[0]}`);
    // Balanced: neither shard holds two thirds of the files.
    for (const s of shards) assert.ok(s.length < (files.length * 2) / 3, JSON.stringify(shards));
    assert.deepEqual(shardFiles(['a.test.mjs'], 2), [['a.test.mjs']]);
  });

  it('counts add up across shards, and a shard that dies before its counts is a failure, not a silence', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-shards-'));
    const dies = path.join(dir, 'dies.test.mjs');
    fs.writeFileSync(dies, "process.exit(3);\n");
    /** @type {string[]} */
    const lines = [];
    const log = console.log;
    console.log = (/** @type {unknown[]} */ ...a) => void lines.push(a.join(' '));
    try {
      const counts = await runE2eShards([path.join(ROOT, 'out', 'test', 'fixtures', 'skipSuite', 'skip.test.js'), dies], { jobs: 2, timeout: 30_000 });
      const skip = process.platform === 'linux' ? { passed: 1, skipped: 2 } : { passed: 2, skipped: 0 };
      assert.deepEqual(counts, { passed: skip.passed, failed: 1, skipped: skip.skipped }, lines.join('\n'));
      assert.ok(lines.some((l) => /^\[e2e \d\] FAILED: the shard ended \(exit 3\) without its counts$/.test(l)), lines.join('\n'));
      // What a shard's tests print reaches the tier's output, tagged with its shard.
      assert.ok(lines.some((l) => /^\[e2e \d\] .*passing/.test(l)), lines.join('\n'));
    } finally {
      console.log = log;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
