/**
 * Git worktrees for sessions: a session may work in a linked worktree of the
 * folder's repository, on a branch of its own, so that two sessions never edit
 * each other's files. This file makes, lists, merges back and removes them;
 * commands/worktrees.ts asks the user, and the session's folder is simply the
 * worktree (its roots, change tracking and checkpoints follow).
 *
 * Every git call goes through safeGit.ts (`SafeGit.change` for the writing
 * ones): none of the repository's hooks, filter drivers, merge drivers,
 * fsmonitor, signing program or automatic gc runs, and git's own words are kept
 * for the user when it refuses. With filter drivers off, a file under Git LFS
 * is checked out as its pointer file.
 *
 * A worktree is made without a checkout, then filled by a `reset --hard` run
 * with the worktree's own configuration read (a conditional include keyed on
 * its branch or folder may name other filter drivers). Every later command in
 * it names the worktree's git directory recorded when it was made, never what
 * its `.git` file (agent-writable) says, and commits only while it is on its
 * own branch.
 *
 * The worktrees made are listed in `<storage>/worktrees.json` (shared by the
 * windows: read, merged and replaced under the store lock): what the Sessions
 * view shows as a session's branch, the only folders outside the workspace a
 * session may be opened in without the root question, and, once removed, why a
 * session there opens read-only. Nothing in the original checkout is changed
 * except by Merge back (a merge the user confirmed, after being told of any
 * conflict) and by the branch and `.git/worktrees` entries git itself keeps.
 * No `vscode` import.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { writeFileAtomic } from '../node/atomicWrite';
import { isInside, realPathLoose } from '../node/pathPolicy';
import { withStoreLock } from '../node/storeLock';
import { forMessage } from '../shared/nativeText';
import { discoverRepo, SafeGit, type GitResult } from './safeGit';

/** A worktree made for sessions. */
export interface Worktree {
  /** Its folder (absolute): the session's cwd. */
  readonly dir: string;
  /** The branch made for it. */
  readonly branch: string;
  /** The original checkout's top folder. */
  readonly repoTop: string;
  /** The repository's common git directory (all its worktrees share it): how the original is recognised. */
  readonly commonDir: string;
  /** The worktree's own git directory (`<common>/worktrees/<id>`): named by every command in the worktree. */
  readonly adminDir: string;
  /** The commit it started from, and what that was (a branch name, or the short commit of a detached HEAD). */
  readonly base: string;
  readonly baseLabel: string;
  readonly created: number;
  /** Set once removed: what became of its branch (a session there then opens read-only, saying so). */
  readonly removed?: 'kept' | 'discarded';
}

/** A refusal with a sentence for the user (paths and git's words escaped for a notification). */
export class WorktreeError extends Error {}

/** Where a new worktree may start: HEAD, or a local branch. */
export interface WorktreeStart {
  /** Undefined: HEAD. */
  readonly branch?: string;
}

/** The repository a folder is in, ready to make a worktree from. */
export interface WorktreeSource {
  readonly git: SafeGit;
  /** HEAD's branch (undefined when detached) and commit. */
  readonly headBranch: string | undefined;
  readonly head: string;
  /** The local branches (at most 200). */
  readonly branches: readonly string[];
  /** What `git status` lists in the original checkout: not in the worktree. */
  readonly uncommitted: readonly string[];
}

/** How Merge back ended. */
export type MergeResult =
  | { readonly kind: 'merged'; readonly into: string; readonly committed: number }
  | { readonly kind: 'nothing'; readonly into: string }
  | { readonly kind: 'conflicts'; readonly into: string; readonly files: readonly string[] }
  /** Found before anything was touched: merging would conflict in these files (merged only when asked again). */
  | { readonly kind: 'would-conflict'; readonly into: string; readonly files: readonly string[] }
  | { readonly kind: 'refused'; readonly why: string };

const MAX_LISTED = 200;
/** Removed worktrees remembered (why their sessions open read-only), at most. */
const MAX_REMOVED = 200;
/** Git's own words in a message, at most. */
const MAX_GIT_WORDS = 600;

/** Git's error, one paragraph, escaped. */
const gitWords = (r: GitResult): string => forMessage((r.stderr || r.stdout).trim().replace(/\s*\n\s*/g, ' ').slice(0, MAX_GIT_WORDS), MAX_GIT_WORDS);

/** `git status --porcelain -z` entries: the paths (a rename's new path). */
function statusPaths(out: string): string[] {
  const parts = out.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry.length < 4) continue;
    paths.push(entry.slice(3));
    // A rename or copy: its source follows as a field of its own.
    if (entry[0] === 'R' || entry[0] === 'C') i++;
  }
  return paths;
}

/** A name for the branch's folder: letters, digits, `-`, `_`, `.`. */
const slug = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 60) || 'worktree';

export class Worktrees {
  private list: Worktree[];
  private writing: Promise<unknown> = Promise.resolve();

  /**
   * `file`: the list; `defaultRoot`: where worktrees go unless `root()` names a folder;
   * `workspace()`: the workspace folders (a worktree is never made inside one).
   */
  constructor(
    private readonly file: string,
    private readonly defaultRoot: string,
    private readonly root: () => string,
    private readonly log: (m: string) => void,
    private readonly workspace: () => readonly string[] = () => [],
  ) {
    this.list = read(file, log);
  }

  /** The worktrees made (and not removed). */
  all(): readonly Worktree[] {
    return this.list.filter((w) => !w.removed);
  }

  /** The folders of our worktrees made from a repository that is (or holds, or is inside) one of `folders`. */
  dirsFor(folders: readonly string[]): string[] {
    return this.all()
      .filter((w) => folders.some((f) => overlaps(f, w.repoTop)))
      .map((w) => w.dir);
  }

  /** The worktree a folder is (or is inside), if one of ours. */
  of(folder: string | undefined): Worktree | undefined {
    return folder === undefined ? undefined : this.all().find((w) => isInside(path.resolve(folder), w.dir));
  }

  /** The removed worktree a folder was (or was inside), if one of ours. */
  removedAt(folder: string): Worktree | undefined {
    return this.list.find((w) => w.removed && isInside(path.resolve(folder), w.dir));
  }

  /** The repository of `folder`, with what the user picks from; a WorktreeError says why not. */
  async source(folder: string): Promise<WorktreeSource> {
    const repo = await discoverRepo(folder);
    if (!repo) throw new WorktreeError(l10n.t('{0} is not in a git repository (or git 2.38 or later is not installed), so a session cannot get a worktree of it.', forMessage(folder, 500)));
    const git = await SafeGit.open(repo);
    if (!git) throw new WorktreeError(l10n.t('The git configuration of {0} cannot be read, so no worktree is made.', forMessage(repo.top, 500)));
    const head = await git.change(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
    if (head.code !== 0) throw new WorktreeError(l10n.t('The repository at {0} has no commits yet. Make a first commit, then start a session in a worktree.', forMessage(repo.top, 500)));
    const branch = await headBranch(git);
    const refs = await git.change(['for-each-ref', `--count=${MAX_LISTED}`, '--format=%(refname:lstrip=2)', 'refs/heads/']);
    const status = await git.change(['status', '--porcelain=v1', '-z', '--ignore-submodules=all', '--untracked-files=normal']);
    return {
      git,
      head: head.stdout.trim(),
      headBranch: branch,
      branches: refs.stdout.split('\n').map((b) => b.trim()).filter(Boolean),
      uncommitted: status.code === 0 ? statusPaths(status.stdout) : [],
    };
  }

  /** Undefined when `name` may be the new branch; else why not (a sentence). */
  async checkBranch(git: SafeGit, name: string): Promise<string | undefined> {
    const shown = forMessage(name, 200);
    if (!name.trim()) return l10n.t('Name the branch the worktree gets.');
    if (name.startsWith('-') || name.length > 200 || (await git.change(['check-ref-format', '--branch', name])).code !== 0) return l10n.t('"{0}" is not a valid branch name.', shown);
    if ((await git.change(['rev-parse', '--verify', '--quiet', `refs/heads/${name}`])).code === 0) return l10n.t('A branch named "{0}" exists already: name a new one.', shown);
    return undefined;
  }

  /**
   * Makes a worktree of `src`'s repository on a new branch `branch`, from HEAD or
   * from a local branch; throws a WorktreeError with git's words when it cannot.
   */
  async create(src: WorktreeSource, branch: string, start: WorktreeStart = {}): Promise<Worktree> {
    const { git } = src;
    const why = await this.checkBranch(git, branch);
    if (why) throw new WorktreeError(why);
    let base = src.head;
    let baseLabel = src.headBranch ?? src.head.slice(0, 8);
    if (start.branch !== undefined) {
      const r = await git.change(['rev-parse', '--verify', '--quiet', `refs/heads/${start.branch}^{commit}`]);
      if (start.branch.startsWith('-') || r.code !== 0) throw new WorktreeError(l10n.t('There is no local branch "{0}" to start from.', forMessage(start.branch, 200)));
      base = r.stdout.trim();
      baseLabel = start.branch;
    }
    const where = this.where();
    // Inside the repository or a workspace folder, other sessions' folders would hold it (one of our worktrees
    // added to the workspace is inside the folder, not around it).
    const holder = [git.repo.top, ...this.workspace()].find((f) => isInside(where, f) || isInside(realPathLoose(where), realPathLoose(f)));
    if (holder) throw new WorktreeError(l10n.t('Worktrees cannot be made in {0}: it is inside {1}. Choose another folder in acpAgents.worktreeFolder.', forMessage(where, 500), forMessage(holder, 500)));
    const common = await git.change(['rev-parse', '--path-format=absolute', '--git-common-dir']);
    if (common.code !== 0) throw new WorktreeError(l10n.t('Git did not make the worktree: {0}', gitWords(common)));
    const parent = path.join(where, `${slug(path.basename(git.repo.top))}-${crypto.createHash('sha256').update(path.resolve(common.stdout.trim())).digest('hex').slice(0, 8)}`);
    await fs.promises.mkdir(parent, { recursive: true });
    // A name of its own: a removed worktree's sessions never open in a new one.
    let dir = '';
    do dir = path.join(parent, `${slug(branch)}-${crypto.randomBytes(3).toString('hex')}`);
    while (fs.existsSync(dir));
    // No checkout yet: the files are written below, with the worktree's own configuration read.
    const added = await git.change(['worktree', 'add', '--no-checkout', '--no-track', '-b', branch, '--', dir, base]);
    const made = added.code === 0 ? await discoverRepo(dir) : undefined;
    const inside = made && path.resolve(made.top) === path.resolve(fs.realpathSync.native(dir)) ? await SafeGit.open(made) : undefined;
    const filled = inside ? await inside.change(['reset', '--hard', '--quiet', 'HEAD']) : undefined;
    if (!made || !inside || filled?.code !== 0) {
      const said = filled ?? added;
      this.log(`worktree not made at ${dir}: ${said.stderr.trim()}`);
      // What was made goes: the folder, git's record of it, the branch.
      if (fs.existsSync(dir)) await git.change(['worktree', 'remove', '--force', '--force', '--', dir]);
      if ((await git.change(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).code === 0) await git.change(['branch', '-D', '--', branch]);
      throw new WorktreeError(l10n.t('Git did not make the worktree: {0}', gitWords(said)));
    }
    const wt: Worktree = { dir: made.top, branch, repoTop: git.repo.top, commonDir: path.resolve(common.stdout.trim()), adminDir: made.gitDir, base, baseLabel, created: Date.now() };
    await this.update((list) => [...list, wt]);
    this.log(`worktree made: ${wt.dir} on ${branch} from ${baseLabel} (${base.slice(0, 12)}) of ${wt.repoTop}`);
    return wt;
  }

  /** The worktree's uncommitted changes (paths); undefined when its folder is gone or git cannot tell. */
  async uncommitted(wt: Worktree): Promise<string[] | undefined> {
    const git = await this.gitOf(wt);
    if (!git) return undefined;
    const r = await git.change(['status', '--porcelain=v1', '-z', '--ignore-submodules=all', '--untracked-files=all']);
    return r.code === 0 ? statusPaths(r.stdout) : undefined;
  }

  /**
   * Merge back: the worktree's uncommitted changes are committed on its branch,
   * then the branch is merged (`--no-ff`) into the branch the original checkout
   * has checked out. A merge that would conflict is found first, with nothing in
   * the checkout touched (`would-conflict`); with `conflicts: true` it is made,
   * and the conflicts are left for the merge editor. A merge git refuses (local
   * changes it would overwrite, a merge already under way) leaves it as it was.
   */
  async mergeBack(wt: Worktree, message: string, opts: { conflicts?: boolean } = {}): Promise<MergeResult> {
    const committed = await this.commitAll(wt, message);
    if (typeof committed === 'string') return { kind: 'refused', why: committed };
    const git = await this.original(wt);
    if (typeof git === 'string') return { kind: 'refused', why: git };
    const into = await headBranch(git);
    if (into === undefined) return { kind: 'refused', why: l10n.t('The checkout at {0} has no branch checked out (a detached HEAD): check out the branch to merge {1} into, then Merge Back again.', forMessage(wt.repoTop, 500), forMessage(wt.branch, 200)) };
    const ref = `refs/heads/${wt.branch}`;
    if ((await git.change(['merge-base', '--is-ancestor', ref, 'HEAD'])).code === 0) return { kind: 'nothing', into };
    if (!opts.conflicts) {
      // The merge in memory first: which files would conflict, nothing written to the checkout.
      const trial = await git.change(['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', 'HEAD', ref]);
      if (trial.code === 1) return { kind: 'would-conflict', into, files: trial.stdout.split('\0').slice(1).filter(Boolean).slice(0, MAX_LISTED) };
      if (trial.code !== 0) return { kind: 'refused', why: l10n.t('Git could not merge {0} into {1}: {2}', forMessage(wt.branch, 200), forMessage(into, 200), gitWords(trial)) };
    }
    // The branch's configured merge options could add a strategy program, a squash or signing: emptied.
    const options: [string, string][] = [[`branch.${into}.mergeOptions`, '']];
    const r = await git.change(['merge', '-s', 'ort', '--no-ff', '--commit', '--no-squash', '--no-autostash', '--no-edit', '--no-stat', '--no-verify', '--no-verify-signatures', '--no-gpg-sign', '-m', l10n.t('Merge branch \'{0}\' (an ACP agent session\'s worktree)', wt.branch), ref], { overrides: [...options, ...(await identity(git))] });
    if (r.code === 0) {
      this.log(`merged ${wt.branch} into ${into} at ${wt.repoTop}`);
      return { kind: 'merged', into, committed };
    }
    const unmerged = await git.change(['diff', '--no-ext-diff', '--no-textconv', '--name-only', '--diff-filter=U', '-z']);
    const files = unmerged.stdout.split('\0').filter(Boolean).slice(0, MAX_LISTED);
    this.log(`merge of ${wt.branch} into ${into} at ${wt.repoTop}: ${files.length ? `${files.length} conflict(s)` : `refused: ${r.stderr.trim()}`}`);
    if (files.length) return { kind: 'conflicts', into, files };
    return { kind: 'refused', why: l10n.t('Git did not merge {0} into {1}, and left {2} as it was: {3}', forMessage(wt.branch, 200), forMessage(into, 200), forMessage(wt.repoTop, 500), gitWords(r)) };
  }

  /** Whether the repository the worktree came from is gone or moved (then it can only be forgotten). */
  async repositoryGone(wt: Worktree): Promise<boolean> {
    return typeof (await this.original(wt)) === 'string';
  }

  /** How many commits of the worktree's branch the original checkout's HEAD does not have; undefined when git cannot tell. */
  async unmerged(wt: Worktree): Promise<number | undefined> {
    const git = await this.original(wt);
    if (typeof git === 'string') return undefined;
    const r = await git.change(['rev-list', '--count', `HEAD..refs/heads/${wt.branch}`]);
    return r.code === 0 ? Number(r.stdout.trim()) : undefined;
  }

  /**
   * Keep branch: the worktree's changes are committed on its branch, and the
   * folder is removed (the branch stays in the repository). Undefined when done, else why not.
   */
  async keep(wt: Worktree, message: string): Promise<string | undefined> {
    const committed = await this.commitAll(wt, message);
    if (typeof committed === 'string') return committed;
    return await this.remove(wt, false);
  }

  /** Discard: the worktree's folder and its branch are removed, uncommitted changes with them. Undefined when done, else why not. */
  async discard(wt: Worktree): Promise<string | undefined> {
    return await this.remove(wt, true);
  }

  /** Forgets a worktree, remembering that it was removed and how (its folder and branch stay as they are). */
  async forget(wt: Worktree, how: 'kept' | 'discarded' = 'discarded'): Promise<void> {
    await this.update((list) => {
      const removed = list.filter((w) => w.removed && w.dir !== wt.dir).slice(-(MAX_REMOVED - 1));
      return [...list.filter((w) => !w.removed && w.dir !== wt.dir), ...removed, { ...wt, removed: how }];
    });
  }

  private async remove(wt: Worktree, dropBranch: boolean): Promise<string | undefined> {
    const git = await this.original(wt);
    if (typeof git === 'string') return git;
    if (fs.existsSync(wt.dir)) {
      const r = await git.change(['worktree', 'remove', '--force', '--force', '--', wt.dir]);
      if (r.code !== 0) return l10n.t('Git did not remove the worktree {0}: {1}', forMessage(wt.dir, 500), gitWords(r));
    } else {
      // A folder deleted by hand: git's record of this worktree alone goes (a repository-wide prune would
      // also drop the records of the user's own worktrees that were moved).
      this.dropRecord(wt);
    }
    let why: string | undefined;
    if (dropBranch) {
      const b = await git.change(['branch', '-D', '--', wt.branch]);
      if (b.code !== 0) why = l10n.t('The worktree {0} is removed, but git did not delete its branch {1}: {2}', forMessage(wt.dir, 500), forMessage(wt.branch, 200), gitWords(b));
    }
    await this.forget(wt, dropBranch ? 'discarded' : 'kept');
    this.log(`worktree removed: ${wt.dir}${dropBranch ? ` and branch ${wt.branch}` : ` (branch ${wt.branch} kept)`}`);
    return why;
  }

  /** Git's record of a worktree whose folder is gone: removed only when it still names that folder. */
  private dropRecord(wt: Worktree): void {
    try {
      const named = fs.readFileSync(path.join(wt.adminDir, 'gitdir'), 'utf8').trim();
      if (path.resolve(path.dirname(named)) === path.resolve(wt.dir) && path.dirname(path.resolve(wt.adminDir)) === path.join(wt.commonDir, 'worktrees')) fs.rmSync(wt.adminDir, { recursive: true, force: true });
    } catch {
      // no record left (git pruned it already)
    }
  }

  /** Commits everything in the worktree on its branch: the number of paths committed, or why not. */
  private async commitAll(wt: Worktree, message: string): Promise<number | string> {
    const changed = await this.uncommitted(wt);
    if (changed === undefined) return l10n.t('The worktree {0} is gone or not a git worktree any more.', forMessage(wt.dir, 500));
    const git = (await this.gitOf(wt))!;
    // Only on its own branch: what is committed elsewhere would not be merged back, nor removed with it.
    const on = await headBranch(git);
    if (on !== wt.branch) return l10n.t('The worktree {0} is not on its branch {1} any more ({2}): switch it back to {1}, or finish it with git yourself.', forMessage(wt.dir, 500), forMessage(wt.branch, 200), on === undefined ? l10n.t('a detached HEAD') : forMessage(on, 200));
    if (!changed.length) return 0;
    const add = await git.change(['add', '--all', '--', '.'], { cwd: wt.dir });
    if (add.code !== 0) return l10n.t('Git did not stage the changes in {0}: {1}', forMessage(wt.dir, 500), gitWords(add));
    const c = await git.change(['commit', '--no-verify', '--quiet', '-m', message], { cwd: wt.dir, overrides: await identity(git) });
    if (c.code !== 0) return l10n.t('Git did not commit the changes in {0}: {1}', forMessage(wt.dir, 500), gitWords(c));
    return changed.length;
  }

  /** The worktree's own git: its folder with the git directory recorded when it was made (never what its `.git` file says now). */
  private async gitOf(wt: Worktree): Promise<SafeGit | undefined> {
    if (!fs.existsSync(wt.dir) || !fs.existsSync(wt.adminDir)) return undefined;
    return await SafeGit.open({ top: wt.dir, gitDir: wt.adminDir });
  }

  /** The original checkout's git (the same repository as when the worktree was made), or why it cannot be used. */
  private async original(wt: Worktree): Promise<SafeGit | string> {
    const repo = await discoverRepo(wt.repoTop);
    const git = repo && path.resolve(repo.top) === path.resolve(wt.repoTop) ? await SafeGit.open(repo) : undefined;
    const common = git ? await git.change(['rev-parse', '--path-format=absolute', '--git-common-dir']) : undefined;
    if (git && common?.code === 0 && path.resolve(common.stdout.trim()) === path.resolve(wt.commonDir)) return git;
    return l10n.t('The repository {0} the worktree came from is gone or moved.', forMessage(wt.repoTop, 500));
  }

  private where(): string {
    const chosen = this.root().trim();
    return chosen && path.isAbsolute(chosen) ? chosen : this.defaultRoot;
  }

  /** Changes the list: read again, changed and replaced under the store lock (another window may have changed it). */
  private update(change: (list: Worktree[]) => Worktree[]): Promise<void> {
    const done = this.writing.then(() =>
      withStoreLock(
        this.file,
        async () => {
          this.list = change(read(this.file, this.log));
          await writeFileAtomic(this.file, `${JSON.stringify({ v: 1, worktrees: this.list }, null, 1)}\n`);
        },
        this.log,
      ),
    );
    this.writing = done.catch(() => undefined);
    return done.catch((err: unknown) => {
      this.log(`worktrees.json not written: ${String(err)}`);
      throw new WorktreeError(l10n.t('The list of session worktrees could not be saved ({0}).', forMessage(String(err), 300)));
    });
  }

  /** Reads the list again (another window may have changed it). */
  reload(): void {
    this.list = read(this.file, this.log);
  }
}

/** Without a git identity (a fresh machine) a commit is still made, under the extension's name; else none is given. */
async function identity(git: SafeGit): Promise<[string, string][]> {
  if ((await git.change(['var', 'GIT_COMMITTER_IDENT'])).code === 0) return [];
  return [
    ['user.name', 'ACP Agents'],
    ['user.email', 'acp-agents@localhost'],
  ];
}

/** The branch HEAD is on (its full ref read, so a tag of the same name cannot shorten it); undefined when detached. */
async function headBranch(git: SafeGit): Promise<string | undefined> {
  const r = await git.change(['symbolic-ref', '--quiet', 'HEAD']);
  const ref = r.stdout.trim();
  return r.code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

/** Whether two folders are the same, or one holds the other (by their real paths too). */
export function overlaps(a: string, b: string): boolean {
  const [ra, rb] = [realPathLoose(a), realPathLoose(b)];
  return isInside(a, b) || isInside(b, a) || isInside(ra, rb) || isInside(rb, ra);
}

const isPath = (v: unknown): v is string => typeof v === 'string' && v.length <= 4096 && path.isAbsolute(v) && !v.includes('\0');
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 400 && !v.includes('\0');

/** The list, read tolerantly: a bad entry is left out, a bad file is an empty list. */
function read(file: string, log: (m: string) => void): Worktree[] {
  let raw: unknown;
  try {
    if (fs.statSync(file).size > 1024 * 1024) throw new Error('too large');
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log(`worktrees.json not read: ${String(err)}`);
    return [];
  }
  const entries = typeof raw === 'object' && raw !== null && Array.isArray((raw as { worktrees?: unknown }).worktrees) ? (raw as { worktrees: unknown[] }).worktrees : [];
  const out: Worktree[] = [];
  for (const e of entries.slice(0, 1000)) {
    if (typeof e !== 'object' || e === null) continue;
    const w = e as Record<string, unknown>;
    if (!isPath(w.dir) || !isPath(w.repoTop) || !isPath(w.commonDir) || !isPath(w.adminDir) || !isText(w.branch) || !isText(w.base) || !isText(w.baseLabel)) continue;
    const removed = w.removed === 'kept' || w.removed === 'discarded' ? { removed: w.removed as 'kept' | 'discarded' } : {};
    out.push({ dir: path.resolve(w.dir), branch: w.branch, repoTop: path.resolve(w.repoTop), commonDir: path.resolve(w.commonDir), adminDir: path.resolve(w.adminDir), base: w.base, baseLabel: w.baseLabel, created: typeof w.created === 'number' ? w.created : 0, ...removed });
  }
  return out;
}
