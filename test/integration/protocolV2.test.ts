// ACP v2 (Preview) beside v1, with fake agents that are real processes: the version negotiated per agent
// (acpAgents.protocolVersion), a whole v2 turn (acknowledged prompt, upserts by id, the idle state_update
// ending it) in the session the panel shows, files a v2 agent writes itself (its v2 diffs make them undoable),
// and "auto" falling back to v1 on a fresh process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MessageItem, PlanItem, ToolItem } from '../../src/shared/transcriptTypes';
import { api, backdate, connected, endSessions, nextLogLine, readRecord, waitFor, waitForStatus } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');
const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

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

  it('a resume whose replay ends without replay_complete: the history is shown, a notice says it may end there, and the session is live', async () => {
    const a = await api();
    await cfg().update('protocolVersion', '2', vscode.ConfigurationTarget.Global);
    const first = a.openChat('fake-v2-replay-cut');
    await waitForStatus(first, 'connected', connected);
    const sessionId = first.session.id!;
    await endSessions();
    const panel = a.openPastSession('fake-v2-replay-cut', sessionId);
    await waitForStatus(panel, 'loaded', connected);
    const items = panel.session.transcript.items;
    assert.deepEqual(items.filter((i): i is MessageItem => i.kind === 'user' || i.kind === 'agent').map((i) => i.text), ['A question from before', 'The start of an answer']);
    const last = items.at(-1);
    assert.equal(last?.kind, 'notice', 'the notice is where the replayed history ends');
    assert.match(last?.kind === 'notice' ? `${last.title} ${last.description}` : '', /The history may end here\. Fake: v2-replay-cut answered without saying its replay of this session was whole/);
    assert.equal(await panel.session.prompt('go on'), 'end_turn', 'live');
  });

  it('files a v2 agent changes on its own, each reported as a v2 diff after the write: listed, and Undo puts back what the patch says they held; a diff for a file never written is not listed', async () => {
    const a = await api();
    await cfg().update('protocolVersion', '2', vscode.ConfigurationTarget.Global);
    const late = path.join(folder(), 'v2-late.txt');
    const soon = path.join(folder(), 'v2-soon.txt');
    const claim = path.join(folder(), 'v2-claim.txt');
    const before = { [late]: 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n', [soon]: 'alpha\nbeta\n', [claim]: 'untouched\n' };
    for (const [f, text] of Object.entries(before)) {
      fs.writeFileSync(f, text);
      backdate(f);
    }
    try {
      const panel = a.openChat('fake-v2-writes');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('edit on your own'), 'end_turn');
      const changes = panel.session.checkpoints.changes;
      await waitFor('two changes', () => changes.list().length >= 2 || undefined, 10_000);
      // Not in git, not read through the client: only the patch says what they held; both can be undone.
      assert.deepEqual(changes.list().map((c) => `${c.name}:${c.added ? 'added' : 'modified'}:${c.canRevert}`).sort(), ['v2-late.txt:modified:true', 'v2-soon.txt:modified:true']);
      // The panel shows each as a diff of its own (a patch: hunks, no whole texts).
      const patches = panel.session.transcript.items.flatMap((i) => (i.kind === 'tool' ? i.content : [])).filter((c) => c.type === 'patch');
      assert.deepEqual(patches.map((c) => (c.type === 'patch' ? `${path.basename(c.path)} ${c.operation} ${c.hunks.length}` : '')), ['v2-late.txt modify 1', 'v2-soon.txt modify 1', 'v2-claim.txt modify 1']);
      for (const f of [late, soon]) {
        assert.equal(await changes.revert(f), true);
        assert.equal(fs.readFileSync(f, 'utf8'), before[f]);
      }
      assert.equal(fs.readFileSync(claim, 'utf8'), 'untouched\n', 'the claim changed nothing');
    } finally {
      for (const f of [late, soon, claim]) fs.rmSync(f, { force: true });
    }
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
