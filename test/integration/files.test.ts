// fs/read_text_file and fs/write_text_file from a fake agent, in the real host.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { allowOnce, api, backdate, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

function answers(scenario = 'fs-ops'): Record<string, any> {
  const rec = readRecord(scenario);
  const requests = rec.filter((r) => r.dir === 'in' && r.msg?.id?.startsWith?.('agent-') && r.msg.method === undefined);
  const out: Record<string, any> = {};
  requests.forEach((r) => (out[r.msg.id] = r.msg.result ?? { error: r.msg.error }));
  return out;
}

describe('Client file services (fs/*) with boundaries', function () {
  this.timeout(60_000);
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outside-dir-'));

  after(async () => {
    const a = await api();
    a.testing.setOutsideAnswer(undefined);
    const greet = vscode.workspace.textDocuments.find((d) => d.uri.fsPath.endsWith(path.join('src', 'greet.ts')));
    if (greet?.isDirty) {
      await vscode.window.showTextDocument(greet);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('reads unsaved editor text and honours line/limit; writes create files, replace as an undoable edit, and never leave the roots silently', async () => {
    const a = await api();
    fs.symlinkSync(outsideDir, path.join(folder(), 'link-out'));
    const asked: string[] = [];
    a.testing.setOutsideAnswer(async (_agent, action, p) => {
      asked.push(`${action} ${p}`);
      return false;
    });
    const greet = vscode.Uri.file(path.join(folder(), 'src', 'greet.ts'));
    const doc = await vscode.workspace.openTextDocument(greet);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// unsaved line one\n'));
    const before = doc.getText();

    const panel = a.openChat('fake-fs-ops');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('do the file things'), 'end_turn');
    const r = answers();
    const ids = Object.keys(r).sort((x, y) => Number(x.split('-')[1]) - Number(y.split('-')[1]));
    const [read1, read2, write1, write2, write3, write4, read3] = ids.map((id) => r[id]);

    assert.equal(read1.content, before, 'the open editor’s unsaved text');
    assert.equal(read2.content, before.split('\n')[1], 'line 2, one line');
    assert.deepEqual(write1, {});
    assert.equal(fs.readFileSync(path.join(folder(), 'created', 'new-file.txt'), 'utf8'), 'created by the agent\n');
    assert.deepEqual(write2, {});
    assert.equal(doc.getText(), "export const greet = () => 'rewritten by the agent';\n", 'the open editor shows the agent’s text');
    // Outside the roots: asked, refused, nothing written — plain and through a symlink.
    assert.match(write3.error.message, /outside the session's folders/);
    assert.match(write4.error.message, /outside the session's folders/);
    assert.equal(asked.length, 2, asked.join(' | '));
    assert.ok(asked[1]!.includes(fs.realpathSync(outsideDir)), 'the question names the resolved path');
    assert.equal(fs.readdirSync(outsideDir).length, 0);
    assert.equal(read3.error.code, -32602, 'relative paths are refused');

    // The Changes list names both files the agent wrote.
    const changes = panel.session.checkpoints.changes.list();
    assert.deepEqual(changes.map((c) => `${c.name}:${c.added ? 'added' : 'modified'}:${c.canRevert}`).sort(), ['greet.ts:modified:true', 'new-file.txt:added:true']);

    // Undo in the editor restores the previous text.
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitFor('undo', () => doc.getText() === before);

    // Revert from the Changes list: the new file goes away, greet.ts gets its text from before the turn.
    assert.equal(await panel.session.checkpoints.changes.revert(path.join(folder(), 'created', 'new-file.txt')), true);
    assert.equal(fs.existsSync(path.join(folder(), 'created', 'new-file.txt')), false);
    await doc.save();
    assert.equal(await panel.session.checkpoints.changes.revert(doc.uri.fsPath), true);
    assert.equal(doc.getText(), before);
    assert.equal(panel.session.checkpoints.changes.list().length, 0);
  });

  it('files an agent changes on its own (on disk, during a turn) are listed; a diff announced first makes the change revertable to the real old text; a diff never applied is not listed', async () => {
    const a = await api();
    const diffed = path.join(folder(), 'diffed.txt');
    fs.writeFileSync(diffed, 'line one\nline two\nline three\n');
    backdate(diffed);
    try {
      const panel = a.openChat('fake-demo-writes');
      await waitForStatus(panel, 'connected', connected);
      await panel.session.prompt('edit on your own');
      await waitFor('two changes', () => panel.session.checkpoints.changes.list().length >= 2 || undefined);
      const names = panel.session.checkpoints.changes.list().map((c) => `${c.name}:${c.added ? 'added' : 'modified'}:${c.canRevert}`).sort();
      assert.deepEqual(names, ['by-itself.txt:added:true', 'diffed.txt:modified:true']);
      // The diff's oldText was only a hunk; Revert restores the whole file as it was.
      assert.equal(await panel.session.checkpoints.changes.revert(diffed), true);
      assert.equal(fs.readFileSync(diffed, 'utf8'), 'line one\nline two\nline three\n');
      assert.equal(await panel.session.checkpoints.changes.revert(path.join(folder(), 'by-itself.txt')), true);
      assert.equal(fs.existsSync(path.join(folder(), 'by-itself.txt')), false);
    } finally {
      fs.rmSync(diffed, { force: true });
    }
  });

  it('a file the agent creates where no file watcher looks (files.watcherExclude), its diff reported after the write with oldText "" (as Copilot does), is listed when the turn ends as added, and Undo removes it', async () => {
    const a = await api();
    const made = path.join(folder(), 'unwatched-out', 'made.txt');
    const files = vscode.workspace.getConfiguration('files');
    const before = files.inspect<Record<string, boolean>>('watcherExclude')?.workspaceValue;
    await files.update('watcherExclude', { ...before, '**/unwatched-out/**': true }, vscode.ConfigurationTarget.Workspace);
    try {
      const panel = a.openChat('fake-writes-unwatched');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('make a file'), 'end_turn');
      assert.ok(fs.existsSync(made), 'the agent wrote it');
      const listed = await waitFor('made.txt in Changes', () => panel.session.checkpoints.changes.list().find((c) => c.path === made), 10_000);
      assert.deepEqual([listed.added, listed.canRevert], [true, true]);
      assert.equal(await panel.session.checkpoints.changes.revert(made), true);
      assert.equal(fs.existsSync(made), false);
    } finally {
      await files.update('watcherExclude', before, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(path.dirname(made), { recursive: true, force: true });
    }
  });

  it('a document VS Code has not read again since its file changed on disk (no watcher looks there): the agent reads the disk, and its write reaches the disk instead of being lost behind the document', async () => {
    const a = await api();
    const file = path.join(folder(), 'stale-out', 's.txt');
    const files = vscode.workspace.getConfiguration('files');
    const before = files.inspect<Record<string, boolean>>('watcherExclude')?.workspaceValue;
    await files.update('watcherExclude', { ...before, '**/stale-out/**': true }, vscode.ConfigurationTarget.Workspace);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'what VS Code read\n');
      // Older than what comes next: VS Code refuses to save over a file newer than its document.
      backdate(path.dirname(file));
      const doc = await vscode.workspace.openTextDocument(file);
      assert.equal(doc.getText(), 'what VS Code read\n');
      fs.writeFileSync(file, 'changed on disk\n');
      const panel = a.openChat('fake-stale-write');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(doc.getText(), 'what VS Code read\n', 'the document is older than the file when the agent comes');
      assert.equal(await panel.session.prompt('read and write it'), 'end_turn');
      const r = answers('stale-write');
      const [read, write] = Object.keys(r)
        .sort((x, y) => Number(x.split('-')[1]) - Number(y.split('-')[1]))
        .map((id) => r[id]);
      assert.equal(read.content, 'changed on disk\n', 'the agent read the file, not the older document');
      assert.deepEqual(write, {}, 'the write was answered as done');
      assert.equal(fs.readFileSync(file, 'utf8'), 'written by the agent\n', 'and it is on disk');
      // The Changes list has the bytes from before the write: Undo puts the disk's text back.
      const listed = await waitFor('s.txt in Changes', () => panel.session.checkpoints.changes.list().find((c) => c.path === file), 10_000);
      assert.equal(listed.canRevert, true);
      assert.equal(await panel.session.checkpoints.changes.revert(file), true);
      assert.equal(fs.readFileSync(file, 'utf8'), 'changed on disk\n');
    } finally {
      await files.update('watcherExclude', before, vscode.ConfigurationTarget.Workspace);
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      if (doc?.isDirty) {
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
      await closeAllEditors();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it("opencode's race: a file written on disk by the agent and at once through fs/write_text_file — new ones are added (Undo removes them), edited ones keep the bytes from before the permission's diff", async () => {
    const a = await api();
    const at = (name: string) => path.join(folder(), name);
    const names = ['race-new-same.txt', 'race-new-diff.txt', 'race-old-same.txt', 'race-old-diff.txt'];
    fs.writeFileSync(at('race-old-same.txt'), 'original one\n');
    fs.writeFileSync(at('race-old-diff.txt'), 'original two\n');
    backdate(at('race-old-same.txt'), at('race-old-diff.txt'));
    try {
      const panel = a.openChat('fake-opencode-race');
      await waitForStatus(panel, 'connected', connected);
      const allow = allowOnce(panel);
      try {
        assert.equal(await panel.session.prompt('race'), 'end_turn');
      } finally {
        allow.stop();
      }
      assert.equal(allow.asked.length, 2, 'both edits of existing files were asked for, with their diff');
      assert.deepEqual(names.map((n) => fs.readFileSync(at(n), 'utf8')), ['made by the agent\n', 'final draft\n', 'edited one\n', 'edited two, again\n'], 'our writes came last');
      const changes = panel.session.checkpoints.changes;
      await waitFor('four changes', () => (changes.list().length >= 4 ? true : undefined));
      // The agent's own writes reach the file watcher late: they must change nothing.
      await panel.session.checkpoints.turnSettled();
      // Every fact at once, so that a failure shows them all.
      const facts: Record<string, unknown> = {};
      for (const c of changes.list()) facts[`${c.name} listed`] = `${c.added ? 'added' : 'modified'}${c.canRevert ? '' : ', no undo'}`;
      for (const n of names) {
        if (!changes.has(at(n))) continue;
        await changes.open(at(n));
        const tab = await waitFor(`the diff of ${n}`, () => {
          const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
          return input instanceof vscode.TabInputTextDiff && input.modified.path.endsWith(`/${n}`) ? input : undefined;
        });
        facts[`${n} diff`] = [(await vscode.workspace.openTextDocument(tab.original)).getText(), (await vscode.workspace.openTextDocument(tab.modified)).getText()];
        // The diff only: the panel's session owns the changes.
        for (const t of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) if (t.input instanceof vscode.TabInputTextDiff) await vscode.window.tabGroups.close(t);
      }
      for (const n of names) {
        facts[`${n} undone`] = await changes.revert(at(n));
        facts[`${n} after undo`] = fs.existsSync(at(n)) ? fs.readFileSync(at(n), 'utf8') : null;
      }
      assert.deepEqual(facts, {
        'race-new-same.txt listed': 'added',
        'race-new-diff.txt listed': 'added',
        'race-old-same.txt listed': 'modified',
        'race-old-diff.txt listed': 'modified',
        'race-new-same.txt diff': ['', 'made by the agent\n'],
        'race-new-diff.txt diff': ['', 'final draft\n'],
        'race-old-same.txt diff': ['original one\n', 'edited one\n'],
        'race-old-diff.txt diff': ['original two\n', 'edited two, again\n'],
        'race-new-same.txt undone': true,
        'race-new-same.txt after undo': null,
        'race-new-diff.txt undone': true,
        'race-new-diff.txt after undo': null,
        'race-old-same.txt undone': true,
        'race-old-same.txt after undo': 'original one\n',
        'race-old-diff.txt undone': true,
        'race-old-diff.txt after undo': 'original two\n',
      });
    } finally {
      await closeAllEditors();
      for (const n of names) fs.rmSync(at(n), { force: true });
    }
  });

  it('a hunk diff for a file open in an editor is revertable once the agent writes it; a write reported after the fact is listed without Revert; /dev/zero and a FIFO are never read', async () => {
    const a = await api();
    const opened = path.join(folder(), 'opened.txt');
    const late = path.join(folder(), 'late.txt');
    const fifo = path.join(folder(), 'pipe.fifo');
    fs.writeFileSync(opened, 'a\nb\nc\n');
    fs.writeFileSync(late, 'x\ny\n');
    execFileSync('mkfifo', [fifo]);
    try {
      const doc = await vscode.workspace.openTextDocument(opened);
      await vscode.window.showTextDocument(doc);
      const panel = a.openChat('fake-writes-edge');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('edit things'), 'end_turn', 'the turn ends: nothing blocked on the FIFO or /dev/zero');
      await waitFor('two changes', () => (panel.session.checkpoints.changes.list().length >= 2 ? true : undefined));
      await panel.session.checkpoints.turnSettled();
      const names = panel.session.checkpoints.changes.list().map((c) => `${c.name}:${c.added ? 'added' : 'modified'}:${c.canRevert}`).sort();
      assert.deepEqual(names, ['late.txt:modified:false', 'opened.txt:modified:true']);
      await waitFor('the editor to show the agent’s text', () => doc.getText() === 'a\nB\nc\n' || undefined);
      assert.equal(await panel.session.checkpoints.changes.revert(opened), true);
      assert.equal(doc.getText(), 'a\nb\nc\n');
      assert.equal(fs.readFileSync(opened, 'utf8'), 'a\nb\nc\n');
    } finally {
      await closeAllEditors();
      for (const f of [opened, late, fifo]) fs.rmSync(f, { force: true });
    }
  });

  it('a folder swapped for a link between the check of a path and its read or write: refused, the outside file neither read nor written', async () => {
    const a = await api();
    const swap = path.join(folder(), 'swap');
    const dir = path.join(swap, 'dir');
    const away = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-swap-out-'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'f.txt'), 'inside\n');
    fs.writeFileSync(path.join(away, 'f.txt'), 'outside secret\n');
    const swapped: string[] = [];
    // The agent's move, made exactly between the client's check and its I/O.
    a.testing.setBetweenCheckAndUse(async (file, action) => {
      if (!file.startsWith(dir + path.sep)) return;
      swapped.push(`${action} ${path.relative(folder(), file)}`);
      fs.renameSync(dir, `${dir}.real`);
      fs.symlinkSync(away, dir);
    });
    const unswap = () => {
      fs.unlinkSync(dir);
      fs.renameSync(`${dir}.real`, dir);
    };
    try {
      const panel = a.openChat('fake-swap-io');
      await waitForStatus(panel, 'connected', connected);
      const answersFrom = (from: number) => {
        const rec = readRecord('swap-io').slice(from);
        return rec.filter((r) => r.dir === 'in' && r.msg?.id?.startsWith?.('agent-') && r.msg.method === undefined).map((r) => r.msg);
      };
      let seen = readRecord('swap-io').length;
      assert.equal(await panel.session.prompt('read it'), 'end_turn');
      const [read] = answersFrom(seen);
      assert.equal(read?.result?.content, undefined, `the outside file was not read: ${JSON.stringify(read)}`);
      assert.match(read?.error?.message ?? '', /changed after it was checked/);
      unswap();

      seen = readRecord('swap-io').length;
      assert.equal(await panel.session.prompt('write it'), 'end_turn');
      const [write] = answersFrom(seen);
      assert.equal(write?.result, undefined, `the write was refused: ${JSON.stringify(write)}`);
      assert.match(write?.error?.message ?? '', /changed after it was checked/);
      assert.equal(fs.readFileSync(path.join(away, 'f.txt'), 'utf8'), 'outside secret\n', 'the outside file is untouched');
      unswap();
      assert.equal(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8'), 'inside\n');
      assert.deepEqual(swapped, ['read swap/dir/f.txt', 'write swap/dir/f.txt']);
      assert.ok(a.testing.logLines().some((l) => /REFUSED write .*swap.*changed|REFUSED write .*now resolves to/.test(l)), 'the log says so');
    } finally {
      a.testing.setBetweenCheckAndUse(undefined);
      await closeAllEditors();
      fs.rmSync(swap, { recursive: true, force: true });
      fs.rmSync(away, { recursive: true, force: true });
    }
  });

  it('with acpAgents.files.outsideRoots = "deny", outside paths are refused without asking', async () => {
    const a = await api();
    // The scenario's second outside write goes through this link (made by the first test; not when run alone).
    const link = path.join(folder(), 'link-out');
    if (!fs.existsSync(link)) fs.symlinkSync(outsideDir, link);
    await vscode.workspace.getConfiguration('acpAgents').update('files.outsideRoots', 'deny', vscode.ConfigurationTarget.Global);
    let asked = 0;
    a.testing.setOutsideAnswer(async () => {
      asked++;
      return true;
    });
    try {
      const panel = a.openChat('fake-fs-ops');
      await waitForStatus(panel, 'connected', connected);
      const seen = readRecord('fs-ops').length;
      assert.equal(await panel.session.prompt('again'), 'end_turn');
      assert.equal(asked, 0, 'nobody was asked');
      assert.equal(fs.readdirSync(outsideDir).length, 0);

      // From the agent's own record: its requests reached the client, and each got an answer.
      const rec = readRecord('fs-ops').slice(seen);
      const sent = rec.filter((r) => r.dir === 'out' && r.msg?.method === 'fs/write_text_file');
      const answerTo = (id: string) => rec.find((r) => r.dir === 'in' && r.msg?.id === id && r.msg.method === undefined)?.msg;
      const outside = sent.filter((r) => !String(r.msg.params.path).startsWith(`${folder()}${path.sep}`) || String(r.msg.params.path).includes(`${path.sep}link-out${path.sep}`));
      const inside = sent.filter((r) => !outside.includes(r));
      assert.deepEqual(
        outside.map((r) => r.msg.params.path.replace(folder(), '<folder>').replace(/acp-outside-\d+/, 'acp-outside-<pid>')),
        ['/tmp/acp-outside-<pid>.txt', '<folder>/link-out/escaped.txt'],
        'both outside writes were sent',
      );
      for (const r of outside) {
        const answer = answerTo(r.msg.id);
        assert.ok(answer, `an answer to ${r.msg.id} (${r.msg.params.path})`);
        assert.equal(answer.result, undefined, `${r.msg.params.path} was not written: ${JSON.stringify(answer)}`);
        assert.match(answer.error?.message ?? '', /^Access refused: .* is outside the session's folders/, `the refusal, for ${r.msg.params.path}`);
        assert.equal(fs.existsSync(r.msg.params.path), false, `${r.msg.params.path} does not exist`);
      }
      // The same turn's writes inside the folder went through: the refusal is the policy's, for outside paths only.
      assert.equal(inside.length, 2, JSON.stringify(inside.map((r) => r.msg.params.path)));
      for (const r of inside) assert.deepEqual(answerTo(r.msg.id)?.result, {}, `${r.msg.params.path} was written`);
    } finally {
      await vscode.workspace.getConfiguration('acpAgents').update('files.outsideRoots', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
