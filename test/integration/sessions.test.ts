// Sessions with fake agents that record what they receive: MCP servers,
// session/list paging, load/resume/archive paths, replay hygiene.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

const MCP = {
  fs: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: ['server.js'], env: { SECRET_TOKEN: 'mcp-secret-value-42' } },
  docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer mcp-header-secret' } },
  legacy: { type: 'sse', url: 'https://old.example/sse' },
  broken: { type: 'stdio' },
};

function lastParams(scenario: string, method: string): any {
  return readRecord(scenario).filter((r) => r.msg?.method === method).at(-1)?.msg.params;
}

/** Delete on a session's node in the sidebar, confirmed. */
/** Runs Delete on a session's sidebar item, answering its confirmation with `answer`; returns the confirmations asked. */
async function deleteFromSidebar(a: Awaited<ReturnType<typeof api>>, agentId: string, sessionId: string, answer = true): Promise<{ message: string; detail: string; action: string }[]> {
  const agent = a.agents().find((x) => x.id === agentId)!;
  const entry = a.testing.sessions(agentId).find((s) => s.sessionId === sessionId)!;
  const asked: { message: string; detail: string; action: string }[] = [];
  a.testing.setConfirm(async (message, detail, action) => (asked.push({ message, detail, action }), answer));
  try {
    await vscode.commands.executeCommand('acpAgents.deleteSession', { kind: 'session', agent, entry });
  } finally {
    a.testing.setConfirm(undefined);
  }
  return asked;
}

describe('Sessions: new, MCP servers, list, load, resume, archive', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  describe('MCP servers by the agent’s capabilities', () => {
    before(async () => {
      await vscode.workspace.getConfiguration('acpAgents').update('mcpServers', MCP, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('acpAgents').update('trace', 'verbose', vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await vscode.workspace.getConfiguration('acpAgents').update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('acpAgents').update('trace', undefined, vscode.ConfigurationTarget.Global);
    });

    const cases: [string, string, string[], string[]][] = [
      ['fake-default', 'default', ['fs'], ['broken', 'docs', 'legacy']],
      ['fake-mcp-http', 'mcp-http', ['fs', 'docs'], ['broken', 'legacy']],
      ['fake-mcp-both', 'mcp-both', ['fs', 'docs', 'legacy'], ['broken']],
    ];
    for (const [agentId, scenario, sent, left] of cases) {
      it(`${scenario}: sends ${sent.join(', ')}; names ${left.join(', ')} as left out`, async () => {
        const a = await api();
        const panel = a.openChat(agentId);
        await waitForStatus(panel, 'connected', connected);
        const params = lastParams(scenario, 'session/new');
        assert.equal(params.cwd, vscode.workspace.workspaceFolders![0]!.uri.fsPath);
        assert.deepEqual(params.mcpServers.map((s: any) => s.name), [...sent, 'vscode-editor']);
        const fs = params.mcpServers[0];
        assert.equal('type' in fs, false, 'stdio servers carry no type');
        // Handed over through the MCP relay: the host's node runs it, then the user's command and args;
        // the user's env is in the relay's settings, for the server only (never the relay's own environment).
        assert.ok(fs.command.startsWith('/'), 'absolute command');
        assert.match(fs.args[0], /dist[\\/]mcpRelay\.js$/);
        assert.deepEqual(fs.args.slice(1), ['--', process.env.ACP_TEST_NODE, 'server.js']);
        assert.deepEqual(fs.env.map((e: any) => e.name), ['ELECTRON_RUN_AS_NODE', 'ACP_MCP_RELAY']);
        assert.deepEqual(JSON.parse(fs.env[1].value).env, [{ name: 'SECRET_TOKEN', value: 'mcp-secret-value-42' }]);
        if (sent.includes('docs')) assert.deepEqual(params.mcpServers[1], { type: 'http', name: 'docs', url: 'https://docs.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer mcp-header-secret' }] });
        const notice = panel.session.transcript.items.find((i) => i.kind === 'notice' && /MCP servers were not handed/.test(i.title)) as any;
        assert.ok(notice, 'the panel says which were left out');
        for (const name of left) assert.match(notice.description, new RegExp(`${name}:`));
        // Secrets never reach the trace.
        const trace = a.testing.traceLines().join('\n');
        assert.ok(trace.includes('session/new'));
        assert.ok(!trace.includes('mcp-secret-value-42') && !trace.includes('mcp-header-secret'), 'MCP secrets redacted');
      });
    }
  });

  it('a multi-root workspace asks for the folder; the others go as additionalDirectories where supported', async () => {
    const a = await api();
    const folders = vscode.workspace.workspaceFolders!;
    assert.equal(folders.length, 2, 'the harness opens a two-folder workspace');
    let asked = 0;
    a.testing.setFolderPicker(async () => {
      asked++;
      return folders[1];
    });
    try {
      await vscode.commands.executeCommand('acpAgents.newSession', 'fake-more-dirs');
      await waitFor('session/new', () => lastParams('more-dirs', 'session/new'));
      assert.equal(asked, 1);
      const params = lastParams('more-dirs', 'session/new');
      assert.equal(params.cwd, folders[1]!.uri.fsPath);
      assert.deepEqual(params.additionalDirectories, [folders[0]!.uri.fsPath]);
      // An agent that does not advertise additionalDirectories gets none.
      await vscode.commands.executeCommand('acpAgents.newSession', 'fake-default');
      await waitFor('session/new', () => lastParams('default', 'session/new')?.cwd === folders[1]!.uri.fsPath);
      assert.equal('additionalDirectories' in lastParams('default', 'session/new'), false);
      assert.equal(asked, 2);
      // Dismissing the question starts nothing.
      a.testing.setFolderPicker(async () => undefined);
      const before = a.panels().length;
      await vscode.commands.executeCommand('acpAgents.newSession', 'fake-default');
      assert.equal(a.panels().length, before);
    } finally {
      a.testing.setFolderPicker(undefined);
    }
  });

  it('Delete removes the session from the sidebar and its archive, after confirmation', async () => {
    const a = await api();
    const panel = a.openChat('fake-resume-only');
    await waitForStatus(panel, 'connected', connected);
    const id = panel.session.id!;
    await panel.session.prompt('to be deleted');
    await a.testing.flushStores();
    assert.ok(a.testing.sessions('fake-resume-only').some((s) => s.sessionId === id));
    // Declined: asked once, and nothing is removed.
    const declined = await deleteFromSidebar(a, 'fake-resume-only', id, false);
    assert.equal(declined.length, 1, 'a confirmation was asked');
    assert.match(declined[0]!.message, /^Delete the session ".+" of Fake: resume-only\?$/);
    assert.equal(declined[0]!.action, 'Delete');
    assert.ok(a.testing.sessions('fake-resume-only').some((s) => s.sessionId === id), 'kept after No');
    assert.equal(a.testing.hasArchive('fake-resume-only', id), true, 'its archive kept after No');
    const confirmed = await deleteFromSidebar(a, 'fake-resume-only', id);
    assert.equal(confirmed.length, 1, 'asked again');
    assert.equal(a.testing.sessions('fake-resume-only').some((s) => s.sessionId === id), false);
    assert.equal(a.testing.hasArchive('fake-resume-only', id), false);
  });

  it('Delete of a session whose agent is not running starts it for session/delete, and a later list never brings it back', async () => {
    const a = await api();
    const panel = a.openChat('fake-delete-list');
    await waitForStatus(panel, 'connected', connected);
    await waitFor('the listed session', () => a.testing.sessions('fake-delete-list').find((s) => s.sessionId === 'listed-gone'));
    panel.panel.dispose();
    await a.testing.stopAllAgents();
    assert.equal(a.agentStatus('fake-delete-list') === 'running', false);
    await deleteFromSidebar(a, 'fake-delete-list', 'listed-gone');
    const deletes = () => readRecord('delete-list').filter((r) => r.msg?.method === 'session/delete');
    await waitFor('session/delete sent to the restarted agent', () => deletes().length === 1);
    assert.equal(deletes()[0].msg.params.sessionId, 'listed-gone');
    assert.equal(a.testing.sessions('fake-delete-list').some((s) => s.sessionId === 'listed-gone'), false);
    // The agent lists it again (it still does): it stays deleted here.
    const lists = readRecord('delete-list').filter((r) => r.msg?.method === 'session/list').length;
    await vscode.commands.executeCommand('acpAgents.refreshSessions');
    await waitFor('another session/list', () => readRecord('delete-list').filter((r) => r.msg?.method === 'session/list').length > lists);
    await a.testing.flushStores();
    assert.equal(a.testing.sessions('fake-delete-list').some((s) => s.sessionId === 'listed-gone'), false);
  });

  it('a listed session whose folder is outside the workspace: one question naming it; declined, the agent gets no session there (nor the file); accepted, it does', async () => {
    const a = await api();
    const outside = path.join(process.env.ACP_TEST_TMP!, 'listed-outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside-secret-4711');
    const panel = a.openChat('fake-listed-outside');
    await waitForStatus(panel, 'connected', connected);
    await waitFor('the listed session', () => a.testing.sessions('fake-listed-outside').find((s) => s.sessionId === 'listed-outside'));
    panel.panel.dispose();
    const loads = () => readRecord('listed-outside').filter((r) => r.msg?.method === 'session/load');
    const reads = () => readRecord('listed-outside').filter((r) => r.dir === 'out' && r.msg?.method === 'fs/read_text_file');
    const answerTo = (id: unknown) => readRecord('listed-outside').find((r) => r.dir === 'in' && r.msg?.id === id && r.msg?.method === undefined)?.msg;
    const shown: { message: string; detail?: string; items: readonly string[] }[] = [];
    try {
      // Escape.
      a.testing.setSessionRootDialog(async (d) => (shown.push(d), undefined));
      const declined = a.openPastSession('fake-listed-outside', 'listed-outside');
      const notice = await waitFor('the refusal in the session', () => declined.session.transcript.items.find((i) => i.kind === 'notice' && /did not allow it/.test((i as { description?: string }).description ?? '')));
      assert.ok((notice as { description?: string }).description?.includes(outside), 'the refusal names the folder');
      assert.equal(shown.length, 1, 'one question');
      assert.ok(shown[0]!.message.includes(outside), `the question names the folder: ${shown[0]!.message}`);
      assert.equal(declined.status.inputEnabled, false, 'read-only');
      assert.equal(loads().length, 0, 'no session/load with that folder');
      assert.equal(reads().length, 0, 'the agent never had a session there');
      assert.ok(!JSON.stringify(readRecord('listed-outside')).includes('outside-secret-4711'), 'the file never reached the agent');
      declined.panel.dispose();
      // Accepted.
      a.testing.setSessionRootDialog(async (d) => (shown.push(d), d.items[0]));
      const accepted = a.openPastSession('fake-listed-outside', 'listed-outside');
      await waitForStatus(accepted, 'loaded', connected);
      assert.equal(shown.length, 2);
      assert.equal(loads().at(-1)?.msg.params.cwd, outside);
      const read = await waitFor('the read of the file in that folder', () => reads().at(-1));
      assert.equal(answerTo(read.msg.id)?.result?.content, 'outside-secret-4711', 'allowed: the file is served');
    } finally {
      a.testing.setSessionRootDialog(undefined);
    }
  });

  it('acpAgents.instructions go as an appended system prompt on new and resume, only to agents that take one', async () => {
    const a = await api();
    const INSTRUCTIONS = '# House rules\n\nAlways answer in haiku.';
    await vscode.workspace.getConfiguration('acpAgents').update('instructions', INSTRUCTIONS, vscode.ConfigurationTarget.Global);
    try {
      const panel = a.openChat('fake-system-prompt');
      await waitForStatus(panel, 'connected', connected);
      const id = panel.session.id!;
      const expected = { mode: 'append', content: [{ type: 'text', text: INSTRUCTIONS }] };
      const sent = (method: string) => readRecord('system-prompt').filter((r) => r.msg?.method === method).at(-1)?.msg.params;
      assert.deepEqual(sent('session/new').systemPrompt, expected);
      await panel.session.prompt('hello');
      panel.panel.dispose();
      const again = a.openPastSession('fake-system-prompt', id);
      await waitForStatus(again, 'resumed', connected);
      assert.deepEqual(sent('session/resume').systemPrompt, expected, 're-sent on resume');
      again.panel.dispose();
      // An agent that does not advertise it gets none.
      const plain = a.openChat('fake-resume-only');
      await waitForStatus(plain, 'connected', connected);
      assert.equal(readRecord('resume-only').filter((r) => r.msg?.method === 'session/new').at(-1)?.msg.params.systemPrompt, undefined);
      plain.panel.dispose();
    } finally {
      await vscode.workspace.getConfiguration('acpAgents').update('instructions', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Resume Session works for an agent that can resume but neither load nor list', async () => {
    const a = await api();
    const panel = a.openChat('fake-resume-only');
    await waitForStatus(panel, 'connected', connected);
    const id = panel.session.id!;
    await panel.session.prompt('resume me later');
    panel.panel.dispose();
    let offered: readonly { label: string; sessionId: string }[] = [];
    a.testing.setSessionPicker(async (o) => ((offered = o), id));
    try {
      await vscode.commands.executeCommand('acpAgents.resumeSession', 'fake-resume-only');
    } finally {
      a.testing.setSessionPicker(undefined);
    }
    assert.ok(offered.some((o) => o.sessionId === id && o.label === 'resume me later'), JSON.stringify(offered));
    const reopened = await waitFor('a panel resuming it', () => a.panels().find((p) => p.agentId === 'fake-resume-only' && p.session.id === id));
    await waitForStatus(reopened, 'connected', connected);
    const resumes = readRecord('resume-only').filter((r) => r.msg?.method === 'session/resume');
    assert.equal(resumes.at(-1)?.msg.params.sessionId, id);
    reopened.panel.dispose();
  });

  it('session/list paging (cursor) fills the sidebar with sessions started elsewhere', async () => {
    const a = await api();
    const panel = a.openChat('fake-list-paged');
    await waitForStatus(panel, 'connected', connected);
    await waitFor('3 listed sessions', () => a.testing.sessions('fake-list-paged').filter((s) => s.source === 'agent').length === 3);
    const lists = readRecord('list-paged').filter((r) => r.msg?.method === 'session/list').map((r) => r.msg.params);
    assert.equal(lists[0].cursor, undefined);
    assert.equal(lists[1].cursor, 'page-2');
    assert.equal(lists[0].cwd, vscode.workspace.workspaceFolders![0]!.uri.fsPath);
    const titles = a.testing.sessions('fake-list-paged').map((s) => s.title);
    assert.ok(titles.includes('From the CLI: C') && titles.includes('From the CLI: A'), titles.join(', '));
  });

  it('opening a listed session replays its history into the panel before input is enabled; two opens share one session/load', async () => {
    const a = await api();
    const p1 = a.openPastSession('fake-list-paged', 'cli-a');
    const p2 = a.openPastSession('fake-list-paged', 'cli-a');
    assert.equal(p1, p2, 'the second open reveals the same panel');
    assert.equal(p1.status.inputEnabled, false);
    await waitFor('the replay to start', () => p1.session.transcript.items.length > 0 || undefined);
    assert.equal(p1.status.inputEnabled, false, 'input stays off while the history replays');
    await waitForStatus(p1, 'connected after the load', connected);
    const items = p1.session.transcript.items;
    assert.ok(items.length > 40, `${items.length} items replayed`);
    assert.match((items.at(-1) as any).text, /LOADED-HISTORY-END/);
    assert.equal(readRecord('list-paged').filter((r) => r.msg?.method === 'session/load' && r.msg.params.sessionId === 'cli-a').length, 1);
    // The replay filled the empty archive; loading it again does not add it twice.
    const archived = await a.testing.archiveLength('fake-list-paged', 'cli-a');
    assert.ok(archived >= 40, `${archived} updates archived`);
    p1.panel.dispose();
    const again = a.openPastSession('fake-list-paged', 'cli-a');
    await waitForStatus(again, 'connected after the second load', connected);
    assert.equal(readRecord('list-paged').filter((r) => r.msg?.method === 'session/load' && r.msg.params.sessionId === 'cli-a').length, 2);
    assert.equal(await a.testing.archiveLength('fake-list-paged', 'cli-a'), archived, 'no duplicate entries in the archive');
    again.panel.dispose();
  });

  it('an agent without loadSession never receives session/load: the archive is shown, read-only', async () => {
    const a = await api();
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    const id = panel.session.id!;
    await panel.session.prompt('remember this prompt');
    await a.testing.flushStores();
    await closeAllEditors();
    const past = a.openPastSession('fake-default', id);
    await waitForStatus(past, 'read-only archive', (s) => /Read-only/.test(s.text));
    assert.deepEqual(past.status.actions, ['newSession']);
    assert.ok(past.session.transcript.items.some((i) => i.kind === 'user' && i.text === 'remember this prompt'));
    assert.equal(readRecord('default').filter((r) => r.msg?.method === 'session/load').length, 0, 'never session/load');
    assert.equal(a.testing.sessions('fake-default').find((s) => s.sessionId === id)?.title, 'remember this prompt');
  });

  it('resume-only agent: session/resume, the archive shown and marked, and the session goes on', async () => {
    const a = await api();
    const panel = a.openChat('fake-resume-only');
    await waitForStatus(panel, 'connected', connected);
    const id = panel.session.id!;
    await panel.session.prompt('first turn');
    await a.testing.flushStores();
    await closeAllEditors();
    const past = a.openPastSession('fake-resume-only', id);
    await waitForStatus(past, 'resumed', connected);
    assert.equal(lastParams('resume-only', 'session/resume').sessionId, id);
    assert.equal(readRecord('resume-only').filter((r) => r.msg?.method === 'session/load').length, 0);
    const first = past.session.transcript.items[0] as any;
    assert.match(first.description, /does not replay past sessions: this is the local archive/);
    assert.ok(past.session.transcript.items.some((i) => i.kind === 'user' && i.text === 'first turn'));
    assert.equal(await past.session.prompt('second turn'), 'end_turn');
    // Closing the panel closes the session on the agent (it advertises close).
    await closeAllEditors();
    await waitFor('session/close', () => lastParams('resume-only', 'session/close')?.sessionId === id);
  });

  it('-32002 from session/load: "this session no longer exists on the agent", and the archive is offered', async () => {
    const a = await api();
    const panel = a.openChat('fake-load-missing');
    await waitForStatus(panel, 'connected', connected);
    const id = panel.session.id!;
    await panel.session.prompt('doomed');
    await a.testing.flushStores();
    await closeAllEditors();
    const past = a.openPastSession('fake-load-missing', id);
    await waitFor('the archive', () => past.session.transcript.items.some((i) => i.kind === 'notice' && /no longer exists on the agent/.test((i as any).description ?? '')));
    // The notice comes first; the archive's lines follow, read a batch at a time.
    await waitFor('the archived prompt', () => past.session.transcript.items.some((i) => i.kind === 'user' && i.text === 'doomed'));
  });

  it('-32603 from session/load with the reason in data.details: the reason (cleaned) and the archive, read-only, with Retry and New Session; Retry loads it', async () => {
    const a = await api();
    const panel = a.openChat('fake-load-fails');
    await waitForStatus(panel, 'connected', connected);
    const id = panel.session.id!;
    assert.equal(await panel.session.prompt('kept safe'), 'end_turn');
    await a.testing.flushStores();
    await closeAllEditors();
    const past = a.openPastSession('fake-load-fails', id);
    const s = await waitForStatus(past, 'the failure with the archive', (x) => x.severity === 'error' && x.actions.includes('retry'));
    // The agent's own words, not "Internal error"; its bidi override and colour codes are gone.
    assert.match(s.text, /could not load this session \(The session store is locked by another process \(pid 4242\)\)\. The archive is shown read-only\./);
    assert.doesNotMatch(s.text, /Internal error|[\u001b\u202e]/);
    assert.deepEqual([s.inputEnabled, s.actions], [false, ['retry', 'newSession', 'showLog']]);
    // The archived history, under a banner that says why and what can be done.
    const items = past.session.transcript.items as any[];
    assert.equal(items[0].kind, 'notice');
    assert.equal(items[0].title, 'Archived history');
    assert.match(items[0].description, /could not load this session \(The session store is locked by another process \(pid 4242\)\)\. This is the local archive of it, read-only\. Retry asks .* again; New Session starts a new one\./);
    assert.ok(items.some((i) => i.kind === 'user' && i.text === 'kept safe'), 'the archived prompt is shown');
    assert.ok(!items.some((i) => i.kind === 'agent' && /Replaying/.test(JSON.stringify(i))), 'the partial replay is replaced by the archive');
    // Retry: the agent is asked again, and this time it replays the session.
    await past.session.runAction('retry');
    await waitForStatus(past, 'loaded on retry', connected);
    assert.equal(readRecord('load-fails').filter((r) => r.msg?.method === 'session/load').length, 2);
    assert.equal(past.session.id, id);
    assert.ok(past.session.transcript.items.some((i) => i.kind === 'user' && i.text === 'kept safe'));
  });
  it('acpAgents.sessions.archiveMaxMB from the user’s settings: at 1 MB the archive stops at the limit (a marker names it) and the reopened session lacks the turn’s end; the default keeps it all', async () => {
    const a = await api();
    const cfg = vscode.workspace.getConfiguration('acpAgents');
    const AGENT = 'fake-archive-limit';
    // One turn of 1.2 MB of updates (12 plans of 100,000 characters), then ARCHIVE-END-MARKER; its archive as written, and the reopened session.
    const run = async () => {
      const panel = a.openChat(AGENT);
      await waitForStatus(panel, 'connected', connected);
      const id = panel.session.id!;
      assert.equal(await panel.session.prompt('bulk'), 'end_turn');
      await a.testing.flushStores();
      const file = path.join(a.testing.storagePath(), 'archive', AGENT, `${id}.jsonl`);
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { u: { sessionUpdate: string; limit?: number } });
      await closeAllEditors();
      const past = a.openPastSession(AGENT, id);
      await waitForStatus(past, 'the archive, read-only', (st) => /Read-only/.test(st.text));
      const shown = JSON.stringify(past.session.transcript.items).includes('ARCHIVE-END-MARKER');
      past.panel.dispose();
      return { size: fs.statSync(file).size, lines, shown };
    };
    try {
      await cfg.update('sessions.archiveMaxMB', 1, vscode.ConfigurationTarget.Global);
      await waitFor('the setting to reach the extension host', () => vscode.workspace.getConfiguration('acpAgents').get('sessions.archiveMaxMB') === 1 || undefined);
      const cut = await run();
      const full = cut.lines.filter((l) => l.u.sessionUpdate === '_archive_full');
      assert.deepEqual(full.map((l) => l.u.limit), [1024 * 1024], 'one marker, naming the user’s limit');
      assert.equal(cut.lines.at(-1)?.u.sessionUpdate, '_archive_full', 'nothing after it');
      assert.ok(cut.size <= 1024 * 1024 + 200, `${cut.size} bytes`);
      assert.equal(cut.shown, false, 'the reopened session ends where the archive stopped');
      // The default (20 MB) keeps the same turn whole: the cut above was the user's value.
      await cfg.update('sessions.archiveMaxMB', undefined, vscode.ConfigurationTarget.Global);
      await waitFor('the default to reach the extension host', () => vscode.workspace.getConfiguration('acpAgents').get('sessions.archiveMaxMB') === 20 || undefined);
      const whole = await run();
      assert.equal(whole.lines.filter((l) => l.u.sessionUpdate === '_archive_full').length, 0);
      assert.ok(whole.size > 1024 * 1024, `${whole.size} bytes`);
      assert.equal(whole.shown, true, 'the reopened session shows the turn’s end');
    } finally {
      await cfg.update('sessions.archiveMaxMB', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
