// Recovery in the real host, with fake agents that are real processes: a crash
// while a session is loaded or resumed, an agent that closes its output and
// exits much later, scratch folders, one state of an agent everywhere, and a
// turn cut short marked as such when the session is shown again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, failed, isAlive, readRecord, startedPids, waitFor, waitForStatus } from './helpers';

const errorsSince = async (before: number) =>
  (await api()).testing
    .messages()
    .slice(before)
    .filter((m) => m.severity === 'error')
    .map((m) => m.message);

describe('Recovery: crashes, closed output, scratch folders, agent state, cut turns (fake agents in the real host)', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  for (const [agentId, scenario, call] of [
    ['fake-crash-load', 'crash-load', 'session/load'],
    ['fake-crash-resume', 'crash-resume', 'session/resume'],
  ] as const) {
    it(`a crash during ${call} restarts the agent (a session was being opened on it), and says so once`, async () => {
      const a = await api();
      await vscode.commands.executeCommand('acpAgents.restartAgent', agentId).then(undefined, () => undefined);
      await a.testing.stopAllAgents();
      const before = a.testing.messages().length;
      const started = startedPids(scenario).length;
      const panel = a.openPastSession(agentId, `past-${scenario}`);
      const s = await waitForStatus(panel, 'the failure', failed);
      assert.match(s.text, /exited with code 1|being restarted/);
      await waitFor('the agent started again', () => startedPids(scenario).length === started + 2 && a.agentStatus(agentId) === 'running', 20_000);
      const errors = await errorsSince(before);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.match(errors[0]!, /It is being restarted\./);
      // Restart in the panel opens that past session again, not a new one.
      const asked = (method: string) => readRecord(scenario).filter((r) => r.msg?.method === method).length;
      const [opens, news] = [asked(call), asked('session/new')];
      await panel.session.runAction('restart');
      await waitFor(`${call} asked again`, () => asked(call) === opens + 1);
      assert.equal(asked('session/new'), news, 'no new session');
    });
  }

  it('an agent that closes its output and exits 20 s later is stopped, reported as crashed and restarted', async () => {
    const a = await api();
    const panel = a.openChat('fake-close-stdout-late');
    await waitForStatus(panel, 'connected', connected);
    const first = a.testing.agentPid('fake-close-stdout-late')!;
    const before = a.testing.messages().length;
    assert.equal(await panel.session.prompt('hello'), undefined, 'the turn failed');
    await waitFor('a second process running', () => startedPids('close-stdout-late').length === 2 && a.agentStatus('fake-close-stdout-late') === 'running', 15_000);
    assert.equal(isAlive(first), false, 'the first process was stopped, long before it would have exited');
    const errors = await errorsSince(before);
    assert.ok(errors.some((m) => /closed its output \(stdout\) but did not exit/.test(m) && /It is being restarted\./.test(m)), JSON.stringify(errors));
  });

  it('the scratch folder of a no-folder session goes with its panel once its agent exited; old ones are swept, never what is not ours', async () => {
    const a = await api();
    const root = a.testing.scratchDir();
    // Left from earlier: an old scratch folder holding a link out, a new one, and folders that are not ours.
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
    fs.writeFileSync(path.join(outside, 'precious.txt'), 'keep me');
    const old = path.join(root, '2020-01-02-0badc0de');
    const recent = path.join(root, `${new Date().toISOString().slice(0, 10)}-00c0ffee`);
    const foreign = path.join(root, 'notes-2020');
    for (const d of [old, recent, foreign]) fs.mkdirSync(d, { recursive: true });
    fs.symlinkSync(outside, path.join(old, 'link-out'));
    const oldLink = path.join(root, '2020-01-03-deadbeef');
    fs.symlinkSync(outside, oldLink);
    const longAgo = new Date('2020-01-04T00:00:00Z');
    for (const d of [old, foreign]) fs.utimesSync(d, longAgo, longAgo);
    fs.lutimesSync(oldLink, longAgo, longAgo);

    const panel = a.testing.openChatWithoutFolder('fake-default');
    await waitForStatus(panel, 'connected', connected);
    const scratch = panel.session.workingFolder;
    assert.equal(path.dirname(scratch), root);
    fs.writeFileSync(path.join(scratch, 'draft.txt'), 'agent work');
    panel.panel.dispose();
    // It goes once the agent process that had it exited (while it runs, it could change the tree under the removal).
    await a.testing.stopAllAgents();
    await waitFor('the scratch folder removed', () => !fs.existsSync(scratch));

    const swept = await a.testing.sweepScratch();
    assert.deepEqual(swept, [old]);
    assert.ok(!fs.existsSync(old), 'the old scratch folder is gone');
    assert.equal(fs.readFileSync(path.join(outside, 'precious.txt'), 'utf8'), 'keep me', 'the link inside was not followed');
    assert.ok(fs.existsSync(recent) && fs.existsSync(foreign) && fs.lstatSync(oldLink).isSymbolicLink(), 'new, foreign and linked folders stay');
    for (const d of [recent, foreign, oldLink]) fs.rmSync(d, { recursive: true, force: true });
  });

  it('after a reload, the status bar says of the agent what the Sessions view says (running, then stopped)', async () => {
    const a = await api();
    const live = a.openChat('fake-default');
    await waitForStatus(live, 'connected', connected);
    const restored = await a.testing.restorePanel({ agentId: 'fake-default' });
    assert.ok(restored, 'a panel was restored');
    await waitFor('the restored panel says the window was reloaded', () => /reloaded/.test(restored.status.text));
    assert.doesNotMatch(restored.status.text, /stopped/, 'the panel speaks of its session, not of the agent');
    const tree = () => String(a.testing.treeItems('fake-default').agent.description ?? '');
    const bar = () => a.testing.statusBar().text;
    assert.match(tree(), /running/);
    await waitFor(`the status bar to say running (now "${bar()}")`, () => /: running$/.test(bar()), 5000);
    await a.testing.stopAllAgents();
    assert.match(tree(), /stopped/);
    await waitFor(`the status bar to say stopped (now "${bar()}")`, () => /: stopped$/.test(bar()), 5000);
  });

  it('an agent started again while its old process is still being stopped: when the old one is gone, the view and the status bar say running, not stopped', async () => {
    const a = await api();
    const agent = 'fake-stubborn'; // ignores SIGTERM: stopping it takes the SIGKILL grace, seconds
    const first = a.openChat(agent);
    await waitForStatus(first, 'connected', connected);
    const oldPid = a.testing.agentPid(agent);
    const stopping = a.testing.stopAllAgents();
    const second = a.openChat(agent);
    await waitForStatus(second, 'connected', connected);
    const newPid = a.testing.agentPid(agent);
    assert.ok(newPid !== undefined && newPid !== oldPid, 'a new process serves the new session');
    await stopping;
    assert.equal(a.agentStatus(agent), 'running', 'the old process ending does not speak for the new one');
    assert.match(String(a.testing.treeItems(agent).agent.description ?? ''), /running/);
    assert.equal(a.testing.agentPid(agent), newPid);
    await a.testing.stopAllAgents();
    assert.equal(a.agentStatus(agent), 'stopped');
  });

  it('a turn cut by a crash is archived as interrupted, and the archive shows it so', async () => {
    const a = await api();
    await vscode.commands.executeCommand('acpAgents.restartAgent', 'fake-exit-mid-prompt').then(undefined, () => undefined);
    const panel = a.openChat('fake-exit-mid-prompt');
    await waitForStatus(panel, 'connected', connected);
    const id = panel.session.id!;
    assert.equal(await panel.session.prompt('this turn will be cut'), undefined);
    await waitForStatus(panel, 'the exit', failed);
    await a.testing.flushStores();
    const archived = fs.readFileSync(path.join(a.testing.storagePath(), 'archive', 'fake-exit-mid-prompt', `${id}.jsonl`), 'utf8');
    assert.match(archived, /"sessionUpdate":"_turn_interrupted"/);
    await closeAllEditors();
    const past = a.openPastSession('fake-exit-mid-prompt', id);
    await waitForStatus(past, 'the archive', (s) => /Read-only/.test(s.text));
    const items = past.session.transcript.items;
    const cut = items.findIndex((i) => i.kind === 'turn-end' && i.stopReason === 'interrupted');
    assert.ok(cut > items.findIndex((i) => i.kind === 'user' && i.text === 'this turn will be cut'), JSON.stringify(items.map((i) => i.kind)));
  });

  it('an archive file on disk cut mid-turn by a reload opens with that turn interrupted and its running tool call cancelled; the mark is written to the file', async () => {
    const a = await api();
    const id = 'cut-by-reload';
    const file = path.join(a.testing.storagePath(), 'archive', 'fake-default', `${id}.jsonl`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const line = (u: unknown) => `${JSON.stringify({ t: Date.now(), u })}\n`;
    fs.writeFileSync(
      file,
      line({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'first' } }) +
        line({ sessionUpdate: '_turn_begin' }) +
        line({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } }) +
        line({ sessionUpdate: '_turn_end', stopReason: 'end_turn' }) +
        line({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'second' } }) +
        line({ sessionUpdate: '_turn_begin' }) +
        line({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Running', status: 'in_progress' }) +
        line({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'half an ans' } }),
    );
    const past = a.openPastSession('fake-default', id);
    await waitForStatus(past, 'the archive', (s) => /Read-only/.test(s.text));
    const ends = past.session.transcript.items.filter((i) => i.kind === 'turn-end').map((i) => (i as { stopReason: string }).stopReason);
    assert.deepEqual(ends, ['end_turn', 'interrupted']);
    const tool = past.session.transcript.items.find((i) => i.kind === 'tool') as { cancelled?: boolean } | undefined;
    assert.equal(tool?.cancelled, true, 'the unfinished tool call is not shown as running');
    await a.testing.flushStores();
    assert.match(fs.readFileSync(file, 'utf8').trim().split('\n').at(-1)!, /"_turn_interrupted"/);
  });
});
