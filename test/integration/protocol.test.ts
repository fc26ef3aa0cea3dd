// The protocol as of schema 1.34 on the wire, with fake agents: what the client
// opts in to, subagents (child sessions), plan operations, the legacy model
// picker, and `$/cancel_request` in both directions.
import * as assert from 'node:assert/strict';
import type { ElicitationItem, PermissionItem, PlanItem, SessionMessageItem, SubagentItem, TurnEndItem } from '../../src/shared/transcriptTypes';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

/** Messages the client sent to the agent (requests and notifications) that name a session. */
function sentAbout(scenario: string, sessionId: string): string[] {
  return readRecord(scenario)
    .filter((r) => r.dir === 'in' && typeof r.msg?.method === 'string' && r.msg.params?.sessionId === sessionId)
    .map((r) => r.msg.method);
}

describe('Protocol 1.34: subagents, plan operations, models, cancellation', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  it('advertises exactly the client capabilities it implements (subagents and plan included)', async () => {
    const a = await api();
    const panel = a.openChat('fake-subagents');
    await waitForStatus(panel, 'connected', connected);
    const init = readRecord('subagents').find((r) => r.msg?.method === 'initialize').msg;
    assert.deepEqual(init.params.clientCapabilities, {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      auth: { terminal: true },
      elicitation: { form: {}, url: {} },
      session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
      subagents: {},
      plan: {},
      _meta: { 'terminal-auth': true },
    });
  });

  it('a subagent streams in its own card, asks permission there, and is stopped with session/cancel — the only message sent to it', async () => {
    const a = await api();
    const panel = a.openChat('fake-subagents');
    await waitForStatus(panel, 'connected', connected);
    const parentId = panel.session.id!;
    const turn = panel.session.prompt('Refactor greet');
    const tr = () => panel.session.transcript;
    const perm = await waitFor('the subagent’s permission request', () => tr().items.find((i): i is PermissionItem => i.kind === 'permission' && i.state === 'pending'));
    const explorer = tr().items.find((i): i is SubagentItem => i.kind === 'subagent' && i.sessionId === 'child-explorer')!;
    const quiet = tr().items.find((i): i is SubagentItem => i.kind === 'subagent' && i.sessionId === 'child-quiet')!;
    assert.equal(explorer.title, 'Explorer');
    assert.equal(explorer.description, 'Reads the code and proposes an edit');
    assert.equal(explorer.state, 'requires_action');
    assert.equal(explorer.canCancel, true);
    assert.equal(quiet.canCancel, false);
    // The child's message, tool call and permission are in its card; the quiet one's text in its own.
    const inExplorer = tr().items.filter((i) => i.parent === explorer.id);
    assert.deepEqual(inExplorer.map((i) => i.kind), ['agent', 'tool', 'permission']);
    assert.equal((inExplorer[0] as { text: string }).text, 'Looking at src/greet.ts.');
    assert.equal(perm.parent, explorer.id);
    assert.equal(perm.title, 'Edit src/greet.ts', 'the child’s own tool call (same id as the parent’s task) titles the request');
    assert.deepEqual(tr().items.filter((i) => i.parent === quiet.id).map((i) => (i as { text?: string }).text), ['Quietly counting lines.']);
    // The parent's tool call links to the card; the message to the child says who to whom.
    const task = tr().tool('task-1')!;
    assert.equal(task.parent, undefined);
    assert.deepEqual(task.content, [{ type: 'session', sessionId: 'child-explorer' }]);
    const toChild = tr().items.find((i): i is SessionMessageItem => i.kind === 'session-message' && i.messageId === 'sm-1')!;
    assert.deepEqual([toChild.from, toChild.to, toChild.text], ['Main agent', 'Explorer', 'Find where greet is used.']);

    // Answered like any permission: the agent gets the option.
    assert.equal(panel.session.permissions.answer(perm.id, 'yes'), true);
    await waitFor('the explorer running again', () => (explorer.state === 'running' ? true : undefined));
    // Stop on a card without cancel does nothing; on the explorer it sends session/cancel for the child only.
    assert.equal(await panel.session.subagents.cancel('child-quiet'), false);
    assert.equal(await panel.session.subagents.cancel('child-explorer'), true);
    assert.equal(await turn, 'end_turn', 'the parent turn goes on and ends normally');
    assert.deepEqual(sentAbout('subagents', 'child-explorer'), ['session/cancel']);
    assert.deepEqual(sentAbout('subagents', 'child-quiet'), []);
    assert.deepEqual(sentAbout('subagents', parentId).filter((m) => m === 'session/cancel'), [], 'the parent was not cancelled');
    const permAnswer = readRecord('subagents').find((r) => r.dir === 'in' && r.msg?.id === readRecord('subagents').find((o) => o.dir === 'out' && o.msg?.method === 'session/request_permission')?.msg.id);
    assert.deepEqual(permAnswer.msg.result, { outcome: { outcome: 'selected', optionId: 'yes' } });
    assert.equal(explorer.state, 'idle');
    assert.equal(explorer.stopReason, 'cancelled');
    assert.equal(quiet.stopReason, 'end_turn');
    const fromChild = tr().items.find((i): i is SessionMessageItem => i.kind === 'session-message' && i.messageId === 'sm-2')!;
    assert.deepEqual([fromChild.from, fromChild.to, fromChild.text], ['Quiet helper', 'Main agent', '412 lines.']);
  });

  it('a "subagent" announced with the id of another open session does not take it over', async () => {
    const a = await api();
    const first = a.openChat('fake-subagent-hijack');
    await waitForStatus(first, 'connected', connected);
    const second = a.openChat('fake-subagent-hijack');
    await waitForStatus(second, 'connected', connected);
    const firstId = first.session.id!;
    assert.match(firstId, /-1$/);
    assert.equal(await second.session.prompt('go'), 'end_turn');
    // The message for the first session's id stays the first session's; the second shows no items of it.
    await waitFor('the first panel to get its message', () => first.session.transcript.items.find((i) => i.kind === 'agent' && /Written to the first session/.test((i as { text: string }).text)));
    const card = second.session.transcript.child(firstId)!;
    assert.deepEqual(second.session.transcript.items.filter((i) => i.parent === card.id), []);
    // Stop on that card sends nothing: it was never adopted.
    assert.equal(await second.session.subagents.cancel(firstId), false);
    assert.deepEqual(sentAbout('subagent-hijack', firstId).filter((m) => m === 'session/cancel'), []);
  });

  it('plan operations: two plans updated in place (a checklist and a Markdown plan with its file), a third removed', async () => {
    const a = await api();
    const panel = a.openChat('fake-subagents');
    await waitForStatus(panel, 'connected', connected);
    const turn = panel.session.prompt('Plan it');
    await waitFor('the subagent’s permission request', () => panel.session.transcript.items.find((i) => i.kind === 'permission'));
    const perm = panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission')!;
    panel.session.permissions.answer(perm.id, 'no');
    await waitFor('the plan update after the answer', () => panel.session.transcript.items.find((i): i is PlanItem => i.kind === 'plan' && i.planId === 'steps' && i.entries[0]?.status === 'completed'));
    await panel.session.subagents.cancel('child-explorer');
    assert.equal(await turn, 'end_turn');
    const plans = panel.session.transcript.items.filter((i): i is PlanItem => i.kind === 'plan');
    assert.deepEqual(plans.map((p) => p.planId), ['steps', 'design'], 'the removed plan is gone, the others stay where they began');
    assert.deepEqual(plans[0]!.entries.map((e) => e.status), ['completed', 'in_progress']);
    assert.equal(plans[1]!.format, 'markdown');
    assert.match(plans[1]!.markdown!, /^# Refactor greet/);
    assert.equal(plans[1]!.path, `${panel.session.workingFolder}/PLAN.md`);
  });

  it('the agent’s $/cancel_request closes its elicitation and its permission prompt and stops a terminal wait, each answered -32800', async () => {
    const a = await api();
    const panel = a.openChat('fake-cancel-requests');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('Write the notes'), 'end_turn');
    const items = panel.session.transcript.items;
    const form = items.find((i): i is ElicitationItem => i.kind === 'elicitation')!;
    const perm = items.find((i): i is PermissionItem => i.kind === 'permission')!;
    assert.equal(form.state, 'withdrawn', 'the form went away');
    assert.equal(perm.state, 'cancelled', 'the permission prompt went away');
    const rec = readRecord('cancel-requests');
    const answer = (id: string) => rec.find((r) => r.dir === 'in' && r.msg?.id === id && r.msg.method === undefined)?.msg;
    for (const id of ['agent-1', 'agent-2', 'agent-4']) assert.equal(answer(id)?.error?.code, -32800, `${id}: ${JSON.stringify(answer(id))}`);
    assert.ok(answer('agent-3')?.result?.terminalId, 'the terminal itself was created');
    assert.deepEqual(answer('agent-5')?.result ?? answer('agent-5'), {}, 'and could still be killed after the wait was cancelled');
  });

  it('what the user gives up on is withdrawn with $/cancel_request: a load whose panel closed, a handshake that timed out', async () => {
    const a = await api();
    const panel = a.openPastSession('fake-load-hang', 'sess-long');
    const load = await waitFor('the load request', () => readRecord('load-hang').find((r) => r.dir === 'in' && r.msg?.method === 'session/load'));
    await waitFor('the replay shown', () => panel.session.transcript.items.find((i) => i.kind === 'agent'));
    panel.panel.dispose();
    const cancel = await waitFor('$/cancel_request for the load', () => readRecord('load-hang').find((r) => r.dir === 'in' && r.msg?.method === '$/cancel_request'));
    assert.deepEqual(cancel.msg.params, { requestId: load.msg.id });

    const cfg = vscode.workspace.getConfiguration('acpAgents');
    await cfg.update('initializeTimeout', 1, vscode.ConfigurationTarget.Global);
    try {
      const stuck = a.openChat('fake-hang-initialize');
      await waitForStatus(stuck, 'timeout', (s) => s.severity === 'error');
      const rec = readRecord('hang-initialize');
      const init = rec.filter((r) => r.dir === 'in' && r.msg?.method === 'initialize').at(-1);
      const withdrawn = rec.filter((r) => r.dir === 'in' && r.msg?.method === '$/cancel_request').at(-1);
      assert.deepEqual(withdrawn?.msg.params, { requestId: init.msg.id });
    } finally {
      await cfg.update('initializeTimeout', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('legacy modes and models, a URL elicitation the agent completes, a refusal, a load replaying a compaction then answering null, and logout — on the wire', async () => {
    const a = await api();
    const panel = a.openChat('fake-wire');
    await waitForStatus(panel, 'connected', connected);
    const sid = panel.session.id!;
    const header = () => panel.session.transcript.header;
    const sent = (method: string) => readRecord('wire').filter((r) => r.dir === 'in' && r.msg?.method === method).map((r) => r.msg.params);
    // No config option picks the model: the legacy models are the picker, session/set_model the call.
    assert.deepEqual(header().models?.availableModels.map((m) => m.modelId), ['small', 'large']);
    await panel.session.settings.setModel('large');
    assert.deepEqual(sent('session/set_model'), [{ sessionId: sid, modelId: 'large' }]);
    assert.equal(header().models?.currentModelId, 'large');
    await panel.session.settings.setMode('code');
    assert.deepEqual(sent('session/set_mode'), [{ sessionId: sid, modeId: 'code' }]);
    assert.equal(header().modes?.currentModeId, 'code');
    // A URL elicitation accepted (the page opened), then completed by the agent.
    const turn = panel.session.prompt('deploy');
    const url = await waitFor('the URL elicitation', () => panel.session.transcript.items.find((i): i is ElicitationItem => i.kind === 'elicitation'));
    // Accepted as the panel's Open button posts it: the page is handed to the browser, exactly once.
    const opened: string[] = [];
    a.testing.watchOpenExternal((uri) => opened.push(uri.toString(true)));
    try {
      a.testing.postFromWebview(panel, { type: 'elicitation', id: url.id, action: 'accept' });
      assert.equal(await turn, 'end_turn');
    } finally {
      a.testing.watchOpenExternal(undefined);
    }
    assert.deepEqual(opened, [url.url]);
    assert.equal(url.state, 'completed', 'elicitation/complete closed it');
    // A refusal ends the turn as such.
    assert.equal(await panel.session.prompt('something else'), 'refusal');
    const ends = panel.session.transcript.items.filter((i): i is TurnEndItem => i.kind === 'turn-end');
    assert.deepEqual(ends.map((e) => e.stopReason), ['end_turn', 'refusal']);
    // A null answer to session/load is a loaded session.
    panel.panel.dispose();
    const again = a.openPastSession('fake-wire', sid);
    await waitForStatus(again, 'connected after a null load answer', connected);
    assert.equal(sent('session/load').at(-1).sessionId, sid);
    // The replay keeps the compaction at its place, earlier messages kept.
    assert.deepEqual(
      again.session.transcript.items.map((i) => (i.kind === 'compaction' ? `compaction:${i.status}:${i.summary}` : `${i.kind}:${(i as { text?: string }).text ?? ''}`)),
      ['user:Summarize the repo', 'agent:It greets people.', 'compaction:completed:The user asked for a summary.', 'agent:Anything else?'],
    );
    // Sign Out: logout, advertised by the agent.
    await vscode.commands.executeCommand('acpAgents.signOut', 'fake-wire');
    assert.equal(sent('logout').length, 1);
    assert.equal(a.agentStatus('fake-wire'), 'needs-sign-in');
  });
});
