import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkPath } from '../../src/node/pathPolicy';
import { checkUserWrite, linkOnPath, readVerified, writeTargetChanged } from '../../src/node/verifiedIo';

describe('verified I/O: a path checked, then used', () => {
  let root: string;
  let outside: string;
  const secret = 'outside secret\n';
  const mine = 'inside text\n';

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vio-root-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vio-out-')));
    fs.mkdirSync(path.join(root, 'dir'));
    fs.writeFileSync(path.join(root, 'dir', 'f.txt'), mine);
    fs.writeFileSync(path.join(outside, 'f.txt'), secret);
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  /** The agent's move: the checked folder becomes a link to the outside one. */
  const swapDirForLink = () => {
    fs.renameSync(path.join(root, 'dir'), path.join(root, 'dir.real'));
    fs.symlinkSync(outside, path.join(root, 'dir'));
  };

  it('reads the checked file when nothing changed', async () => {
    const { resolved, inside } = checkPath(path.join(root, 'dir', 'f.txt'), [root]);
    assert.equal(inside, true);
    const r = await readVerified(resolved, 1024);
    assert.equal(r.kind, 'ok');
    assert.equal(r.kind === 'ok' && r.bytes.toString('utf8'), mine);
  });

  it('a folder swapped for a link between the check and the read: refused, the outside file is not read', async () => {
    const { resolved, inside } = checkPath(path.join(root, 'dir', 'f.txt'), [root]);
    assert.equal(inside, true);
    swapDirForLink();
    // What a plain read does now: the outside file.
    assert.equal(fs.readFileSync(resolved, 'utf8'), secret);
    const r = await readVerified(resolved, 1024);
    assert.equal(r.kind, 'changed');
    assert.equal(r.kind === 'changed' && r.now, path.join(outside, 'f.txt'));
  });

  it('swapped before the open and back before the re-check: the opened file is not the checked one, refused', async () => {
    const { resolved } = checkPath(path.join(root, 'dir', 'f.txt'), [root]);
    swapDirForLink();
    const r = await readVerified(resolved, 1024, async () => {
      fs.unlinkSync(path.join(root, 'dir'));
      fs.renameSync(path.join(root, 'dir.real'), path.join(root, 'dir'));
    });
    assert.equal(r.kind, 'changed');
  });

  it('the file itself replaced by a link: refused (no-follow open)', async () => {
    const { resolved } = checkPath(path.join(root, 'dir', 'f.txt'), [root]);
    fs.rmSync(resolved);
    fs.symlinkSync(path.join(outside, 'f.txt'), resolved);
    const r = await readVerified(resolved, 1024);
    assert.equal(r.kind, 'changed');
  });

  it('size bound, missing files, and a FIFO answered at once (not read)', async () => {
    const big = path.join(root, 'big.txt');
    fs.writeFileSync(big, 'x'.repeat(100));
    const tooLarge = await readVerified(big, 99);
    assert.equal(tooLarge.kind, 'too-large');
    assert.equal((await readVerified(big, 100)).kind, 'ok');
    const missing = await readVerified(path.join(root, 'nope.txt'), 10);
    assert.equal(missing.kind === 'missing' && missing.code, 'ENOENT');
    if (process.platform !== 'win32') {
      const fifo = path.join(root, 'pipe');
      execFileSync('mkfifo', [fifo]);
      const r = await readVerified(fifo, 10);
      assert.deepEqual(r, { kind: 'not-file', what: 'a FIFO' });
    }
  });

  it('writes: the checked path must still resolve to itself before and after (a folder swapped, a dangling link planted)', () => {
    const existing = checkPath(path.join(root, 'dir', 'f.txt'), [root]).resolved;
    const fresh = checkPath(path.join(root, 'dir', 'new', 'g.txt'), [root]).resolved;
    assert.equal(writeTargetChanged(existing), undefined);
    assert.equal(writeTargetChanged(fresh), undefined, 'a file (and folder) yet to be made');
    swapDirForLink();
    assert.match(writeTargetChanged(existing) ?? '', /now resolves to .*vio-out-/);
    assert.match(writeTargetChanged(fresh) ?? '', /now resolves to .*vio-out-/);
    const planted = path.join(root, 'planted.txt');
    fs.symlinkSync(path.join(outside, 'not-there.txt'), planted);
    assert.match(writeTargetChanged(planted) ?? '', /is a symbolic link/);
  });

  it('user writes (Restore, Revert, Undo): a link as the file or a folder on the way is found; the session folder itself may be a link', () => {
    const file = path.join(root, 'dir', 'f.txt');
    assert.equal(linkOnPath(file, [root]), undefined);
    assert.equal(linkOnPath(path.join(root, 'dir', 'missing', 'x.txt'), [root]), undefined);
    const viaRootLink = path.join(outside, 'root-link');
    fs.symlinkSync(root, viaRootLink);
    assert.equal(linkOnPath(path.join(viaRootLink, 'dir', 'f.txt'), [viaRootLink]), undefined, 'the folder the user opened');
    fs.rmSync(file);
    fs.symlinkSync(path.join(outside, 'f.txt'), file);
    assert.equal(linkOnPath(file, [root]), file);
    assert.equal(linkOnPath(path.join(viaRootLink, 'dir', 'f.txt'), [viaRootLink]), path.join(viaRootLink, 'dir', 'f.txt'));
    swapDirForLink();
    assert.equal(linkOnPath(path.join(root, 'dir', 'f.txt'), [root]), path.join(root, 'dir'));
    assert.equal(linkOnPath(path.join(outside, 'f.txt'), [root]), undefined, 'outside every folder: the file itself only');
  });

  it('checkUserWrite: link refused, outside and protected asked, the rest fine', () => {
    const prot = (f: string) => (f.endsWith('.env') ? '.env*' : undefined);
    assert.deepEqual(checkUserWrite(path.join(root, 'dir', 'f.txt'), [root], prot), { kind: 'ok', resolved: path.join(root, 'dir', 'f.txt') });
    assert.deepEqual(checkUserWrite(path.join(root, '.env'), [root], prot), { kind: 'protected', resolved: path.join(root, '.env'), glob: '.env*' });
    assert.deepEqual(checkUserWrite(path.join(outside, 'f.txt'), [root], prot), { kind: 'outside', resolved: path.join(outside, 'f.txt') });
    swapDirForLink();
    assert.deepEqual(checkUserWrite(path.join(root, 'dir', 'f.txt'), [root], prot), { kind: 'link', link: path.join(root, 'dir') });
  });
});
