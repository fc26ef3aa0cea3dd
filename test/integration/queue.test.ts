// Messages typed while a turn runs: queued, sent one per turn in order (the
// fake agent refuses an overlapping session/prompt), Send now stops the turn
// and goes first, a plain Stop leaves the queue waiting (a new message then
// goes behind it, and sending resumes it in order).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, nextLogLine, readRecord, waitFor, waitForStatus } from './helpers';

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
    assert.deepEqual(panel.session.queue.queued.map((q) => q.text), ['two', 'three', 'four']);
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
    const id = panel.session.queue.queued.find((q) => q.text === 'seven')!.id;
    assert.equal(await panel.session.queue.act('sendNow', id), true);
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
    const waits = nextLogLine(a, (l) => l.includes('queue: 2 message(s) wait (stopped)'));
    await panel.session.cancel();
    assert.equal(await eight, 'cancelled');
    // The queue's decision at the turn's end, logged: it waits (sending would have begun instead).
    await waits.wait('the queue to say it waits');
    assert.deepEqual(panel.session.queue.queued.map((q) => q.text), ['nine', 'ten'], 'still queued after Stop');
    assert.equal(promptTexts().includes('nine'), false);
    assert.equal(await panel.session.queue.act('remove', panel.session.queue.queued[0]!.id), true);
    assert.equal(await nine, undefined, 'a removed message is never sent');
    // Send now with no turn running sends at once.
    assert.equal(await panel.session.queue.act('sendNow', panel.session.queue.queued[0]!.id), true);
    assert.equal(await ten, 'end_turn');
    assert.equal(promptTexts().includes('nine'), false);
    assert.deepEqual(readRecord('queue').filter((r) => r.dir === 'overlap'), []);
  });

  it('two prompts sent in the same tick (building the first reads an attached file) arrive as two turns, never overlapping', async () => {
    const a = await api();
    const panel = a.openChat('fake-queue');
    await waitForStatus(panel, 'connected', connected);
    const before = readRecord('queue').length;
    const file = { kind: 'file' as const, uri: vscode.Uri.file(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'src', 'greet.ts')).toString(), name: 'greet.ts' };
    const alpha = panel.session.prompt('alpha', [file]);
    const beta = panel.session.prompt('beta', [file]);
    assert.equal(panel.session.isBusy, true, 'the first prompt holds the turn while its attachment is read');
    assert.deepEqual(panel.session.queue.queued.map((q) => q.text), ['beta'], 'the second waits for its own turn');
    assert.deepEqual(panel.session.transcript.header.queue?.[0]?.attachments, [file], 'a queued message keeps its attachments (Edit gives them back)');
    assert.deepEqual(await Promise.all([alpha, beta]), ['end_turn', 'end_turn']);
    const rec = readRecord('queue').slice(before);
    assert.deepEqual(rec.filter((r) => r.dir === 'overlap'), [], 'no session/prompt while another ran');
    const prompts = rec.filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt').map((r) => r.msg.params.prompt);
    assert.deepEqual(prompts.map((p) => p[0].text), ['alpha', 'beta']);
    assert.deepEqual(prompts.map((p) => p[1]?.type), ['resource', 'resource'], 'each with the file read and embedded');
  });

  it('after Stop, a new message goes behind the waiting ones, and sending it resumes the queue in order', async () => {
    const a = await api();
    const panel = a.openChat('fake-queue');
    await waitForStatus(panel, 'connected', connected);
    const before = promptTexts().length;
    const red = panel.session.prompt('red');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    const green = panel.session.prompt('green');
    const blue = panel.session.prompt('blue');
    const waits = nextLogLine(a, (l) => l.includes('queue: 2 message(s) wait (stopped)'));
    await panel.session.cancel();
    assert.equal(await red, 'cancelled');
    // The queue's decision at the turn's end, logged: it waits (sending would have begun instead).
    await waits.wait('the queue to say it waits');
    assert.deepEqual(panel.session.queue.queued.map((q) => q.text), ['green', 'blue'], 'the queue waits after Stop');
    const yellow = panel.session.prompt('yellow');
    assert.deepEqual(panel.session.queue.queued.map((q) => q.text), ['blue', 'yellow'], 'the first queued goes first; the new one is last');
    assert.deepEqual(await Promise.all([green, blue, yellow]), ['end_turn', 'end_turn', 'end_turn']);
    assert.deepEqual(promptTexts().slice(before), ['red', 'green', 'blue', 'yellow']);
    assert.deepEqual(readRecord('queue').filter((r) => r.dir === 'overlap'), []);
    assert.deepEqual(panel.session.transcript.header.queue, []);
  });
});
