// A reason for undoing the agent's change, in the real host with a fake agent that writes a file
// (fs/write_text_file): the Undo is done first; VS Code's input box (answered through the test
// seam) names the file; the reason goes before the user's text in the next session/prompt, once.
// With acpAgents.changes.askReasonOnUndo off, nothing is asked and nothing is sent.
// A change the user edited before keeping it: a diff from what the agent left goes with the next prompt.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ShownDialog } from '../../src/testHooks';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

const ORIGINAL = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
const AGENTS = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n';
const cfg = () => vscode.workspace.getConfiguration('acpAgents');
const file = () => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'hunks.txt');
const read = () => fs.readFileSync(file(), 'utf8');

/** The prompts the agent received for a session, in order, as their blocks. */
function prompts(sessionId: string): unknown[] {
  return readRecord('hunks')
    .filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt' && r.msg.params?.sessionId === sessionId)
    .map((r) => r.msg.params.prompt);
}

/** A session whose agent changed hunks.txt (listed in its Changes), and what the undo question showed. */
async function changed(answer: (s: ShownDialog) => Promise<string | undefined>) {
  const a = await api();
  fs.writeFileSync(file(), ORIGINAL);
  await waitFor('any open document of the file reloaded', () => (vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file())?.getText() ?? ORIGINAL) === ORIGINAL || undefined);
  const shown: ShownDialog[] = [];
  a.testing.setUndoReasonAnswer(async (s) => (shown.push(s), await answer(s)));
  const panel = a.openChat('fake-hunks');
  await waitForStatus(panel, 'connected', connected);
  const sessionId = panel.session.id!;
  const edit = async (text: string) => {
    assert.equal(await panel.session.prompt(text), 'end_turn');
    await waitFor('hunks.txt listed', () => panel.session.checkpoints.changes.list().some((c) => c.path === file()) || undefined);
    assert.equal(read(), AGENTS);
  };
  await edit('edit two places');
  /** Waits until the session logged the reason as kept (it is asked after the Undo, never waited for). */
  const kept = async (n: number) =>
    await waitFor(`reason ${n} kept`, () => a.testing.logLines().filter((l) => l.includes(`[session ${sessionId}] the user gave a reason for undoing a change`)).length === n || undefined);
  return { a, panel, sessionId, shown, edit, kept };
}

describe('Undo the agent’s change with a reason', function () {
  this.timeout(90_000);
  // The run's own user value (a harness may turn the question off for the real-UI tiers), put back after each test.
  let userValue: unknown;
  before(() => void (userValue = cfg().inspect('changes.askReasonOnUndo')?.globalValue));

  afterEach(async () => {
    const a = await api();
    a.testing.setUndoReasonAnswer(undefined);
    await cfg().update('changes.askReasonOnUndo', userValue, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
    await a.testing.stopAllAgents();
    fs.rmSync(file(), { force: true });
  });

  it('undo a file with a reason (the command, then the Changes list’s Undo): the box names the file; the next session/prompt carries the reason before the user’s text, once', async () => {
    await cfg().update('changes.askReasonOnUndo', true, vscode.ConfigurationTarget.Global);
    let typed: (reason: string) => void = () => undefined;
    const { a, panel, sessionId, shown, edit, kept } = await changed(() => new Promise((r) => (typed = r)));
    // The box is still open (unanswered) when the command returns: the Undo never waits on it.
    assert.equal(await vscode.commands.executeCommand('acpAgents.undoFile', vscode.Uri.file(file())), true);
    assert.equal(read(), ORIGINAL, 'undone before any answer');
    assert.equal(shown.length, 1);
    typed('the lower case is on purpose');
    await kept(1);
    assert.match(shown[0]!.title ?? '', /hunks\.txt/);
    assert.match(shown[0]!.message, /Why undo the agent's change\?/);
    await edit('Try again');
    assert.deepEqual(prompts(sessionId)[1], [
      { type: 'text', text: 'The user undid your change to hunks.txt and said why: the lower case is on purpose' },
      { type: 'text', text: 'Try again' },
    ]);
    // The Changes list's Undo in the panel, as its button posts it: asked too; the first reason is not sent again.
    a.testing.postFromWebview(panel, { type: 'change', action: 'revert', path: file() });
    await waitFor('undone from the panel', () => read() === ORIGINAL || undefined);
    await waitFor('asked again', () => shown.length === 2 || undefined);
    typed('still no capitals');
    await kept(2);
    assert.equal(await panel.session.prompt('Once more'), 'end_turn');
    assert.deepEqual(prompts(sessionId)[2], [
      { type: 'text', text: 'The user undid your change to hunks.txt and said why: still no capitals' },
      { type: 'text', text: 'Once more' },
    ]);
    assert.equal(await panel.session.prompt('And again'), 'end_turn');
    assert.deepEqual(prompts(sessionId)[3], [{ type: 'text', text: 'And again' }], 'sent once');
  });

  it('undo a hunk and answer Escape: asked, nothing sent; with acpAgents.changes.askReasonOnUndo off, an Undo asks nothing and sends nothing', async () => {
    await cfg().update('changes.askReasonOnUndo', true, vscode.ConfigurationTarget.Global);
    const { sessionId, shown, edit } = await changed(async () => undefined);
    assert.equal(await vscode.commands.executeCommand('acpAgents.undoHunk', vscode.Uri.file(file()), 0), true);
    assert.equal(read(), 'one\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n', 'the first hunk undone');
    await waitFor('the question asked', () => shown.length === 1 || undefined);
    assert.match(shown[0]!.title ?? '', /hunks\.txt/);
    await vscode.commands.executeCommand('acpAgents.undoFile', vscode.Uri.file(file()));
    await waitFor('asked again', () => shown.length === 2 || undefined);
    await cfg().update('changes.askReasonOnUndo', false, vscode.ConfigurationTarget.Global);
    await edit('Try again');
    assert.deepEqual(prompts(sessionId)[1], [{ type: 'text', text: 'Try again' }], 'Escape: no reason');
    // Setting off: the answer would give a reason, were it asked.
    (await api()).testing.setUndoReasonAnswer(async (s) => (shown.push(s), 'should never be sent'));
    assert.equal(await vscode.commands.executeCommand('acpAgents.undoFile', vscode.Uri.file(file())), true);
    assert.equal(read(), ORIGINAL);
    await edit('Once more');
    assert.equal(shown.length, 2, 'not asked with the setting off');
    assert.deepEqual(prompts(sessionId)[2], [{ type: 'text', text: 'Once more' }]);
  });

  it('keep a change the user edited first (a hunk’s Keep): the next session/prompt carries a diff from what the agent left, once; a change kept as the agent left it, nothing', async () => {
    const { panel, sessionId } = await changed(async () => undefined);
    // What the agent left is known once its turn has settled (checkpoints).
    await waitFor('the turn’s checkpoint', () => panel.session.checkpoints.agentLeft(file())?.toString() === AGENTS || undefined);
    const doc = await vscode.workspace.openTextDocument(file());
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(1, 0, 1, 3), 'Two (mine)');
    assert.equal(await vscode.workspace.applyEdit(edit), true);
    // Unsaved: the editor's text is what counts.
    assert.equal(await vscode.commands.executeCommand('acpAgents.keepHunk', doc.uri, 0), true);
    assert.equal(await panel.session.prompt('Go on'), 'end_turn');
    assert.deepEqual(prompts(sessionId)[1], [
      { type: 'text', text: 'The user kept your change to hunks.txt after editing it. What the file holds now, as a diff from what you left in it (- yours, + theirs):\n```diff\n one\n-TWO\n+Two (mine)\n three\n ⋯\n```' },
      { type: 'text', text: 'Go on' },
    ]);
    const user = panel.session.transcript.items.filter((i) => i.kind === 'user').at(-1);
    assert.ok(user?.kind === 'user' && user.parts.some((p) => p.type === 'note' && /your edit of the change to hunks\.txt before keeping it/.test(p.text ?? '')), 'the message says what went with it');
    // The agent's second turn wrote the file again; kept as it left it, nothing is said.
    await waitFor('hunks.txt listed again', () => panel.session.checkpoints.changes.list().some((c) => c.path === file()) || undefined);
    await waitFor('the second turn’s checkpoint', () => (panel.session.checkpoints.agentLeft(file()) && !doc.isDirty && read() === AGENTS) || undefined);
    assert.equal(await vscode.commands.executeCommand('acpAgents.keepFile', doc.uri), true);
    assert.equal(await panel.session.prompt('Once more'), 'end_turn');
    assert.deepEqual(prompts(sessionId)[2], [{ type: 'text', text: 'Once more' }]);
  });
});
