// ACP: Sessions That Changed This File: the turns that changed a file, from the local history,
// newest first; picking one opens its session (again, after its panel was closed) at that turn.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MessageItem } from '../../src/shared/transcriptTypes';
import { api, backdate, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

describe('Sessions That Changed This File', function () {
  this.timeout(90_000);
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

  afterEach(async () => {
    const a = await api();
    a.testing.setSessionPicker(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('lists the turns that changed a file, newest first, with their prompts; a pick reopens the session at that turn; a file no session changed is said so', async () => {
    const a = await api();
    const dir = path.join(root(), 'cp');
    const f = (n: string) => path.join(dir, n);
    fs.mkdirSync(f('dir'), { recursive: true });
    for (const [n, t] of [['written.txt', 'written 0\n'], ['self.txt', 'self 0\n'], ['deleted.txt', 'deleted 0\n'], ['renamed-from.txt', 'renamed 0\n'], ['dir/inner.txt', 'inner 0\n'], ['untouched.txt', 'nobody\n']]) fs.writeFileSync(f(n!), t!);
    backdate(dir);
    try {
      const panel = a.openChat('fake-checkpoints');
      await waitForStatus(panel, 'connected', connected);
      const users = (p = panel) => p.session.transcript.items.filter((i): i is MessageItem => i.kind === 'user');
      assert.equal(await panel.session.prompt('first: tidy the cp folder'), 'end_turn');
      await waitFor('a checkpoint on the first message', () => users()[0]?.checkpoint);
      assert.equal(await panel.session.prompt('second: write again'), 'end_turn');
      await waitFor('a checkpoint on the second message', () => users()[1]?.checkpoint);
      const sessionId = panel.session.id!;
      await a.testing.flushStores();
      await closeAllEditors();
      await waitFor('the panel closed', () => (a.panels().length === 0 ? true : undefined));

      let offered: readonly { label: string; description?: string; detail?: string; sessionId: string }[] = [];
      a.testing.setSessionPicker(async (items) => {
        offered = items;
        return items[0]?.sessionId;
      });
      // Changed by both turns: both offered, the newest first; the pick opens the session at the second turn.
      const second = (await vscode.commands.executeCommand('acpAgents.sessionsThatChangedFile', vscode.Uri.file(f('written.txt')))) as string | undefined;
      // (Other tests' sessions in this host changed cp/ files too: they are listed after, being older.)
      const ours = () => offered.filter((o) => o.sessionId === sessionId);
      assert.deepEqual(
        ours().map((o) => o.detail),
        ['Turn: second: write again · and 1 other file', 'Turn: first: tidy the cp folder · and 5 other files'],
      );
      assert.equal(offered[0]?.sessionId, sessionId, 'newest first');
      assert.match(offered[0]!.description ?? '', /^Fake: checkpoints · /);
      const reopened = a.panels().find((p) => p.session.id === sessionId || p.session.targetSessionId === sessionId);
      assert.ok(reopened, 'the session is open again');
      await waitForStatus(reopened, 'resumed', connected);
      assert.equal(second, users(reopened)[1]?.id, 'revealed at the second turn’s message');
      assert.equal(users(reopened)[1]?.text, 'second: write again');

      // Deleted by the first turn only: one turn offered; with the panel open, revealed at once.
      const first = (await vscode.commands.executeCommand('acpAgents.sessionsThatChangedFile', vscode.Uri.file(f('deleted.txt')))) as string | undefined;
      assert.deepEqual(
        ours().map((o) => o.detail),
        ['Turn: first: tidy the cp folder · and 5 other files'],
      );
      assert.equal(offered[0]?.sessionId, sessionId, 'newest first');
      assert.equal(first, users(reopened)[0]?.id);
      assert.equal(a.panels().length, 1, 'the open panel is reused');

      // A file no session changed: said so, nothing offered.
      offered = [];
      const before = a.testing.messages().length;
      assert.equal(await vscode.commands.executeCommand('acpAgents.sessionsThatChangedFile', vscode.Uri.file(f('untouched.txt'))), undefined);
      assert.deepEqual(offered, []);
      assert.deepEqual(a.testing.messages().slice(before).map((m) => m.message), ['No session in your history changed cp/untouched.txt.']);
    } finally {
      await closeAllEditors();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
