// The pins part: pin and unpin a message (the user's or the agent's), the
// strip in the header and the mark on the message, the pins file next to the
// archive, and a pin finding its message again in a re-created transcript
// (a load or an archive replay gives every item a new id).
import { diskIo } from '../../../../src/node/storeIo';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeSessionUpdate } from '../../../../src/acp/decode';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import { parsePins, Pins, textHash } from '../../../../src/sessions/parts/pins';
import { Transcript } from '../../../../src/sessions/transcript';
import { Emitter } from '../../../../src/shared/events';
import type { MessageItem } from '../../../../src/shared/transcriptTypes';
import type { PanelStatus } from '../../../../src/shared/webviewProtocol';
import { fakeCore } from './fakeCore';

const agent = (text: string, messageId?: string) => decodeSessionUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, ...(messageId ? { messageId } : {}) }, []);

/** A conversation: two turns, each a prompt and an answer. */
function converse(t: Transcript, turns: readonly [string, string][]): void {
  turns.forEach(([q, a], i) => {
    t.addUserPrompt(q);
    t.apply(agent(a, `m${i}`));
    t.endTurn('end_turn');
  });
}
const TURNS: [string, string][] = [
  ['Make greet friendlier', 'Done: greet now says hello.'],
  ['And farewell?', 'Farewell now waves.'],
];
const messages = (t: Transcript) => t.items.filter((i): i is MessageItem => i.kind === 'user' || i.kind === 'agent');

function setup(dir: string, opts: { sessionId?: string; target?: string } = {}) {
  const f = fakeCore({
    archive: { sidecarFile: (_agent: string, sid: string, kind: string) => path.join(dir, `${sid}.${kind}.json`), io: diskIo },
  });
  f.state.sessionId = opts.sessionId;
  (f.core as { transcript: () => Transcript }).transcript = () => f.transcript;
  const reset = new Emitter<void>();
  const status = new Emitter<PanelStatus>();
  const host = { targetSessionId: opts.target, onDidResetTranscript: reset.event, onDidChangeStatus: status.event };
  const pins = new Pins(f.core, host);
  const statusChanged = () => status.fire({ text: '', busy: false, inputEnabled: true, actions: [] });
  return { f, pins, reset, statusChanged };
}

describe('sessions/parts: pins', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-pins-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('pins a user message and an agent message: marked, in the strip in the conversation\'s order, and saved next to the archive', async () => {
    const { f, pins } = setup(dir, { sessionId: 's1' });
    pins.attached({} as AgentRuntime, 's1');
    converse(f.transcript, TURNS);
    const [u1, a1, u2] = messages(f.transcript);
    assert.equal(pins.pin(u2!.id), true);
    assert.equal(pins.pin(a1!.id), true);
    assert.equal(pins.pin(a1!.id), false, 'pinned once');
    assert.equal(u1!.pinned, undefined);
    assert.equal(a1!.pinned, true);
    assert.equal(u2!.pinned, true);
    assert.deepEqual(
      pins.list().map((p) => [p.role, p.text, p.id]),
      [
        ['agent', 'Done: greet now says hello.', a1!.id],
        ['user', 'And farewell?', u2!.id],
      ],
    );
    assert.ok(f.emitted.some((c) => c.c === 'put' && c.item === a1), 'the message is sent again, marked');
    assert.ok(f.emitted.some((c) => c.c === 'header'));
    await pins.flushed();
    const stored = JSON.parse(fs.readFileSync(path.join(dir, 's1.pins.json'), 'utf8')) as { v: number; pins: { role: string; ordinal: number; hash: string }[] };
    assert.deepEqual(
      stored.pins.map((p) => [p.role, p.ordinal, p.hash]),
      [
        ['user', 1, textHash('And farewell?')],
        ['agent', 0, textHash('Done: greet now says hello.')],
      ],
    );
  });

  it('pins only messages of the session\'s own timeline: not a thought, a subagent\'s message, a tool call or an unknown id', () => {
    const { f, pins } = setup(dir, { sessionId: 's1' });
    f.transcript.apply(decodeSessionUpdate({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }, []));
    f.transcript.apply(decodeSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' }, []));
    const [thought, tool] = f.transcript.items;
    const child = { ...f.transcript.addUserPrompt('x')[0]! };
    (f.transcript.items.at(-1) as MessageItem).parent = tool!.id;
    assert.equal(pins.pin(thought!.id), false);
    assert.equal(pins.pin(tool!.id), false);
    assert.equal(pins.pin(child.c === 'add' ? child.item.id : ''), false);
    assert.equal(pins.pin('nope'), false);
    assert.deepEqual(pins.list(), []);
  });

  it('unpins from the strip (by key) and from the message (by its id); the file follows', async () => {
    const { f, pins } = setup(dir, { sessionId: 's1' });
    pins.attached({} as AgentRuntime, 's1');
    converse(f.transcript, TURNS);
    const [u1, a1] = messages(f.transcript);
    pins.pin(u1!.id);
    pins.pin(a1!.id);
    const key = pins.list()[0]!.key;
    assert.equal(pins.unpin(key), true);
    assert.equal(u1!.pinned, undefined, 'the message is no longer marked');
    assert.equal(pins.unpin(a1!.id), true);
    assert.equal(pins.unpin(a1!.id), false, 'already unpinned');
    assert.deepEqual(pins.list(), []);
    await pins.flushed();
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 's1.pins.json'), 'utf8')), { v: 1, pins: [] });
  });

  it('round trip: after a reload the pins are read back and found again in the re-created transcript (new item ids)', async () => {
    const first = setup(dir, { sessionId: 's1' });
    first.pins.attached({} as AgentRuntime, 's1');
    converse(first.f.transcript, TURNS);
    const [, a1, u2] = messages(first.f.transcript);
    first.pins.pin(a1!.id);
    first.pins.pin(u2!.id);
    first.pins.unpin(u2!.id);
    first.pins.pin(u2!.id);
    await first.pins.flushed();
    first.pins.dispose();

    // The window reloads: the panel is opened for the session, its archive replayed into a new transcript.
    const second = setup(dir, { target: 's1' });
    second.f.transcript = new Transcript();
    second.f.transcript.addLocalNotice('info', 'Archived history');
    converse(second.f.transcript, TURNS);
    const [, b1, v2] = messages(second.f.transcript);
    assert.notEqual(b1!.id, a1!.id, 'the replay gave new ids');
    second.reset.fire();
    await second.pins.whenRead();
    assert.deepEqual(
      second.pins.list().map((p) => [p.role, p.id]),
      [
        ['agent', b1!.id],
        ['user', v2!.id],
      ],
    );
    assert.equal(b1!.pinned, true);
    assert.equal(v2!.pinned, true);
    assert.ok(second.f.emitted.some((c) => c.c === 'put' && c.item === v2));
  });

  it('a load: nothing is resolved while it replays; its end (a status change) finds the messages', async () => {
    fs.writeFileSync(path.join(dir, 's1.pins.json'), JSON.stringify({ v: 1, pins: [{ role: 'user', ordinal: 1, hash: textHash('And farewell?'), text: 'And farewell?' }] }));
    const { f, pins, statusChanged } = setup(dir);
    f.state.phase = { kind: 'loading' };
    f.state.sessionId = 's1';
    pins.attached({} as AgentRuntime, 's1');
    await pins.whenRead();
    converse(f.transcript, TURNS.slice(0, 1));
    assert.deepEqual(pins.list(), [], 'not resolved against half a history');
    converse(f.transcript, TURNS.slice(1));
    statusChanged();
    assert.deepEqual(pins.list(), [], 'still loading');
    assert.equal(messages(f.transcript)[2]!.pinned, undefined);
    f.state.phase = { kind: 'ready', text: '' };
    statusChanged();
    assert.deepEqual(pins.list().map((p) => p.id), [messages(f.transcript)[2]!.id]);
  });

  it('identity: the same text nearest the ordinal when the history differs; none when the text is gone (still listed, can be unpinned)', async () => {
    fs.writeFileSync(
      path.join(dir, 's1.pins.json'),
      JSON.stringify({
        v: 1,
        pins: [
          { role: 'user', ordinal: 1, hash: textHash('And farewell?'), text: 'And farewell?' },
          { role: 'agent', ordinal: 0, hash: textHash('An answer that is not there'), text: 'An answer that is not there' },
        ],
      }),
    );
    const { f, pins, reset } = setup(dir, { target: 's1' });
    // One more turn before: the pinned prompt is now the third user message.
    converse(f.transcript, [['A first question', 'A first answer'], ...TURNS]);
    reset.fire();
    await pins.whenRead();
    const farewell = messages(f.transcript).find((m) => m.text === 'And farewell?')!;
    assert.deepEqual(
      pins.list().map((p) => [p.text, p.id]),
      [
        ['And farewell?', farewell.id],
        ['An answer that is not there', undefined],
      ],
    );
    assert.equal(pins.unpin(pins.list()[1]!.key), true);
    assert.deepEqual(pins.list().map((p) => p.text), ['And farewell?']);
  });

  it('an answer pinned while it streams: the pin follows its text, so a reload finds it whole', async () => {
    const { f, pins, statusChanged } = setup(dir, { sessionId: 's1' });
    pins.attached({} as AgentRuntime, 's1');
    f.transcript.addUserPrompt('Explain');
    f.transcript.apply(agent('The first part'));
    const answer = messages(f.transcript)[1]!;
    pins.pin(answer.id);
    f.transcript.apply(agent(', and the rest.'));
    statusChanged(); // the turn ended
    await pins.flushed();
    const stored = JSON.parse(fs.readFileSync(path.join(dir, 's1.pins.json'), 'utf8')) as { pins: { hash: string; text: string }[] };
    assert.deepEqual(stored.pins.map((p) => [p.hash, p.text]), [[textHash('The first part, and the rest.'), 'The first part, and the rest.']]);
    assert.equal(pins.list()[0]?.id, answer.id);
  });

  it('reads the pins file tolerantly: a bad file is no pins, bad entries are skipped, duplicates once', () => {
    const good = { role: 'agent', ordinal: 2, hash: 'a'.repeat(16), text: 'x'.repeat(500) };
    assert.deepEqual(parsePins('not json'), []);
    assert.deepEqual(parsePins('null'), []);
    assert.deepEqual(parsePins(JSON.stringify({ v: 2, pins: [good] })), []);
    const out = parsePins(JSON.stringify({ v: 1, pins: [good, good, { ...good, role: 'system' }, { ...good, ordinal: -1 }, { ...good, hash: '<img>' }, null, 7] }));
    assert.equal(out.length, 1);
    assert.equal(out[0]!.text.length, 160);
  });
});
