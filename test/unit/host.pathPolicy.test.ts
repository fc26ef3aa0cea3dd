import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkPath, sliceLines } from '../../src/platform/pathPolicy';

describe('path boundaries', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'root-')));
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'outside-')));
  fs.mkdirSync(path.join(root, 'src'));
  fs.symlinkSync(outside, path.join(root, 'link-out'));

  it('inside: existing and not-yet-existing files under a root', () => {
    assert.equal(checkPath(path.join(root, 'src'), [root]).inside, true);
    assert.equal(checkPath(path.join(root, 'new', 'deep', 'file.txt'), [root]).inside, true);
  });

  it('outside: plain, with .., and through a symlink (also for a file that does not exist yet)', () => {
    assert.equal(checkPath(path.join(outside, 'x.txt'), [root]).inside, false);
    assert.equal(checkPath(path.join(root, '..', path.basename(outside), 'x.txt'), [root]).inside, false);
    const viaLink = checkPath(path.join(root, 'link-out', 'new.txt'), [root]);
    assert.equal(viaLink.inside, false);
    assert.equal(viaLink.resolved, path.join(outside, 'new.txt'));
    assert.equal(checkPath(path.join(outside, 'x'), [root, outside]).inside, true, 'additional roots count');
  });

  it('line (1-based) and limit', () => {
    assert.equal(sliceLines('a\nb\nc\nd', 2, 2), 'b\nc');
    assert.equal(sliceLines('a\nb\nc', 3), 'c');
    assert.equal(sliceLines('a\nb\nc', undefined, 1), 'a');
    assert.equal(sliceLines('a\nb', null, null), 'a\nb');
  });
});
