// elicitation/create from a fake agent: asked in the session's panel — a form
// round-trips its values (a wrong one comes back with its reason), a URL is
// only opened on the user's click; nothing goes through dialogs. Questions
// not about a session go through dialogs, one at a time.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ElicitationItem } from '../../src/shared/transcriptTypes';
import type { ShownDialog } from '../../src/testHooks';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

describe('Elicitation (form and URL)', function () {
  this.timeout(60_000);

  after(async () => {
    const a = await api();
    a.testing.setElicitationUi(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('a form in the panel round-trips typed values (a wrong one is shown with its reason); a URL is declined without opening', async () => {
    const a = await api();
    const dialogs: string[] = [];
    a.testing.setElicitationUi({
      start: async () => (dialogs.push('start'), undefined),
      field: async () => (dialogs.push('field'), undefined),
      url: async () => (dialogs.push('url'), undefined),
    });
    const panel = a.openChat('fake-elicit');
    await waitForStatus(panel, 'connected', connected);
    // This test's answers only: other tests ask this agent too.
    const recorded = readRecord('elicit').length;
    const turn = panel.session.prompt('deploy it');
    const items = () => panel.session.transcript.items.filter((i): i is ElicitationItem => i.kind === 'elicitation');
    const form = await waitFor('the form in the panel', () => items().find((i) => i.mode === 'form'));
    const init = readRecord('elicit').find((r) => r.msg?.method === 'initialize').msg;
    assert.deepEqual(init.params.clientCapabilities.elicitation, { form: {}, url: {} });
    assert.equal(form.message, 'Configure the deploy');
    assert.deepEqual(form.fields.map((f) => `${f.key}:${f.kind}${f.required ? '*' : ''}`), ['name:string*', 'region:enum', 'replicas:integer*', 'public:boolean', 'features:multi']);
    // Too short a name and no replicas: not sent; the reasons are on the form.
    assert.equal(await panel.session.elicitations.answer(form.id, 'accept', { name: 'x', region: 'eu' }), false);
    assert.deepEqual(form.errors, { name: 'At least 2 characters.', replicas: 'replicas is required.' });
    assert.equal(form.state, 'pending');
    assert.equal(await panel.session.elicitations.answer(form.id, 'accept', { name: 'shop', region: 'eu', replicas: '3', public: 'true', features: ['logs', 'traces'] }), true);
    assert.equal(form.state, 'accepted');
    assert.equal(await panel.session.elicitations.answer(form.id, 'decline'), false, 'a second answer does not count');
    const url = await waitFor('the URL in the panel', () => items().find((i) => i.mode === 'url'));
    assert.deepEqual([url.host, url.url], ['login.example.com', 'https://login.example.com/device?code=ABC']);
    // Declined as the panel's Decline button posts it, with the browser watched: nothing is opened.
    const opened: string[] = [];
    a.testing.watchOpenExternal((uri) => opened.push(uri.toString(true)));
    try {
      a.testing.postFromWebview(panel, { type: 'elicitation', id: url.id, action: 'decline' });
      assert.equal(await turn, 'end_turn');
    } finally {
      a.testing.watchOpenExternal(undefined);
    }
    assert.deepEqual(opened, [], 'a declined URL is never opened');
    const results = readRecord('elicit').slice(recorded).filter((r) => r.dir === 'in' && r.msg?.id?.startsWith?.('agent-') && r.msg.method === undefined).map((r) => r.msg.result);
    assert.deepEqual(results[0], { action: 'accept', content: { name: 'shop', region: 'eu', replicas: 3, public: true, features: ['logs', 'traces'] } });
    assert.deepEqual(results[1], { action: 'decline' });
    assert.equal(url.state, 'declined');
    assert.deepEqual(dialogs, [], 'session elicitations are never asked in dialogs');
  });

  it('a subagent’s question is asked inside its card and answered to the agent; one for a child never announced is not asked (cancel)', async () => {
    const a = await api();
    const panel = a.openChat('fake-subagent-elicit');
    await waitForStatus(panel, 'connected', connected);
    const recorded = readRecord('subagent-elicit').length;
    // A question about a session not open here is not a question outside a session: no dialog either.
    const dialogs: string[] = [];
    a.testing.setElicitationDialogs(async (shown) => (dialogs.push(shown.message), undefined));
    const turn = panel.session.prompt('delegate');
    const q = await waitFor('the subagent’s question', () => panel.session.transcript.items.find((i): i is ElicitationItem => i.kind === 'elicitation'));
    const card = panel.session.transcript.items.find((i) => i.kind === 'subagent' && (i as { sessionId?: string }).sessionId === 'child-asker');
    assert.ok(card, 'the subagent’s card');
    assert.equal(q.parent, card.id, 'the question is one of the card’s items');
    assert.equal(q.message, 'Which branch should I use?');
    // Answered as the panel's form posts it.
    a.testing.postFromWebview(panel, { type: 'elicitation', id: q.id, action: 'accept', values: { branch: 'main' } });
    assert.equal(await turn, 'end_turn');
    const results = readRecord('subagent-elicit').slice(recorded).filter((r) => r.dir === 'in' && r.msg?.id?.startsWith?.('agent-') && r.msg.method === undefined).map((r) => r.msg.result);
    assert.deepEqual(results, [{ action: 'accept', content: { branch: 'main' } }, { action: 'cancel' }]);
    assert.equal(panel.session.transcript.items.filter((i) => i.kind === 'elicitation').length, 1, 'the stray question was never shown');
    assert.deepEqual(dialogs, [], 'nor asked in a dialog');
    a.testing.setElicitationDialogs(undefined);
  });

  it('closing the panel answers its waiting elicitation "cancel"', async () => {
    const a = await api();
    const panel = a.openChat('fake-elicit');
    await waitForStatus(panel, 'connected', connected);
    void panel.session.prompt('deploy it');
    await waitFor('the form in the panel', () => panel.session.transcript.items.find((i) => i.kind === 'elicitation'));
    const before = readRecord('elicit').length;
    panel.panel.dispose();
    const answer = await waitFor('the answer to the form', () => readRecord('elicit').slice(before).find((r) => r.dir === 'in' && r.msg?.id?.startsWith?.('agent-') && r.msg.method === undefined));
    assert.deepEqual(answer.msg.result, { action: 'cancel' });
  });

  it('questions not about a session: at most 16 of one agent wait behind the one asked; the ones beyond are declined at once and logged', async () => {
    const a = await api();
    const shown: ShownDialog[] = [];
    const answer: ((choice: string | undefined) => void)[] = [];
    a.testing.setElicitationDialogs(async (d) => {
      shown.push(d);
      return await new Promise<string | undefined>((resolve) => answer.push(resolve));
    });
    const panel = a.openChat('fake-elicit-flood');
    await waitForStatus(panel, 'connected', connected);
    const recorded = readRecord('elicit-flood').length;
    const answers = () => readRecord('elicit-flood').slice(recorded).filter((r) => r.dir === 'in' && r.msg?.id?.startsWith?.('agent-') && r.msg.method === undefined);
    const turn = panel.session.prompt('ask twenty');
    await waitFor('the first dialog', () => shown[0]);
    await waitFor('sixteen waiting', () => (a.testing.elicitationsQueued() === 16 ? true : undefined));
    const early = await waitFor('three answered at once', () => (answers().length === 3 ? answers() : undefined));
    assert.deepEqual(early.map((r) => r.msg.result), [{ action: 'decline' }, { action: 'decline' }, { action: 'decline' }]);
    assert.equal(shown.length, 1, 'still the one dialog');
    assert.equal(a.testing.logLines().filter((l) => l.includes('declined at once, 16 of its questions already wait')).length, 3);
    answer[0]!('Decline All from This Agent');
    assert.equal(await turn, 'end_turn');
    assert.equal(answers().length, 20);
    assert.equal(shown.length, 1);
    assert.equal(a.testing.elicitationsQueued(), 0);
  });

  it('questions not about a session: one dialog at a time, the others wait (the agent may withdraw one); "Decline All from This Agent" declines the waiting and the later ones', async () => {
    const a = await api();
    const shown: ShownDialog[] = [];
    const answer: ((choice: string | undefined) => void)[] = [];
    let open = 0;
    let most = 0;
    a.testing.setElicitationDialogs(async (d) => {
      shown.push(d);
      most = Math.max(most, ++open);
      try {
        return await new Promise<string | undefined>((resolve) => answer.push(resolve));
      } finally {
        open--;
      }
    });
    const go = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.elicit-queue-go');
    fs.rmSync(go, { force: true });
    const panel = a.openChat('fake-elicit-queue');
    await waitForStatus(panel, 'connected', connected);
    const recorded = readRecord('elicit-queue').length;
    const turn = panel.session.prompt('ask me');
    const first = await waitFor('the first dialog', () => shown[0]);
    await waitFor('three questions waiting behind it', () => (a.testing.elicitationsQueued() === 3 ? true : undefined));
    assert.equal(shown.length, 1, 'one dialog at a time');
    assert.equal(first.message, 'Fake: elicit-queue asks: Q1');
    assert.deepEqual(first.items, ['Fill In', 'Decline', 'Decline All from This Agent']);
    // The agent withdraws Q2 while it waits: it leaves the queue, never shown.
    fs.writeFileSync(go, '');
    await waitFor('Q2 withdrawn', () => (a.testing.elicitationsQueued() === 2 ? true : undefined));
    answer[0]!('Decline');
    const second = await waitFor('the second dialog', () => shown[1]);
    assert.equal(second.message, 'Fake: elicit-queue asks you to open a page on login.example.com');
    assert.match(second.detail ?? '', /^Q3\n/);
    assert.match(second.detail ?? '', /1 more question is waiting\. "Decline All from This Agent" also declines its other questions until it restarts\.$/);
    answer[1]!('Decline All from This Agent');
    assert.equal(await turn, 'end_turn');
    assert.equal(shown.length, 2, 'Q4 (waiting) and Q5 (asked after) were declined without a dialog');
    assert.equal(most, 1, 'never two dialogs at once');
    const rec = readRecord('elicit-queue').slice(recorded);
    const answerTo = (q: string) => {
      const id = rec.find((r) => r.dir === 'out' && r.msg?.method === 'elicitation/create' && r.msg.params?.message === q)?.msg.id;
      return rec.find((r) => r.dir === 'in' && r.msg?.id === id && r.msg.method === undefined)?.msg;
    };
    assert.deepEqual(answerTo('Q1')?.result, { action: 'decline' });
    assert.equal(answerTo('Q2')?.error?.code, -32800, 'the withdrawn one is answered "cancelled"');
    assert.deepEqual(answerTo('Q3')?.result, { action: 'decline' });
    assert.deepEqual(answerTo('Q4')?.result, { action: 'decline' });
    assert.deepEqual(answerTo('Q5')?.result, { action: 'decline' });
  });
});
