// The integration harness must not hide a crash: a real run in code-server of a
// tiny suite (test/fixtures/crashSuite) that passes one test and then makes the
// extension host exit with code 7. The workbench itself still reports exit code 0
// in that case, so only the harness's own checks can fail the run.
import assert from 'node:assert/strict';
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
});
