// Send now and steering: where the agent advertises `_meta.steering.supported` in its initialize
// result, Send now puts the queued message into the running turn with `_session/steering` (the
// promptRequired opt-in always sent) instead of stopping it; a steer that lost the race with the
// turn's end becomes an ordinary prompt; an error answer falls back to Stop and send. The fake
// agents serve `_session/steering` as claude-agent-acp 0.101 and codex-acp 2.6 do.
import * as assert from 'node:assert/strict';
import { api, closeAllEditors, connected, nextLogLine, readRecord, waitFor, waitForStatus } from './helpers';

/** What the agent received after `from`: prompts (by text), cancels and steers, in order. */
function wire(scenario: string, from: number): string[] {
  return readRecord(scenario)
    .slice(from)
    .filter((r) => r.dir === 'in' && ['session/prompt', 'session/cancel', '_session/steering'].includes(r.msg?.method))
    .map((r) => (r.msg.method === 'session/cancel' ? 'cancel' : `${r.msg.method === 'session/prompt' ? 'prompt' : 'steer'} ${r.msg.params.prompt.map((b: { text?: string }) => b.text ?? '').join('')}`));
}

function userTexts(items: readonly { kind: string }[]): string[] {
  return items.filter((i) => i.kind === 'user').map((i) => (i as unknown as { text: string }).text);
}

describe('Send now steers the running turn', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  it('an agent that steers: the message joins the running turn (one prompt answer, shown once, no cancel)', async () => {
    const a = await api();
    const panel = a.openChat('fake-steering');
    await waitForStatus(panel, 'connected', connected);
    const before = readRecord('steering').length;
    const one = panel.session.prompt('one');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    const two = panel.session.prompt('two');
    assert.equal(panel.session.transcript.header.sendNow, 'steer', 'the strip says Send now steers the running turn');
    const id = panel.session.queue.queued.find((q) => q.text === 'two')!.id;
    assert.equal(await panel.session.queue.act('sendNow', id), true);
    assert.deepEqual(await Promise.all([one, two]), ['end_turn', 'end_turn'], 'the steered message ends with the running turn');
    assert.deepEqual(wire('steering', before), ['prompt one', 'steer two'], 'one session/prompt, one steer, no cancel');
    const steerMsg = readRecord('steering').slice(before).find((r) => r.dir === 'in' && r.msg?.method === '_session/steering')!.msg;
    assert.deepEqual(steerMsg.params._meta, { steering: { idleBehavior: 'promptRequired' } }, 'always with the promptRequired opt-in');
    assert.equal(readRecord('steering').slice(before).filter((r) => r.dir === 'steered').length, 1, 'the agent put it into the running turn');
    const items = panel.session.transcript.items;
    assert.deepEqual(userTexts(items).slice(-2), ['one', 'two'], 'the steered message is shown once, after the first');
    const ends = items.filter((i) => i.kind === 'turn-end');
    assert.equal(ends.length, 1, 'one turn, one end');
    const last = items.filter((i) => i.kind === 'agent').map((i) => (i as unknown as { text: string }).text).join('');
    assert.match(last, /Steered: two\./, 'the agent answered it in the same turn');
    assert.deepEqual(panel.session.transcript.header.queue, []);
  });

  it('a steer that loses the race with the turn end is sent as an ordinary prompt (promptRequired)', async () => {
    const a = await api();
    const panel = a.openChat('fake-steering-late');
    await waitForStatus(panel, 'connected', connected);
    const before = readRecord('steering-late').length;
    const answered = nextLogLine(a, (l) => l.includes('steer: _session/steering answered promptRequired'));
    const one = panel.session.prompt('one');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    const two = panel.session.prompt('two');
    assert.equal(await panel.session.queue.act('sendNow', panel.session.queue.queued[0]!.id), true);
    await answered.wait('the steer to be answered promptRequired');
    assert.deepEqual(await Promise.all([one, two]), ['end_turn', 'end_turn']);
    assert.deepEqual(wire('steering-late', before), ['prompt one', 'steer two', 'prompt two'], 'no cancel; the message went as a prompt of its own');
    assert.deepEqual(readRecord('steering-late').filter((r) => r.dir === 'overlap'), []);
    assert.deepEqual(userTexts(panel.session.transcript.items).slice(-2), ['one', 'two'], 'shown once');
    assert.equal(panel.session.transcript.items.filter((i) => i.kind === 'turn-end').length, 2);
  });

  it('an error answer to the steer falls back to stopping the turn and sending, with a log line', async () => {
    const a = await api();
    const panel = a.openChat('fake-steering-error');
    await waitForStatus(panel, 'connected', connected);
    const before = readRecord('steering-error').length;
    const logged = nextLogLine(a, (l) => l.includes('steer: _session/steering failed') && l.includes('steering is broken here'));
    const one = panel.session.prompt('one');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    const two = panel.session.prompt('two');
    assert.equal(await panel.session.queue.act('sendNow', panel.session.queue.queued[0]!.id), true);
    await logged.wait('the failed steer to be logged');
    assert.deepEqual(await Promise.all([one, two]), ['cancelled', 'end_turn']);
    assert.deepEqual(wire('steering-error', before), ['prompt one', 'steer two', 'cancel', 'prompt two']);
    assert.deepEqual(userTexts(panel.session.transcript.items).slice(-2), ['one', 'two'], 'shown once');
  });

  it('an agent without steering: Send now stops the turn and sends (as before), and the strip says so', async () => {
    const a = await api();
    const panel = a.openChat('fake-queue');
    await waitForStatus(panel, 'connected', connected);
    const before = readRecord('queue').length;
    const one = panel.session.prompt('one');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    const two = panel.session.prompt('two');
    assert.equal(panel.session.transcript.header.sendNow, 'stop', 'the strip says Send now stops the turn');
    assert.equal(await panel.session.queue.act('sendNow', panel.session.queue.queued[0]!.id), true);
    assert.deepEqual(await Promise.all([one, two]), ['cancelled', 'end_turn']);
    assert.deepEqual(wire('queue', before), ['prompt one', 'cancel', 'prompt two'], 'no _session/steering to an agent that did not advertise it');
  });
});
