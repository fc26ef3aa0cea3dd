/**
 * The extension's own git calls, hardened so that nothing a repository (or an
 * agent writing into one) configured ever runs. Every call:
 * - clears the variables that say where the repository is (`GIT_DIR`,
 *   `GIT_WORK_TREE`, …): discovery is ours, and after it every call names its
 *   git directory and work tree explicitly;
 * - sets `GIT_OPTIONAL_LOCKS=0` (status never writes the index, so no
 *   index-writing hook), `-c core.hooksPath=<null device>` (no hook at all),
 *   `-c core.fsmonitor=false` (no fsmonitor command or daemon),
 *   `-c safe.bareRepository=explicit` (a folder an agent filled with `HEAD`,
 *   `config`, `objects/`, `refs/` is never discovered as a bare repository);
 * - overrides every filter driver the configuration names (`clean`, `smudge`,
 *   `process` emptied, `required` false): `git status` runs the clean filter of a
 *   file whose stat data changed or is racily clean, and nothing in git turns
 *   that off for the whole command. The names come from `git config --list`
 *   (same sources, includes followed) and are passed as `GIT_CONFIG_KEY_n`
 *   entries, which need no quoting whatever the name holds;
 * - refuses every transport (`GIT_ALLOW_PROTOCOL` empty, `protocol.allow=never`,
 *   `GIT_NO_LAZY_FETCH=1` where git knows it), so a partial clone's lazy fetch
 *   cannot start `uploadpack` or `ssh` commands from the configuration.
 * Callers keep submodules out (`--ignore-submodules=all`: a submodule's own
 * configuration is never read) and read blobs raw (no `--filters`).
 * A git older than 2.38 (no safe.bareRepository) is not used at all.
 * Not covered: a configuration rewritten between our `git config --list` and the
 * next command (the agent would need to write `.git/config`, a protected path).
 * No `vscode` import.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const GIT_TIMEOUT_MS = 3_000;
const MAX_OUTPUT = 64 * 1024 * 1024;

/** Variables that would choose the repository instead of discovery. */
const LOCATION_VARS = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_QUARANTINE_PATH',
]);

/** Commands that write (worktree add, commit, merge) may take longer than a read. */
const WRITE_TIMEOUT_MS = 60_000;

/** What a writing command could otherwise run from the configuration. */
const WRITE_OVERRIDES: readonly (readonly [string, string])[] = [
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['merge.verifySignatures', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['submodule.recurse', 'false'],
  ['merge.default', 'text'],
  ['merge.stat', 'false'],
  ['rerere.enabled', 'false'],
  ['core.editor', ':'],
  // With signing off these are never needed; empty, nothing could run if they were.
  ['gpg.program', ''],
  ['gpg.ssh.program', ''],
  ['gpg.x509.program', ''],
];

/**
 * What every custom merge driver the configuration names becomes: git's own
 * three-way text merge (`git merge-file`, conflict markers and all), run by
 * this git's absolute path. An empty driver would run nothing but leave a
 * conflicted file without markers (or, before git 2.42, fail the merge); a
 * driver named like a built-in one (`text`) hides it, so every name is
 * replaced, `merge.default` with them.
 */
let mergeDriver: Promise<string> | undefined;
function mergeDriverCommand(): Promise<string> {
  mergeDriver ??= runGit(os.tmpdir(), ['--exec-path']).then((out) => {
    const dir = String(out ?? '').trim();
    const exe = path.join(dir, process.platform === 'win32' ? 'git.exe' : 'git');
    const git = dir && fs.existsSync(exe) ? exe : 'git';
    return `'${git.replace(/'/g, `'\\''`)}' merge-file --marker-size=%L %A %O %B`;
  });
  return mergeDriver;
}

const FIXED_CONFIG = ['safe.bareRepository=explicit', 'core.fsmonitor=false', `core.hooksPath=${os.devNull}`, 'protocol.allow=never'];

export interface GitRepo {
  /** The work tree's top folder (absolute). */
  readonly top: string;
  /** Its git directory (absolute), used explicitly by every later call. */
  readonly gitDir: string;
}

function gitEnv(overrides: readonly (readonly [string, string])[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!LOCATION_VARS.has(k.toUpperCase())) env[k] = v;
  env.GIT_OPTIONAL_LOCKS = '0';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_NO_LAZY_FETCH = '1';
  env.GIT_ALLOW_PROTOCOL = '';
  // Appended after the user's own entries (GIT_CONFIG_COUNT), so ours win.
  let n = Number(env.GIT_CONFIG_COUNT);
  if (!Number.isInteger(n) || n < 0) {
    n = 0;
    for (const k of Object.keys(env)) if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/i.test(k)) delete env[k];
  }
  for (const [k, v] of overrides) {
    env[`GIT_CONFIG_KEY_${n}`] = k;
    env[`GIT_CONFIG_VALUE_${n}`] = v;
    n++;
  }
  env.GIT_CONFIG_COUNT = String(n);
  return env;
}

/** What a git command said: its exit code (null when it was killed or could not start), its output and its errors. */
export interface GitResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface RunOptions {
  repo?: GitRepo;
  overrides?: readonly (readonly [string, string])[];
  encoding?: 'utf8' | 'buffer';
  timeoutMs?: number;
}

function spawnGit(cwd: string, args: readonly string[], opts: RunOptions, done: (err: (Error & { code?: unknown }) | null, stdout: string | Buffer, stderr: string | Buffer) => void): void {
  const fixed = FIXED_CONFIG.flatMap((c) => ['-c', c]);
  const where = opts.repo ? [`--git-dir=${opts.repo.gitDir}`, `--work-tree=${opts.repo.top}`] : [];
  execFile(
    'git',
    [...fixed, '-C', cwd, ...where, ...args],
    { timeout: opts.timeoutMs ?? GIT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding: opts.encoding ?? 'utf8', windowsHide: true, env: gitEnv(opts.overrides ?? []) },
    done,
  );
}

/** Runs git with the fixed hardening and the given config overrides; undefined when it fails. */
function runGit(cwd: string, args: readonly string[], opts: RunOptions = {}): Promise<string | Buffer | undefined> {
  return new Promise((resolve) => spawnGit(cwd, args, opts, (err, stdout) => resolve(err ? undefined : stdout)));
}

/** Runs git as `runGit` does, and keeps what it said whether it failed or not (text output). */
function runGitFull(cwd: string, args: readonly string[], opts: RunOptions = {}): Promise<GitResult> {
  return new Promise((resolve) =>
    spawnGit(cwd, args, { ...opts, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = !err ? 0 : typeof err.code === 'number' ? err.code : null;
      resolve({ code, stdout: String(stdout ?? ''), stderr: String(stderr ?? '') || (err && code === null ? err.message : '') });
    }),
  );
}

/** safe.bareRepository (and GIT_CONFIG_COUNT, --path-format) came with git 2.38: an older git is not used. */
let versionOk: Promise<boolean> | undefined;
function recentEnough(): Promise<boolean> {
  versionOk ??= runGit(os.tmpdir(), ['version']).then((out) => {
    const m = /(\d+)\.(\d+)/.exec(String(out ?? ''));
    return !!m && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 38));
  });
  return versionOk;
}

/** The repository a folder belongs to (git's own discovery, hardened), if any. */
export async function discoverRepo(folder: string): Promise<GitRepo | undefined> {
  if (!(await recentEnough())) return undefined;
  const out = (await runGit(folder, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--absolute-git-dir'])) as string | undefined;
  const [top, gitDir] = (out ?? '').split('\n').map((l) => l.trim());
  return top && gitDir && path.isAbsolute(top) && path.isAbsolute(gitDir) ? { top: path.resolve(top), gitDir: path.resolve(gitDir) } : undefined;
}

/** One repository's hardened git: every filter driver its configuration names is switched off. */
export class SafeGit {
  private constructor(
    readonly repo: GitRepo,
    private readonly overrides: readonly (readonly [string, string])[],
    /** core.autocrlf as configured (lowercase), if set. */
    readonly autocrlf: string | undefined,
    /** The custom merge drivers the configuration names (`merge.<name>.*`): none of them ever runs. */
    readonly mergeDrivers: readonly string[] = [],
  ) {}

  /** Undefined when the configuration cannot be read (then nothing else is run there). */
  static async open(repo: GitRepo): Promise<SafeGit | undefined> {
    const list = (await runGit(repo.top, ['config', '-z', '--list'], { repo })) as string | undefined;
    if (list === undefined) return undefined;
    const drivers = new Set<string>();
    const mergeDrivers = new Set<string>();
    let autocrlf: string | undefined;
    for (const entry of list.split('\0')) {
      const nl = entry.indexOf('\n');
      const key = nl < 0 ? entry : entry.slice(0, nl);
      const value = nl < 0 ? 'true' : entry.slice(nl + 1);
      const m = /^filter\.([\s\S]+)\.[^.]+$/i.exec(key);
      const merge = /^merge\.([\s\S]+)\.[^.]+$/i.exec(key);
      if (m) drivers.add(m[1]!);
      else if (merge) mergeDrivers.add(merge[1]!);
      else if (key.toLowerCase() === 'core.autocrlf') autocrlf = value.toLowerCase();
    }
    const overrides: [string, string][] = [];
    for (const name of drivers) {
      for (const k of ['clean', 'smudge', 'process']) overrides.push([`filter.${name}.${k}`, '']);
      overrides.push([`filter.${name}.required`, 'false']);
    }
    return new SafeGit(repo, overrides, autocrlf, [...mergeDrivers]);
  }

  run(args: readonly string[], encoding: 'utf8' | 'buffer' = 'utf8'): Promise<string | Buffer | undefined> {
    return runGit(this.repo.top, args, { repo: this.repo, overrides: this.overrides, encoding });
  }

  /**
   * A command that writes (a worktree added or removed, a commit, a merge), with
   * what it said kept. On top of the reading hardening: no signing (no
   * `gpg.program`), no automatic gc or maintenance, no submodule recursion, and
   * every custom merge driver the configuration names replaced (see
   * MERGE_DRIVER_OVERRIDE), `merge.default` included. `cwd` defaults to the top.
   */
  async change(args: readonly string[], opts: { timeoutMs?: number; cwd?: string; overrides?: readonly (readonly [string, string])[] } = {}): Promise<GitResult> {
    const driver = this.mergeDrivers.length ? await mergeDriverCommand() : '';
    const merge = this.mergeDrivers.flatMap((name): [string, string][] => [[`merge.${name}.driver`, driver], [`merge.${name}.recursive`, 'text']]);
    return await runGitFull(opts.cwd ?? this.repo.top, ['--no-pager', ...args], { repo: this.repo, overrides: [...this.overrides, ...WRITE_OVERRIDES, ...merge, ...(opts.overrides ?? [])], timeoutMs: opts.timeoutMs ?? WRITE_TIMEOUT_MS });
  }

  /**
   * A blob as a checkout would write it, when that is certain without running
   * anything: the raw bytes (no `--filters`), refused (undefined) when a filter
   * driver, `ident`, a working-tree encoding or an end-of-line conversion could
   * change them. With `core.autocrlf=true` (Git for Windows' default) text files
   * with LF endings are therefore unknown.
   */
  async checkoutBytes(rev: string, rel: string, max: number): Promise<Buffer | undefined> {
    const blob = (await this.run(['cat-file', 'blob', `${rev}:${rel}`], 'buffer')) as Buffer | undefined;
    if (!blob || blob.length > max) return undefined;
    const a = await this.attributes(rel, ['filter', 'ident', 'working-tree-encoding', 'text', 'eol', 'crlf']);
    if (!a || ['filter', 'ident', 'working-tree-encoding'].some((n) => specified(a.get(n)) && a.get(n) !== 'unset')) return undefined;
    return !hasLoneLf(blob) || keepsLf(a, this.autocrlf) ? blob : undefined;
  }

  /** The attributes of a path (relative, `/`-separated): "unspecified", "set", "unset" or a value. */
  async attributes(rel: string, names: readonly string[]): Promise<Map<string, string> | undefined> {
    const out = (await this.run(['check-attr', '-z', ...names, '--', rel])) as string | undefined;
    if (out === undefined) return undefined;
    const parts = out.split('\0');
    const attrs = new Map<string, string>();
    for (let i = 0; i + 2 < parts.length; i += 3) attrs.set(parts[i + 1]!, parts[i + 2]!);
    return attrs;
  }
}

const specified = (v: string | undefined): v is string => v !== undefined && v !== 'unspecified';

function hasLoneLf(b: Buffer): boolean {
  for (let i = b.indexOf(0x0a); i >= 0; i = b.indexOf(0x0a, i + 1)) if (i === 0 || b[i - 1] !== 0x0d) return true;
  return false;
}

/** True when a checkout surely leaves LF endings alone (git's convert.c, read conservatively). */
function keepsLf(a: Map<string, string>, autocrlf: string | undefined): boolean {
  const crlf = a.get('crlf');
  const mode = specified(crlf) ? crlf : a.get('text');
  if (mode === 'unset' || mode === 'input') return true; // binary, or LF on checkout
  if (a.get('eol') === 'lf') return true;
  if (!specified(mode) && !specified(a.get('eol'))) return !['true', 'yes', 'on', '1'].includes(autocrlf ?? 'false');
  return false;
}
