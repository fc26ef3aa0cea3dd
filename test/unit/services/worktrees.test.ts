// Session worktrees (src/services/worktrees.ts) with the real git binary in temp folders:
// made from HEAD or a branch, merged back with and without conflicts, kept, discarded;
// every bad input gets a sentence and leaves the original checkout as it was; and what a
// repository plants (hooks, filter and merge drivers, fsmonitor, a signing program) never
// runs. Where a test plants a command, plain git is first shown to run it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worktrees, WorktreeError, type Worktree } from '../../../src/services/worktrees';

describe('session worktrees: made, merged back, kept and discarded through the hardened git', () => {
  let tmp: string;
  let repo: string;
  let store: string;
  let logs: string[];
  let wts: Worktrees;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-worktrees-')));
    repo = path.join(tmp, 'repo');
    store = path.join(tmp, 'storage');
    logs = [];
    wts = new Worktrees(path.join(store, 'worktrees.json'), path.join(store, 'worktrees'), () => '', (m) => logs.push(m));
    fs.mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.email', 't@example.com');
    git(repo, 'config', 'user.name', 't');
    write(repo, 'shared.txt', 'base line\n');
    write(repo, 'other.txt', 'other\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'init');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { stdio: 'pipe', encoding: 'utf8' });
  const write = (dir: string, rel: string, text: string) => fs.writeFileSync(path.join(dir, rel), text);
  const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');
  const branches = () => git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/').split('\n').filter(Boolean);
  /** A command that leaves a marker when it runs (and passes input through, as a filter would). */
  const plant = (name: string, tail = 'cat') => {
    fs.mkdirSync(path.join(tmp, 'planted'), { recursive: true });
    const marker = path.join(tmp, 'planted', `${name}.ran`);
    const cmd = path.join(tmp, 'planted', `${name}.sh`);
    fs.writeFileSync(cmd, `#!/bin/sh\ntouch '${marker}'\n${tail}\n`, { mode: 0o755 });
    return { cmd, ran: () => fs.existsSync(marker), reset: () => fs.rmSync(marker, { force: true }) };
  };
  const make = async (branch: string, start = {}): Promise<Worktree> => await wts.create(await wts.source(repo), branch, start);
  const refused = async (p: Promise<unknown>, words: RegExp) => {
    await assert.rejects(p, (e: unknown) => e instanceof WorktreeError && words.test(e.message));
  };

  it('makes a worktree from HEAD on a new branch, outside the checkout, and lists it across restarts; uncommitted changes stay behind and are named', async () => {
    write(repo, 'shared.txt', 'uncommitted edit\n');
    write(repo, 'new.txt', 'untracked\n');
    const src = await wts.source(repo);
    assert.deepEqual([...src.uncommitted].sort(), ['new.txt', 'shared.txt']);
    assert.equal(src.headBranch, 'main');
    const wt = await wts.create(src, 'acp/one');
    assert.ok(wt.dir.startsWith(path.join(store, 'worktrees')), wt.dir);
    assert.equal(read(wt.dir, 'shared.txt'), 'base line\n', 'the worktree has the commit, not the uncommitted edit');
    assert.equal(fs.existsSync(path.join(wt.dir, 'new.txt')), false);
    assert.equal(read(repo, 'shared.txt'), 'uncommitted edit\n', 'the original checkout is untouched');
    assert.equal(git(wt.dir, 'symbolic-ref', '--short', 'HEAD').trim(), 'acp/one');
    assert.equal(wt.baseLabel, 'main');
    assert.equal(wt.repoTop, repo);
    // A new window reads the same list; a folder inside it is the worktree's.
    const again = new Worktrees(path.join(store, 'worktrees.json'), path.join(store, 'worktrees'), () => '', () => {});
    assert.equal(again.all().length, 1);
    assert.equal(again.of(path.join(wt.dir, 'sub'))?.branch, 'acp/one');
    assert.equal(again.of(repo), undefined);
  });

  it('starts from a local branch the user names, or from a detached HEAD; a worktree folder the user chose in settings is used', async () => {
    git(repo, 'checkout', '-q', '-b', 'feature');
    write(repo, 'shared.txt', 'feature line\n');
    git(repo, 'commit', '-q', '-am', 'feature');
    git(repo, 'checkout', '-q', 'main');
    const fromFeature = await make('acp/from-feature', { branch: 'feature' });
    assert.equal(read(fromFeature.dir, 'shared.txt'), 'feature line\n');
    assert.equal(fromFeature.baseLabel, 'feature');
    await refused(make('acp/x', { branch: 'no-such-branch' }), /no local branch "no-such-branch"/);

    git(repo, 'checkout', '-q', '--detach', 'HEAD');
    const chosen = path.join(tmp, 'chosen');
    const elsewhere = new Worktrees(path.join(store, 'w2.json'), path.join(store, 'worktrees'), () => chosen, () => {});
    const src = await elsewhere.source(repo);
    assert.equal(src.headBranch, undefined, 'detached');
    const detached = await elsewhere.create(src, 'acp/detached');
    assert.ok(detached.dir.startsWith(chosen), detached.dir);
    assert.match(detached.baseLabel, /^[0-9a-f]{8}$/);
    assert.equal(read(detached.dir, 'shared.txt'), 'base line\n');
  });

  it('refuses, with a sentence and nothing made: no repository, no commits, a branch name git refuses or one that exists', async () => {
    const plain = path.join(tmp, 'plain');
    fs.mkdirSync(plain);
    await refused(wts.source(plain), /is not in a git repository/);
    const empty = path.join(tmp, 'empty');
    fs.mkdirSync(empty);
    git(empty, 'init', '-q');
    await refused(wts.source(empty), /has no commits yet/);
    const src = await wts.source(repo);
    for (const bad of ['has space', 'a..b', 'ends.lock', '-starts-with-dash', 'x~1', '']) assert.ok(await wts.checkBranch(src.git, bad), `"${bad}" was accepted`);
    assert.match((await wts.checkBranch(src.git, 'main'))!, /exists already/);
    assert.equal(await wts.checkBranch(src.git, 'acp/fine-name'), undefined);
    await refused(wts.create(src, 'a..b'), /not a valid branch name/);
    await refused(wts.create(src, 'main'), /exists already/);
    assert.deepEqual(wts.all(), []);
    assert.deepEqual(branches(), ['main']);
    assert.equal(fs.existsSync(path.join(store, 'worktrees')), false, 'no folder made');
  });

  it('two worktrees of one repository edit the same file without seeing each other’s changes', async () => {
    const a = await make('acp/a');
    const b = await make('acp/b');
    assert.notEqual(a.dir, b.dir);
    write(a.dir, 'shared.txt', 'from a\n');
    write(b.dir, 'shared.txt', 'from b\n');
    assert.equal(read(a.dir, 'shared.txt'), 'from a\n');
    assert.equal(read(b.dir, 'shared.txt'), 'from b\n');
    assert.equal(read(repo, 'shared.txt'), 'base line\n');
    assert.deepEqual(await wts.uncommitted(a), ['shared.txt']);
  });

  it('Merge back commits the worktree’s changes on its branch and merges them into the checkout (a merge commit); then there is nothing left to merge', async () => {
    const wt = await make('acp/merge');
    write(wt.dir, 'shared.txt', 'changed by the agent\n');
    write(wt.dir, 'added.txt', 'new file\n');
    const r = await wts.mergeBack(wt, 'Work of an ACP agent session');
    assert.deepEqual(r, { kind: 'merged', into: 'main', committed: 2 });
    assert.equal(read(repo, 'shared.txt'), 'changed by the agent\n');
    assert.equal(read(repo, 'added.txt'), 'new file\n');
    assert.equal(git(repo, 'rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ').length, 3, 'a merge commit with two parents');
    assert.equal(git(repo, 'status', '--porcelain').trim(), '', 'the checkout is clean');
    assert.deepEqual(await wts.mergeBack(wt, 'again'), { kind: 'nothing', into: 'main' });
  });

  it('with no git identity (a fresh machine), Merge back still commits and merges, under the extension’s name', async () => {
    const saved = { GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM, EMAIL: process.env.EMAIL };
    try {
      process.env.GIT_CONFIG_GLOBAL = path.join(tmp, 'no-global-config');
      process.env.GIT_CONFIG_NOSYSTEM = '1';
      delete process.env.EMAIL;
      git(repo, 'config', '--unset', 'user.email');
      git(repo, 'config', '--unset', 'user.name');
      const wt = await make('acp/anonymous');
      write(wt.dir, 'shared.txt', 'by nobody in particular\n');
      assert.equal((await wts.mergeBack(wt, 'Work')).kind, 'merged');
      assert.equal(read(repo, 'shared.txt'), 'by nobody in particular\n');
      // The merge commit, and the worktree's commit it merged (its second parent).
      const who = (rev: string) => git(repo, 'log', '-1', '--format=%an <%ae>', rev).trim();
      assert.deepEqual([who('HEAD'), who('HEAD^2')], ['ACP Agents <acp-agents@localhost>', 'ACP Agents <acp-agents@localhost>']);
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('Merge back with a conflict leaves the conflict (markers) in the checkout for the merge editor; with local changes in the way git refuses and the checkout is as it was', async () => {
    const wt = await make('acp/conflict');
    write(wt.dir, 'shared.txt', 'the agent’s line\n');
    write(repo, 'shared.txt', 'the user’s line\n');
    git(repo, 'commit', '-q', '-am', 'user');
    const head0 = git(repo, 'rev-parse', 'HEAD');
    // First found in memory: nothing in the checkout changes until asked again.
    assert.deepEqual(await wts.mergeBack(wt, 'Work'), { kind: 'would-conflict', into: 'main', files: ['shared.txt'] });
    assert.equal(read(repo, 'shared.txt'), 'the user’s line\n');
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head0);
    assert.equal(fs.existsSync(path.join(repo, '.git', 'MERGE_HEAD')), false);
    const r = await wts.mergeBack(wt, 'Work', { conflicts: true });
    assert.deepEqual(r, { kind: 'conflicts', into: 'main', files: ['shared.txt'] });
    const text = read(repo, 'shared.txt');
    assert.match(text, /^<<<<<<< /m);
    assert.match(text, /the user’s line/);
    assert.match(text, /the agent’s line/);
    git(repo, 'merge', '--abort');

    // Uncommitted changes to the same file: refused, nothing touched (merge.autoStash would have made them conflicts).
    git(repo, 'config', 'merge.autoStash', 'true');
    const wt2 = await make('acp/refused');
    write(wt2.dir, 'other.txt', 'agent\n');
    write(repo, 'other.txt', 'user, not committed\n');
    const head = git(repo, 'rev-parse', 'HEAD');
    const refusedMerge = await wts.mergeBack(wt2, 'Work');
    assert.equal(refusedMerge.kind, 'refused');
    assert.match((refusedMerge as { why: string }).why, /left .* as it was: .*(overwritten|local changes)/);
    assert.equal(read(repo, 'other.txt'), 'user, not committed\n');
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head);
    assert.equal(fs.existsSync(path.join(repo, '.git', 'MERGE_HEAD')), false);
  });

  it('Keep branch commits the changes on the branch and removes the folder; Discard removes folder and branch, also after the folder was deleted by hand', async () => {
    const kept = await make('acp/kept');
    write(kept.dir, 'shared.txt', 'kept work\n');
    assert.equal(await wts.keep(kept, 'Work'), undefined);
    assert.equal(fs.existsSync(kept.dir), false);
    assert.ok(branches().includes('acp/kept'));
    assert.equal(git(repo, 'show', 'acp/kept:shared.txt'), 'kept work\n');
    assert.equal(wts.of(kept.dir), undefined);

    const dropped = await make('acp/dropped');
    write(dropped.dir, 'shared.txt', 'lost work\n');
    git(dropped.dir, '-c', 'core.hooksPath=/dev/null', 'commit', '-qam', 'one commit not merged');
    assert.equal(await wts.unmerged(dropped), 1);
    write(dropped.dir, 'shared.txt', 'lost work\n');
    assert.equal(await wts.discard(dropped), undefined);
    assert.equal(fs.existsSync(dropped.dir), false);
    assert.equal(wts.removedAt(path.join(dropped.dir, 'sub'))?.removed, 'discarded', 'remembered: its sessions open read-only');
    assert.equal(wts.removedAt(kept.dir)?.removed, 'kept');
    assert.equal(branches().includes('acp/dropped'), false);
    assert.equal(read(repo, 'shared.txt'), 'base line\n');

    // The user's own worktree, moved by hand: its record must survive our removal of another.
    git(repo, 'worktree', 'add', '-q', '-b', 'own', path.join(tmp, 'own'));
    fs.renameSync(path.join(tmp, 'own'), path.join(tmp, 'own-moved'));
    const byHand = await make('acp/by-hand');
    fs.rmSync(byHand.dir, { recursive: true, force: true });
    assert.equal(await wts.uncommitted(byHand), undefined);
    assert.match((await wts.mergeBack(byHand, 'Work')).kind, /refused/);
    assert.equal(await wts.discard(byHand), undefined);
    assert.equal(branches().includes('acp/by-hand'), false);
    assert.doesNotMatch(git(repo, 'worktree', 'list'), /by-hand/, 'git’s record of it removed');
    assert.match(git(repo, 'worktree', 'list'), /own/, 'the user’s moved worktree keeps its record');
    assert.deepEqual(wts.all(), []);
  });

  it('commands in the worktree name its own git directory: a .git file rewritten to the checkout’s, a switch to another branch or a detached checkout are refused, not committed into the wrong place', async () => {
    const wt = await make('acp/guarded');
    write(wt.dir, 'shared.txt', 'work\n');
    const mainHead = git(repo, 'rev-parse', 'main');
    // What an agent could write: the worktree's .git file, pointing at the checkout's repository.
    fs.writeFileSync(path.join(wt.dir, '.git'), `gitdir: ${path.join(repo, '.git')}\n`);
    // Committed where it belongs; git then refuses to remove a worktree whose .git file does not point back.
    assert.match((await wts.keep(wt, 'Work'))!, /Git did not remove the worktree .*does not point back/);
    assert.equal(git(repo, 'rev-parse', 'main'), mainHead, 'main did not move');
    assert.equal(git(repo, 'show', 'acp/guarded:shared.txt'), 'work\n', 'committed on the worktree’s branch');

    const other = await make('acp/switched');
    git(other.dir, 'switch', '-q', '-c', 'elsewhere');
    write(other.dir, 'shared.txt', 'x\n');
    const r = await wts.mergeBack(other, 'Work');
    assert.equal(r.kind, 'refused');
    assert.match((r as { why: string }).why, /not on its branch acp\/switched any more \(elsewhere\)/);

    const third = await make('acp/into-detached');
    write(third.dir, 'shared.txt', 'y\n');
    git(repo, 'checkout', '-q', '--detach');
    const d = await wts.mergeBack(third, 'Work');
    assert.match((d as { why: string }).why, /has no branch checked out \(a detached HEAD\)/);
    assert.equal(read(repo, 'shared.txt'), 'base line\n');
  });

  it('a worktree folder chosen inside the repository (or a workspace folder) is refused', async () => {
    const inRepo = new Worktrees(path.join(store, 'w3.json'), path.join(store, 'worktrees'), () => path.join(repo, 'trees'), () => {});
    await refused(inRepo.create(await inRepo.source(repo), 'acp/inside'), /cannot be made in .*: it is inside/);
    const ws = path.join(tmp, 'ws');
    const inWorkspace = new Worktrees(path.join(store, 'w4.json'), path.join(ws, 'trees'), () => '', () => {}, () => [ws]);
    await refused(inWorkspace.create(await inWorkspace.source(repo), 'acp/inside'), /cannot be made in .*: it is inside/);
    assert.deepEqual(branches(), ['main']);
  });

  it('a repository’s hooks, filter drivers (required), fsmonitor, merge driver and signing program never run: not when made, committed, merged or removed', async () => {
    const hook = plant('post-checkout', 'exit 0');
    const smudge = plant('smudge');
    const clean = plant('clean');
    const fsmonitor = plant('fsmonitor', 'exit 1');
    const driver = plant('merge-driver', 'exit 0');
    const gpg = plant('gpg', 'exit 1');
    const hooks = path.join(repo, '.git', 'hooks');
    for (const h of ['post-checkout', 'pre-commit', 'commit-msg', 'post-commit', 'post-merge', 'pre-merge-commit', 'reference-transaction']) fs.writeFileSync(path.join(hooks, h), `#!/bin/sh\n'${hook.cmd}'\n`, { mode: 0o755 });
    write(repo, '.gitattributes', '*.txt filter=evil merge=evil\n');
    git(repo, 'add', '.gitattributes');
    git(repo, 'commit', '-q', '-m', 'attributes');
    for (const [k, v] of [
      ['filter.evil.smudge', smudge.cmd],
      ['filter.evil.clean', clean.cmd],
      ['filter.evil.required', 'true'],
      ['core.fsmonitor', fsmonitor.cmd],
      ['merge.evil.driver', driver.cmd],
      ['merge.evil.name', 'evil'],
      ['commit.gpgSign', 'true'],
      ['gpg.program', gpg.cmd],
      ['maintenance.auto', 'true'],
    ])
      git(repo, 'config', k!, v!);
    // A filter named only in a file included on the worktree's branch: unknown when the checkout's configuration is read.
    const onBranch = plant('on-branch-smudge');
    fs.writeFileSync(path.join(tmp, 'on-branch.inc'), `[filter "branchy"]\n\tsmudge = ${onBranch.cmd}\n\trequired = true\n`);
    git(repo, 'config', 'includeIf.onbranch:acp/**.path', path.join(tmp, 'on-branch.inc'));
    write(repo, 'branchy.md', 'filtered on the branch\n');
    write(repo, '.gitattributes', '*.txt filter=evil merge=evil\n*.md filter=branchy\n');
    git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'filter.evil.clean=cat', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgSign=false', 'add', '.');
    git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'filter.evil.clean=cat', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgSign=false', '-c', 'maintenance.auto=false', 'commit', '-q', '-m', 'branchy');
    // Control: plain git runs them.
    try {
      git(repo, 'worktree', 'add', '-q', '-b', 'control', path.join(tmp, 'control'));
    } catch {
      // ran, then failed
    }
    assert.ok(hook.ran() && smudge.ran(), 'control: plain worktree add runs the hook and the smudge filter');
    for (const p of [hook, smudge, clean, fsmonitor, driver, gpg, onBranch]) p.reset();

    const wt = await make('acp/planted');
    write(wt.dir, 'shared.txt', 'the agent’s line\n');
    write(repo, 'shared.txt', 'the user’s line\n');
    // The test's own git, with what was planted switched off.
    const own = ['-c', 'core.fsmonitor=false', '-c', 'commit.gpgSign=false', '-c', 'core.hooksPath=/dev/null', '-c', 'filter.evil.clean=cat', '-c', 'filter.evil.smudge=cat', '-c', 'maintenance.auto=false'];
    git(repo, ...own, 'commit', '-q', '-am', 'user');
    assert.equal((await wts.mergeBack(wt, 'Work')).kind, 'would-conflict');
    const r = await wts.mergeBack(wt, 'Work', { conflicts: true });
    assert.equal(r.kind, 'conflicts', JSON.stringify(r));
    assert.match(read(repo, 'shared.txt'), /^<<<<<<< /m, 'git’s own text merge, with markers');
    const ranBefore = [hook, smudge, clean, fsmonitor, driver, gpg, onBranch].filter((p) => p.ran()).length;
    git(repo, ...own, 'merge', '--abort');
    assert.equal(await wts.discard(wt), undefined);
    assert.equal(ranBefore, 0, 'something ran before the discard');
    const ran = Object.entries({ hook, smudge, clean, fsmonitor, driver, gpg, onBranch }).filter(([, p]) => p.ran()).map(([n]) => n);
    assert.deepEqual(ran, [], `ran: ${ran.join(', ')}`);
  });
});
