import * as assert from 'node:assert/strict';
import { buildPrompt, fuzzyFiles } from '../../src/sessions/promptBuilder';
import type { Attachment } from '../../src/shared/attachments';

const atts: Attachment[] = [
  { kind: 'file', uri: 'file:///ws/src/a.ts', name: 'a.ts' },
  { kind: 'selection', uri: 'file:///ws/src/b.ts', name: 'b.ts', startLine: 3, endLine: 4, text: 'let x = 1;\nlet y = 2;' },
  { kind: 'image', name: 'shot.png', mimeType: 'image/png', data: 'iVBOR' },
];
const read = async (uri: string) => (uri.endsWith('a.ts') ? 'export const a = 1; // unsaved edit' : undefined);

describe('prompt content by the agent’s promptCapabilities', () => {
  it('embeddedContext + image: embedded resources and the image', async () => {
    const { blocks, dropped } = await buildPrompt('look', atts, { image: true, embeddedContext: true }, read);
    assert.deepEqual(blocks.map((b) => b.type), ['text', 'resource', 'resource', 'image']);
    assert.deepEqual((blocks[1] as any).resource, { uri: 'file:///ws/src/a.ts', text: 'export const a = 1; // unsaved edit', mimeType: 'text/plain' });
    assert.equal((blocks[2] as any).resource.uri, 'file:///ws/src/b.ts#L3-4');
    assert.deepEqual(dropped, []);
  });

  it('baseline agent: resource links (always allowed), the selection quoted as text, no image', async () => {
    const { blocks, dropped } = await buildPrompt('look', atts, { image: false, embeddedContext: false }, read);
    assert.deepEqual(blocks.map((b) => b.type), ['text', 'resource_link', 'resource_link', 'text']);
    assert.deepEqual(blocks[1], { type: 'resource_link', uri: 'file:///ws/src/a.ts', name: 'a.ts' });
    assert.match((blocks[3] as any).text, /let x = 1;/);
    assert.deepEqual(dropped, ['shot.png: the agent does not accept images']);
  });

  it('the Problems list: embedded where the agent takes embedded context, else plain text', async () => {
    const problems: Attachment = { kind: 'problems', name: 'Problems', text: 'src/a.ts:1:1 error: nope' };
    const rich = await buildPrompt('fix', [problems], { image: false, embeddedContext: true }, read);
    assert.deepEqual(rich.blocks[1], { type: 'resource', resource: { uri: 'vscode-problems:/workspace', text: 'src/a.ts:1:1 error: nope', mimeType: 'text/plain' } });
    const plain = await buildPrompt('fix', [problems], { image: false, embeddedContext: false }, read);
    assert.deepEqual(plain.blocks[1], { type: 'text', text: 'Problems:\nsrc/a.ts:1:1 error: nope' });
  });

  it('a file the read refuses (it leads elsewhere than when attached) is not sent at all, and the user is told', async () => {
    const seen: [string, string | undefined][] = [];
    const refuse = async (uri: string, real?: string) => {
      seen.push([uri, real]);
      return { refused: 'it was not read: it no longer leads to the file that was attached (a link took its place).' };
    };
    const swapped: Attachment = { kind: 'file', uri: 'file:///ws/notes.txt', name: 'notes.txt', real: '/ws/notes.txt' };
    const { blocks, dropped } = await buildPrompt('look', [swapped], { image: false, embeddedContext: true }, refuse);
    assert.deepEqual(blocks, [{ type: 'text', text: 'look' }], 'neither embedded nor linked');
    assert.deepEqual(dropped, ['notes.txt: it was not read: it no longer leads to the file that was attached (a link took its place).']);
    assert.deepEqual(seen, [['file:///ws/notes.txt', '/ws/notes.txt']], 'the real path checked when attached is handed to the read');
  });

  it('fuzzy-matches files for @-mentions, basename matches first', () => {
    const files = ['src/greet.ts', 'test/greet.test.ts', 'src/agents/registry.ts', 'docs/GREETINGS.md', 'src/x/g/r/e/e/t.ts'];
    const r = fuzzyFiles(files, 'greet');
    assert.equal(r[0], 'src/greet.ts');
    assert.equal(r.at(-1), 'src/x/g/r/e/e/t.ts', 'scattered matches last');
    assert.ok(fuzzyFiles(files, 'reg').includes('src/agents/registry.ts'));
    assert.deepEqual(fuzzyFiles(files, 'zzz'), []);
  });
});
