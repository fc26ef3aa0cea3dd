// Links in agent output, clicked in the panel (the webview posts `openLink`):
// http(s) go to the browser, file links inside the session's folders open in the
// editor at their line, a file link outside asks first, and any other scheme
// (command:, vscode:, javascript:, data:) is refused and logged.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AccessQuestion } from '../../src/sessions/policy/accessGate';
import { api, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

describe('Links from agents: what a click opens', function () {
  this.timeout(60_000);

  after(async () => {
    const a = await api();
    a.testing.watchOpenExternal(undefined);
    a.testing.setAccessAnswer(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('https and http open in the browser; a file inside opens at its line; outside asks (No: not opened); command:, vscode:, javascript: and data: are refused', async () => {
    const a = await api();
    const panel = a.openChat('demo');
    await waitForStatus(panel, 'connected', connected);
    const opened: string[] = [];
    const asked: AccessQuestion[] = [];
    a.testing.watchOpenExternal((uri) => opened.push(uri.toString(true)));
    a.testing.setAccessAnswer(async (q) => (asked.push(q), 'deny'));
    const click = (href: string) => a.testing.postFromWebview(panel, { type: 'openLink', href });

    click('https://example.com/docs?q=1#part');
    click('http://127.0.0.1:3000/');
    await waitFor('both pages handed to the browser', () => (opened.length === 2 ? true : undefined));
    assert.deepEqual(opened, ['https://example.com/docs?q=1#part', 'http://127.0.0.1:3000/']);

    // Refused schemes: each one logged, none opened anywhere.
    for (const [href, scheme] of [['command:workbench.action.quit', 'command'], ['vscode://ms-vscode.remote-server/x', 'vscode'], ['javascript:alert(1)', 'javascript'], ['data:text/html,<b>x</b>', 'data']] as const) {
      click(href);
      await waitFor(`the refusal of ${scheme}:`, () => a.testing.logLines().some((l) => l.includes(`refused a link with scheme "${scheme}"`)) || undefined);
    }

    // A file inside the session's folders: opened in the editor at the link's line.
    const greet = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'src', 'greet.ts');
    click(`${vscode.Uri.file(greet).toString()}#L2`);
    const editor = await waitFor('greet.ts open', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === greet));
    assert.equal(editor.selection.active.line, 1, 'line 2 (1-based)');

    // A file outside: the access question, answered No; it does not open.
    click('file:///etc/hosts');
    await waitFor('the access question for /etc/hosts', () => asked.find((q) => q.path === '/etc/hosts'));
    assert.equal(asked.at(-1)?.action, 'open');
    await waitFor('the refusal in the log', () => a.testing.logLines().some((l) => l.includes('refused to open "/etc/hosts"')) || undefined);
    assert.equal(vscode.workspace.textDocuments.some((d) => d.uri.path === '/etc/hosts'), false, 'not opened');
    assert.deepEqual(opened, ['https://example.com/docs?q=1#part', 'http://127.0.0.1:3000/'], 'nothing else went to the browser');
    assert.equal(asked.length, 1, 'only the outside file asked');
  });
});
