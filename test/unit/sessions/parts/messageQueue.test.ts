// The message queue part: prompts sent while a turn runs wait, one goes per
// turn; Stop holds the queue, Send now stops the turn for its message.
import * as assert from 'node:assert/strict';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import { MessageQueue } from '../../../../src/sessions/parts/messageQueue';
import type { TurnClaim } from '../../../../src/sessions/promptTurn';
import { fakeCore, tick } from './fakeCore';

function setup() {
  const f = fakeCore();
  f.state.runtime = { capabilities: { supportsPrompt: () => true } } as unknown as AgentRuntime;
  const sent: string[] = [];
  let cancels = 0;
  let finish: ((r: string) => void) | undefined;
  const turns = {
    claim: (): TurnClaim | undefined => (f.state.busy ? undefined : ((f.state.busy = true), { cancelled: false })),
    release: () => undefined,
    send: (_rt: AgentRuntime, _sid: string, text: string) => {
      sent.push(text);
      return new Promise<string | undefined>((r) => (finish = (reason) => ((f.state.busy = false), r(reason))));
    },
    cancel: async () => void cancels++,
  };
  const linked: string[] = [];
  const queue = new MessageQueue(f.core, turns, { begin: (p) => `cp-${p}`, link: (cp, id) => void linked.push(`${cp}→${id}`) });
  /** Ends the running turn the way PromptTurns does: resolve, then the end-of-turn event. */
  const end = (reason: string) => {
    finish!(reason);
    queue.turnEnded('s1', reason);
  };
  return { f, queue, sent, end, linked, cancels: () => cancels };
}

describe('sessions/parts: message queue', () => {
  it('a prompt is shown, archived and sent at once; one typed during the turn waits and goes when it ends', async () => {
    const { f, queue, sent, end, linked } = setup();
    const first = queue.prompt('one');
    await tick();
    assert.deepEqual(sent, ['one']);
    assert.equal(f.transcript.items[0]?.kind, 'user');
    assert.deepEqual(linked, [`cp-one→${f.transcript.items[0]!.id}`]);
    assert.deepEqual(f.archived[0], ['s1', { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'one' } }]);
    const second = queue.prompt('two');
    assert.deepEqual(queue.queued.map((q) => q.text), ['two']);
    assert.deepEqual(f.transcript.header.queue?.map((q) => q.text), ['two']);
    end('end_turn');
    assert.equal(await first, 'end_turn');
    await tick();
    assert.deepEqual(sent, ['one', 'two']);
    assert.deepEqual(queue.queued, []);
    end('end_turn');
    assert.equal(await second, 'end_turn');
  });

  it('after a plain Stop the queue waits; Send now stops the running turn and goes first', async () => {
    const { f, queue, sent, end, cancels } = setup();
    void queue.prompt('running');
    await tick();
    void queue.prompt('a');
    const b = queue.prompt('b');
    end('cancelled');
    await tick();
    assert.deepEqual(sent, ['running'], 'nothing is sent after a plain Stop');
    assert.match(f.logs.at(-1)!, /2 message\(s\) wait \(stopped\)/);
    // Sending again resumes the queue in order: the new message goes behind.
    void queue.prompt('c');
    await tick();
    assert.deepEqual(sent, ['running', 'a']);
    const idB = queue.queued.find((q) => q.text === 'b')!.id;
    assert.equal(await queue.act('sendNow', idB), true);
    assert.equal(cancels(), 1, 'the running turn is stopped for it');
    assert.deepEqual(queue.queued.map((q) => q.text), ['b', 'c']);
    end('cancelled');
    await tick();
    assert.deepEqual(sent, ['running', 'a', 'b'], 'a Send now goes on even though the turn ended cancelled');
    end('end_turn');
    assert.equal(await b, 'end_turn');
  });

  it('Send now with an agent that steers: injected joins the running turn (shown once, no cancel), ends with it', async () => {
    const { f, queue, sent, end, cancels } = setup();
    const steered: string[] = [];
    const answers: (() => Promise<string>)[] = [async () => 'injected'];
    f.state.runtime = { capabilities: { supportsPrompt: () => true }, initializeResult: { steering: true }, connection: { steer: async (_s: string, blocks: { text: string }[]) => (steered.push(blocks[0]!.text), await answers.shift()!()) } } as unknown as AgentRuntime;
    const first = queue.prompt('running');
    await tick();
    const second = queue.prompt('steer me');
    assert.equal(f.transcript.header.sendNow, 'steer');
    assert.equal(await queue.act('sendNow', queue.queued[0]!.id), true);
    assert.deepEqual(steered, ['steer me']);
    assert.equal(cancels(), 0, 'the turn is not stopped');
    assert.deepEqual(queue.queued, []);
    assert.deepEqual(f.transcript.items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text), ['running', 'steer me']);
    assert.deepEqual(f.archived.at(-1), ['s1', { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'steer me' } }]);
    end('end_turn');
    assert.deepEqual(await Promise.all([first, second]), ['end_turn', 'end_turn']);
    await tick();
    assert.deepEqual(sent, ['running'], 'no prompt of its own');
  });

  it('Send now with an agent that steers: promptRequired goes as the next prompt; an error falls back to Stop and send', async () => {
    const { f, queue, sent, end, cancels } = setup();
    const answers: (() => Promise<string>)[] = [async () => 'promptRequired', async () => Promise.reject(new Error('steering broke'))];
    f.state.runtime = { capabilities: { supportsPrompt: () => true }, initializeResult: { steering: true }, connection: { steer: async () => await answers.shift()!() } } as unknown as AgentRuntime;
    void queue.prompt('running');
    await tick();
    const late = queue.prompt('late');
    await queue.act('sendNow', queue.queued[0]!.id);
    assert.equal(cancels(), 0);
    assert.deepEqual(queue.queued.map((q) => q.text), ['late'], 'first in line again');
    end('end_turn');
    await tick();
    assert.deepEqual(sent, ['running', 'late']);
    const broken = queue.prompt('broken');
    await queue.act('sendNow', queue.queued[0]!.id);
    assert.equal(cancels(), 1, 'the running turn is stopped for it');
    assert.ok(f.logs.some((l) => /steer: _session\/steering failed \(steering broke\)/.test(l)), f.logs.join('\n'));
    end('cancelled');
    assert.equal(await late, 'cancelled');
    await tick();
    assert.deepEqual(sent, ['running', 'late', 'broken']);
    end('end_turn');
    assert.equal(await broken, 'end_turn');
    assert.equal(f.transcript.items.filter((i) => i.kind === 'user' && (i as { text: string }).text === 'broken').length, 1, 'shown once');
  });

  it('remove and edit take a message out (it resolves without a turn); the header carries images without their bytes', async () => {
    const { f, queue } = setup();
    f.state.busy = true;
    const image = { kind: 'image' as const, name: 'shot.png', mimeType: 'image/png', data: 'AAAA' };
    const waiting = queue.prompt('look', [image]);
    const id = queue.queued[0]!.id;
    assert.deepEqual(queue.attachments(id), [image]);
    assert.equal((f.transcript.header.queue?.[0]?.attachments[0] as { data: string }).data, '');
    assert.equal(await queue.act('edit', id), true);
    assert.equal(await waiting, undefined);
    assert.equal(await queue.act('remove', id), false, 'already gone');
  });

  it('while an agent by URL is connected again, what is typed waits (after a failed turn too) and goes in order once the session is open again; with no session and no reconnect it is not taken', async () => {
    const { f, queue, sent, end } = setup();
    void queue.prompt('cut off');
    await tick();
    const behind = queue.prompt('behind it');
    // The connection went: the turn failed, the session is detached, the panel is reconnecting.
    f.state.busy = false;
    queue.turnEnded('s1', undefined);
    const rt = f.state.runtime;
    f.state.runtime = undefined;
    f.state.sessionId = undefined;
    f.state.phase = { kind: 'reconnecting', text: 'lost' };
    const away = queue.prompt('typed while away');
    await tick();
    assert.deepEqual(queue.queued.map((q) => q.text), ['behind it', 'typed while away']);
    assert.deepEqual(sent, ['cut off'], 'nothing sent while disconnected');
    assert.match(f.logs.join('\n'), /a message waits for the connection \(2 queued\)/);
    // Open again (a new session): resume sends them, one per turn.
    Object.assign(f.state, { runtime: rt, sessionId: 's2', phase: { kind: 'ready', text: '' } });
    queue.resume();
    await tick();
    assert.deepEqual(sent, ['cut off', 'behind it']);
    end('end_turn');
    assert.equal(await behind, 'end_turn');
    await tick();
    assert.deepEqual(sent, ['cut off', 'behind it', 'typed while away']);
    end('end_turn');
    assert.equal(await away, 'end_turn');
    // Failed for good (not reconnecting), nothing open: a prompt is refused, not queued.
    Object.assign(f.state, { runtime: undefined, sessionId: undefined, phase: { kind: 'failed', text: 'gone' } });
    assert.equal(await queue.prompt('into the void'), undefined);
    assert.deepEqual(queue.queued, []);
  });

  it('closing the panel resolves the waiting messages; a prompt after it is not sent', async () => {
    const { f, queue, sent } = setup();
    f.state.busy = true;
    const waiting = queue.prompt('later');
    queue.dispose();
    assert.equal(await waiting, undefined);
    f.state.busy = false;
    assert.equal(await queue.prompt('after'), undefined);
    assert.deepEqual(sent, []);
  });
});
