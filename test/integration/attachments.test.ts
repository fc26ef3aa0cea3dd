// Attachments go to the agent as the content its promptCapabilities allow.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, readRecord, waitForStatus } from './helpers';

function lastPrompt(scenario: string): any[] {
  return readRecord(scenario).filter((r) => r.msg?.method === 'session/prompt').at(-1)?.msg.params.prompt;
}

describe('Prompt attachments by promptCapabilities', function () {
  this.timeout(60_000);
  let fileUri: vscode.Uri;

  before(async () => {
    fileUri = vscode.Uri.file(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'src', 'greet.ts'));
    const doc = await vscode.workspace.openTextDocument(fileUri);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// UNSAVED EDIT\n'));
    assert.equal(doc.isDirty, true);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  const attachments = () => [
    { kind: 'file' as const, uri: fileUri.toString(), name: 'greet.ts' },
    { kind: 'image' as const, name: 'dot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
  ];

  it('embeddedContext: the file goes embedded, with the editor’s unsaved text; no image without the image capability', async () => {
    const a = await api();
    const panel = a.openChat('fake-all-updates');
    await waitForStatus(panel, 'connected', connected);
    void panel.session.prompt('look at this', attachments());
    await new Promise((r) => setTimeout(r, 500));
    const prompt = lastPrompt('all-updates');
    assert.deepEqual(prompt.map((b: any) => b.type), ['text', 'resource']);
    assert.equal(prompt[1].resource.uri, fileUri.toString());
    assert.match(prompt[1].resource.text, /^\/\/ UNSAVED EDIT\n/);
    assert.ok(panel.session.transcript.items.some((i) => i.kind === 'notice' && /dot\.png: the agent does not accept images/.test((i as any).description)));
    await panel.session.cancel();
  });

  it('baseline agent: a resource_link (always allowed)', async () => {
    const a = await api();
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    await panel.session.prompt('look at this', attachments().slice(0, 1));
    assert.deepEqual(lastPrompt('default'), [
      { type: 'text', text: 'look at this' },
      { type: 'resource_link', uri: fileUri.toString(), name: 'greet.ts' },
    ]);
    const user = panel.session.transcript.items.filter((i) => i.kind === 'user').at(-1) as any;
    assert.deepEqual(user.parts.map((p: any) => p.name), ['greet.ts'], 'the chip shows in the transcript');
  });
});
