// One file of an ACP v2 diff (shared/patch.ts): the inline lines, the counts, and the text before the change
// rebuilt from the file now (the hunks applied backwards), or the hunks alone when the file moved on.
import * as assert from 'node:assert/strict';
import { patchExcerpt, patchLines, patchStats, textBefore, type PatchHunk } from '../../../src/shared/patch';

const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const after = before.replace('line 2\n', 'line two\n').replace('line 18\n', 'line 18\nline 18b\n');
const hunks: PatchHunk[] = [
  { oldStart: 1, oldLines: 4, newStart: 1, newLines: 4, lines: [' line 1', '-line 2', '+line two', ' line 3', ' line 4'] },
  { oldStart: 16, oldLines: 5, newStart: 16, newLines: 6, lines: [' line 16', ' line 17', ' line 18', '+line 18b', ' line 19', ' line 20'] },
];

describe('shared/patch: one file of a v2 diff', () => {
  it('counts and lines: a … between hunks that do not touch', () => {
    assert.deepEqual(patchStats(hunks), { added: 2, removed: 1 });
    const lines = patchLines(hunks);
    assert.deepEqual(lines.slice(0, 3), [{ op: ' ', text: 'line 1' }, { op: '-', text: 'line 2' }, { op: '+', text: 'line two' }]);
    assert.deepEqual(lines[5], { op: ' ', text: '…' });
    assert.equal(lines.length, 5 + 1 + 6);
    assert.deepEqual(patchLines([{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '\\ No newline at end of file', '+b'] }]), [{ op: '-', text: 'a' }, { op: '+', text: 'b' }]);
  });

  it('the text before, from the file as the change left it; none once the file changed since', () => {
    assert.equal(textBefore(after, hunks), before);
    assert.equal(textBefore(after.replace('line 3', 'line three'), hunks), undefined, 'the context no longer matches');
    assert.equal(textBefore('hello\nworld\n', [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 2, lines: ['+hello', '+world'] }]), '', 'a created file was empty before');
    assert.equal(textBefore(after, []), undefined, 'no hunks: nothing to go on');
  });

  it('the excerpt: both sides of the hunks alone', () => {
    const { before: b, after: a } = patchExcerpt(hunks);
    assert.equal(b, 'line 1\nline 2\nline 3\nline 4\n…\nline 16\nline 17\nline 18\nline 19\nline 20');
    assert.equal(a, 'line 1\nline two\nline 3\nline 4\n…\nline 16\nline 17\nline 18\nline 18b\nline 19\nline 20');
  });
});
