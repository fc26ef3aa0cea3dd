// An elicitation field's `pattern` comes from the agent: it is tested in a worker
// thread with a time limit (src/sessions/policy/patternCheck.ts), so that a pattern built
// for catastrophic backtracking costs a worker, never the extension host's thread.
import * as assert from 'node:assert/strict';
import { checkField, fieldsOf } from '../../../src/sessions/elicitationSchema';
import { testPattern } from '../../../src/sessions/policy/patternCheck';

/** A pattern that backtracks exponentially on a string of a's that does not match. */
const EVIL = '^(a+)+$';
const EVIL_INPUT = `${'a'.repeat(40)}!`;

describe('elicitation pattern check (worker, time-boxed)', function () {
  this.timeout(20_000);

  it('matches, refuses and ignores as JSON Schema says, in Unicode mode', async () => {
    assert.equal(await testPattern('^[a-z]{2,}$', 'shop'), 'match');
    assert.equal(await testPattern('^[a-z]{2,}$', 'Shop!'), 'no-match');
    assert.equal(await testPattern('(', 'x'), 'invalid');
    // Unicode mode: one astral character is one character, and \p{…} works.
    assert.equal(await testPattern('^.$', '😀'), 'match');
    assert.equal(await testPattern('^\\p{Lu}', 'Ślusarz'), 'match');
  });

  it('a catastrophic pattern times out within its limit while this thread keeps running, and the next check works', async () => {
    let ticks = 0;
    let worst = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      worst = Math.max(worst, now - last);
      last = now;
      ticks++;
    }, 10);
    const started = Date.now();
    let r;
    try {
      r = await testPattern(EVIL, EVIL_INPUT, 300);
    } finally {
      clearInterval(ticker);
    }
    const took = Date.now() - started;
    assert.equal(r, 'timeout');
    // Had it run on this thread, no timer would have fired before it ended (minutes for 40 a's).
    assert.ok(ticks >= 5, `this thread ran its timer ${ticks} times during the check`);
    assert.ok(took < 5_000, `given up after ${took} ms`);
    assert.ok(worst < 1_000, `this thread stalled at most ${worst} ms`);
    // The stuck worker was ended; a new one answers, even while the old one is still exiting.
    assert.equal(await testPattern('^ok$', 'ok'), 'match');
    assert.equal(await testPattern('^ok$', 'no'), 'no-match');
  });

  it('an oversized pattern or value is refused without running it', async () => {
    // Run, each would match; and with a time limit of ~24 days, 'timeout' can only come from not running it.
    const never = 2 ** 31 - 1;
    assert.equal(await testPattern('a'.repeat(2_001), 'a'.repeat(2_001), never), 'timeout');
    assert.equal(await testPattern('^a*$', 'a'.repeat(20_001), never), 'timeout');
    // Just under the limits, the same checks do run.
    assert.equal(await testPattern('a'.repeat(2_000), 'a'.repeat(2_000), never), 'match');
    assert.equal(await testPattern('^a*$', 'a'.repeat(20_000), never), 'match');
  });

  it('a form field: a wrong value is refused with the pattern, a too-slow pattern refuses the value, an invalid one is ignored', async () => {
    const [strict, evil, broken] = fieldsOf({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, slow: { type: 'string', pattern: EVIL }, broken: { type: 'string', pattern: '(' } },
    });
    assert.deepEqual(await checkField(strict!, 'ABC'), { value: 'ABC' });
    assert.match((await checkField(strict!, 'abc')).error ?? '', /^Must match \^\[A-Z\]\{3\}\$/);
    assert.match((await checkField(evil!, EVIL_INPUT)).error ?? '', /too complex to check/);
    assert.deepEqual(await checkField(broken!, 'anything'), { value: 'anything' });
  });
});
