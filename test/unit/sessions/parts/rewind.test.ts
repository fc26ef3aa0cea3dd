// Edit and Retry of an earlier message: where the history is cut, what comes
// back into the composer, and the flow — the restore confirmed (or not), the
// fork asked for, the restored files put back when the fork is not made.
import * as assert from 'node:assert/strict';
import type { Checkpoints, RestoreEntry } from '../../../../src/sessions/checkpoints/checkpoints';
import { CheckpointRestore } from '../../../../src/sessions/checkpoints/restore';
import type { RewindRequest } from '../../../../src/sessions/ports';
import { attachmentsOf, linesBefore, Rewind, rewindNote, userOrdinal } from '../../../../src/sessions/parts/rewind';
import type { MessageItem } from '../../../../src/shared/transcriptTypes';
import { fakeCore, tick } from './fakeCore';

const user = (text: string, messageId?: string) => ({ u: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text }, ...(messageId ? { messageId } : {}) } });
const agent = (text: string, messageId?: string) => ({ u: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, ...(messageId ? { messageId } : {}) } });
const mark = (sessionUpdate: string) => ({ u: { sessionUpdate } });

describe('sessions/parts: rewind (Edit and Retry)', () => {
  it('cuts the archive just before the Nth user message, as the transcript counts them, and names the agent message before it', () => {
    const lines = [
      user('one'),
      mark('_turn_begin'),
      agent('a1', 'am-1'),
      { u: { sessionUpdate: '_child', sessionId: 'c', update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'sub' } } } },
      mark('_turn_end'),
      user('two, '),
      mark('_turn_begin'),
      user('continued'),
      agent('a2', 'am-2'),
      mark('_turn_end'),
      user('three', 'u3'),
      user('four', 'u4'),
    ];
    assert.deepEqual(linesBefore(lines, 1), { lines: [], found: true });
    const two = linesBefore(lines, 2);
    assert.equal(two.lines.length, 5);
    assert.equal(two.anchor, 'am-1');
    // A chunk after the turn's mark is still message two; a new message id is a new message.
    const three = linesBefore(lines, 3);
    assert.equal(three.lines.length, 10);
    assert.equal(three.anchor, 'am-2');
    assert.equal(linesBefore(lines, 4).lines.length, 11);
    assert.deepEqual(linesBefore(lines, 5), { lines, anchor: 'am-2', found: false });
  });

  it('counts the session’s own user messages (a subagent’s are not)', () => {
    const items = [
      { kind: 'user', id: 'm1', text: 'a', parts: [] },
      { kind: 'agent', id: 'm2', text: 'b', parts: [] },
      { kind: 'user', id: 'm3', text: 'sub', parts: [], parent: 'card' },
      { kind: 'user', id: 'm4', text: 'c', parts: [] },
    ] as MessageItem[];
    assert.equal(userOrdinal(items, 'm1'), 1);
    assert.equal(userOrdinal(items, 'm4'), 2);
    assert.equal(userOrdinal(items, 'm3'), undefined);
    assert.equal(userOrdinal(items, 'm2'), undefined);
  });

  it('Edit gets back the files and images a message carried; a selection or the Problems list only by name', () => {
    const item = {
      kind: 'user',
      id: 'm1',
      text: 'x',
      parts: [
        { type: 'resource_link', uri: 'file:///ws/a.ts', name: 'a.ts' },
        { type: 'resource_link', uri: 'file:///ws/b.ts', name: 'b.ts:3-9' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA', name: 'shot.png' },
        { type: 'image', mimeType: 'image/svg+xml', data: 'AAAA', name: 'bad.svg' },
        { type: 'resource', uri: 'vscode-problems:/workspace', name: 'Problems' },
        { type: 'resource', uri: 'acp-transcript:', name: 'Conversation so far (attached)' },
        { type: 'note', text: 'a reason' },
      ],
    } as MessageItem;
    assert.deepEqual(attachmentsOf(item), {
      attachments: [
        { kind: 'file', uri: 'file:///ws/a.ts', name: 'a.ts' },
        { kind: 'image', name: 'shot.png', mimeType: 'image/png', data: 'AAAA' },
      ],
      leftOut: ['b.ts:3-9', 'Problems'],
    });
  });

  it('the note to an agent that forked the whole session names the message and what to disregard, and says whether the files were restored', () => {
    const note = rewindNote(3, 'fix the bug');
    assert.match(note, /^--- The conversation was rewound ---/);
    assert.match(note, /just before their message 3 \("fix the bug"\)/);
    assert.match(note, /Disregard that message and everything after it/);
    // Nothing restored (no checkpoint, nothing to restore): the agent is not told otherwise.
    assert.match(note, /the files were NOT restored/);
    assert.doesNotMatch(note, /files it changed were restored/);
    assert.match(rewindNote(3, 'fix the bug', true), /the files it changed were restored to how they were before it/);
  });

  describe('the flow', () => {
    function setup(opts: { plan?: RestoreEntry[]; forks?: boolean; busy?: boolean; settled?: () => Promise<void> } = {}) {
      const forks: RewindRequest[] = [];
      const f = fakeCore({
        forkSession: async (_def: unknown, sid: string, r: RewindRequest) => {
          assert.equal(sid, 's1');
          forks.push(r);
          return opts.forks ?? true;
        },
      });
      const disk = new Map<string, string | null>([
        ['/ws/a.txt', 'a now'],
        ['/ws/b.txt', 'b edited by the user'],
      ]);
      const written: string[] = [];
      const plan = opts.plan ?? [];
      const restore = new CheckpointRestore({
        checkpoints: () => ({ plan: () => plan, list: () => [], restorable: () => true }) as unknown as Checkpoints,
        transcript: () => f.transcript,
        emit: () => undefined,
        busy: () => f.state.busy,
        currentBytes: (file) => {
          const v = disk.get(file);
          return v === undefined ? undefined : v === null ? null : Buffer.from(v);
        },
        restoreFiles: async (entries, label) => {
          for (const e of entries) disk.set(e.path, e.bytes === null ? null : e.bytes.toString());
          written.push(`${label}: ${entries.map((e) => e.path).join(',')}`);
          return { ok: true, refused: [] };
        },
        showDiff: async () => undefined,
        restored: () => undefined,
        log: () => undefined,
      });
      const rewind = new Rewind(f.core, restore, opts.settled);
      f.transcript.addUserPrompt('first', []);
      f.transcript.addUserPrompt('second message', [{ type: 'resource_link', uri: 'file:///ws/a.txt', name: 'a.txt' }]);
      const [m1, m2] = f.transcript.items.filter((i): i is MessageItem => i.kind === 'user');
      restore.link('cp2', m2!.id);
      assert.equal(m2!.checkpoint, 'cp2');
      f.state.busy = opts.busy ?? false;
      return { f, restore, rewind, forks, disk, written, m1: m1!, m2: m2! };
    }
    const plan: RestoreEntry[] = [
      { path: '/ws/a.txt', action: 'restore', target: Buffer.from('a before') },
      { path: '/ws/b.txt', action: 'restore', target: Buffer.from('b before'), userEdited: { agent: Buffer.from('b by the agent') } },
    ];

    it('nothing to restore: the fork is asked for at once, before that message, with the new text', async () => {
      const { rewind, forks, m2 } = setup();
      assert.deepEqual(await rewind.start(m2.id, 'second, better', []), { ok: true });
      assert.deepEqual(forks, [{ message: 2, quote: 'second message', text: 'second, better', attachments: [], restored: false }]);
    });

    it('sent just after a turn: waits until the turn settled (its checkpoint complete) before looking for files to restore', async () => {
      let settle!: () => void;
      let complete = false;
      const checked: RestoreEntry[] = [];
      const { f, rewind, forks, m2 } = setup({ plan: checked, settled: () => new Promise<void>((r) => (settle = () => ((complete = true), r()))) });
      const card = () => f.transcript.header.restore;
      const done = rewind.start(m2.id, 'again', []);
      await tick();
      assert.equal(card(), undefined, 'not asked yet');
      assert.equal(forks.length, 0, 'not forked yet');
      // The turn settles: its files are now in the checkpoint, and the card asks.
      checked.push(...plan);
      settle();
      await tick();
      assert.ok(complete);
      assert.equal(card()?.state, 'confirm');
      assert.equal(forks.length, 0, 'nothing forked before the answer');
      rewind.dispose();
      assert.equal((await done).ok, false, 'closed without an answer: not rewound');
    });

    it('a second Edit or Retry while one is under way is refused: one fork; the next one after it goes', async () => {
      const { rewind, forks, m2 } = setup();
      const [a, b] = await Promise.all([rewind.start(m2.id, 'one', []), rewind.start(m2.id, 'two', [])]);
      assert.deepEqual(a, { ok: true });
      assert.equal(b.ok, false);
      assert.equal(forks.length, 1);
      assert.deepEqual(await rewind.start(m2.id, 'three', []), { ok: true });
      assert.deepEqual(forks.map((r) => r.text), ['one', 'three']);
    });

    it('files to restore: the card asks first (saying it is for message N); the files the user changed are left unless chosen; then the fork', async () => {
      const { f, restore, rewind, forks, disk, written, m2 } = setup({ plan });
      const done = rewind.start(m2.id, 'again', []);
      await tick();
      const card = f.transcript.header.restore!;
      assert.equal(card.state, 'confirm');
      assert.equal(card.rewind, 2);
      assert.equal(card.messageId, m2.id);
      assert.deepEqual(card.files.map((x) => `${x.name}${x.userEdited ? ':edited' : ''}`), ['a.txt', 'b.txt:edited']);
      assert.match(card.note ?? '', /left as it is, unless you choose/);
      assert.equal(forks.length, 0, 'nothing forked before the answer');
      assert.equal(await restore.restore('cp2', true), true);
      assert.deepEqual(await done, { ok: true });
      assert.equal(disk.get('/ws/a.txt'), 'a before');
      assert.equal(disk.get('/ws/b.txt'), 'b edited by the user', 'the user’s change is kept');
      assert.deepEqual(written, ['Restore files to a checkpoint: /ws/a.txt']);
      assert.match(f.transcript.header.restore?.note ?? '', /Left as you changed them: b\.txt\./);
      assert.equal(forks.length, 1);
    });

    it('the restore cancelled on its card: no fork, nothing changed', async () => {
      const { rewind, restore, forks, disk, m2 } = setup({ plan });
      const done = rewind.start(m2.id, 'again', []);
      await tick();
      restore.dismiss();
      const outcome = await done;
      assert.equal(outcome.ok, false);
      assert.match(outcome.note ?? '', /you cancelled restoring the files/);
      assert.equal(forks.length, 0);
      assert.equal(disk.get('/ws/a.txt'), 'a now');
    });

    it('the fork not made (the agent refused): the restored files are put back, and a notice says so', async () => {
      const { f, rewind, restore, forks, disk, m2 } = setup({ plan, forks: false });
      const done = rewind.start(m2.id, 'again', []);
      await tick();
      assert.equal(await restore.restore('cp2'), true);
      assert.equal(disk.get('/ws/b.txt'), 'b before', 'restoring all discards the user’s change, as chosen');
      const outcome = await done;
      assert.equal(forks.length, 1);
      assert.equal(outcome.ok, false);
      assert.match(outcome.note ?? '', /did not make the fork .* The restored files were put back as they were; this session is unchanged\./);
      assert.equal(disk.get('/ws/a.txt'), 'a now');
      assert.equal(disk.get('/ws/b.txt'), 'b edited by the user');
      assert.ok(f.transcript.items.some((i) => i.kind === 'notice' && i.title === 'Not rewound'));
    });

    it('refused while a turn runs, for a message that is not the user’s, and while another rewind waits', async () => {
      const busy = setup({ busy: true });
      assert.match((await busy.rewind.start(busy.m2.id, 'x', [])).note ?? '', /the agent is working/);
      assert.equal(busy.forks.length, 0);
      const s = setup({ plan });
      assert.match((await s.rewind.start('nope', 'x', [])).note ?? '', /not one of your messages/);
      const first = s.rewind.start(s.m2.id, 'x', []);
      await tick();
      assert.match((await s.rewind.start(s.m1.id, 'y', [])).note ?? '', /another edit is waiting/);
      s.restore.dismiss();
      assert.equal((await first).ok, false);
    });

    it('a fork of a rewind shows its marker again from the archive', () => {
      const { f, rewind } = setup();
      assert.equal(rewind.archivedLine({ sessionUpdate: '_rewound', title: 'Rewound from "P" / message 2', detail: 'how' }), true);
      assert.equal(rewind.archivedLine({ sessionUpdate: '_other' }), false);
      const n = f.emitted.length;
      assert.ok(n > 0);
      assert.ok(f.transcript.items.some((i) => i.kind === 'notice' && i.title === 'Rewound from "P" / message 2' && i.description === 'how'));
    });
  });
});
