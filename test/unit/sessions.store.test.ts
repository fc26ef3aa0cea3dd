import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionIndex } from '../../src/sessions/store/sessionIndex';
import { LATER_MAX, TranscriptArchive, coalesceChunks } from '../../src/sessions/store/transcriptArchive';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'acp-store-'));

describe('SessionIndex', () => {
  it('keeps a tombstone for a deleted session: hidden, never brought back by a list, pending for the agent, persisted', async () => {
    const file = path.join(tmp(), 'sessions.json');
    const idx = new SessionIndex(file);
    idx.touch('a', 's1', '/w');
    idx.mergeListed('a', [{ sessionId: 's2', cwd: '/w', title: 'Listed' }]);
    idx.remove('a', 's2', { agentPending: true });
    assert.deepEqual(idx.forAgent('a').map((e) => e.sessionId), ['s1']);
    assert.equal(idx.get('a', 's2'), undefined);
    assert.equal(idx.isDeleted('a', 's2'), true);
    idx.mergeListed('a', [{ sessionId: 's2', cwd: '/w', title: 'Listed again' }]);
    assert.deepEqual(idx.forAgent('a').map((e) => e.sessionId), ['s1'], 'a list does not bring it back');
    assert.deepEqual(idx.pendingDeletes('a'), ['s2']);
    await idx.flush();
    const again = new SessionIndex(file);
    assert.deepEqual(again.pendingDeletes('a'), ['s2'], 'the pending delete survives a restart');
    again.deleteSettled('a', 's2');
    assert.deepEqual(again.pendingDeletes('a'), []);
    assert.equal(again.isDeleted('a', 's2'), true, 'the tombstone stays');
    assert.deepEqual(again.forAgent('a').map((e) => e.sessionId), ['s1']);
  });

  it('persists entries, newest first, and reloads them', async () => {
    const file = path.join(tmp(), 'sessions.json');
    const idx = new SessionIndex(file);
    idx.touch('a', 's1', '/ws', 1000);
    idx.touch('a', 's2', '/ws', 2000);
    idx.setTitle('a', 's1', 'Fix   the\nbug', false);
    await idx.flush();
    const again = new SessionIndex(file);
    assert.deepEqual(again.all().map((e) => e.sessionId), ['s2', 's1']);
    assert.equal(again.get('a', 's1')?.title, 'Fix the bug');
  });

  it('the agent’s title wins over the first prompt; a later prompt does not replace a title', () => {
    const idx = new SessionIndex(path.join(tmp(), 'x.json'));
    idx.touch('a', 's', '/ws');
    idx.setTitle('a', 's', 'first prompt', false);
    idx.setTitle('a', 's', 'second prompt', false);
    assert.equal(idx.get('a', 's')?.title, 'first prompt');
    idx.setTitle('a', 's', 'Agent title', true);
    idx.setTitle('a', 's', 'third prompt', false);
    assert.equal(idx.get('a', 's')?.title, 'Agent title');
  });

  it('merges session/list results without losing local entries', () => {
    const idx = new SessionIndex(path.join(tmp(), 'x.json'));
    idx.touch('a', 'mine', '/ws', 5000);
    idx.mergeListed('a', [{ sessionId: 'cli-1', cwd: '/ws', title: 'From the CLI', updatedAt: '2026-01-01T00:00:00Z' }, { sessionId: 'mine', cwd: '/ws', title: 'Renamed' }]);
    assert.deepEqual(idx.forAgent('a').map((e) => `${e.sessionId}:${e.source}:${e.title}`), ['cli-1:agent:From the CLI', 'mine:local:Renamed']);
  });
});

/** Polls until `ok` (the archive writes in the background), failing after 10 s. */
async function waitUntil(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 10_000; !ok(); ) {
    if (Date.now() > end) throw new Error('timed out after 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('TranscriptArchive', () => {
  it('appends updates asynchronously and reads them back in order', async () => {
    const ar = new TranscriptArchive(tmp(), () => 1_000_000);
    for (let i = 0; i < 100; i++) ar.append('agent/1', 'sess:1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${i}` } });
    assert.equal(fs.existsSync(ar.fileOf('agent/1', 'sess:1')), false, 'nothing written synchronously');
    ar.append('agent/1', 'sess:1', { sessionUpdate: 'plan', entries: [] });
    const lines = await ar.read('agent/1', 'sess:1');
    // 100 chunks of one message are archived as one update, then the plan.
    assert.equal(lines.length, 2);
    assert.equal((lines[0]!.u as any).content.text, Array.from({ length: 100 }, (_, i) => String(i)).join(''));
    assert.equal((lines[1]!.u as any).sessionUpdate, 'plan');
  });

  it('appendLater: kept in memory, no write of its own, until a flush (a load\'s end) or a read; counted by has()', async () => {
    const ar = new TranscriptArchive(tmp(), () => 1_000_000);
    for (let i = 0; i < 10; i++) ar.appendLater('a', 's', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'x' });
    assert.equal(ar.has('a', 's'), true, 'a replay kept back is the archive already');
    // Longer than append's timer: still nothing on disk.
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(fs.existsSync(ar.fileOf('a', 's')), false, 'no timer of its own');
    await ar.flush();
    assert.deepEqual((await ar.read('a', 's')).map((l) => (l.u as any).toolCallId), Array.from({ length: 10 }, (_, i) => `t${i}`));
    // Kept back, then a live update: its timer writes both, in order.
    ar.appendLater('a', 's2', { sessionUpdate: 'plan', entries: [] });
    ar.append('a', 's2', { sessionUpdate: 'tool_call', toolCallId: 'live', title: 'x' });
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(fs.readFileSync(ar.fileOf('a', 's2'), 'utf8').split('\n').filter(Boolean).length, 2);
  });

  it('appendLater is bounded: a replay that never ends is written every LATER_MAX updates, not kept in memory', async () => {
    const ar = new TranscriptArchive(tmp(), () => 100_000_000);
    for (let i = 0; i < LATER_MAX - 1; i++) ar.appendLater('a', 's', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'x' });
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(fs.existsSync(ar.fileOf('a', 's')), false, 'below the bound: kept back');
    ar.appendLater('a', 's', { sessionUpdate: 'tool_call', toolCallId: 'last', title: 'x' });
    await waitUntil(() => fs.existsSync(ar.fileOf('a', 's')) && fs.readFileSync(ar.fileOf('a', 's'), 'utf8').includes('"last"'));
    assert.equal(fs.readFileSync(ar.fileOf('a', 's'), 'utf8').split('\n').filter(Boolean).length, LATER_MAX, 'all of them, written without a flush');
  });

  it('stops at the size limit with a marker', async () => {
    const ar = new TranscriptArchive(tmp(), () => 500);
    for (let i = 0; i < 50; i++) ar.append('a', 's', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'x'.repeat(20) });
    const lines = await ar.read('a', 's');
    assert.ok(fs.statSync(ar.fileOf('a', 's')).size < 700);
    assert.equal((lines.at(-1)!.u as any).sessionUpdate, '_archive_full');
    await ar.delete('a', 's');
    assert.equal(fs.existsSync(ar.fileOf('a', 's')), false);
  });

  it('reads incrementally: batches in order, torn lines skipped, the size limit read once per write', async () => {
    let reads = 0;
    const ar = new TranscriptArchive(tmp(), () => (reads++, 10_000_000));
    for (let i = 0; i < 5000; i++) ar.append('a', 's', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `call ${i}` });
    await ar.flush();
    assert.equal(reads, 1, 'one configuration read for 5,000 lines');
    // A torn line, as a window closing mid-write leaves it.
    fs.appendFileSync(ar.fileOf('a', 's'), '{"t":1,"u":{"sessionUpd');
    const sizes: number[] = [];
    const ids: string[] = [];
    for await (const batch of ar.lines('a', 's', 1500)) {
      sizes.push(batch.length);
      for (const l of batch) ids.push((l.u as any).toolCallId);
    }
    assert.deepEqual(sizes, [1500, 1500, 1500, 500]);
    assert.deepEqual(ids, Array.from({ length: 5000 }, (_, i) => `t${i}`));
    // No archive: nothing, no error.
    const none: unknown[] = [];
    for await (const batch of ar.lines('a', 'missing')) none.push(batch);
    assert.deepEqual(none, []);
  });
});

describe('archive coalescing', () => {
  it('joins consecutive text chunks of one message, keeps everything else and the order', () => {
    const chunk = (sessionUpdate: string, text: string, messageId?: string) => ({ t: 1, u: { sessionUpdate, content: { type: 'text', text }, ...(messageId ? { messageId } : {}) } });
    const out = coalesceChunks([
      chunk('agent_message_chunk', 'Hel', 'm1'),
      chunk('agent_message_chunk', 'lo', 'm1'),
      chunk('agent_message_chunk', '!', 'm2'),
      { t: 2, u: { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'T' } },
      chunk('agent_thought_chunk', 'a'),
      chunk('agent_thought_chunk', 'b'),
      { t: 3, u: { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'x', mimeType: 'image/png' } } },
    ]);
    assert.deepEqual(out.map((e: any) => `${e.u.sessionUpdate}:${e.u.content?.text ?? e.u.content?.type ?? e.u.toolCallId}`), [
      'agent_message_chunk:Hello',
      'agent_message_chunk:!',
      'tool_call:x',
      'agent_thought_chunk:ab',
      'agent_message_chunk:image',
    ]);
  });
});
