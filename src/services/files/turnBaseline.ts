/**
 * What the session's folders held when a turn began, so a file the agent
 * rewrites as a new inode (`sed -i`, `git checkout`) is known to have existed
 * ("modified", never "added"), and — for files git had clean — what its bytes
 * were. Cheap: names only (bounded count and time), one `git status` per
 * repository. No `vscode` import.
 *
 * Git is only ever run through `safeGit.ts` (no hook, fsmonitor, filter driver,
 * submodule or transport of the repository's runs). Which repository a session
 * folder belongs to is decided once, at the first turn a `ChangeTracker` sees
 * (the `pins` it passes): a repository (a `.git` folder or file, or a bare one)
 * that appears inside a folder later — an agent can write one — is never used,
 * and a folder that had one keeps using that git directory and work tree,
 * whatever the folder holds later. A repository above the folder (a monorepo
 * sub-folder opened alone) is found by git's discovery as usual; a bare
 * repository is never discovered.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverRepo, SafeGit, type GitRepo } from '../safeGit';

const MAX_ENTRIES = 200_000;
const LIST_BUDGET_MS = 2_000;
const MAX_BLOB_BYTES = 5 * 1024 * 1024;
const SKIP_DIRS = new Set(['.git', 'node_modules']);
/** Files git had changed when the turn began are read then (bounded): git cannot tell their bytes later. */
const MAX_DIRTY_FILES = 200;
const MAX_DIRTY_BYTES = 16 * 1024 * 1024;
/** At most this many files a turn created are found by the listing at its end. */
const MAX_SWEEP = 1000;

/** Per session folder, the repository decided at the first turn (undefined: none). */
export type RepoPins = Map<string, Promise<GitRepo | undefined>>;

interface Repo {
  readonly top: string;
  readonly git: SafeGit;
  readonly head: string;
  /** Tracked files that differed from HEAD when the turn began (absolute paths). */
  readonly dirty: Set<string>;
}

/** Paths compared case-insensitively on Windows (git says C:\, VS Code c:\). */
const key = (p: string): string => (process.platform === 'win32' ? path.resolve(p).toLowerCase() : path.resolve(p));

export class TurnBaseline {
  private readonly files = new Set<string>();
  /** False when the listing was cut short (too many files, or too slow): absence then proves nothing. */
  complete = true;
  /** The listing is done: until then, a file not listed yet may well exist. */
  private listed = false;
  private readonly repos: Repo[] = [];
  /** The bytes of files git had changed, read when the turn began. */
  private readonly dirtyBytes = new Map<string, Buffer>();
  readonly ready: Promise<void>;

  constructor(
    readonly roots: readonly string[],
    /** What a file held when the turn began, known from elsewhere (an earlier turn's checkpoint). */
    private readonly known: (file: string) => Buffer | null | undefined = () => undefined,
    /** The repository of each folder, kept across the turns of one tracker. */
    private readonly pins: RepoPins = new Map(),
  ) {
    this.ready = Promise.all([this.list().finally(() => (this.listed = true)), this.readGit()]).then(() => undefined);
  }

  private async list(): Promise<void> {
    this.complete = await TurnBaseline.walk(this.roots, this.files);
  }

  /** Every file under `roots` into `into` (not .git, node_modules); false when cut short. */
  private static async walk(roots: readonly string[], into: Set<string>): Promise<boolean> {
    const deadline = Date.now() + LIST_BUDGET_MS;
    const stack = [...roots];
    while (stack.length) {
      const dir = stack.pop()!;
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name)) stack.push(full);
        } else into.add(full);
      }
      if (into.size > MAX_ENTRIES || Date.now() > deadline) return false;
    }
    return true;
  }

  /**
   * Files there now that were not when the turn began (at most `max`): what the
   * turn created, found by listing again — for the events a file watcher never
   * delivered (one that went live late, a folder excluded from watching). Empty
   * when the first listing was cut short: absence then proved nothing.
   */
  async createdSince(max = MAX_SWEEP): Promise<string[]> {
    await this.ready;
    if (!this.complete) return [];
    const now = new Set<string>();
    await TurnBaseline.walk(this.roots, now);
    const out: string[] = [];
    for (const f of now) {
      if (this.files.has(f)) continue;
      out.push(f);
      if (out.length >= max) break;
    }
    return out;
  }

  private async readGit(): Promise<void> {
    const found = new Map<string, GitRepo>();
    for (const root of this.roots) {
      let pin = this.pins.get(key(root));
      if (!pin) this.pins.set(key(root), (pin = discoverRepo(root)));
      const repo = await pin;
      if (repo) found.set(`${key(repo.gitDir)}\0${key(repo.top)}`, repo);
    }
    for (const { top, gitDir } of found.values()) {
      const git = await SafeGit.open({ top, gitDir });
      if (!git) continue;
      const head = ((await git.run(['rev-parse', '--verify', '-q', 'HEAD'])) as string | undefined)?.trim();
      const status = (await git.run(['status', '--porcelain=v1', '-z', '--untracked-files=no', '--ignore-submodules=all', '--no-renames'])) as string | undefined;
      if (!head || status === undefined) continue;
      const dirty = new Set<string>();
      const parts = status.split('\0');
      for (const entry of parts) {
        if (entry.length < 4) continue;
        // No renames (--no-renames): a moved file is its two sides, each listed.
        dirty.add(key(path.join(top, entry.slice(3))));
      }
      this.repos.push({ top, git, head, dirty });
      let budget = MAX_DIRTY_BYTES;
      for (const f of [...dirty].slice(0, MAX_DIRTY_FILES)) {
        try {
          const st = await fs.promises.stat(f);
          if (!st.isFile() || st.size > budget) continue;
          const b = await fs.promises.readFile(f);
          budget -= b.length;
          this.dirtyBytes.set(f, b);
        } catch {
          // Deleted in the work tree: nothing to keep.
        }
      }
    }
  }

  /** The files that were under a folder when the turn began (a folder deleted at once reports only itself). */
  filesUnder(dir: string): string[] {
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    const out: string[] = [];
    for (const f of this.files) if (f.startsWith(prefix)) out.push(f);
    return out;
  }

  /**
   * True: the file existed when the turn began; false: it did not; undefined:
   * unknown — also while the listing is still going (an fs/write_text_file early
   * in a turn asks before it is done: "not listed yet" must never read as "new",
   * or Undo would delete a file that was there).
   */
  existed(file: string): boolean | undefined {
    if (this.files.has(file)) return true;
    if (!this.listed) return undefined;
    // Not listed there (.git, node_modules): unknown, which never makes Revert delete.
    if (file.split(/[\\/]/).some((part) => SKIP_DIRS.has(part))) return undefined;
    return this.complete ? false : undefined;
  }

  /**
   * The file's bytes when the turn began, when known: from an earlier turn's
   * checkpoint; a tracked file git had changed, read then; a tracked file that
   * was clean then is the HEAD of that moment, when git would check it out unchanged.
   */
  async bytesBefore(file: string): Promise<Buffer | undefined> {
    const known = this.known(file);
    if (known) return known;
    await this.ready;
    const dirty = this.dirtyBytes.get(key(file));
    if (dirty) return dirty;
    const repo = this.repos.find((r) => !path.relative(key(r.top), key(file)).startsWith('..'));
    if (!repo || repo.dirty.has(key(file)) || !this.files.has(file)) return undefined;
    const rel = path.relative(repo.top, file).split(path.sep).join('/');
    return repo.git.checkoutBytes(repo.head, rel, MAX_BLOB_BYTES);
  }
}
