// Sessions in git worktrees of their own, in the real host with the fake agent: New Session in a
// Worktree, New Session's "In a New Worktree" (acpAgents.newSessionIn), the session's folders, the
// Sessions view's branch, two sessions in parallel, Merge back with and without a conflict, Discard,
// and the bad input (no commits, a branch name git refuses, hooks the repository planted).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import type { WorktreeAnswers } from '../../src/testHooks';
import { api, backdate, connected, endSessions, readRecord, waitFor, waitForStatus } from './helpers';

const SHARED = 'worktree-shared.txt';

describe('Sessions in git worktrees', function () {
  this.timeout(120_000);
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const second = () => vscode.workspace.workspaceFolders![1]!.uri.fsPath;
  const git = (...args: string[]) => execFileSync('git', ['-C', root(), '-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'core.hooksPath=/dev/null', ...args], { stdio: 'pipe', encoding: 'utf8' });
  const read = (file: string) => fs.readFileSync(file, 'utf8');
  const newSessions = (cwd: string) => readRecord('worktree').filter((r) => r.msg?.method === 'session/new' && r.msg.params.cwd === cwd);
  let asked: { picks: { title: string; labels: readonly string[] }[]; inputs: { prompt: string; value: string }[] };

  /** Answers the worktree questions: picks by label, the branch name typed. */
  async function answer(picks: readonly string[], branch?: string, validate?: (check: (t: string) => Promise<string | undefined>) => Promise<void>): Promise<void> {
    const a = await api();
    const queue = [...picks];
    const ui: WorktreeAnswers = {
      pick: async (shown) => {
        asked.picks.push(shown);
        // Where the worktree starts (asked once the repository has other branches): HEAD.
        return shown.title.startsWith('New worktree of') ? 'Current HEAD' : queue.shift();
      },
      input: async (shown) => {
        asked.inputs.push(shown);
        await validate?.(shown.validate);
        return branch;
      },
    };
    a.testing.setWorktreeUi(ui);
  }

  /** A panel opened in a new worktree on `branch`, connected. */
  async function inWorktree(branch: string): Promise<ChatPanel> {
    await answer([], branch);
    const panel = (await vscode.commands.executeCommand('acpAgents.newSessionInWorktree', 'fake-worktree')) as ChatPanel | undefined;
    assert.ok(panel, 'a panel opened');
    await waitForStatus(panel, 'connected', connected);
    return panel;
  }

  const worktreeOf = async (branch: string) => (await api()).testing.worktrees().find((w) => w.branch === branch)!;

  /** Runs Finish Worktree Session on `dir`, picking `choice` and confirming; returns the result and the confirmation shown. */
  async function finish(dir: string, choice: string): Promise<{ result: unknown; confirmations: { message: string; detail: string }[] }> {
    const a = await api();
    const confirmations: { message: string; detail: string }[] = [];
    await answer([choice]);
    a.testing.setConfirm(async (message, detail) => (confirmations.push({ message, detail }), true));
    try {
      return { result: await vscode.commands.executeCommand('acpAgents.finishWorktree', dir), confirmations };
    } finally {
      a.testing.setConfirm(undefined);
    }
  }

  beforeEach(async () => {
    asked = { picks: [], inputs: [] };
    const a = await api();
    a.testing.setFolderPicker(async () => vscode.workspace.workspaceFolders![0]);
    fs.writeFileSync(path.join(root(), SHARED), 'base line\n');
    git('init', '-q', '-b', 'main');
    git('add', SHARED);
    git('commit', '-q', '-m', 'base');
    // git init's late watcher events are not the first turn's.
    backdate(path.join(root(), '.git', 'hooks'), path.join(root(), '.git', 'config'));
  });

  afterEach(async () => {
    const a = await api();
    a.testing.setWorktreeUi(undefined);
    a.testing.setFolderPicker(undefined);
    a.testing.setMessageAnswer(undefined);
    await endSessions();
    for (const w of a.testing.worktrees()) await finish(w.dir, 'Discard');
    await vscode.workspace.getConfiguration('acpAgents').update('newSessionIn', undefined, vscode.ConfigurationTarget.Global);
    for (const f of ['.git', SHARED, 'worktree-self.txt', 'planted-hook.ran']) fs.rmSync(path.join(root(), f), { recursive: true, force: true });
  });

  it('a session in a new worktree edits there (its folder, roots and Changes are the worktree’s; the checkout is not sent), the Sessions view shows its branch, and Merge back brings the change into the checkout', async () => {
    const a = await api();
    let checked: string | undefined;
    await answer([], 'acp/first', async (validate) => {
      checked = await validate('not..valid');
    });
    const panel = (await vscode.commands.executeCommand('acpAgents.newSessionInWorktree', 'fake-worktree')) as ChatPanel;
    await waitForStatus(panel, 'connected', connected);
    assert.match(checked ?? '', /not a valid branch name/, 'the input box says what is wrong with a name');
    assert.match(asked.inputs[0]!.value, /^acp\/fake-worktree-\d{4}-\d{6}$/, 'a branch name is suggested');
    const wt = await worktreeOf('acp/first');
    assert.ok(wt, 'the worktree is listed');
    assert.equal(panel.session.cwd, wt.dir);
    assert.notEqual(path.dirname(wt.dir), root());
    // What the agent was told: the worktree, and the other workspace folder, not the checkout it came from.
    const params = newSessions(wt.dir).at(-1)!.msg.params;
    assert.deepEqual(params.additionalDirectories, [second()]);
    assert.deepEqual([...panel.session.folders.roots()], [wt.dir, second()]);
    const notice = await waitFor('the worktree notice', () => panel.session.transcript.items.find((i) => i.kind === 'notice' && /In a git worktree on branch acp\/first/.test(i.title)));
    assert.ok(notice);

    assert.equal(await panel.session.prompt('edit'), 'end_turn');
    const id = panel.session.id!;
    assert.equal(read(path.join(wt.dir, SHARED)), `written by ${id}\n`);
    assert.equal(read(path.join(root(), SHARED)), 'base line\n', 'the checkout is untouched');
    assert.equal(fs.existsSync(path.join(root(), 'worktree-self.txt')), false);
    await waitFor('the change listed', () => panel.session.checkpoints.changes.list().some((c) => c.path === path.join(wt.dir, SHARED)) || undefined);

    // The Sessions view: the branch first, its own menu (Finish).
    const row = await waitFor('the session’s row', () => a.testing.treeItems('fake-worktree').sessions.find((s) => s.id === `session:fake-worktree:${id}`));
    assert.match(String(row.description), /^branch acp\/first · /);
    assert.equal(row.contextValue, 'acpWorktreeSession');

    // Merge back: the uncommitted changes are committed on the branch, then merged.
    const { result, confirmations } = await finish(wt.dir, 'Merge Back');
    assert.equal(result, 'merged');
    assert.match(confirmations[0]!.message, /Merge branch acp\/first into the checkout at /);
    assert.match(confirmations[0]!.detail, /Its uncommitted changes \(.*worktree-shared\.txt.*\) are committed on acp\/first first/);
    assert.equal(read(path.join(root(), SHARED)), `written by ${id}\n`);
    assert.equal(git('status', '--porcelain', '--', SHARED, 'worktree-self.txt').trim(), '', 'merged and committed');
    assert.equal(git('rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ').length, 3, 'a merge commit');
    assert.ok(a.testing.messages().some((m) => /Merged acp\/first into main at /.test(m.message)));

    // Discard: the panel closes, the folder and the branch go.
    const discarded = await finish(wt.dir, 'Discard');
    assert.equal(discarded.result, 'discard');
    assert.match(discarded.confirmations[0]!.detail, /no uncommitted changes/);
    assert.equal(fs.existsSync(wt.dir), false);
    assert.equal(a.panels().includes(panel), false, 'its panel closed');
    assert.doesNotMatch(git('branch', '--list'), /acp\/first/);
    assert.equal(await worktreeOf('acp/first'), undefined);

    // Its session, opened again from the Sessions view: the local history, read-only, and why.
    const entry = a.testing.sessions('fake-worktree').find((e) => e.sessionId === id)!;
    await vscode.commands.executeCommand('acpAgents.openSession', { kind: 'session', agent: a.agents().find((x) => x.id === 'fake-worktree'), entry });
    const past = await waitFor('the reopened panel', () => a.panels().find((p) => p.session.targetSessionId === id || p.session.id === id));
    await waitForStatus(past, 'the archive', (st) => /Read-only/.test(st.text));
    assert.ok(a.testing.messages().some((m) => /worked in a worktree that was discarded with its branch acp\/first\. Its local history is shown, read-only\./.test(m.message)));
  });

  it('two worktree sessions edit the same file in parallel without seeing each other’s; a conflicting Merge back is named first, then leaves the conflict for the merge editor; added to the workspace it stays apart from other sessions; Discard names what is lost', async () => {
    const a = await api();
    const one = await inWorktree('acp/one');
    const two = await inWorktree('acp/two');
    const [w1, w2] = [await worktreeOf('acp/one'), await worktreeOf('acp/two')];
    const [s1, s2] = await Promise.all([one.session.prompt('edit'), two.session.prompt('edit')]);
    assert.deepEqual([s1, s2], ['end_turn', 'end_turn']);
    assert.equal(read(path.join(w1.dir, SHARED)), `written by ${one.session.id}\n`);
    assert.equal(read(path.join(w2.dir, SHARED)), `written by ${two.session.id}\n`);
    assert.notEqual(one.session.id, two.session.id);
    // Each session's Changes are its own worktree's.
    await waitFor('both changes listed', () => (one.session.checkpoints.changes.list().length && two.session.checkpoints.changes.list().length) || undefined);
    assert.ok(one.session.checkpoints.changes.list().every((c) => c.path.startsWith(w1.dir)));
    assert.ok(two.session.checkpoints.changes.list().every((c) => c.path.startsWith(w2.dir)));

    // The user changed the same line in the checkout meanwhile.
    fs.writeFileSync(path.join(root(), SHARED), 'the user’s line\n');
    git('commit', '-q', '-am', 'user');
    // The conflict is named before anything in the checkout changes; declining leaves it as it was.
    const head = git('rev-parse', 'HEAD');
    let confirms = 0;
    await answer(['Merge Back']);
    a.testing.setConfirm(async () => ++confirms === 1);
    try {
      assert.equal(await vscode.commands.executeCommand('acpAgents.finishWorktree', w2.dir), 'would-conflict');
    } finally {
      a.testing.setConfirm(undefined);
    }
    assert.equal(confirms, 2);
    assert.equal(read(path.join(root(), SHARED)), 'the user’s line\n');
    assert.equal(git('rev-parse', 'HEAD'), head);
    const merged = await finish(w2.dir, 'Merge Back');
    assert.match(merged.confirmations[1]!.message, /Merging acp\/two into main would conflict in worktree-shared\.txt\. Merge anyway\?/);
    assert.equal(merged.result, 'conflicts');
    assert.match(read(path.join(root(), SHARED)), /^<<<<<<< [\s\S]*the user’s line[\s\S]*written by /m);
    assert.ok(a.testing.messages().some((m) => m.severity === 'warning' && /Merging acp\/two into main left conflicts in worktree-shared\.txt/.test(m.message)));
    git('merge', '--abort');
    assert.equal(read(path.join(root(), SHARED)), 'the user’s line\n');

    // Added to the workspace (to see it in Source Control): another worktree session is still kept apart from it.
    assert.equal((await finish(w1.dir, 'Add Worktree to Workspace')).result, true);
    await waitFor('the worktree among the workspace folders', () => vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === w1.dir) || undefined);
    try {
      await inWorktree('acp/three');
      const w3 = await worktreeOf('acp/three');
      assert.deepEqual(newSessions(w3.dir).at(-1)!.msg.params.additionalDirectories, [second()], 'neither the checkout nor the other worktree');
    } finally {
      // VS Code refuses a change of the folders until it confirmed the last one: asked again until it takes it.
      const at = vscode.workspace.workspaceFolders!.findIndex((f) => f.uri.fsPath === w1.dir);
      await waitFor(`the removal of folder ${at} accepted`, () => vscode.workspace.updateWorkspaceFolders(at, 1) || undefined);
      await waitFor('the worktree out of the workspace again', () => (vscode.workspace.workspaceFolders?.length === 2 ? true : undefined)).catch((err) => {
        throw new Error(`${String(err)}; folders: ${vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath).join(' | ')}`);
      });
    }

    // Discard with uncommitted work: the confirmation names it.
    fs.writeFileSync(path.join(w1.dir, 'unsaved-work.txt'), 'x\n');
    const discarded = await finish(w1.dir, 'Discard');
    assert.match(discarded.confirmations[0]!.detail, /Its uncommitted changes are lost: .*unsaved-work\.txt.* Every commit on acp\/one is merged already\./);
    assert.equal(fs.existsSync(w1.dir), false);
    assert.ok(fs.existsSync(path.join(w2.dir, SHARED)), 'the other worktree stays');
  });

  it('New Session asks “In a New Worktree” when acpAgents.newSessionIn is “ask”; a repository with no commits or gone, a refused branch name and planted hooks get a clear message and leave the checkout as it was', async () => {
    const a = await api();
    await vscode.workspace.getConfiguration('acpAgents').update('newSessionIn', 'ask', vscode.ConfigurationTarget.Global);
    // A post-checkout hook the repository planted never runs.
    const marker = path.join(root(), 'planted-hook.ran');
    fs.writeFileSync(path.join(root(), '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    await answer(['In a New Worktree'], 'acp/asked');
    const panel = (await vscode.commands.executeCommand('acpAgents.newSession', 'fake-worktree')) as ChatPanel;
    await waitForStatus(panel, 'connected', connected);
    assert.deepEqual(asked.picks[0]!.labels, ['In the Folder', 'In a New Worktree']);
    assert.equal(panel.session.cwd, (await worktreeOf('acp/asked')).dir);
    assert.equal(fs.existsSync(marker), false, 'the planted hook ran');

    // "In the Folder": no worktree.
    await answer(['In the Folder']);
    const plain = (await vscode.commands.executeCommand('acpAgents.newSession', 'fake-worktree')) as ChatPanel;
    assert.equal(plain.session.cwd, root());
    assert.equal(a.testing.worktrees().length, 1);

    // A branch name git refuses, typed anyway: said, nothing made.
    const before = a.panels().length;
    await answer([], 'bad..name');
    assert.equal(await vscode.commands.executeCommand('acpAgents.newSessionInWorktree', 'fake-worktree'), undefined);
    assert.ok(a.testing.messages().some((m) => m.severity === 'error' && /"bad\.\.name" is not a valid branch name/.test(m.message)));

    // Its repository gone: git can do nothing with the worktree, which can only be forgotten.
    const orphan = await worktreeOf('acp/asked');
    fs.rmSync(path.join(root(), '.git'), { recursive: true, force: true });
    const forgot = await finish(orphan.dir, 'Forget Worktree');
    assert.equal(forgot.result, 'forget');
    assert.deepEqual(asked.picks.at(-1)!.labels, ['Forget Worktree'], 'nothing else is offered');
    fs.rmSync(orphan.dir, { recursive: true, force: true });

    // No commits yet.
    git('init', '-q');
    await answer([], 'acp/never');
    assert.equal(await vscode.commands.executeCommand('acpAgents.newSessionInWorktree', 'fake-worktree'), undefined);
    assert.ok(a.testing.messages().some((m) => m.severity === 'error' && /has no commits yet/.test(m.message)));
    assert.equal(asked.inputs.filter((i) => i.value.startsWith('acp/')).length, 2, 'no branch was asked for a repository with no commits');
    assert.equal(a.panels().length, before, 'no panel opened');
    assert.equal(a.testing.worktrees().length, 0);
    assert.equal(read(path.join(root(), SHARED)), 'base line\n');
  });
});
