// ACP v2 (Preview) beside v1, with fake agents that are real processes: the version negotiated per agent
// (acpAgents.protocolVersion), a whole v2 turn (acknowledged prompt, upserts by id, the idle state_update
// ending it) in the session the panel shows, and "auto" falling back to v1 on a fresh process.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { MessageItem, PlanItem, ToolItem } from '../../src/shared/transcriptTypes';
import { api, connected, endSessions, nextLogLine, readRecord, waitForStatus } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');

describe('ACP v2 beside v1: negotiation and a v2 turn', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await endSessions();
    await cfg().update('protocolVersion', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a v2 session does a whole turn: acknowledged prompt, streamed answer, a tool call upserted by id, ended by state_update', async () => {
    const a = await api();
    await cfg().update('protocolVersion', '2', vscode.ConfigurationTarget.Global);
    const panel = a.openChat('fake-v2-turn');
    await waitForStatus(panel, 'connected', connected);
    const init = readRecord('v2-turn').filter((r) => r.dir === 'in' && r.msg?.method === 'initialize').at(-1).msg.params;
    assert.equal(init.protocolVersion, 2);
    assert.equal(init.info.name, 'acp-agents-vscode', 'v2 requires info');
    assert.equal(init.clientInfo, undefined);
    assert.equal(init.clientCapabilities, undefined, 'one capabilities object');
    assert.deepEqual(Object.keys(init.capabilities).sort(), ['_meta', 'auth', 'elicitation'], 'no fs or terminal over v2');
    // The editor's services reach a v2 agent as vscode-editor's tools, with acpAgents.editorTools off.
    const created = readRecord('v2-turn').filter((r) => r.dir === 'in' && r.msg?.method === 'session/new').at(-1).msg.params;
    const editor = created.mcpServers.find((s: { name: string }) => s.name === 'vscode-editor');
    assert.equal(editor?.type, 'stdio', 'v2 names the transport');

    assert.equal(await panel.session.prompt('Read the notes'), 'end_turn');
    const tr = panel.session.transcript;
    const texts = tr.items.filter((i): i is MessageItem => i.kind === 'agent').map((i) => i.text);
    assert.deepEqual(texts, ['Reading the notes first.', 'The notes say v2 works.'], 'chunks append, a whole message replaces');
    const tool = tr.tool('read-1') as ToolItem;
    assert.equal(tool.status, 'completed');
    assert.equal(tool.title, 'Read notes.txt', 'omitted fields are kept');
    assert.deepEqual(tool.content.map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : c.type)), ['notes: v2 works']);
    assert.equal(tr.items.filter((i): i is PlanItem => i.kind === 'plan').length, 1);
    // An agent-owned terminal (display-only in v2): its output and exit in the tool call that shows it.
    const run = tr.tool('run-1') as ToolItem;
    assert.deepEqual(run.content.map((c) => (c.type === 'terminal' ? [c.terminalId, c.output, c.exitStatus?.exitCode] : c.type)), [['term-1', 'all 3 passed\n', 0]]);
    assert.equal(tr.items.at(-1)?.kind, 'turn-end');
    assert.equal(tr.items.filter((i) => i.kind === 'user').length, 1);

    const tip = a.testing.treeItems('fake-v2-turn').agent.tooltip as vscode.MarkdownString;
    assert.match(tip.value, /ACP v2/);
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('acpAgents.copyDiagnostics', 'fake-v2-turn');
    assert.match(await vscode.env.clipboard.readText(), /protocolVersion: 2/);
  });

  it('a past v2 session opens as v2 loads one: session/resume replaying the whole history (replayFrom start), shown, then live', async () => {
    const a = await api();
    await cfg().update('protocolVersion', '2', vscode.ConfigurationTarget.Global);
    const first = a.openChat('fake-v2-turn');
    await waitForStatus(first, 'connected', connected);
    const sessionId = first.session.id!;
    await endSessions();
    const panel = a.openPastSession('fake-v2-turn', sessionId);
    await waitForStatus(panel, 'loaded', connected);
    const asked = readRecord('v2-turn').filter((r) => r.dir === 'in' && (r.msg?.method === 'session/resume' || r.msg?.method === 'session/load'));
    assert.deepEqual(asked.map((r) => [r.msg.method, r.msg.params.sessionId, r.msg.params.replayFrom]), [['session/resume', sessionId, { type: 'start' }]]);
    const tr = panel.session.transcript;
    assert.deepEqual(tr.items.filter((i): i is MessageItem => i.kind === 'user' || i.kind === 'agent').map((i) => [i.kind, i.text]), [['user', 'An earlier question'], ['agent', 'Replayed over v2.']]);
    assert.ok(a.testing.logLines().some((l) => l.includes('replay_complete')), 'the end of the replay was seen');
    // Live after the replay: a turn goes on in the same session.
    assert.equal(await panel.session.prompt('And now?'), 'end_turn');
    assert.equal(panel.session.id, sessionId);
  });

  it('"auto" offers v2 to an agent that speaks only v1, and starts it again with v1 on a fresh process, logged', async () => {
    const a = await api();
    await cfg().update('protocolVersion', 'auto', vscode.ConfigurationTarget.Global);
    const before = readRecord('default').filter((r) => r.dir === 'in' && r.msg?.method === 'initialize').length;
    const fellBack = nextLogLine(a, (l) => l.includes('ACP v2 initialize refused'));
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    await fellBack.wait('the log line of the fallback');
    const inits = readRecord('default').filter((r) => r.dir === 'in' && r.msg?.method === 'initialize').slice(before);
    assert.deepEqual(inits.map((r) => r.msg.params.protocolVersion), [2, 1]);
    assert.notEqual(inits[0].pid, inits[1].pid, 'a fresh process for v1');
    assert.ok(inits[1].msg.params.clientCapabilities.fs, 'v1 shapes on the second start');
    assert.equal(await panel.session.prompt('hello'), 'end_turn');
    const tip = a.testing.treeItems('fake-default').agent.tooltip as vscode.MarkdownString;
    assert.match(tip.value, /ACP v1/);
  });
});
