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
 * The worktrees made are listed in `<storage>/worktrees.json`: what the
 * Sessions view shows as a session's branch, and the only folders outside the
 * workspace a session may be opened in without the root question. Nothing in
 * the original checkout is changed except by Merge back (a merge the user
 * confirmed) and by the branch and `.git/worktrees` entries git itself keeps.
 * No `vscode` import.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { writeFileAtomic } from '../node/atomicWrite';
import { isInside } from '../node/pathPolicy';
import { forMessage } from '../shared/nativeText';
import { discoverRepo, SafeGit, type GitResult } from './safeGit';

/** A worktree made for sessions. */
export interface Worktree {
  /** Its folder (absolute): the session's cwd. */
  readonly dir: string;
  /** The branch made for it. */
  readonly branch: string;
  /** The original checkout's top folder, and its git directory. */
  readonly repoTop: string;
  readonly gitDir: string;
  /** The commit it started from, and what that was (a branch name, or the short commit of a detached HEAD). */
  readonly base: string;
  readonly baseLabel: string;
  readonly created: number;
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
  | { readonly kind: 'refused'; readonly why: string };

const MAX_LISTED = 200;
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
  private writing: Promise<void> = Promise.resolve();

  /** `file`: the list; `defaultRoot`: where worktrees go unless `root()` names a folder. */
  constructor(
    private readonly file: string,
    private readonly defaultRoot: string,
    private readonly root: () => string,
    private readonly log: (m: string) => void,
  ) {
    this.list = read(file, log);
  }

  /** The worktrees made (and not removed). */
  all(): readonly Worktree[] {
    return this.list;
  }

  /** The worktree a folder is (or is inside), if one of ours. */
  of(folder: string | undefined): Worktree | undefined {
    return folder === undefined ? undefined : this.list.find((w) => isInside(path.resolve(folder), w.dir));
  }

  /** The repository of `folder`, with what the user picks from; a WorktreeError says why not. */
  async source(folder: string): Promise<WorktreeSource> {
    const repo = await discoverRepo(folder);
    if (!repo) throw new WorktreeError(l10n.t('{0} is not in a git repository (or git 2.38 or later is not installed), so a session cannot get a worktree of it.', forMessage(folder, 500)));
    const git = await SafeGit.open(repo);
    if (!git) throw new WorktreeError(l10n.t('The git configuration of {0} cannot be read, so no worktree is made.', forMessage(repo.top, 500)));
    const head = await git.change(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
    if (head.code !== 0) throw new WorktreeError(l10n.t('The repository at {0} has no commits yet. Make a first commit, then start a session in a worktree.', forMessage(repo.top, 500)));
    const branch = await git.change(['symbolic-ref', '--quiet', '--short', 'HEAD']);
    const refs = await git.change(['for-each-ref', `--count=${MAX_LISTED}`, '--format=%(refname:short)', 'refs/heads/']);
    const status = await git.change(['status', '--porcelain=v1', '-z', '--ignore-submodules=all', '--untracked-files=normal']);
    return {
      git,
      head: head.stdout.trim(),
      headBranch: branch.code === 0 ? branch.stdout.trim() || undefined : undefined,
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
    const parent = path.join(this.where(), `${slug(path.basename(git.repo.top))}-${crypto.createHash('sha256').update(git.repo.gitDir).digest('hex').slice(0, 8)}`);
    await fs.promises.mkdir(parent, { recursive: true });
    let dir = path.join(parent, slug(branch));
    for (let n = 2; fs.existsSync(dir); n++) dir = path.join(parent, `${slug(branch)}-${n}`);
    const r = await git.change(['worktree', 'add', '--no-track', '-b', branch, '--', dir, base]);
    if (r.code !== 0) {
      this.log(`worktree add failed for ${dir}: ${r.stderr.trim()}`);
      throw new WorktreeError(l10n.t('Git did not make the worktree: {0}', gitWords(r)));
    }
    const made: Worktree = { dir: fs.realpathSync.native(dir), branch, repoTop: git.repo.top, gitDir: git.repo.gitDir, base, baseLabel, created: Date.now() };
    this.list = [...this.list, made];
    await this.save();
    this.log(`worktree made: ${made.dir} on ${branch} from ${baseLabel} (${base.slice(0, 12)}) of ${made.repoTop}`);
    return made;
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
   * then the branch is merged (`--no-ff`) into whatever the original checkout has
   * checked out. Conflicts are left in that checkout for the merge editor; a
   * merge git refuses (local changes it would overwrite, a merge already under
   * way) leaves it as it was.
   */
  async mergeBack(wt: Worktree, message: string): Promise<MergeResult> {
    const committed = await this.commitAll(wt, message);
    if (typeof committed === 'string') return { kind: 'refused', why: committed };
    const git = await this.original(wt);
    if (typeof git === 'string') return { kind: 'refused', why: git };
    const into = ((await git.change(['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim() || l10n.t('the detached HEAD')).slice(0, 200);
    const ref = `refs/heads/${wt.branch}`;
    if ((await git.change(['merge-base', '--is-ancestor', ref, 'HEAD'])).code === 0) return { kind: 'nothing', into };
    // The branch's configured merge options could add a strategy program or signing: emptied.
    const options: [string, string][] = [[`branch.${into}.mergeOptions`, '']];
    const r = await git.change(['merge', '-s', 'ort', '--no-ff', '--no-edit', '--no-stat', '--no-verify', '--no-verify-signatures', '--no-gpg-sign', '-m', l10n.t('Merge branch \'{0}\' (an ACP agent session\'s worktree)', wt.branch), ref], { overrides: options });
    if (r.code === 0) {
      this.log(`merged ${wt.branch} into ${into} at ${wt.repoTop}`);
      return { kind: 'merged', into, committed };
    }
    const unmerged = await git.change(['diff', '--name-only', '--diff-filter=U', '-z']);
    const files = unmerged.stdout.split('\0').filter(Boolean);
    this.log(`merge of ${wt.branch} into ${into} at ${wt.repoTop}: ${files.length ? `${files.length} conflict(s)` : `refused: ${r.stderr.trim()}`}`);
    if (files.length) return { kind: 'conflicts', into, files };
    return { kind: 'refused', why: l10n.t('Git did not merge {0} into {1}, and left {2} as it was: {3}', forMessage(wt.branch, 200), forMessage(into, 200), forMessage(wt.repoTop, 500), gitWords(r)) };
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

  /** Forgets a worktree (its folder and branch stay as they are). */
  async forget(wt: Worktree): Promise<void> {
    this.list = this.list.filter((w) => w.dir !== wt.dir);
    await this.save();
  }

  private async remove(wt: Worktree, dropBranch: boolean): Promise<string | undefined> {
    const git = await this.original(wt);
    if (typeof git === 'string') return git;
    const gone = !fs.existsSync(wt.dir);
    // A folder deleted by hand: git's record of it is pruned instead.
    const r = gone ? await git.change(['worktree', 'prune']) : await git.change(['worktree', 'remove', '--force', '--force', '--', wt.dir]);
    if (r.code !== 0) return l10n.t('Git did not remove the worktree {0}: {1}', forMessage(wt.dir, 500), gitWords(r));
    if (dropBranch) {
      const b = await git.change(['branch', '-D', '--', wt.branch]);
      if (b.code !== 0) this.log(`branch ${wt.branch} not deleted: ${b.stderr.trim()}`);
    }
    await this.forget(wt);
    this.log(`worktree removed: ${wt.dir}${dropBranch ? ` and branch ${wt.branch}` : ` (branch ${wt.branch} kept)`}`);
    return undefined;
  }

  /** Commits everything in the worktree on its branch: the number of paths committed, or why not. */
  private async commitAll(wt: Worktree, message: string): Promise<number | string> {
    const changed = await this.uncommitted(wt);
    if (changed === undefined) return l10n.t('The worktree {0} is gone or not a git worktree any more.', forMessage(wt.dir, 500));
    if (!changed.length) return 0;
    const git = (await this.gitOf(wt))!;
    const add = await git.change(['add', '--all', '--', '.'], { cwd: wt.dir });
    if (add.code !== 0) return l10n.t('Git did not stage the changes in {0}: {1}', forMessage(wt.dir, 500), gitWords(add));
    // No identity configured: the commit is still made, under the extension's name.
    const who = (await git.change(['var', 'GIT_COMMITTER_IDENT'])).code === 0 ? [] : ['-c', 'user.name=ACP Agents', '-c', 'user.email=acp-agents@localhost'];
    const c = await git.change([...who, 'commit', '--no-verify', '--quiet', '-m', message], { cwd: wt.dir });
    if (c.code !== 0) return l10n.t('Git did not commit the changes in {0}: {1}', forMessage(wt.dir, 500), gitWords(c));
    return changed.length;
  }

  /** The worktree's own git (its folder must still be one of the repository's worktrees). */
  private async gitOf(wt: Worktree): Promise<SafeGit | undefined> {
    if (!fs.existsSync(wt.dir)) return undefined;
    const repo = await discoverRepo(wt.dir);
    if (!repo || path.resolve(repo.top) !== path.resolve(wt.dir)) return undefined;
    return await SafeGit.open(repo);
  }

  /** The original checkout's git, or why it cannot be used. */
  private async original(wt: Worktree): Promise<SafeGit | string> {
    const repo = await discoverRepo(wt.repoTop);
    const git = repo && path.resolve(repo.gitDir) === path.resolve(wt.gitDir) ? await SafeGit.open(repo) : undefined;
    return git ?? l10n.t('The repository {0} the worktree came from is gone or moved.', forMessage(wt.repoTop, 500));
  }

  private where(): string {
    const chosen = this.root().trim();
    return chosen && path.isAbsolute(chosen) ? chosen : this.defaultRoot;
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify({ v: 1, worktrees: this.list }, null, 1)}\n`;
    this.writing = this.writing.then(() => writeFileAtomic(this.file, text)).catch((err: unknown) => this.log(`worktrees.json not written: ${String(err)}`));
    return this.writing;
  }
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
    if (!isPath(w.dir) || !isPath(w.repoTop) || !isPath(w.gitDir) || !isText(w.branch) || !isText(w.base) || !isText(w.baseLabel)) continue;
    out.push({ dir: path.resolve(w.dir), branch: w.branch, repoTop: path.resolve(w.repoTop), gitDir: path.resolve(w.gitDir), base: w.base, baseLabel: w.baseLabel, created: typeof w.created === 'number' ? w.created : 0 });
  }
  return out;
}
