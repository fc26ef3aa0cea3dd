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

/** Runs git with the fixed hardening and the given config overrides; undefined when it fails. */
function runGit(
  cwd: string,
  args: readonly string[],
  opts: { repo?: GitRepo; overrides?: readonly (readonly [string, string])[]; encoding?: 'utf8' | 'buffer' } = {},
): Promise<string | Buffer | undefined> {
  const fixed = FIXED_CONFIG.flatMap((c) => ['-c', c]);
  const where = opts.repo ? [`--git-dir=${opts.repo.gitDir}`, `--work-tree=${opts.repo.top}`] : [];
  return new Promise((resolve) => {
    execFile(
      'git',
      [...fixed, '-C', cwd, ...where, ...args],
      { timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding: opts.encoding ?? 'utf8', windowsHide: true, env: gitEnv(opts.overrides ?? []) },
      (err, stdout) => resolve(err ? undefined : stdout),
    );
  });
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
  ) {}

  /** Undefined when the configuration cannot be read (then nothing else is run there). */
  static async open(repo: GitRepo): Promise<SafeGit | undefined> {
    const list = (await runGit(repo.top, ['config', '-z', '--list'], { repo })) as string | undefined;
    if (list === undefined) return undefined;
    const drivers = new Set<string>();
    let autocrlf: string | undefined;
    for (const entry of list.split('\0')) {
      const nl = entry.indexOf('\n');
      const key = nl < 0 ? entry : entry.slice(0, nl);
      const value = nl < 0 ? 'true' : entry.slice(nl + 1);
      const m = /^filter\.([\s\S]+)\.[^.]+$/i.exec(key);
      if (m) drivers.add(m[1]!);
      else if (key.toLowerCase() === 'core.autocrlf') autocrlf = value.toLowerCase();
    }
    const overrides: [string, string][] = [];
    for (const name of drivers) {
      for (const k of ['clean', 'smudge', 'process']) overrides.push([`filter.${name}.${k}`, '']);
      overrides.push([`filter.${name}.required`, 'false']);
    }
    return new SafeGit(repo, overrides, autocrlf);
  }

  run(args: readonly string[], encoding: 'utf8' | 'buffer' = 'utf8'): Promise<string | Buffer | undefined> {
    return runGit(this.repo.top, args, { repo: this.repo, overrides: this.overrides, encoding });
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
