// Messages typed while a turn runs: queued, sent one per turn in order (the
// fake agent refuses an overlapping session/prompt), Send now stops the turn
// and goes first, a plain Stop leaves the queue waiting.
import * as assert from 'node:assert/strict';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

/** The text of each session/prompt the agent received, in order. */
function promptTexts(): string[] {
  return readRecord('queue')
    .filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt')
    .map((r) => r.msg.params.prompt.map((b: { text?: string }) => b.text ?? '').join(''));
}

describe('Message queue', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  it('three messages typed during a turn arrive as three later turns, in order, never overlapping', async () => {
    const a = await api();
    const panel = a.openChat('fake-queue');
    await waitForStatus(panel, 'connected', connected);
    const before = promptTexts().length;
    const first = panel.session.prompt('one');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    assert.equal(panel.session.status.inputEnabled, true, 'the composer stays usable while the agent works');
    const later = ['two', 'three', 'four'].map((t) => panel.session.prompt(t));
    assert.deepEqual(panel.session.queued.map((q) => q.text), ['two', 'three', 'four']);
    assert.deepEqual(panel.session.transcript.header.queue?.map((q) => q.text), ['two', 'three', 'four'], 'the panel shows the queue');
    assert.deepEqual(await Promise.all([first, ...later]), ['end_turn', 'end_turn', 'end_turn', 'end_turn']);
    assert.deepEqual(promptTexts().slice(before), ['one', 'two', 'three', 'four']);
    assert.deepEqual(readRecord('queue').filter((r) => r.dir === 'overlap'), [], 'no session/prompt while another ran');
    assert.deepEqual(panel.session.transcript.items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text).slice(-4), ['one', 'two', 'three', 'four']);
    assert.deepEqual(panel.session.transcript.header.queue, []);
  });

  it('Send now stops the running turn and sends that message first; after a plain Stop the queue waits; Remove drops one', async () => {
    const a = await api();
    const panel = a.openChat('fake-queue');
    await waitForStatus(panel, 'connected', connected);
    const before = readRecord('queue').length;
    const five = panel.session.prompt('five');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    const six = panel.session.prompt('six');
    const seven = panel.session.prompt('seven');
    const id = panel.session.queued.find((q) => q.text === 'seven')!.id;
    assert.equal(await panel.session.queueAction('sendNow', id), true);
    assert.equal(await five, 'cancelled');
    assert.deepEqual(await Promise.all([seven, six]), ['end_turn', 'end_turn']);
    const wire = readRecord('queue')
      .slice(before)
      .filter((r) => r.dir === 'in' && (r.msg?.method === 'session/prompt' || r.msg?.method === 'session/cancel'))
      .map((r) => (r.msg.method === 'session/cancel' ? 'cancel' : r.msg.params.prompt[0].text));
    assert.deepEqual(wire, ['five', 'cancel', 'seven', 'six']);

    // A plain Stop: the queued message waits (it is not sent by itself).
    const eight = panel.session.prompt('eight');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    const nine = panel.session.prompt('nine');
    const ten = panel.session.prompt('ten');
    await panel.session.cancel();
    assert.equal(await eight, 'cancelled');
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(panel.session.queued.map((q) => q.text), ['nine', 'ten'], 'still queued after Stop');
    assert.equal(promptTexts().includes('nine'), false);
    assert.equal(await panel.session.queueAction('remove', panel.session.queued[0]!.id), true);
    assert.equal(await nine, undefined, 'a removed message is never sent');
    // Send now with no turn running sends at once.
    assert.equal(await panel.session.queueAction('sendNow', panel.session.queued[0]!.id), true);
    assert.equal(await ten, 'end_turn');
    assert.equal(promptTexts().includes('nine'), false);
    assert.deepEqual(readRecord('queue').filter((r) => r.dir === 'overlap'), []);
  });
});
