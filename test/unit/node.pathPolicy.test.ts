import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkPath, outsideWorkspace, sliceLines } from '../../src/node/pathPolicy';

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

  it('.. after a link is resolved as the file system does (from the link target), and a dangling link leads where a write would land', () => {
    // root/deep → outside/nested: "root/deep/../secret" is outside/secret for the kernel, whatever the text says.
    fs.mkdirSync(path.join(outside, 'nested'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'nested'), path.join(root, 'deep'));
    const sep = path.sep;
    const viaDotDot = checkPath(`${root}${sep}deep${sep}..${sep}secret`, [root]);
    assert.equal(viaDotDot.resolved, path.join(outside, 'secret'));
    assert.equal(viaDotDot.inside, false);
    // The same through a folder that does not exist yet below the link.
    assert.equal(checkPath(`${root}${sep}deep${sep}new${sep}..${sep}..${sep}x`, [root]).inside, false);
    // A plain .. that stays inside is still inside.
    assert.equal(checkPath(`${root}${sep}src${sep}..${sep}README.md`, [root]).inside, true);
    // A link to a file that does not exist yet: writing it creates that file outside.
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(root, 'dangling'));
    const dangling = checkPath(path.join(root, 'dangling'), [root]);
    assert.equal(dangling.resolved, path.join(outside, 'not-yet'));
    assert.equal(dangling.inside, false);
  });

  it('line (1-based) and limit', () => {
    assert.equal(sliceLines('a\nb\nc\nd', 2, 2), 'b\nc');
    assert.equal(sliceLines('a\nb\nc', 3), 'c');
    assert.equal(sliceLines('a\nb\nc', undefined, 1), 'a');
    assert.equal(sliceLines('a\nb', null, null), 'a\nb');
  });
});

describe('node/pathPolicy: a session folder outside the workspace', () => {
  it('inside a workspace folder or the own scratch folders: no question; elsewhere, or inside only through a link: outside', () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outside-')));
    try {
      const ws = path.join(tmp, 'ws');
      const elsewhere = path.join(tmp, 'elsewhere');
      const scratch = path.join(tmp, 'scratch');
      for (const d of [path.join(ws, 'sub'), elsewhere, path.join(scratch, 's1')]) fs.mkdirSync(d, { recursive: true });
      fs.symlinkSync(elsewhere, path.join(ws, 'link'), 'dir');
      assert.equal(outsideWorkspace(ws, [ws], [scratch]), false);
      assert.equal(outsideWorkspace(path.join(ws, 'sub'), [ws], [scratch]), false);
      assert.equal(outsideWorkspace(path.join(scratch, 's1'), [ws], [scratch]), false);
      assert.equal(outsideWorkspace(elsewhere, [ws], [scratch]), true);
      assert.equal(outsideWorkspace(path.join(ws, '..', 'elsewhere'), [ws], [scratch]), true);
      assert.equal(outsideWorkspace(path.join(ws, 'link'), [ws], [scratch]), true, 'a link inside that leads outside');
      assert.equal(outsideWorkspace(tmp, [ws], [scratch]), true, 'a parent of the workspace');
      assert.equal(outsideWorkspace(ws, [], []), true, 'no folder open');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
