import * as assert from 'node:assert/strict';
import { lineDiff, withContext, type DiffLine } from '../../../src/shared/lineDiff';

const show = (lines: readonly DiffLine[]) => lines.map((l) => `${l.op}${l.text}`);

describe('lineDiff (the inline diff of a tool call, by jsdiff)', () => {
  it('gives changed, added and kept lines in order; a missing last newline is no change', () => {
    assert.deepEqual(show(lineDiff('a\nb\nc\n', 'a\nB\nc\nd')), [' a', '-b', '+B', ' c', '+d']);
    assert.deepEqual(show(lineDiff('x\ny', 'x\ny\n')), [' x', ' y']);
  });

  it('a new file (or an empty one) is all added; empty lines are lines', () => {
    assert.deepEqual(show(lineDiff(null, 'one\n\nthree\n')), ['+one', '+', '+three']);
    assert.deepEqual(show(lineDiff('', 'one')), ['+one']);
    assert.deepEqual(show(lineDiff('one\n', '')), ['-one']);
    assert.deepEqual(show(lineDiff('a\n\n\nb\n', 'a\n\nb\n')), [' a', ' ', '-', ' b']);
  });

  it('diffs large files line by line (no "all removed, all added" beyond 500×500 lines)', () => {
    const before = Array.from({ length: 1200 }, (_, i) => `line ${i}`);
    const after = before.map((l, i) => (i % 10 === 0 ? `${l} changed` : l));
    const d = lineDiff(before.join('\n'), after.join('\n'));
    assert.equal(d.filter((l) => l.op === '-').length, 120);
    assert.equal(d.filter((l) => l.op === '+').length, 120);
    assert.equal(d.filter((l) => l.op === ' ').length, 1080);
  });

  it('is computed once per content: the same texts give the same lines back', () => {
    const old = 'a\nb\n'.repeat(50);
    const now = `${old}c\n`;
    const first = lineDiff(old, now);
    assert.equal(lineDiff(old, `${old}c\n`), first);
    assert.notEqual(lineDiff(`${old}z\n`, now), first, 'another old text is another diff');
    assert.ok(Object.isFrozen(first));
  });

  it('withContext keeps changes with two lines around them and one marker per elided run', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const after = before.map((l, i) => (i === 10 ? 'changed' : l));
    assert.deepEqual(show(withContext(lineDiff(before.join('\n'), after.join('\n')))), [' ⋯', ' l8', ' l9', '-l10', '+changed', ' l11', ' l12', ' ⋯']);
  });
});
