// The turn baseline's git calls (src/services/safeGit.ts) with the real git binary in
// temp folders: every command a repository or an agent can plant there — fsmonitor,
// hooks, filter drivers, the same in a submodule, a bare git directory written as
// ordinary files, a repository that appears later, GIT_DIR, a partial clone's
// lazy fetch — never runs, and the baseline still knows what it knew.
// Each test first shows, with plain git, that what it planted does run.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TurnBaseline, type RepoPins } from '../../../src/services/files/turnBaseline';

const HEAD_BYTES = Buffer.from('committed line\nsecond line\n');

describe('turn baseline: git never runs what the repository planted', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-safegit-')));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', '-C', cwd, ...args], { stdio: 'pipe' });
  /** Plain git, as the code ran it before: a planted command may make it fail after running. */
  const plainGit = (cwd: string, ...args: string[]) => {
    try {
      git(cwd, ...args);
    } catch {
      // Ran, then failed: the marker tells.
    }
  };
  /** A command that leaves a marker file when it runs (and passes its input through, as a filter would). */
  const plant = (name: string, tail = 'cat') => {
    fs.mkdirSync(path.join(tmp, 'planted'), { recursive: true });
    const marker = path.join(tmp, 'planted', `${name}.ran`);
    const cmd = path.join(tmp, 'planted', `${name}.sh`);
    fs.writeFileSync(cmd, `#!/bin/sh\ntouch '${marker}'\n${tail}\n`, { mode: 0o755 });
    return { cmd, marker, ran: () => fs.existsSync(marker), reset: () => fs.rmSync(marker, { force: true }) };
  };
  /** A repository with a committed clean file and a file changed before the turn. */
  const repo = (dir: string, extra: Record<string, string> = {}) => {
    fs.mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    fs.writeFileSync(path.join(dir, 'clean.txt'), HEAD_BYTES);
    fs.writeFileSync(path.join(dir, 'dirty.txt'), 'committed\n');
    for (const [f, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, f), text);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'init');
    fs.writeFileSync(path.join(dir, 'dirty.txt'), 'edited before the turn\n');
    return dir;
  };
  /** The file's stat data no longer matches the index: status re-reads it (through its clean filter). */
  const statDirty = (file: string) => {
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later);
  };
  /** The baseline still works: a rewritten clean file's HEAD bytes, a dirty file's bytes from the turn's start. */
  const stillWorks = async (b: TurnBaseline, dir: string) => {
    fs.writeFileSync(path.join(dir, 'clean.txt'), 'rewritten by the agent\n');
    assert.deepEqual(await b.bytesBefore(path.join(dir, 'clean.txt')), HEAD_BYTES);
    fs.writeFileSync(path.join(dir, 'dirty.txt'), 'rewritten by the agent\n');
    assert.equal((await b.bytesBefore(path.join(dir, 'dirty.txt')))?.toString(), 'edited before the turn\n', 'dirty: what it held, not HEAD');
  };

  it('core.fsmonitor: the command never runs', async () => {
    const dir = repo(path.join(tmp, 'r'));
    const fsm = plant('fsmonitor', 'exit 0');
    git(dir, 'config', 'core.fsmonitor', fsm.cmd);
    git(dir, 'status');
    assert.ok(fsm.ran(), 'control: plain git status runs it');
    fsm.reset();
    const b = new TurnBaseline([dir]);
    await b.ready;
    await stillWorks(b, dir);
    assert.equal(fsm.ran(), false);
  });

  it('hooks: post-index-change in .git/hooks and in a planted core.hooksPath never run', async () => {
    const dir = repo(path.join(tmp, 'r'));
    const inGit = plant('hook', 'exit 0');
    fs.copyFileSync(inGit.cmd, path.join(dir, '.git', 'hooks', 'post-index-change'));
    fs.chmodSync(path.join(dir, '.git', 'hooks', 'post-index-change'), 0o755);
    statDirty(path.join(dir, 'clean.txt'));
    git(dir, 'status');
    assert.ok(inGit.ran(), 'control: plain git status writes the index and runs the hook');
    inGit.reset();
    statDirty(path.join(dir, 'clean.txt'));
    await new TurnBaseline([dir]).ready;
    assert.equal(inGit.ran(), false);

    const planted = plant('hookspath', 'exit 0');
    fs.mkdirSync(path.join(tmp, 'hooks'));
    fs.copyFileSync(planted.cmd, path.join(tmp, 'hooks', 'post-index-change'));
    fs.chmodSync(path.join(tmp, 'hooks', 'post-index-change'), 0o755);
    git(dir, 'config', 'core.hooksPath', path.join(tmp, 'hooks'));
    statDirty(path.join(dir, 'clean.txt'));
    const c = new TurnBaseline([dir]);
    await c.ready;
    await stillWorks(c, dir);
    assert.equal(planted.ran(), false);
    assert.equal(inGit.ran(), false);
    statDirty(path.join(dir, 'dirty.txt'));
    git(dir, 'status');
    assert.ok(planted.ran(), 'control: plain git status runs the planted hooks folder');
  });

  it('filter drivers (clean, smudge, process) named in .gitattributes never run; a filtered file’s bytes are unknown, never guessed', async () => {
    const dir = repo(path.join(tmp, 'r'), { '.gitattributes': 'f.txt filter=x\np.txt filter=y\n', 'f.txt': 'filtered\n', 'p.txt': 'processed\n' });
    const clean = plant('clean');
    const smudge = plant('smudge');
    const proc = plant('process', 'exit 1');
    git(dir, 'config', 'filter.x.clean', clean.cmd);
    git(dir, 'config', 'filter.x.smudge', smudge.cmd);
    git(dir, 'config', 'filter.x.required', 'true');
    git(dir, 'config', 'filter.y.process', proc.cmd);
    statDirty(path.join(dir, 'f.txt'));
    statDirty(path.join(dir, 'p.txt'));
    const b = new TurnBaseline([dir]);
    await b.ready;
    await stillWorks(b, dir);
    assert.equal(await b.bytesBefore(path.join(dir, 'f.txt')), undefined, 'the raw blob is not what a checkout writes');
    assert.equal(await b.bytesBefore(path.join(dir, 'p.txt')), undefined);
    assert.equal(clean.ran(), false, 'clean filter');
    assert.equal(smudge.ran(), false, 'smudge filter');
    assert.equal(proc.ran(), false, 'process filter');
    plainGit(dir, 'status');
    assert.ok(clean.ran() && proc.ran(), 'control: plain git status runs the clean and process filters');
    plainGit(dir, 'cat-file', '--filters', 'HEAD:f.txt');
    assert.ok(smudge.ran(), 'control: cat-file --filters runs the smudge filter');
  });

  it('a submodule’s own fsmonitor and filters never run', async () => {
    const inner = repo(path.join(tmp, 'inner'), { '.gitattributes': 'clean.txt filter=z\n' });
    const dir = repo(path.join(tmp, 'super'));
    git(dir, 'submodule', '-q', 'add', inner, 'sub');
    git(dir, 'commit', '-q', '-m', 'sub');
    const fsm = plant('sub-fsmonitor', 'exit 0');
    const clean = plant('sub-clean');
    const subGit = path.join(dir, '.git', 'modules', 'sub');
    git(subGit, 'config', 'core.fsmonitor', fsm.cmd);
    git(subGit, 'config', 'filter.z.clean', clean.cmd);
    statDirty(path.join(dir, 'sub', 'clean.txt'));
    const b = new TurnBaseline([dir]);
    await b.ready;
    await stillWorks(b, dir);
    assert.equal(fsm.ran(), false, 'fsmonitor');
    assert.equal(clean.ran(), false, 'clean filter');
    git(dir, 'status', '--porcelain');
    assert.ok(fsm.ran() && clean.ran(), 'control: plain git status recurses into the submodule and runs both');
  });

  it('a bare git directory written as ordinary files into a folder with no repository is never used', async () => {
    const dir = path.join(tmp, 'ws');
    // The agent writes a whole git directory's files (a commit of a.txt among them) into the folder itself:
    // were it used, a.txt would have HEAD bytes; with no repository it has none.
    const made = repo(path.join(tmp, 'made'), { 'a.txt': 'a\n' });
    fs.cpSync(path.join(made, '.git'), dir, { recursive: true });
    const fsm = plant('bare-fsmonitor', 'exit 0');
    fs.writeFileSync(path.join(dir, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ${dir}\n\tfsmonitor = ${fsm.cmd}\n`);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    const b = new TurnBaseline([dir]);
    await b.ready;
    assert.equal(b.existed(path.join(dir, 'a.txt')), true, 'the listing still works');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'rewritten by the agent\n');
    assert.equal(await b.bytesBefore(path.join(dir, 'a.txt')), undefined, 'no repository: no HEAD bytes');
    assert.equal(execFileSync('git', ['-C', dir, 'show', 'HEAD:a.txt']).toString(), 'a\n', 'control: plain git finds the planted commit of a.txt');
    assert.equal(fsm.ran(), false);
    git(dir, 'status');
    assert.ok(fsm.ran(), 'control: plain git discovers it and runs its fsmonitor');
  });

  it('a monorepo sub-folder opened alone uses the repository above it, also after an agent plants a bare git directory in it', async () => {
    const top = repo(path.join(tmp, 'mono'));
    fs.mkdirSync(path.join(top, 'pkg'));
    const pkg = path.join(top, 'pkg');
    fs.writeFileSync(path.join(pkg, 'a.txt'), HEAD_BYTES);
    git(top, 'add', '.');
    git(top, 'commit', '-q', '-m', 'pkg');
    const pins: RepoPins = new Map();
    const first = new TurnBaseline([pkg], undefined, pins);
    await first.ready;
    fs.writeFileSync(path.join(pkg, 'a.txt'), 'rewritten\n');
    assert.deepEqual(await first.bytesBefore(path.join(pkg, 'a.txt')), HEAD_BYTES, 'found above the folder');
    fs.writeFileSync(path.join(pkg, 'a.txt'), HEAD_BYTES);

    // During that turn the agent writes a git directory's files into the folder.
    fs.mkdirSync(path.join(pkg, 'objects'));
    fs.mkdirSync(path.join(pkg, 'refs'));
    fs.writeFileSync(path.join(pkg, 'HEAD'), 'ref: refs/heads/main\n');
    const fsm = plant('mono-fsmonitor', 'exit 0');
    fs.writeFileSync(path.join(pkg, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ${pkg}\n\tfsmonitor = ${fsm.cmd}\n`);
    const next = new TurnBaseline([pkg], undefined, pins);
    await next.ready;
    fs.writeFileSync(path.join(pkg, 'a.txt'), 'rewritten again\n');
    assert.deepEqual(await next.bytesBefore(path.join(pkg, 'a.txt')), HEAD_BYTES, 'the repository decided at the first turn');
    assert.equal(fsm.ran(), false);
    git(pkg, 'status');
    assert.ok(fsm.ran(), 'control: plain git uses the planted one');
  });

  it('a repository (a .git folder or a gitdir file) that appears in a folder after its first turn is never used', async () => {
    const dir = path.join(tmp, 'ws');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'clean.txt'), HEAD_BYTES);
    const pins: RepoPins = new Map();
    await new TurnBaseline([dir], undefined, pins).ready;
    // The agent makes a repository there, with an fsmonitor.
    const fsm = plant('late-fsmonitor', 'exit 0');
    const elsewhere = repo(path.join(tmp, 'elsewhere'));
    git(elsewhere, 'config', 'core.fsmonitor', fsm.cmd);
    fs.writeFileSync(path.join(dir, '.git'), `gitdir: ${path.join(elsewhere, '.git')}\n`);
    const b = new TurnBaseline([dir], undefined, pins);
    await b.ready;
    fs.writeFileSync(path.join(dir, 'clean.txt'), 'rewritten\n');
    assert.equal(await b.bytesBefore(path.join(dir, 'clean.txt')), undefined, 'not the gitdir file’s repository');
    assert.equal(fsm.ran(), false);
    plainGit(dir, 'status');
    assert.ok(fsm.ran(), 'control: plain git follows the gitdir file to the planted one');
    fsm.reset();
    fs.rmSync(path.join(dir, '.git'));
    repo(dir);
    git(dir, 'config', 'core.fsmonitor', fsm.cmd);
    const c = new TurnBaseline([dir], undefined, pins);
    await c.ready;
    fs.writeFileSync(path.join(dir, 'clean.txt'), 'rewritten\n');
    assert.equal(await c.bytesBefore(path.join(dir, 'clean.txt')), undefined, 'not the new .git folder');
    assert.equal(fsm.ran(), false);
    plainGit(dir, 'status');
    assert.ok(fsm.ran(), 'control: plain git uses the new .git folder’s planted one');
    fsm.reset();
    // A tracker's first turn in such a folder does use it (hardened).
    fs.writeFileSync(path.join(dir, 'clean.txt'), HEAD_BYTES);
    const fresh = new TurnBaseline([dir]);
    await fresh.ready;
    fs.writeFileSync(path.join(dir, 'clean.txt'), 'rewritten again\n');
    assert.deepEqual(await fresh.bytesBefore(path.join(dir, 'clean.txt')), HEAD_BYTES);
    assert.equal(fsm.ran(), false);
  });

  it('GIT_DIR and GIT_WORK_TREE in the environment never choose the repository', async () => {
    const dir = repo(path.join(tmp, 'r'));
    // Its own clean.txt: an answer from this repository would not be HEAD_BYTES.
    const other = repo(path.join(tmp, 'other'), { 'clean.txt': 'the other repository\n' });
    const fsm = plant('env-fsmonitor', 'exit 0');
    git(other, 'config', 'core.fsmonitor', fsm.cmd);
    const saved = { dir: process.env.GIT_DIR, wt: process.env.GIT_WORK_TREE };
    process.env.GIT_DIR = path.join(other, '.git');
    process.env.GIT_WORK_TREE = other;
    try {
      const b = new TurnBaseline([dir]);
      await b.ready;
      await stillWorks(b, dir);
      assert.equal(fsm.ran(), false);
      plainGit(dir, 'status');
      assert.ok(fsm.ran(), 'control: plain git in the folder follows GIT_DIR to the planted one');
    } finally {
      for (const [k, v] of [['GIT_DIR', saved.dir], ['GIT_WORK_TREE', saved.wt]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('a partial clone’s lazy fetch of a missing blob never runs the remote’s upload-pack command', async () => {
    const dir = repo(path.join(tmp, 'r'));
    const up = plant('uploadpack', 'exit 1');
    const blob = git(dir, 'rev-parse', 'HEAD:clean.txt').toString().trim();
    fs.rmSync(path.join(dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    git(dir, 'config', 'core.repositoryformatversion', '1');
    git(dir, 'config', 'extensions.partialClone', 'origin');
    git(dir, 'config', 'remote.origin.url', path.join(tmp, 'r'));
    git(dir, 'config', 'remote.origin.promisor', 'true');
    git(dir, 'config', 'remote.origin.uploadpack', up.cmd);
    const b = new TurnBaseline([dir]);
    await b.ready;
    fs.writeFileSync(path.join(dir, 'clean.txt'), 'rewritten\n');
    assert.equal(await b.bytesBefore(path.join(dir, 'clean.txt')), undefined, 'the blob is missing');
    assert.equal(up.ran(), false);
    plainGit(dir, 'cat-file', 'blob', 'HEAD:clean.txt');
    assert.ok(up.ran(), 'control: plain git fetches the missing blob through it');
  });

  it('the raw blob is given only where a checkout writes it unchanged (never LF bytes for a CRLF checkout)', async () => {
    const dir = repo(path.join(tmp, 'r'), { '.gitattributes': 'crlf.txt text eol=crlf\nbin.txt -text\n', 'crlf.txt': 'a\nb\n', 'bin.txt': 'a\nb\n' });
    const b = new TurnBaseline([dir]);
    await b.ready;
    for (const f of ['crlf.txt', 'bin.txt']) fs.writeFileSync(path.join(dir, f), 'rewritten\n');
    const crlf = await b.bytesBefore(path.join(dir, 'crlf.txt'));
    assert.ok(crlf === undefined || crlf.toString() === 'a\r\nb\r\n', 'unknown, or what a checkout writes');
    assert.equal((await b.bytesBefore(path.join(dir, 'bin.txt')))?.toString(), 'a\nb\n');
  });
});

describe('turn baseline: what existed', () => {
  it('a file not listed yet is unknown, never "new", until the listing is done (an early write must not make Undo delete it)', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-baseline-')));
    try {
      fs.writeFileSync(path.join(dir, 'there.txt'), 'x');
      const b = new TurnBaseline([dir]);
      // Asked at once, as ChangeTracker.record does for an fs/write_text_file early in a turn.
      assert.equal(b.existed(path.join(dir, 'there.txt')), undefined);
      assert.equal(b.existed(path.join(dir, 'not-there.txt')), undefined);
      await b.ready;
      assert.equal(b.existed(path.join(dir, 'there.txt')), true);
      assert.equal(b.existed(path.join(dir, 'not-there.txt')), false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('listed again at the turn\'s end: only the files created since (nested ones too; not .git or node_modules; at most the cap)', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-baseline-')));
    try {
      fs.writeFileSync(path.join(dir, 'old.txt'), 'x');
      const b = new TurnBaseline([dir]);
      await b.ready;
      assert.deepEqual(await b.createdSince(), [], 'nothing new yet');
      fs.writeFileSync(path.join(dir, 'old.txt'), 'rewritten');
      fs.mkdirSync(path.join(dir, 'deep', 'er'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'deep', 'er', 'new.txt'), 'y');
      fs.writeFileSync(path.join(dir, 'top.txt'), 'z');
      for (const skip of ['.git', 'node_modules']) {
        fs.mkdirSync(path.join(dir, skip));
        fs.writeFileSync(path.join(dir, skip, 'inside'), '');
      }
      assert.deepEqual((await b.createdSince()).sort(), [path.join(dir, 'deep', 'er', 'new.txt'), path.join(dir, 'top.txt')]);
      assert.equal((await b.createdSince(1)).length, 1, 'the cap holds');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
