import * as assert from 'node:assert/strict';
import { OfferedFiles } from '../../../src/chat/offeredFiles';
import type { Attachment } from '../../../src/shared/attachments';

const file = (uri: string): Extract<Attachment, { kind: 'file' }> => ({ kind: 'file', uri, name: uri.split('/').at(-1)! });
/** The real path of a file URI, as the host resolves it now (`links`: where a link leads). */
const links = new Map<string, string>();
const realPath = (uri: string) => (uri.startsWith('file://') ? (links.get(uri) ?? uri.slice('file://'.length)) : undefined);
const inside = (uri: string) => (uri.startsWith('file:///ws/') ? realPath(uri) : undefined);
const real = (a: Attachment, path: string): Attachment => ({ ...a, real: path }) as Attachment;

describe('OfferedFiles: what a panel’s send may attach', () => {
  afterEach(() => links.clear());

  it('a file outside the folders goes only once the host offered it to this panel; inside ones always go', () => {
    const offered = new OfferedFiles(realPath);
    const send = [file('file:///ws/a.ts'), file('file:///home/u/.ssh/id_rsa'), { kind: 'image', name: 'x.png', mimeType: 'image/png', data: 'AA==' } as Attachment];
    assert.deepEqual(offered.vet(send, inside), { ok: [real(send[0]!, '/ws/a.ts'), send[2]], refused: ['id_rsa'] });
    offered.note([file('file:///home/u/.ssh/id_rsa')]);
    assert.deepEqual(offered.vet(send, inside), { ok: [real(send[0]!, '/ws/a.ts'), real(send[1]!, '/home/u/.ssh/id_rsa'), send[2]], refused: [] });
  });

  it('a selection counts like its file; problems and images carry their own content and always go', () => {
    const offered = new OfferedFiles(realPath);
    const sel: Attachment = { kind: 'selection', uri: 'file:///etc/passwd', name: 'passwd', startLine: 1, endLine: 2, text: 'x' };
    const problems: Attachment = { kind: 'problems', name: 'Problems', text: 'p' };
    assert.deepEqual(offered.vet([sel, problems], inside), { ok: [problems], refused: ['passwd'] });
    offered.note([sel, undefined]);
    assert.deepEqual(offered.vet([sel], inside).refused, []);
  });

  it('remembers a bounded number, dropping the oldest first', () => {
    const offered = new OfferedFiles(realPath);
    offered.note([file('file:///out/first')]);
    for (let i = 0; i < 2000; i++) offered.note([file(`file:///out/${i}`)]);
    assert.deepEqual(offered.vet([file('file:///out/first')], inside).refused, ['first'], 'the oldest went');
    assert.deepEqual(offered.vet([file('file:///out/1999'), file('file:///out/0')], inside).refused, [], 'the newest 2000 stay');
  });

  it('an @-mention list is not an offer: only the entry the user picked (from a list shown) may be sent', () => {
    const offered = new OfferedFiles(realPath);
    const [a, b] = [file('file:///home/u/notes.txt'), file('file:///home/u/.ssh/config')];
    offered.listed(7, [a, b, { kind: 'problems', name: 'Problems', text: 'p' }]);
    assert.deepEqual(offered.vet([a, b], inside).refused, ['notes.txt', 'config'], 'shown, not picked: neither');
    assert.equal(offered.picked(7, a.uri), true);
    assert.deepEqual(offered.vet([a, b], inside), { ok: [real(a, '/home/u/notes.txt')], refused: ['config'] });
    // A pick the list never showed, or from a list long gone, offers nothing.
    assert.equal(offered.picked(7, 'file:///etc/shadow'), false);
    assert.equal(offered.picked(8, b.uri), false);
    for (let id = 10; id < 15; id++) offered.listed(id, []);
    assert.equal(offered.picked(7, b.uri), false, 'list 7 is forgotten');
    assert.deepEqual(offered.vet([b], inside).refused, ['config']);
    // A late answer to the same request (slow symbols) adds to its candidates.
    offered.listed(20, [a]);
    offered.listed(20, [b]);
    assert.equal(offered.picked(20, a.uri), true);
    assert.equal(offered.picked(20, b.uri), true);
  });

  it('a file goes with the real path it had when offered, never one the webview names', () => {
    const offered = new OfferedFiles(realPath);
    const a = file('file:///home/u/notes.txt');
    offered.note([a]);
    // Swapped for a link since: the send carries the path that was offered; the read compares.
    links.set(a.uri, '/home/u/.ssh/id_rsa');
    assert.deepEqual(offered.vet([a], inside).ok, [real(a, '/home/u/notes.txt')]);
    // The webview's own `real` is dropped: inside files get theirs from the host.
    const lying = real(file('file:///ws/b.ts'), '/home/u/.ssh/id_rsa');
    assert.deepEqual(offered.vet([lying], inside).ok, [real(file('file:///ws/b.ts'), '/ws/b.ts')]);
    // A queued message handed back keeps the real path checked at its send.
    offered.note([real(file('file:///out/q.txt'), '/out/q-target.txt')]);
    assert.deepEqual(offered.vet([file('file:///out/q.txt')], inside).ok, [real(file('file:///out/q.txt'), '/out/q-target.txt')]);
  });
});
