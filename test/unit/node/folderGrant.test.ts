// A context folder too wide to grant (issue 34): roots, home, folders that hold the session's own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tooWideToGrant } from '../../../src/node/folderGrant';

describe('platform: folders too wide to grant a session', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-grant-')));
    for (const d of ['home/alice/projects/ws', 'home/alice/other', 'elsewhere']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses the filesystem root, the home folder, one that holds it, and one that holds a folder of the session', () => {
    const home = path.join(dir, 'home', 'alice');
    const ws = path.join(home, 'projects', 'ws');
    const own = [ws];
    assert.deepEqual(tooWideToGrant(['/'], own, { home }), { kind: 'root' });
    assert.deepEqual(tooWideToGrant([home], own, { home }), { kind: 'home' });
    assert.deepEqual(tooWideToGrant([path.join(dir, 'home')], own, { home }), { kind: 'holdsHome' });
    assert.deepEqual(tooWideToGrant([dir], own, { home }), { kind: 'holdsHome' });
    assert.deepEqual(tooWideToGrant([path.join(home, 'projects')], own, { home }), { kind: 'holds', folder: ws });
    // Beside the session's folders, inside home, or the folder itself (the caller's "already among"): not too wide.
    for (const ok of [path.join(home, 'other'), path.join(dir, 'elsewhere'), ws, path.join(ws, 'sub')]) assert.equal(tooWideToGrant([ok], own, { home }), undefined, ok);
  });

  it('checks the real path: a link to home, to the root, or to a folder that holds the workspace is refused', () => {
    const home = path.join(dir, 'home', 'alice');
    const ws = path.join(home, 'projects', 'ws');
    for (const [name, target, kind] of [['to-home', home, 'home'], ['to-root', '/', 'root'], ['to-projects', path.join(home, 'projects'), 'holds']] as const) {
      const link = path.join(dir, 'elsewhere', name);
      fs.symlinkSync(target, link);
      assert.equal(tooWideToGrant([link], [ws], { home })?.kind, kind, name);
    }
    // The workspace folder reached through a link: a folder that holds its real path is refused too.
    const wsLink = path.join(dir, 'elsewhere', 'ws-link');
    fs.symlinkSync(ws, wsLink);
    assert.deepEqual(tooWideToGrant([path.join(home, 'projects')], [wsLink], { home: '' }), { kind: 'holds', folder: wsLink });
  });

  it('Windows paths: a drive root, a share root and the profile folder (path.win32, on any platform)', () => {
    const opts = { home: 'C:\\Users\\alice', path: path.win32 };
    const own = ['D:\\work\\ws'];
    for (const root of ['C:\\', 'd:\\', '\\\\server\\share\\']) assert.deepEqual(tooWideToGrant([root], own, opts), { kind: 'root' }, root);
    assert.deepEqual(tooWideToGrant(['c:\\users\\ALICE'], own, opts), { kind: 'home' }, 'the case does not matter');
    assert.deepEqual(tooWideToGrant(['C:\\Users'], own, opts), { kind: 'holdsHome' });
    assert.deepEqual(tooWideToGrant(['D:\\work'], own, opts), { kind: 'holds', folder: 'D:\\work\\ws' });
    assert.equal(tooWideToGrant(['D:\\other'], own, opts), undefined);
  });
});
