// "Allow Its Folder for the Session" never grants the home folder, a file system
// or drive root, or a folder that is (or holds) one of the session's folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AccessGate, folderGrantable, type AccessAnswer, type AccessQuestion } from '../../../src/sessions/policy/accessGate';

describe('access questions: which folder "allow its folder" may cover', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-gate-')));
  const home = path.join(base, 'home', 'me');
  const ws = path.join(home, 'code', 'project');
  const elsewhere = path.join(base, 'data', 'logs');
  for (const d of [ws, elsewhere]) fs.mkdirSync(d, { recursive: true });

  /** A gate that answers every question "its folder", noting what it was asked. */
  function folderGate(): { gate: AccessGate; seen: AccessQuestion[] } {
    const seen: AccessQuestion[] = [];
    const gate = new AccessGate(
      async (q): Promise<AccessAnswer> => {
        seen.push(q);
        return 'session-folder';
      },
      () => {},
      home,
    );
    return { gate, seen };
  }
  const read = (gate: AccessGate, file: string, roots: readonly string[] = [ws]) => gate.ask({ agentName: 'A', action: 'read', path: file, reason: 'outside', roots });

  /** The folder offered with a question about `file`. */
  async function offered(file: string, roots: readonly string[] = [ws]): Promise<string | undefined> {
    const { gate, seen } = folderGate();
    assert.equal(await read(gate, file, roots), true);
    assert.equal(seen.length, 1);
    assert.ok(!('roots' in seen[0]!), 'the question shown holds no roots');
    return seen[0]!.folder;
  }

  it('an ordinary folder outside the session is offered, and then covers its files', async () => {
    const { gate, seen } = folderGate();
    assert.equal(await read(gate, path.join(elsewhere, 'app.log')), true);
    assert.equal(seen[0]?.folder, elsewhere);
    assert.equal(await read(gate, path.join(elsewhere, 'other.log')), true);
    assert.equal(seen.length, 1, 'covered without a question');
  });

  it('a file in the home folder: the home folder is not offered, and an answer "its folder" covers that file only', async () => {
    const { gate, seen } = folderGate();
    assert.equal(await read(gate, path.join(home, '.bashrc')), true);
    assert.equal(seen[0]?.folder, undefined, 'no folder offered');
    assert.equal(await read(gate, path.join(home, '.bashrc')), true);
    assert.equal(seen.length, 1, 'the file itself is allowed for the session');
    assert.equal(await read(gate, path.join(home, '.profile')), true);
    assert.equal(seen.length, 2, 'another file in the home folder is asked about');
    // A folder inside the home folder is an ordinary folder.
    assert.equal(await read(gate, path.join(home, '.ssh', 'config')), true);
    assert.equal(seen[2]?.folder, path.join(home, '.ssh'));
  });

  it('a folder above the home folder, a file system root, and folders holding a session folder are not offered', async () => {
    assert.equal(await offered(path.join(path.dirname(home), 'other-user.txt')), undefined, 'above home');
    assert.equal(await offered(path.join(path.parse(base).root, 'swapfile')), undefined, 'the root');
    assert.equal(await offered(path.join(home, 'code', 'notes.md')), undefined, 'the parent of the workspace folder');
    // The session folder itself (e.g. a protected file's question, or a root given in another spelling).
    assert.equal(await offered(path.join(ws, 'x.txt'), [ws]), undefined, 'the workspace folder itself');
    // Another root of the session counts too.
    const second = path.join(base, 'data', 'logs', 'deep');
    fs.mkdirSync(second, { recursive: true });
    assert.equal(await offered(path.join(elsewhere, 'app.log'), [ws, second]), undefined, 'holds a second session folder');
  });

  it('folderGrantable: Windows drive roots, the profile folder and ancestors of a workspace, in any case', () => {
    const h = 'C:\\Users\\Me';
    const roots = ['C:\\Users\\Me\\src\\app', 'D:\\work\\site'];
    assert.equal(folderGrantable('C:\\', roots, h, 'win32'), false);
    assert.equal(folderGrantable('D:\\', roots, h, 'win32'), false);
    assert.equal(folderGrantable('c:\\users\\me', roots, h, 'win32'), false, 'home, other case');
    assert.equal(folderGrantable('C:\\Users', roots, h, 'win32'), false, 'above home');
    assert.equal(folderGrantable('C:\\USERS\\ME\\SRC', roots, h, 'win32'), false, 'holds a workspace folder');
    assert.equal(folderGrantable('D:\\work', roots, h, 'win32'), false);
    assert.equal(folderGrantable('D:\\work\\site', roots, h, 'win32'), false, 'the workspace folder itself');
    assert.equal(folderGrantable('D:\\logs', roots, h, 'win32'), true);
    assert.equal(folderGrantable('C:\\Users\\Me\\Downloads', roots, h, 'win32'), true, 'a folder inside home is fine');
    assert.equal(folderGrantable('/Users/me', ['/Users/me/src/app'], '/USERS/ME', 'darwin'), false, 'macOS ignores case');
    assert.equal(folderGrantable('/tmp/data', ['/Users/me/src/app'], '/Users/me', 'darwin'), true);
  });
});
