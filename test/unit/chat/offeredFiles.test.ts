import * as assert from 'node:assert/strict';
import { OfferedFiles } from '../../../src/chat/offeredFiles';
import type { Attachment } from '../../../src/shared/attachments';

const file = (uri: string): Attachment => ({ kind: 'file', uri, name: uri.split('/').at(-1)! });
const inside = (uri: string) => uri.startsWith('file:///ws/');

describe('OfferedFiles: what a panel’s send may attach', () => {
  it('a file outside the folders goes only once the host offered it to this panel; inside ones always go', () => {
    const offered = new OfferedFiles();
    const send = [file('file:///ws/a.ts'), file('file:///home/u/.ssh/id_rsa'), { kind: 'image', name: 'x.png', mimeType: 'image/png', data: 'AA==' } as Attachment];
    assert.deepEqual(offered.vet(send, inside), { ok: [send[0], send[2]], refused: ['id_rsa'] });
    offered.note([file('file:///home/u/.ssh/id_rsa')]);
    assert.deepEqual(offered.vet(send, inside), { ok: send, refused: [] });
  });

  it('a selection counts like its file; problems and images carry their own content and always go', () => {
    const offered = new OfferedFiles();
    const sel: Attachment = { kind: 'selection', uri: 'file:///etc/passwd', name: 'passwd', startLine: 1, endLine: 2, text: 'x' };
    const problems: Attachment = { kind: 'problems', name: 'Problems', text: 'p' };
    assert.deepEqual(offered.vet([sel, problems], inside), { ok: [problems], refused: ['passwd'] });
    offered.note([sel, undefined]);
    assert.deepEqual(offered.vet([sel], inside).refused, []);
  });

  it('remembers a bounded number, dropping the oldest first', () => {
    const offered = new OfferedFiles();
    offered.note([file('file:///out/first')]);
    for (let i = 0; i < 2000; i++) offered.note([file(`file:///out/${i}`)]);
    assert.deepEqual(offered.vet([file('file:///out/first')], inside).refused, ['first'], 'the oldest went');
    assert.deepEqual(offered.vet([file('file:///out/1999'), file('file:///out/0')], inside).refused, [], 'the newest 2000 stay');
  });
});
