// Fork Session: session/fork where the agent advertises it (a second panel,
// a new id, the history, "<title> (fork)"); otherwise a new session whose first
// prompt carries the conversation so far (embedded, or as text).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

const texts = (p: ChatPanel) => p.session.transcript.items.filter((i) => i.kind === 'user' || i.kind === 'agent').map((i) => `${i.kind}:${(i as { text: string }).text}`);

describe('Fork Session', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  it('sends session/fork and opens a second panel with the history, named "<title> (fork)"', async () => {
    const a = await api();
    const first = a.openChat('fake-fork');
    await waitForStatus(first, 'connected', connected);
    assert.equal(await first.session.prompt('Keep greet stable'), 'end_turn');
    const sourceId = first.session.id!;
    await vscode.commands.executeCommand('acpAgents.forkSession', { agentId: 'fake-fork', sessionId: sourceId });
    const fork = await waitFor('the fork’s panel', () => a.panels().find((p) => p !== first));
    await waitForStatus(fork, 'connected', connected);
    const sent = readRecord('fork').filter((r) => r.dir === 'in' && r.msg?.method === 'session/fork').map((r) => r.msg.params);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].sessionId, sourceId);
    assert.equal(sent[0].cwd, vscode.workspace.workspaceFolders![0]!.uri.fsPath);
    assert.equal(fork.session.id, `forked-${sourceId}`);
    assert.deepEqual(texts(fork), ['user:Keep greet stable', 'agent:Noted: greet stays stable.'], 'the history is shown');
    assert.ok(fork.session.transcript.items.some((i) => i.kind === 'notice' && i.title === 'Forked from "Keep greet stable"'));
    assert.equal(a.testing.sessions('fake-fork').find((s) => s.sessionId === fork.session.id)?.title, 'Keep greet stable (fork)');
    // The fork goes on by itself; the original is untouched.
    assert.equal(await fork.session.prompt('And now?'), 'end_turn');
    assert.equal(readRecord('fork').filter((r) => r.msg?.method === 'session/prompt').at(-1).msg.params.sessionId, fork.session.id);
    assert.deepEqual(texts(first), ['user:Keep greet stable', 'agent:Noted: greet stays stable.']);
    assert.equal(readRecord('fork').filter((r) => r.msg?.method === 'session/new').length, 1, 'no new session instead of the fork');
  });

  it('without session/fork: a new session whose first prompt carries the transcript as an embedded resource, labelled', async () => {
    const a = await api();
    const first = a.openChat('fake-fork-fallback');
    await waitForStatus(first, 'connected', connected);
    assert.equal(await first.session.prompt('Keep greet stable'), 'end_turn');
    first.reveal();
    await waitFor('the panel active', () => (first.panel.active ? true : undefined));
    await vscode.commands.executeCommand('acpAgents.forkSession');
    const fork = await waitFor('the fork’s panel', () => a.panels().find((p) => p !== first));
    const prompt = await waitFor('the first prompt of the new session', () => readRecord('fork-fallback').find((r) => r.dir === 'in' && r.msg?.method === 'session/prompt' && r.msg.params.sessionId === fork.session.id)?.msg.params.prompt);
    assert.equal(prompt.length, 2);
    assert.match(prompt[0].text, /^This session is a fork of "Keep greet stable"\. The conversation so far is attached/);
    assert.equal(prompt[1].type, 'resource');
    assert.equal(prompt[1].resource.mimeType, 'text/markdown');
    assert.match(prompt[1].resource.text, /^# Conversation so far: Keep greet stable\n\n\*\*User:\*\*\n\nKeep greet stable\n\n\*\*Agent:\*\*\n\nNoted: greet stays stable\.\n$/);
    assert.equal(readRecord('fork-fallback').filter((r) => r.msg?.method === 'session/new').length, 2);
    assert.notEqual(fork.session.id, first.session.id);
    const notice = fork.session.transcript.items.find((i) => i.kind === 'notice' && i.title === 'Forked from "Keep greet stable"');
    assert.match(notice?.kind === 'notice' ? (notice.description ?? '') : '', /as an attachment\.$/);
  });

  it('without session/fork nor embeddedContext: the transcript goes as text, and the notice says so', async () => {
    const a = await api();
    const first = a.openChat('fake-default');
    await waitForStatus(first, 'connected', connected);
    assert.equal(await first.session.prompt('Keep greet stable'), 'end_turn');
    await vscode.commands.executeCommand('acpAgents.forkSession', { agentId: 'fake-default', sessionId: first.session.id });
    const fork = await waitFor('the fork’s panel', () => a.panels().find((p) => p !== first));
    const prompt = await waitFor('the first prompt of the new session', () => readRecord('default').find((r) => r.dir === 'in' && r.msg?.method === 'session/prompt' && r.msg.params.sessionId === fork.session.id)?.msg.params.prompt);
    assert.match(prompt[0].text, /The conversation so far is below/);
    assert.equal(prompt[1].type, 'text');
    assert.match(prompt[1].text, /^--- Transcript of the earlier conversation \(forked\) ---/);
    const notice = fork.session.transcript.items.find((i) => i.kind === 'notice' && i.title === 'Forked from "Keep greet stable"');
    const detail = notice?.kind === 'notice' ? (notice.description ?? '') : '';
    assert.match(detail, /as text\.$/);
    assert.doesNotMatch(detail, /attachment/);
  });

  it('Export Transcript as Markdown: the active panel’s conversation in a new Markdown document, under its title', async () => {
    const a = await api();
    const panel = a.openChat('fake-fork');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('Keep greet stable'), 'end_turn');
    panel.reveal();
    await waitFor('the panel active', () => a.testing.activePanel() === panel || undefined);
    await vscode.commands.executeCommand('acpAgents.exportTranscript');
    const doc = await waitFor('the exported document', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.isUntitled && d.languageId === 'markdown' ? d : undefined;
    });
    assert.equal(doc.getText(), '# Keep greet stable\n\n**User:**\n\nKeep greet stable\n\n**Agent:**\n\nNoted: greet stays stable.\n');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
