// The extension's own git (the per-turn baseline) in the real host: a git directory an agent
// writes as ordinary files into a session folder with no repository never runs its fsmonitor.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

describe('The extension’s own git calls', function () {
  this.timeout(90_000);
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  it('a bare git directory the agent wrote into a folder with no repository (core.worktree, core.fsmonitor) is never used: at the next turn, and in a new session', async () => {
    const a = await api();
    const f = (n: string) => path.join(root(), n);
    const marker = f('planted-fsmonitor.ran');
    const planted = ['HEAD', 'config', 'objects', 'refs', 'planted-fsmonitor.sh', 'planted-fsmonitor.ran', 'touched.txt'];
    assert.equal(fs.existsSync(f('.git')), false, 'the workspace folder has no repository of its own');
    try {
      const panel = a.openChat('fake-planted-git');
      await waitForStatus(panel, 'connected', connected);
      const touched = (p = panel) => waitFor('touched.txt listed (the turn’s baseline is ready)', () => p.session.checkpoints.changes.list().some((c) => c.path === f('touched.txt')) || undefined);
      // Turn one: the agent writes the files.
      assert.equal(await panel.session.prompt('plant'), 'end_turn');
      await touched();
      assert.ok(fs.existsSync(f('config')) && fs.existsSync(f('HEAD')), 'planted');
      panel.session.checkpoints.changes.keepAll();
      // Turn two: its baseline starts with the planted files in place.
      assert.equal(await panel.session.prompt('again'), 'end_turn');
      await touched();
      assert.equal(fs.existsSync(marker), false, 'the fsmonitor ran at the next turn');

      // A new session (a new tracker: nothing pinned) in the same folder.
      await a.testing.stopAllAgents();
      await closeAllEditors();
      const fresh = a.openChat('fake-planted-git');
      await waitForStatus(fresh, 'connected', connected);
      assert.equal(await fresh.session.prompt('once more'), 'end_turn');
      await touched(fresh);
      assert.equal(fs.existsSync(marker), false, 'the fsmonitor ran in a new session');

      // Control: plain git discovers what was planted, and runs its fsmonitor.
      try {
        execFileSync('git', ['-C', root(), 'status'], { stdio: 'pipe' });
      } catch {
        // Ran, then failed: the marker tells.
      }
      assert.ok(fs.existsSync(marker), 'control: plain git status runs the planted fsmonitor');
    } finally {
      for (const n of planted) fs.rmSync(f(n), { recursive: true, force: true });
    }
  });
});
