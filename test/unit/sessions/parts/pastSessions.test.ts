// The past sessions part: every update archived (not twice when a load
// replays what the archive holds), turn ends marked, the archive replayed with
// each line offered to the parts first, and a fork from the archive.
import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { AgentCapabilityView } from '../../../../src/acp/capabilities';
import { decodeSessionUpdate } from '../../../../src/acp/decode';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import type { OpenMode } from '../../../../src/sessions/openSession';
import { PastSessions, type PastHost } from '../../../../src/sessions/parts/pastSessions';
import type { ArchivedLine } from '../../../../src/sessions/sessionCore';
import { Transcript } from '../../../../src/sessions/transcript';
import { fakeCore } from './fakeCore';

const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

function setup(opts: { caps?: object; archive?: unknown[]; has?: boolean; fails?: string; root?: boolean } = {}) {
  const lines = (opts.archive ?? []).map((u) => ({ u }));
  const f = fakeCore({
    archive: {
      append: (_a: string, sid: string, line: unknown) => void f.archived.push([sid, line]),
      // A load's replay: kept back (marked here), written at the load's end (a flush).
      appendLater: (_a: string, sid: string, line: unknown) => void f.archived.push([sid, { later: line }]),
      flush: async () => void events.push('archive flushed'),
      has: () => opts.has ?? false,
      read: async () => lines,
      lines: async function* () {
        yield lines;
      },
    },
  });
  const events: string[] = [];
  const prompts: { text: string; extra: readonly acp.ContentBlock[] }[] = [];
  const rt = { capabilities: new AgentCapabilityView((opts.caps ?? {}) as any) } as unknown as AgentRuntime;
  const host: PastHost = {
    ensureRunning: async () => (events.push('started'), rt),
    rootAllowed: async () => (events.push('root asked'), opts.root ?? true),
    open: async (mode: OpenMode) => {
      events.push(`open ${mode.kind}${mode.kind === 'fork' && mode.meta ? ` ${JSON.stringify(mode.meta)}` : ''}`);
      if (opts.fails !== undefined) {
        f.state.phase = { kind: 'failed', text: opts.fails };
        return 'failed';
      }
      f.state.sessionId = mode.kind === 'load' || mode.kind === 'resume' ? mode.sessionId : 'new-1';
      return 'opened';
    },
    prompt: async (text: string, _a: unknown, extra: readonly acp.ContentBlock[]) => {
      prompts.push({ text, extra });
      events.push(`prompt ${text.slice(0, 30)}… +${extra.map((b) => b.type).join()}`);
    },
    relink: async (sid: string) => void events.push(`relink ${sid}`),
    newTranscript: () => void (f.transcript = new Transcript()),
    shown: () => void events.push('shown'),
    // A stand-in for the other parts: it claims the lines marked `_mine`.
    claim: (line: ArchivedLine) => (line.sessionUpdate === '_mine' ? (events.push('claimed'), true) : past.archivedLine(line)),
    inheritFolders: async (sid: string) => void events.push(`folders of ${sid}`),
  };
  // The core reads the transcript through the fake: replacing it is seen there too.
  (f.core as { transcript: () => Transcript }).transcript = () => f.transcript;
  const past = new PastSessions(f.core, host);
  return { f, past, events, prompts };
}

describe('sessions/parts: past sessions', () => {
  it('archives live updates (a child\'s marked with its id) and remembers a new title; a load of an archived session is not archived twice', () => {
    const { f, past } = setup({ has: true });
    past.update(decodeSessionUpdate(chunk('hi'), []), undefined, true);
    past.update(decodeSessionUpdate(chunk('sub'), []), 'c1', true);
    past.update(decodeSessionUpdate({ sessionUpdate: 'session_info_update', title: 'Named' }, []), undefined, true);
    assert.deepEqual(f.archived.map(([sid, l]) => [sid, (l as { sessionUpdate: string }).sessionUpdate]), [['s1', 'agent_message_chunk'], ['s1', '_child'], ['s1', 'session_info_update']]);
    assert.deepEqual(f.titles, [['s1', 'Named']]);
    f.state.phase = { kind: 'loading' };
    past.attached({} as AgentRuntime, 's1');
    past.update(decodeSessionUpdate(chunk('replayed'), []), undefined, false);
    assert.equal(f.archived.length, 3, 'the replay of what the archive holds is not appended');
  });

  it('archives the load of a session the archive does not hold, kept back while it replays; its end writes it', async () => {
    const { f, past, events } = setup({ caps: { loadSession: true }, fails: 'store locked.' });
    f.state.phase = { kind: 'loading' };
    past.attached({} as AgentRuntime, 's1');
    past.update(decodeSessionUpdate(chunk('replayed'), []), undefined, false);
    past.update(decodeSessionUpdate(chunk('sub'), []), 'c1', false);
    assert.deepEqual(f.archived.map(([sid, l]) => [sid, ((l as { later?: { sessionUpdate: string } }).later)?.sessionUpdate]), [['s1', 'agent_message_chunk'], ['s1', '_child']]);
    f.state.phase = { kind: 'ready', text: '' };
    past.update(decodeSessionUpdate(chunk('live'), []), undefined, true);
    assert.deepEqual(f.archived[2], ['s1', decodeSessionUpdate(chunk('live'), [])], 'a live update is appended at once');
    // A load that fails with no archive to show instead: what it replayed is written all the same.
    await past.openPast('s1');
    assert.ok(events.includes('archive flushed'), events.join(', '));
  });

  it('marks in the archive where a turn began and how it ended: its stop reason, or cut short (a failed turn)', () => {
    const { f, past } = setup();
    past.turnBegan();
    past.turnEnded('s1', undefined);
    past.turnEnded('s1', 'end_turn');
    assert.deepEqual(f.archived, [
      ['s1', { sessionUpdate: '_turn_begin' }],
      ['s1', { sessionUpdate: '_turn_interrupted' }],
      ['s1', { sessionUpdate: '_turn_end', stopReason: 'end_turn' }],
    ]);
  });

  it('replaying the archive, each shape of an open turn ends as interrupted (an explicit mark, a turn followed by another, the last one); the last gets its mark appended', async () => {
    const user = (text: string) => ({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
    const { f, past } = setup({
      archive: [user('one'), { sessionUpdate: '_turn_begin' }, { sessionUpdate: '_turn_interrupted' }, user('two'), { sessionUpdate: '_turn_begin' }, user('three'), { sessionUpdate: '_turn_begin' }, chunk('half')],
    });
    await past.openPast('old');
    const ends = f.transcript.items.filter((i) => i.kind === 'turn-end').map((i) => (i as { stopReason: string }).stopReason);
    assert.deepEqual(ends, ['interrupted', 'interrupted', 'interrupted'], 'an explicit mark, a turn followed by another, the last turn');
    assert.deepEqual(f.archived.at(-1), ['old', { sessionUpdate: '_turn_interrupted' }]);
  });

  it('a load or resume that fails (not "not found"): the reason, and the archive read-only with Retry; without an archive the failure stays', async () => {
    for (const [caps, how] of [[{ loadSession: true }, 'load'], [{ sessionCapabilities: { resume: {} } }, 'resume']] as const) {
      const { f, past } = setup({ caps, has: true, fails: 'store locked.', archive: [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'q' } }, chunk('a')] });
      assert.equal(await past.openPast('old'), false);
      assert.deepEqual(f.state.phase, { kind: 'readOnly', text: `Agent X could not ${how} this session (store locked). The archive is shown read-only.`, error: true, retry: true });
      assert.ok(f.transcript.items.some((i) => i.kind === 'user' && i.text === 'q'), how);
      const notices = f.transcript.items.filter((i) => i.kind === 'notice').map((i) => `${i.title} ${i.description ?? ''}`);
      assert.ok(notices.some((n) => new RegExp(`could not ${how} this session \\(store locked\\)`).test(n) && /Retry asks Agent X again/.test(n)), JSON.stringify(notices));
    }
    const none = setup({ caps: { loadSession: true }, has: false, fails: 'store locked.' });
    await none.past.openPast('old');
    assert.deepEqual(none.f.state.phase, { kind: 'failed', text: 'store locked.' });
  });

  it('an agent that can neither load nor resume: the archive is shown read-only, each line offered to the parts first', async () => {
    const { f, past, events } = setup({ archive: [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'q' } }, chunk('a'), { sessionUpdate: '_mine' }, { sessionUpdate: '_turn_end', stopReason: 'end_turn' }, { sessionUpdate: '_archive_full' }] });
    assert.equal(await past.openPast('old'), false);
    assert.deepEqual(events, ['root asked', 'started', 'claimed', 'shown', 'relink old']);
    assert.deepEqual(f.transcript.items.map((i) => i.kind), ['notice', 'user', 'agent', 'turn-end', 'notice']);
    assert.equal(f.state.phase.kind, 'readOnly');
  });

  it('an agent that loads: the session is loaded and its checkpoints linked again', async () => {
    const { past, events } = setup({ caps: { loadSession: true } });
    assert.equal(await past.openPast('old'), true);
    assert.deepEqual(events, ['root asked', 'started', 'open load', 'relink old']);
  });

  it('a session folder the user did not allow as its root: nothing is started nor opened, the archive is shown read-only and says why', async () => {
    const { f, past, events } = setup({ caps: { loadSession: true }, root: false, archive: [chunk('a')] });
    assert.equal(await past.openPast('old'), false);
    assert.deepEqual(events, ['root asked', 'shown', 'relink old']);
    assert.equal(f.state.phase.kind, 'readOnly');
    const notice = f.transcript.items[0] as { kind: string; description?: string };
    assert.equal(notice.kind, 'notice');
    assert.match(notice.description ?? '', /outside this workspace's folders, and you did not allow it/);
    assert.ok(notice.description?.includes(f.state.roots[0]!), 'the folder is named');
  });

  it('a fork of a session whose folder the user did not allow: the agent is not started and no session opened', async () => {
    const { f, past, events } = setup({ caps: { loadSession: true }, root: false, archive: [chunk('a')] });
    assert.equal(await past.forkFrom({ sessionId: 'old', title: 'Plan' }), false);
    assert.deepEqual(events, ['root asked', 'shown']);
    assert.equal(f.state.phase.kind, 'readOnly');
  });

  it('a fork without session/fork: a new session whose first prompt carries the conversation so far, titled as a fork', async () => {
    const { f, past, events } = setup({ archive: [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'q' } }, chunk('a')] });
    assert.equal(await past.forkFrom({ sessionId: 'old', title: 'Plan' }), true);
    assert.deepEqual(events, ['root asked', 'started', 'shown', 'folders of old', 'open new', 'prompt This session is a fork of "Pla… +text']);
    assert.deepEqual(f.titles, [['new-1', 'Plan (fork)']]);
    assert.equal(f.archived.length, 0, 'the history is not copied: the prompt carries it');
  });

  describe('a fork before an earlier message (Edit, Retry)', () => {
    const u = (text: string) => ({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
    const a = (text: string, messageId: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, messageId });
    const archive = [u('one'), { sessionUpdate: '_turn_begin' }, a('reply one', 'am-1'), { sessionUpdate: '_turn_end', stopReason: 'end_turn' }, u('two'), { sessionUpdate: '_turn_begin' }, a('reply two', 'am-2'), { sessionUpdate: '_turn_end', stopReason: 'end_turn' }];
    const rewind = { message: 2, quote: 'two', text: 'two, better', attachments: [] };
    const texts = (t: { items: readonly { kind: string }[] }) => t.items.filter((i) => i.kind === 'user' || i.kind === 'agent').map((i) => (i as unknown as { text: string }).text);

    it('an agent that forks at a message: session/fork with _meta.claudeCode.rewindTo the agent message before it; the history shown and archived ends there; the marker; the new text sent alone', async () => {
      const { f, past, events, prompts } = setup({ caps: { sessionCapabilities: { fork: {} }, _meta: { claudeCode: { rewind: true } } }, archive });
      assert.equal(await past.forkFrom({ sessionId: 'old', title: 'Plan' }, rewind), true);
      assert.ok(events.includes('open fork {"claudeCode":{"rewindTo":"am-1"}}'), events.join(' | '));
      assert.deepEqual(texts(f.transcript), ['one', 'reply one']);
      const notice = f.transcript.items.find((i) => i.kind === 'notice') as { title: string; description?: string };
      assert.equal(notice.title, 'Rewound from "Plan" / message 2');
      assert.match(notice.description ?? '', /forked "Plan" just before your message 2 \("two"\)/);
      assert.deepEqual(prompts, [{ text: 'two, better', extra: [] }]);
      assert.deepEqual(f.titles, [['new-1', 'Plan (from message 2)']]);
      assert.deepEqual(f.calls.filter((c) => c.startsWith('forkOf')), ['forkOf new-1 old 2']);
      const copied = f.archived.map(([, l]) => (l as { sessionUpdate: string }).sessionUpdate);
      assert.deepEqual(copied, ['user_message_chunk', '_turn_begin', 'agent_message_chunk', '_turn_end', '_rewound'], 'the history up to the message, then the marker');
    });

    it('an agent that forks only whole sessions: session/fork without _meta, and a note with the new text saying where the conversation goes on from', async () => {
      const { f, past, events, prompts } = setup({ caps: { sessionCapabilities: { fork: {} } }, archive });
      assert.equal(await past.forkFrom({ sessionId: 'old', title: 'Plan' }, rewind), true);
      assert.ok(events.includes('open fork'), events.join(' | '));
      assert.deepEqual(texts(f.transcript), ['one', 'reply one']);
      assert.equal(prompts.length, 1);
      assert.equal(prompts[0]!.text, 'two, better');
      const note = prompts[0]!.extra[0];
      assert.ok(note?.type === 'text' && /rewound this conversation to just before their message 2 \("two"\)/.test(note.text));
      assert.match((f.transcript.items.find((i) => i.kind === 'notice') as { description?: string }).description ?? '', /cannot fork at a message: it forked the whole of "Plan"/);
    });

    it('an agent that cannot fork: a new session whose first prompt is the new text with the conversation before that message only', async () => {
      const { f, past, events, prompts } = setup({ caps: { promptCapabilities: { embeddedContext: true } }, archive });
      assert.equal(await past.forkFrom({ sessionId: 'old', title: 'Plan' }, rewind), true);
      assert.ok(events.includes('open new'));
      assert.equal(prompts[0]!.text, 'two, better');
      const block = prompts[0]!.extra[0];
      assert.ok(block?.type === 'resource' && 'text' in block.resource);
      const md = (block.resource as { text: string }).text;
      assert.match(md, /one/);
      assert.match(md, /reply one/);
      assert.doesNotMatch(md, /reply two|\btwo\b/, 'nothing from the message on');
      assert.deepEqual(f.archived.map(([, l]) => (l as { sessionUpdate: string }).sessionUpdate), ['_rewound']);
    });

    it('before the first message: a new session (nothing to fork), the new text sent alone', async () => {
      const { f, past, events, prompts } = setup({ caps: { sessionCapabilities: { fork: {} } }, archive });
      assert.equal(await past.forkFrom({ sessionId: 'old', title: 'Plan' }, { ...rewind, message: 1, quote: 'one' }), true);
      assert.ok(events.includes('open new'));
      assert.deepEqual(texts(f.transcript), []);
      assert.deepEqual(prompts, [{ text: 'two, better', extra: [] }]);
    });

    it('a local copy that does not reach the message (cut at its size limit): no fork, nothing sent, the reason shown', async () => {
      const { f, past, events, prompts } = setup({ caps: { sessionCapabilities: { fork: {} }, _meta: { claudeCode: { rewind: true } } }, archive: archive.slice(0, 4) });
      assert.equal(await past.forkFrom({ sessionId: 'old', title: 'Plan' }, rewind), false);
      assert.ok(!events.some((e) => e.startsWith('open')), events.join(' | '));
      assert.deepEqual(prompts, []);
      assert.deepEqual(f.archived, []);
      assert.match(JSON.stringify(f.state.phase), /does not reach message 2/);
    });

    it('a fork the agent refuses: false, nothing archived or titled, nothing sent', async () => {
      const { f, past, prompts } = setup({ caps: { sessionCapabilities: { fork: {} } }, archive, fails: 'no forks today' });
      assert.equal(await past.forkFrom({ sessionId: 'old', title: 'Plan' }, rewind), false);
      assert.deepEqual(prompts, []);
      assert.deepEqual(f.archived, []);
      assert.deepEqual(f.titles, []);
    });
  });
});
