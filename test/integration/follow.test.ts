// Follow the agent: off by default; on, the files live tool calls point at open
// beside the panel at their line, the panel keeping its place; never outside
// the session's folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

describe('Follow the agent', function () {
  this.timeout(60_000);

  /** The scenario waits for this file after its first location (so each location is seen in turn). */
  const go = () => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.follow-go');

  afterEach(async () => {
    fs.rmSync(go(), { force: true });
    await closeAllEditors();
    fs.rmSync(target(), { force: true });
    await (await api()).testing.stopAllAgents();
  });

  /** A file of its own (other tests edit the sample files): ten numbered lines. */
  const target = () => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'follow-target.txt');
  const targetEditor = () => vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith('/follow-target.txt'));
  beforeEach(() => fs.writeFileSync(target(), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'));

  it('is off by default: nothing opens', async () => {
    const panel = (await api()).openChat('fake-follow');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(panel.follower.following, false);
    fs.writeFileSync(go(), 'go');
    assert.equal(await panel.session.prompt('read'), 'end_turn');
    assert.equal(targetEditor(), undefined);
  });

  it('on: opens the file at the tool call’s line beside the panel (which stays visible), follows the next location, skips paths outside', async () => {
    const panel = (await api()).openChat('fake-follow');
    await waitForStatus(panel, 'connected', connected);
    panel.follower.set(true);
    const turn = panel.session.prompt('read');
    const editor = await waitFor('the file opened', () => targetEditor());
    assert.equal(editor.selection.active.line, 6, 'line 7 (1-based) of the tool call');
    assert.notEqual(editor.viewColumn, panel.panel.viewColumn, 'beside the panel, not over it');
    assert.equal(panel.panel.visible, true);
    fs.writeFileSync(go(), 'go');
    await waitFor('the second location', () => (targetEditor()?.selection.active.line === 3 ? true : undefined));
    assert.equal(await turn, 'end_turn');
    // The outside path was seen and decided on (not merely not yet opened): its refusal is logged; then nothing of it is open.
    const a = await api();
    await waitFor('the refusal of /etc/hosts', () => a.testing.logLines().some((l) => l.includes('follow: not opening /etc/hosts')) || undefined);
    assert.equal(vscode.window.visibleTextEditors.some((e) => e.document.uri.path === '/etc/hosts'), false, 'outside the folders: not opened');
    assert.equal(vscode.workspace.textDocuments.some((d) => d.uri.path === '/etc/hosts'), false, 'not even loaded');
    assert.equal(targetEditor()?.selection.active.line, 3, 'the last inside location stays shown');
  });
});
