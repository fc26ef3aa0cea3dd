// Checkpoints ("Restore files to here") and review by hunks (Keep / Undo), with fake agents in the real host.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MessageItem } from '../../src/shared/transcriptTypes';
import { api, backdate, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

describe('Checkpoints and review by hunks', function () {
  this.timeout(90_000);
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null);

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  it('Restore files to here: a written, a self-written, a deleted and a renamed file, and a removed folder’s file, come back in one edit; a user edit since is reported first; Undo Restore; it still works after the session is reopened', async () => {
    const a = await api();
    const dir = path.join(root(), 'cp');
    const f = (n: string) => path.join(dir, n);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(f('written.txt'), 'written 0\n');
    fs.writeFileSync(f('self.txt'), 'self 0\n');
    fs.writeFileSync(f('deleted.txt'), 'deleted 0\n');
    fs.writeFileSync(f('renamed-from.txt'), 'renamed 0\n');
    fs.mkdirSync(f('dir'));
    fs.writeFileSync(f('dir/inner.txt'), 'inner 0\n');
    // Git has the files clean: where a deleted file's bytes come from when nothing else had them.
    const git = (...args: string[]) => execFileSync('git', ['-C', root(), '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('add', 'cp');
    git('commit', '-q', '-m', 'base');
    // The repository's hooks and config too: the watcher reports those (an agent's write there is a change),
    // and once, on a fast machine, git init's late events were taken for the first turn's.
    backdate(dir, path.join(root(), '.git', 'hooks'), path.join(root(), '.git', 'config'));
    try {
      const panel = a.openChat('fake-checkpoints');
      await waitForStatus(panel, 'connected', connected);
      const users = (p = panel) => p.session.transcript.items.filter((i): i is MessageItem => i.kind === 'user');
      assert.equal(await panel.session.prompt('turn one'), 'end_turn');
      await waitFor('a checkpoint on the first message', () => users()[0]?.checkpoint);
      assert.equal(await panel.session.prompt('turn two'), 'end_turn');
      await waitFor('a checkpoint on the second message', () => users()[1]?.checkpoint);
      const [cp1, cp2] = users().map((u) => u.checkpoint!);
      assert.equal(read(f('written.txt')), 'written 2\n');
      assert.equal(read(f('self.txt')), 'self 2\n');
      assert.equal(read(f('deleted.txt')), null);
      assert.equal(read(f('renamed-to.txt')), 'renamed 0\n');

      // Nothing is restored without its preview first (a message from the panel alone is not enough).
      assert.equal(await panel.session.checkpoints.restore.restore(cp1!), false);
      assert.equal(read(f('written.txt')), 'written 2\n');
      // The user edits a file after the agent's last turn: the preview says so before anything changes.
      fs.writeFileSync(f('self.txt'), 'self 2, edited by the user\n');
      panel.session.checkpoints.restore.preview(cp1!);
      const view = panel.session.transcript.header.restore!;
      assert.equal(view.state, 'confirm');
      assert.equal(view.messageId, users()[0]!.id);
      assert.deepEqual(
        view.files.map((x) => `${x.name}:${x.action}${x.userEdited ? ':edited' : ''}`),
        ['deleted.txt:recreate', 'inner.txt:recreate', 'renamed-from.txt:recreate', 'renamed-to.txt:delete', 'self.txt:restore:edited', 'written.txt:restore'],
      );
      assert.match(view.note ?? '', /changed after the agent left it/);
      assert.equal(read(f('self.txt')), 'self 2, edited by the user\n', 'a preview changes nothing');

      assert.equal(await panel.session.checkpoints.restore.restore(cp1!), true);
      assert.equal(read(f('written.txt')), 'written 0\n');
      assert.equal(read(f('self.txt')), 'self 0\n');
      assert.equal(read(f('deleted.txt')), 'deleted 0\n');
      assert.equal(read(f('dir/inner.txt')), 'inner 0\n', 'a file of a removed folder, made again');
      assert.equal(read(f('renamed-from.txt')), 'renamed 0\n');
      assert.equal(read(f('renamed-to.txt')), null);
      assert.equal(panel.session.transcript.header.restore?.state, 'done');

      // Undo Restore: the whole restore goes back at once, the user's edit included.
      assert.equal(await panel.session.checkpoints.restore.undoRestore(), true);
      assert.equal(read(f('written.txt')), 'written 2\n');
      assert.equal(read(f('self.txt')), 'self 2, edited by the user\n');
      assert.equal(read(f('deleted.txt')), null);
      assert.equal(read(f('renamed-from.txt')), null);
      assert.equal(read(f('renamed-to.txt')), 'renamed 0\n');

      // Reopened (as after a reload): the checkpoints come from disk and find their messages again.
      const id = panel.session.id!;
      await a.testing.flushStores();
      await closeAllEditors();
      const past = a.openPastSession('fake-checkpoints', id);
      await waitForStatus(past, 'resumed', connected);
      await waitFor('both checkpoints linked again', () => (users(past).filter((u) => u.checkpoint).length === 2 ? true : undefined));
      assert.deepEqual(users(past).map((u) => u.checkpoint), [cp1, cp2]);
      past.session.checkpoints.restore.preview(cp2!);
      assert.deepEqual(past.session.transcript.header.restore!.files.map((x) => `${x.name}:${x.action}`), ['self.txt:restore', 'written.txt:restore']);
      assert.equal(await past.session.checkpoints.restore.restore(cp2!), true);
      assert.equal(read(f('written.txt')), 'written 1\n');
      assert.equal(read(f('self.txt')), 'self 1\n');
      assert.equal(read(f('deleted.txt')), null, 'deleted before that message: left deleted');
      assert.equal(read(f('renamed-to.txt')), 'renamed 0\n');
    } finally {
      await closeAllEditors();
      for (const p of [dir, path.join(root(), '.git')]) fs.rmSync(p, { recursive: true, force: true });
    }
  });

  it('links the agent planted after its change: Revert, Undo All, hunk Undo and Restore leave them (and the files they point to) alone, and say so; a protected file is asked about again', async () => {
    const a = await api();
    const plant = path.join(root(), 'plant');
    const dir = path.join(plant, 'dir');
    const fileA = path.join(dir, 'a.txt');
    const fileB = path.join(plant, 'b.txt');
    const away = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-plant-out-'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(fileA, 'one\ntwo\n');
    fs.writeFileSync(fileB, 'one\ntwo\n');
    const env = path.join(plant, '.env.local');
    fs.writeFileSync(env, 'KEY=mine\n');
    let answer: 'once' | 'deny' = 'once';
    const asked: string[] = [];
    a.testing.setAccessAnswer(async (q) => {
      asked.push(`${q.reason} ${path.basename(q.path)}`);
      return answer;
    });
    fs.writeFileSync(path.join(away, 'a.txt'), 'outside a\n');
    fs.writeFileSync(path.join(away, 'b.txt'), 'outside b\n');
    const outsideUntouched = () => {
      assert.equal(read(path.join(away, 'a.txt')), 'outside a\n');
      assert.equal(read(path.join(away, 'b.txt')), 'outside b\n');
    };
    backdate(plant, away);
    try {
      const panel = a.openChat('fake-link-plant');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('change two files'), 'end_turn');
      const cp = await waitFor('a checkpoint on the message', () => panel.session.transcript.items.find((i): i is MessageItem => i.kind === 'user')?.checkpoint);
      assert.deepEqual(panel.session.checkpoints.changes.list().map((c) => `${c.name}:${c.canRevert}`).sort(), ['.env.local:true', 'a.txt:true', 'b.txt:true']);
      assert.deepEqual(asked, ['protected .env.local'], 'the agent’s write of a protected file was asked about');
      answer = 'deny';

      // The turn's late file events are over.
      await panel.session.checkpoints.turnSettled();
      // What an agent can do from its own terminal: the folder of one file and the other file become links out.
      fs.renameSync(dir, `${dir}.real`);
      fs.symlinkSync(away, dir);
      fs.rmSync(fileB);
      fs.symlinkSync(path.join(away, 'b.txt'), fileB);
      const shown = a.testing.messages().length;

      assert.equal(await panel.session.checkpoints.changes.revert(fileB), false);
      assert.equal(await panel.session.checkpoints.changes.revert(fileA), false);
      assert.equal(await panel.session.checkpoints.changes.revertAll(), 0, 'the links refused, the protected file denied');
      assert.equal(read(env), 'KEY=agent\n');
      assert.equal(await vscode.commands.executeCommand('acpAgents.undoHunk', vscode.Uri.file(fileB), 0), false);
      outsideUntouched();
      const warnings = a.testing.messages().slice(shown).filter((m) => m.severity === 'warning').map((m) => m.message);
      assert.ok(warnings.some((m) => m.includes(fileB) && /it is now a symbolic link/.test(m)), warnings.join(' | '));
      assert.ok(warnings.some((m) => m.includes(fileA) && m.includes(`its folder ${dir} is now a symbolic link`)), warnings.join(' | '));
      assert.ok(warnings.some((m) => m.includes(env) && m.includes('a protected path (.env*)')), warnings.join(' | '));
      assert.equal(panel.session.checkpoints.changes.list().length, 3, 'all still listed: nothing was reverted');
      assert.deepEqual(asked, ['protected .env.local', 'protected .env.local'], 'Revert asked again about the protected file, never about the links');
      // Allowed this time: the protected file goes back.
      answer = 'once';
      assert.equal(await panel.session.checkpoints.changes.revert(env), true);
      assert.equal(read(env), 'KEY=mine\n');

      // Restore files to here: both are left alone, and the panel says why.
      panel.session.checkpoints.restore.preview(cp);
      assert.equal(panel.session.transcript.header.restore?.state, 'confirm');
      assert.equal(await panel.session.checkpoints.restore.restore(cp), true);
      outsideUntouched();
      const view = panel.session.transcript.header.restore!;
      assert.equal(view.state, 'done');
      assert.match(view.note ?? '', /Restored 0 files\./);
      assert.ok((view.note ?? '').includes(`${fileB} was left alone`), view.note);
      assert.ok((view.note ?? '').includes(`${fileA} was left alone`), view.note);
      assert.ok(a.testing.logLines().some((l) => l.includes(`REFUSED user write ${fileB}`)), 'the log names the refusal');
    } finally {
      a.testing.setAccessAnswer(undefined);
      await closeAllEditors();
      fs.rmSync(plant, { recursive: true, force: true });
      fs.rmSync(away, { recursive: true, force: true });
    }
  });

  it('Undo All leaves a file the user changed between its check and its write as it is, says which, and puts the others back', async () => {
    const a = await api();
    const plant = path.join(root(), 'plant');
    const fileA = path.join(plant, 'dir', 'a.txt');
    const fileB = path.join(plant, 'b.txt');
    const env = path.join(plant, '.env.local');
    fs.mkdirSync(path.dirname(fileA), { recursive: true });
    fs.writeFileSync(fileA, 'one\ntwo\n');
    fs.writeFileSync(fileB, 'one\ntwo\n');
    fs.writeFileSync(env, 'KEY=mine\n');
    a.testing.setAccessAnswer(async () => 'once');
    backdate(plant);
    const edited: string[] = [];
    try {
      const panel = a.openChat('fake-link-plant');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('change three files'), 'end_turn');
      await waitFor('three files listed', () => (panel.session.checkpoints.changes.list().length === 3 ? true : undefined));
      const shown = a.testing.messages().length;
      // The user saves a.txt exactly between Undo's check of the file and its write.
      a.testing.setBetweenCheckAndUse(async (file, action) => {
        if (action !== 'revert' || file !== fileA) return;
        edited.push(path.basename(file));
        fs.writeFileSync(fileA, 'one\nmine, saved during Undo\n');
      });
      assert.equal(await panel.session.checkpoints.changes.revertAll(), 2, 'b.txt and .env.local are put back');
      assert.deepEqual(edited, ['a.txt']);
      assert.equal(read(fileA), 'one\nmine, saved during Undo\n', 'the user’s change is not overwritten');
      assert.equal(read(fileB), 'one\ntwo\n');
      assert.equal(read(env), 'KEY=mine\n');
      const warnings = a.testing.messages().slice(shown).filter((m) => m.severity === 'warning').map((m) => m.message);
      assert.ok(warnings.some((m) => m.startsWith('a.txt was left as it is: it changed after you chose Undo')), warnings.join(' | '));
      assert.deepEqual(panel.session.checkpoints.changes.list().map((c) => c.name), ['a.txt'], 'still listed: it was not undone');
    } finally {
      a.testing.setBetweenCheckAndUse(undefined);
      a.testing.setAccessAnswer(undefined);
      await closeAllEditors();
      fs.rmSync(plant, { recursive: true, force: true });
    }
  });

  it('Review: Undo on one hunk and Keep on the other of a two-hunk change each leave the other untouched; the Changes list follows; Undo All and Keep All for the session', async () => {
    const a = await api();
    const file = path.join(root(), 'hunks.txt');
    const original = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
    const agents = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n';
    fs.writeFileSync(file, original);
    try {
      const panel = a.openChat('fake-hunks');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('edit two places'), 'end_turn');
      await waitFor('hunks.txt listed', () => panel.session.checkpoints.changes.list().some((c) => c.path === file) || undefined);
      assert.equal(read(file), agents);

      // Review opens the diff editor: the text before on the left, the real file on the right.
      await panel.session.checkpoints.changes.open(file);
      const tab = await waitFor('the review diff', () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputTextDiff ? input : undefined;
      });
      assert.equal(tab.original.scheme, 'acp-review');
      assert.equal(tab.modified.fsPath, file);
      const left = await vscode.workspace.openTextDocument(tab.original);
      assert.equal(left.getText(), original);

      // Next / previous change from the cursor, wrapping around.
      const editor = await waitFor('the modified side as the active editor', () => (vscode.window.activeTextEditor?.document.uri.fsPath === file ? vscode.window.activeTextEditor : undefined));
      editor.selection = new vscode.Selection(0, 0, 0, 0);
      const lines: number[] = [];
      for (const cmd of ['acpAgents.nextChange', 'acpAgents.nextChange', 'acpAgents.nextChange', 'acpAgents.previousChange']) {
        assert.equal(await vscode.commands.executeCommand(cmd), true);
        lines.push(editor.selection.active.line);
      }
      assert.deepEqual(lines, [1, 7, 1, 7]);

      const lenses = async () =>
        ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', vscode.Uri.file(file))) ?? []).filter((l) => l.command?.command.startsWith('acpAgents.'));
      const first = await lenses();
      assert.deepEqual(
        first.map((l) => `${l.range.start.line}:${l.command!.command}`),
        ['1:acpAgents.keepHunk', '1:acpAgents.undoHunk', '7:acpAgents.keepHunk', '7:acpAgents.undoHunk'],
      );

      // Keep the first while the second still waits: the file is untouched, the second hunk is still offered.
      const keep1 = first[0]!.command!;
      assert.equal(await vscode.commands.executeCommand(keep1.command, ...keep1.arguments!), true);
      assert.equal(read(file), agents);
      assert.ok(panel.session.checkpoints.changes.list().some((c) => c.path === file), 'still listed: one hunk is undecided');
      const second = await waitFor('only the second hunk offered', async () => {
        const l = await lenses();
        return l.length === 2 ? l : undefined;
      });
      assert.deepEqual(second.map((l) => `${l.range.start.line}:${l.command!.command}`), ['7:acpAgents.keepHunk', '7:acpAgents.undoHunk']);
      // The review's left side now holds the kept hunk (VS Code asks the content provider again after
      // its change event, at its own pace: a loaded host was seen reading the old text just after the lenses).
      await waitFor('the kept hunk on the left side', async () => (await vscode.workspace.openTextDocument(tab.original)).getText() === 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\n' || undefined);

      // Undo the second: the first stays as kept, and nothing is left to decide.
      const undo2 = second[1]!.command!;
      assert.equal(await vscode.commands.executeCommand(undo2.command, ...undo2.arguments!), true);
      assert.equal(read(file), 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\n');
      await waitFor('hunks.txt off the list', () => !panel.session.checkpoints.changes.list().some((c) => c.path === file) || undefined);
      assert.deepEqual(await lenses(), []);

      // For the whole session: Undo All puts the file back as this turn found it; Keep All keeps the next turn's change.
      for (const t of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) if (t.input instanceof vscode.TabInputTextDiff) await vscode.window.tabGroups.close(t);
      const kept = read(file);
      assert.equal(await panel.session.prompt('again'), 'end_turn');
      assert.equal(read(file), agents);
      await waitFor('listed again', () => panel.session.checkpoints.changes.list().some((c) => c.path === file) || undefined);
      assert.equal(await panel.session.checkpoints.changes.revertAll(), 1);
      assert.equal(read(file), kept);
      assert.deepEqual(panel.session.checkpoints.changes.list(), []);
      assert.equal(await panel.session.prompt('and again'), 'end_turn');
      await waitFor('listed once more', () => panel.session.checkpoints.changes.list().some((c) => c.path === file) || undefined);
      panel.session.checkpoints.changes.keepAll();
      assert.equal(panel.session.checkpoints.changes.list().length, 0);
      assert.equal(read(file), agents);
    } finally {
      await closeAllEditors();
      fs.rmSync(file, { force: true });
    }
  });

  it('Keep All Changes in File and Undo All Changes in File decide every hunk of the file at once; Review All opens one multi-file diff of the changes', async () => {
    const a = await api();
    const file = path.join(root(), 'hunks.txt');
    const original = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
    const agents = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n';
    fs.writeFileSync(file, original);
    const listed = (panel: { session: { checkpoints: { changes: { list(): { path: string }[] } } } }) => panel.session.checkpoints.changes.list().some((c) => c.path === file);
    /** Puts the original text back on disk, and waits until an open document of the file has it too (else the agent's write may edit a stale model). */
    const putBack = async () => {
      fs.writeFileSync(file, original);
      await waitFor('the document reloaded', () => (vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file)?.getText() ?? original) === original || undefined);
    };
    try {
      await putBack();
      const panel = a.openChat('fake-hunks');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('edit two places'), 'end_turn');
      await waitFor('hunks.txt listed', () => listed(panel) || undefined);

      // Review All, as the panel's button posts it: one multi-file diff editor, named for the changes.
      a.testing.postFromWebview(panel, { type: 'change', action: 'reviewAll' });
      // A multi-diff (its tab input lists text diffs: TabInputTextMultiDiff, not in the stable API's types), not one diff.
      const textDiffs = (t: vscode.Tab | undefined) => (t?.input as { textDiffs?: { original: vscode.Uri; modified: vscode.Uri }[] } | undefined)?.textDiffs;
      // Waited for as the user sees it, listing the file — not by its title: VS Code sends the tab as it opens, with
      // no diffs (the editor has not resolved them yet), and its list in a later update of the tab.
      const review = await waitFor('the Review All editor listing its files', () => {
        const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.startsWith('Changes by the agent (1)'));
        return textDiffs(tab)?.length ? tab : undefined;
      });
      assert.ok(!(review.input instanceof vscode.TabInputTextDiff), 'not a single diff editor');
      const diffs = textDiffs(review);
      assert.deepEqual(diffs?.map((d) => path.posix.basename(d.modified.path)), ['hunks.txt'], `the tab input: ${(review.input as object | undefined)?.constructor.name} ${JSON.stringify(review.input)}`);
      // Closing it only (the panel's session must stay: it owns the change).
      await vscode.window.tabGroups.close(review);

      // Keep All Changes in File: both hunks kept at once, the file as the agent left it, off the list.
      assert.equal(await vscode.commands.executeCommand('acpAgents.keepFile', vscode.Uri.file(file)), true);
      assert.equal(read(file), agents);
      assert.equal(listed(panel), false, 'kept: nothing left to decide');

      // Undo All Changes in File: a new change of both places, both undone at once.
      await putBack();
      assert.equal(await panel.session.prompt('again'), 'end_turn');
      await waitFor('listed again', () => listed(panel) || undefined);
      assert.equal(read(file), agents);
      assert.equal(await vscode.commands.executeCommand('acpAgents.undoFile', vscode.Uri.file(file)), true);
      assert.equal(read(file), original, 'both hunks undone');
      await waitFor('off the list', () => !listed(panel) || undefined);
    } finally {
      await closeAllEditors();
      fs.rmSync(file, { force: true });
    }
  });
});
