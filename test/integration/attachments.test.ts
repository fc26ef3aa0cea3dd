// Attachments go to the agent as the content its promptCapabilities allow.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

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

  it('@-mentions offer the selection, the Problems list, open editors and workspace symbols (VS Code’s providers) besides files, each sent in the form the agent takes', async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const greet = vscode.Uri.file(path.join(folder, 'src', 'greet.ts'));
    const doc = await vscode.workspace.openTextDocument(greet);
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 0, 2, 0);
    // A symbol provider and diagnostics of the test's own: what any language extension would give.
    const symbolProvider = vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: (q) => (/greet/i.test(q) ? [new vscode.SymbolInformation('greetEveryone', vscode.SymbolKind.Function, new vscode.Range(1, 0, 2, 1), greet)] : []),
    });
    const diagnostics = vscode.languages.createDiagnosticCollection('mention-test');
    diagnostics.set(greet, [new vscode.Diagnostic(new vscode.Range(0, 3, 0, 9), 'Cannot find name "wrld".', vscode.DiagnosticSeverity.Error), new vscode.Diagnostic(new vscode.Range(2, 0, 2, 4), 'Unused thing.', vscode.DiagnosticSeverity.Warning)]);
    try {
      const all = await a.testing.mentions('');
      // Paths as VS Code shows them (in this two-folder workspace, with the folder's name).
      const rel = vscode.workspace.asRelativePath(greet);
      assert.deepEqual(all.slice(0, 3).map((m) => `${m.kind}:${m.label}`), ['selection:selection', 'problems:problems', `editor:${rel}`]);
      assert.match(all[1]!.detail!, /^\d+ in the workspace \(\d+ errors?\)$/);
      assert.ok(all.some((m) => m.kind === 'file' && m.label.endsWith('README.md')), 'files after them');
      assert.ok(!all.some((m) => m.kind === 'file' && m.label === rel), 'an open editor is not offered twice');
      // Symbols from every provider (the built-in TypeScript one may add its own, and may
      // still be starting: then the first answer has none and the late one has them all).
      const isSym = (m: { kind: string; label: string }): boolean => m.kind === 'symbol' && m.label === 'greetEveryone';
      let late: readonly (typeof all)[number][] | undefined;
      let sym = (await a.testing.mentions('greet', (items) => (late = items))).find(isSym);
      for (let i = 0; !sym && i < 60; i++) {
        await new Promise((r) => setTimeout(r, 500));
        sym = late?.find(isSym);
      }
      assert.ok(sym, 'the provider’s workspace symbol');
      assert.equal(sym.detail, `Function · ${rel}:2`);
      assert.deepEqual((await a.testing.mentions('prob')).map((m) => m.kind).slice(0, 1), ['problems']);
      assert.ok(!(await a.testing.mentions('prob')).some((m) => m.kind === 'selection'), 'the selection only when its name matches');

      const problems = all[1]!.attachment;
      const symbol = sym.attachment;
      assert.equal(symbol.kind, 'selection');
      // Embedded where the agent takes embedded context: the symbol's lines and the Problems list as resources.
      const rich = a.openChat('fake-all-updates');
      await waitForStatus(rich, 'connected', connected);
      void rich.session.prompt('fix these', [problems, symbol]);
      await new Promise((r) => setTimeout(r, 500));
      const p1 = lastPrompt('all-updates');
      assert.deepEqual(p1.map((b: any) => b.type), ['text', 'resource', 'resource']);
      assert.equal(p1[1].resource.uri, 'vscode-problems:/workspace');
      const lines: string[] = p1[1].resource.text.split('\n');
      const err = lines.indexOf(`${rel}:1:4 error: Cannot find name "wrld".`);
      const warn = lines.indexOf(`${rel}:3:1 warning: Unused thing.`);
      assert.ok(err >= 0 && warn > err, `errors before warnings: ${p1[1].resource.text}`);
      assert.equal(p1[2].resource.uri, `${greet.toString()}#L2-3`);
      assert.equal(p1[2].resource.text, doc.getText(new vscode.Range(1, 0, 2, doc.lineAt(2).text.length)));
      await rich.session.cancel();
      // A baseline agent: a link to the symbol's lines with their text, and the problems as text.
      const plain = a.openChat('fake-default');
      await waitForStatus(plain, 'connected', connected);
      await plain.session.prompt('fix these', [problems, symbol]);
      const p2 = lastPrompt('default');
      assert.deepEqual(p2.map((b: any) => b.type), ['text', 'text', 'resource_link', 'text']);
      assert.ok(p2[1].text.startsWith('Problems:\n') && p2[1].text.includes(`${rel}:1:4 error: Cannot find name "wrld".`), p2[1].text);
      assert.equal(p2[2].uri, `${greet.toString()}#L2-3`);
    } finally {
      symbolProvider.dispose();
      diagnostics.dispose();
    }
  });

  it('a slow symbol provider does not hold up the @-mention list: its symbols follow when it answers', async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const greet = vscode.Uri.file(path.join(folder, 'src', 'greet.ts'));
    const slow = vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: async (q) => {
        if (!/zqslow/i.test(q)) return [];
        await new Promise((r) => setTimeout(r, 3000));
        return [new vscode.SymbolInformation('zqSlowSymbol', vscode.SymbolKind.Class, new vscode.Range(0, 0, 0, 5), greet)];
      },
    });
    try {
      let late: readonly { kind: string; label: string }[] | undefined;
      const first = await a.testing.mentions('zqslow', (items) => (late = items));
      assert.ok(!first.some((m) => m.kind === 'symbol'), 'the first answer does not wait for the slow provider');
      for (let i = 0; !late && i < 40; i++) await new Promise((r) => setTimeout(r, 250));
      assert.deepEqual(late?.filter((m) => m.kind === 'symbol').map((m) => m.label), ['zqSlowSymbol'], 'the late answer carries the symbol');
      // The lookup is shared: asking again answers at once with the symbol.
      const again = await a.testing.mentions('zqslow');
      assert.ok(again.some((m) => m.kind === 'symbol' && m.label === 'zqSlowSymbol'));
    } finally {
      slow.dispose();
    }
  });

  it('a send from the webview may name only files it was given or files in the session’s folders: an outside one is left out, logged and said', async () => {
    const a = await api();
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    const logBefore = a.testing.logMark();
    const outside = vscode.Uri.file(path.join(os.tmpdir(), `acp-never-attached-${process.pid}.txt`));
    fs.writeFileSync(outside.fsPath, 'secret');
    // What the host tells the webview (the composer's note is the user's "said"), seen where the
    // panel posts it: this host never loads the webview, so nothing reaches a postMessage here.
    const host = panel as unknown as { post(m: unknown): void };
    const posted: unknown[] = [];
    const post = host.post.bind(panel);
    host.post = (m: unknown) => (posted.push(m), post(m));
    try {
      // What a webview made to lie would post: a file Attach…, a drop or an @-mention never gave it.
      a.testing.postFromWebview(panel, {
        type: 'send',
        text: 'webview send',
        attachments: [
          { kind: 'file', uri: fileUri.toString(), name: 'greet.ts' },
          { kind: 'file', uri: outside.toString(), name: 'never-attached.txt' },
        ],
      });
      const prompt = await waitFor('the prompt', () => {
        const p = lastPrompt('default');
        return p?.[0]?.text === 'webview send' ? p : undefined;
      });
      assert.deepEqual(prompt, [
        { type: 'text', text: 'webview send' },
        { type: 'resource_link', uri: fileUri.toString(), name: 'greet.ts' },
      ], 'the file inside went; the outside one did not');
      assert.ok(a.testing.logLinesSince(logBefore).some((l) => l.includes('left out 1 attachment(s) this panel was never given')), 'and the log says so');
      const notes = posted.filter((m): m is { type: 'composerNote'; text: string } => (m as { type?: unknown }).type === 'composerNote');
      assert.equal(notes.length, 1, 'the composer shows one note');
      assert.match(notes[0]!.text, /^never-attached\.txt was not sent: it was not attached here, and it is outside the session's folders/, 'naming the file left out, not the one sent');
    } finally {
      delete (host as Partial<typeof host>).post;
      fs.rmSync(outside.fsPath, { force: true });
    }
  });

  it('an @-mention list offers nothing by itself: only the entry the user picked may be sent, not the others it showed', async () => {
    const a = await api();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-mention-'));
    const picked = path.join(dir, 'picked-notes.txt');
    const shown = path.join(dir, 'shown-secret.txt');
    fs.writeFileSync(picked, 'PICKED TEXT');
    fs.writeFileSync(shown, 'SHOWN NOT PICKED');
    try {
      // Two files outside the folders, open in editors: both are @-mention candidates.
      for (const f of [picked, shown]) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(f), { preview: false });
      const panel = a.openChat('fake-all-updates');
      await waitForStatus(panel, 'connected', connected);
      const posts = watchPosts(panel);
      try {
        a.testing.postFromWebview(panel, { type: 'findFiles', query: '', requestId: 4242 });
        const list = await waitFor('the @-mention list', () => posts.list.find((m) => m.type === 'mentions' && m.requestId === 4242));
        const [pickedUri, shownUri] = [picked, shown].map((f) => vscode.Uri.file(f).toString());
        const listed = list.items.map((m: { attachment: { uri?: string } }) => m.attachment.uri);
        assert.ok(listed.includes(pickedUri) && listed.includes(shownUri), `both are shown: ${JSON.stringify(listed)}`);
        // The user picks one; a webview made to lie sends both.
        a.testing.postFromWebview(panel, { type: 'mentionPicked', requestId: 4242, uri: pickedUri });
        a.testing.postFromWebview(panel, {
          type: 'send',
          text: 'mention send',
          attachments: [
            { kind: 'file', uri: pickedUri, name: 'picked-notes.txt' },
            { kind: 'file', uri: shownUri, name: 'shown-secret.txt' },
          ],
        });
        const prompt = await waitFor('the prompt', () => {
          const p = lastPrompt('all-updates');
          return p?.[0]?.text === 'mention send' ? p : undefined;
        });
        assert.deepEqual(prompt, [
          { type: 'text', text: 'mention send' },
          { type: 'resource', resource: { uri: pickedUri, text: 'PICKED TEXT', mimeType: 'text/plain' } },
        ], 'the picked file went; the one only shown did not');
      } finally {
        posts.stop();
        await panel.session.cancel();
      }
    } finally {
      await closeAllEditors();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a dropped file swapped for a link before the send is refused, never read through the link; the user is told', async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const swapped = path.join(folder, `acp-drop-swapped-${process.pid}.txt`);
    const kept = path.join(folder, `acp-drop-kept-${process.pid}.txt`);
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-drop-')), 'outside.txt');
    fs.writeFileSync(swapped, 'DROPPED TEXT');
    fs.writeFileSync(kept, 'KEPT TEXT');
    fs.writeFileSync(outside, 'OUTSIDE SECRET');
    const [swappedUri, keptUri] = [swapped, kept].map((f) => vscode.Uri.file(f).toString());
    try {
      const panel = a.openChat('fake-all-updates');
      await waitForStatus(panel, 'connected', connected);
      const posts = watchPosts(panel);
      try {
        a.testing.postFromWebview(panel, { type: 'dropUris', uris: [swappedUri, keptUri] });
        const added = await waitFor('the drop attached', () => posts.list.find((m) => m.type === 'attachments'));
        assert.deepEqual(added.add.map((x: { uri: string }) => x.uri), [swappedUri, keptUri]);
        // Between the drop and the send, the file becomes a link to one outside the folders.
        fs.rmSync(swapped);
        fs.symlinkSync(outside, swapped);
        a.testing.postFromWebview(panel, {
          type: 'send',
          text: 'drop send',
          attachments: [
            { kind: 'file', uri: swappedUri, name: 'swapped.txt' },
            { kind: 'file', uri: keptUri, name: 'kept.txt' },
          ],
        });
        const prompt = await waitFor('the prompt', () => {
          const p = lastPrompt('all-updates');
          return p?.[0]?.text === 'drop send' ? p : undefined;
        });
        assert.ok(!JSON.stringify(prompt).includes('OUTSIDE SECRET'), 'the link was not followed');
        assert.deepEqual(prompt, [
          { type: 'text', text: 'drop send' },
          { type: 'resource', resource: { uri: keptUri, text: 'KEPT TEXT', mimeType: 'text/plain' } },
        ]);
        const notice = await waitFor('the notice', () => panel.session.transcript.items.find((i) => i.kind === 'notice' && /swapped\.txt: it was not read: it no longer leads to the file that was attached/.test((i as any).description)));
        assert.ok(notice);
      } finally {
        posts.stop();
        await panel.session.cancel();
      }
    } finally {
      for (const f of [swapped, kept]) fs.rmSync(f, { force: true });
      fs.rmSync(path.dirname(outside), { recursive: true, force: true });
    }
  });
});

/** What the host posts to a panel's webview, seen as it goes (and still delivered). */
function watchPosts(panel: object): { list: any[]; stop(): void } {
  const p = panel as { post(m: unknown): void };
  const own = p.post.bind(p);
  const list: any[] = [];
  p.post = (m) => {
    list.push(m);
    own(m);
  };
  return { list, stop: () => void delete (p as { post?: unknown }).post };
}
