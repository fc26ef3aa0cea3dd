import * as assert from 'node:assert/strict';
import { HISTORY_ENTRY_MAX, HISTORY_MAX, PromptHistory } from '../../../src/webview/promptHistory';

describe('PromptHistory (the composer’s Up and Down)', () => {
  it('walks back from the newest to the oldest, then forward to an empty composer', () => {
    const h = new PromptHistory();
    h.add('one');
    h.add('two');
    assert.equal(h.older(), 'two');
    assert.equal(h.older(), 'one');
    assert.equal(h.older(), undefined, 'nothing before the oldest');
    assert.equal(h.newer(), 'two');
    assert.equal(h.newer(), '', 'past the newest: empty, the walk ended');
    assert.equal(h.newer(), undefined);
  });

  it('replaces only an empty composer or the entry being walked, unchanged', () => {
    const h = new PromptHistory();
    h.add('sent');
    assert.equal(h.mayReplace('a draft'), false);
    assert.equal(h.mayReplace(''), true);
    assert.equal(h.older(), 'sent');
    assert.equal(h.mayReplace('sent'), true);
    assert.equal(h.mayReplace('sent, edited'), false);
    h.stop();
    assert.equal(h.mayReplace('sent'), false, 'after typing, the same text is a draft');
  });

  it('keeps no blank prompt and no repeat of the newest', () => {
    const h = new PromptHistory();
    h.add('a');
    h.add('  ');
    h.add('a');
    h.add('b');
    assert.deepEqual(h.toState(), ['a', 'b']);
  });

  it('is bounded: the newest 50 entries, and only entries up to 10,000 characters in the state', () => {
    const h = new PromptHistory();
    for (let i = 0; i < HISTORY_MAX + 7; i++) h.add(`p${i}`);
    const state = h.toState();
    assert.equal(state.length, HISTORY_MAX);
    assert.equal(state[0], 'p7');
    assert.equal(state.at(-1), `p${HISTORY_MAX + 6}`);
    const long = 'x'.repeat(HISTORY_ENTRY_MAX + 1);
    h.add(long);
    assert.equal(h.older(), long, 'recalled while the panel lives');
    assert.ok(!h.toState().includes(long), 'not kept in the webview state');
  });

  it('restores from the webview state, ignoring what is not a list of strings', () => {
    const h = new PromptHistory(['x', 3, null, '', 'y', 'z'.repeat(HISTORY_ENTRY_MAX + 1)]);
    assert.deepEqual(h.toState(), ['x', 'y']);
    assert.equal(h.older(), 'y');
    assert.deepEqual(new PromptHistory({ 0: 'a' }).toState(), []);
    assert.deepEqual(new PromptHistory('a').toState(), []);
    assert.equal(new PromptHistory(Array.from({ length: 80 }, (_, i) => `e${i}`)).toState()[0], 'e30');
  });
});
