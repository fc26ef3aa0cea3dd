/**
 * Every path a tool call names, for deciding whether it may be answered
 * without asking: its `locations`, its diff paths, and the values in its
 * `rawInput` that look like paths (path-like keys, searched recursively but
 * bounded, and apply_patch / unified-diff bodies in any string), the glob
 * patterns of search tools (`pattern`, `glob`, `include`…: where their
 * non-magic part leads), and object keys that are paths (codex's
 * `changes: {"/abs/file": …}`, any key that is absolute or starts at `~`).
 * Relative paths are resolved against the session's cwd, `~` against the home
 * folder. Pure: no `vscode`, no file system — unit-tested in plain Node.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';

/** One path a tool call names: as the agent wrote it, where it came from, and resolved (undefined: it cannot be resolved). */
export interface NamedPath {
  readonly raw: string;
  readonly from: string;
  readonly resolved: string | undefined;
  /**
   * A glob pattern (or a search tool's pattern, read as one): `resolved` is then the folder
   * its non-magic part leads to, and this the whole pattern made absolute (for the protected
   * globs: `.env*` names `.env`).
   */
  readonly pattern?: string;
  /** A glob's magic part, relative to `resolved` (its base): checked as a glob (node/protectedGlobs.ts). */
  readonly glob?: string;
}

export interface ToolPaths {
  readonly paths: readonly NamedPath[];
  /** The input was too large or too deep to search whole: some path may have been missed. */
  readonly truncated: boolean;
}

export interface ToolCallView {
  readonly locations?: readonly { readonly path: string }[];
  readonly diffPaths?: readonly string[];
  /** The call's `rawInput`: a value, or the JSON text of one. */
  readonly rawInput?: unknown;
}

export interface PathContext {
  readonly cwd: string;
  readonly home: string;
  /** Defaults to this process's platform. */
  readonly platform?: NodeJS.Platform;
}

const MAX_DEPTH = 8;
const MAX_NODES = 5_000;
const MAX_PATHS = 200;
const MAX_PATH_CHARS = 4_096;
/** Strings longer than this are not scanned for patch headers: the call is "cannot tell" instead. */
const MAX_SCAN_CHARS = 2_000_000;

/** Keys whose values are paths (compared lower-cased, without `_` and `-`). */
const PATH_KEYS = new Set([
  'path', 'paths', 'file', 'files', 'filename', 'filenames', 'target', 'targets', 'destination', 'dest', 'source', 'sources', 'src',
  'cwd', 'dir', 'dirs', 'directory', 'directories', 'folder', 'workdir', 'workingdirectory', 'to', 'from', 'uri', 'location',
]);
/** …and keys that end like one (`file_path`, `new_path`, `target_file`, `notebook_path`, `old_dir`…). */
const PATH_SUFFIXES = ['path', 'paths', 'file', 'files', 'filename', 'dir', 'directory', 'folder', 'uri'];

export function isPathKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[_-]/g, '');
  return PATH_KEYS.has(k) || PATH_SUFFIXES.some((s) => k.endsWith(s));
}

/**
 * Keys whose values are glob patterns (Glob's `pattern`, Grep's `glob`, gemini's `include`…).
 * A grep tool's `pattern` is a regular expression: read as a glob too (a tool's name is the
 * agent's word), which only matters when it is rooted elsewhere (`/etc/…`, `~/…`, `../…`).
 */
export function isPatternKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[_-]/g, '');
  return ['include', 'includes', 'exclude', 'excludes', 'ignore'].includes(k) || ['pattern', 'patterns', 'glob', 'globs'].some((s) => k.endsWith(s));
}

/** Keys whose object value maps paths to what happens to them (codex's apply_patch `changes`). */
const PATH_MAP_KEYS = new Set(['changes', 'filechanges', 'files', 'patches', 'diffs', 'edits', 'writes', 'fileedits', 'paths']);

/** A text that starts somewhere of its own: absolute, at a home folder, a `file:` URI, or with a `..` segment. */
export function looksRooted(s: string): boolean {
  const t = s.trim();
  return /^(?:[\\/]|~|\$HOME\b|\$\{HOME\}|%USERPROFILE%|[A-Za-z]:[\\/]|file:)/i.test(t) || /(^|[\\/])\.\.([\\/]|$)/.test(t);
}

/** apply_patch headers (`*** Add File: x` …) and unified-diff `--- a/x` / `+++ b/x` pairs in a text. */
export function patchPaths(text: string): string[] {
  const out: string[] = [];
  if (!/\*\*\*\s|---\s/.test(text)) return out;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const op = /^\s*\*\*\*\s+(?:Add File|Update File|Delete File|Move to|Move File|Rename to):\s*(.+?)\s*$/.exec(line);
    if (op) {
      out.push(op[1]!);
      continue;
    }
    const next = lines[i + 1];
    if (line.startsWith('--- ') && next?.startsWith('+++ ')) {
      for (const header of [line, next]) {
        const p = diffHeaderPath(header.slice(4));
        if (p !== undefined) out.push(p);
      }
      i++;
    }
  }
  return out;
}

/** The path of a `---`/`+++` header: no timestamp, no `a/` `b/` prefix, none for /dev/null. */
function diffHeaderPath(rest: string): string | undefined {
  let p = rest.split('\t')[0]!.trim();
  if (p.startsWith('"') && p.endsWith('"') && p.length > 1) p = p.slice(1, -1);
  if (p === '' || p === '/dev/null') return undefined;
  return /^[ab]\//.test(p) ? p.slice(2) : p;
}

/** A URI of another scheme than `file:` (`https://…`): not a local path. A drive letter (`C:`) is not a scheme. */
function isNonFileUri(s: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(s.trim()) && !/^file:/i.test(s.trim());
}

/**
 * A path as an agent wrote it, made absolute: `~`, `~/…`, `$HOME/…` from the
 * home folder; `file:` URIs decoded; relative ones against the cwd. Undefined
 * for what we cannot place (a NUL, `~user`, a UNC path on Windows, a URI of another scheme).
 */
export function resolveToolPath(raw: string, ctx: PathContext): string | undefined {
  const platform = ctx.platform ?? process.platform;
  const p = platform === 'win32' ? path.win32 : path.posix;
  let s = raw.trim();
  if (s === '' || /[\0\r\n]/.test(s) || s.length > MAX_PATH_CHARS || isNonFileUri(s)) return undefined;
  if (/^file:/i.test(s)) {
    try {
      s = fileURLToPath(s);
    } catch {
      return undefined;
    }
  }
  const home = /^(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%)(?=$|[\\/])/.exec(s);
  if (home) s = ctx.home + s.slice(home[0].length);
  else if (/^~[^\\/]/.test(s)) return undefined; // ~user: another user's home
  if (platform === 'win32' && /^[\\/]{2}/.test(s)) return undefined;
  // A `..` is left for the file system to resolve (after the links before it: see realPathLoose), never collapsed here.
  if (!/(^|[\\/])\.\.([\\/]|$)/.test(s)) return p.resolve(ctx.cwd, s);
  return p.isAbsolute(s) ? s : `${ctx.cwd.replace(/[\\/]+$/, '')}${p.sep}${s}`;
}

/**
 * Where the magic part of a glob may lead, when that cannot be told without expanding it:
 * an alternative or group that starts elsewhere (`{/etc,src}`, `@(~|x)`, `{..,x}`) or a `..`
 * segment after the first wildcard.
 */
const GLOB_ESCAPES = /(?:^|[\\/{,(|])\s*(?:\.\.(?=$|[\\/},)|])|[\\/~]|\$HOME|%USERPROFILE%|[A-Za-z]:)/i;

/**
 * A glob as an agent wrote it, placed: `base` is the folder its non-magic part resolves to
 * (against `relativeTo` — the call's own `path` — or else the cwd), `pattern` the whole glob
 * made absolute. Undefined when its magic part may lead out of that folder (see GLOB_ESCAPES)
 * or its base cannot be placed.
 */
export function resolveToolGlob(raw: string, ctx: PathContext, relativeTo?: string): { base: string; pattern: string; glob: string } | undefined {
  const platform = ctx.platform ?? process.platform;
  let s = raw.trim();
  if (s === '' || /[\0\r\n]/.test(s) || s.length > MAX_PATH_CHARS) return undefined;
  if (platform === 'win32') s = s.replace(/\\/g, '/');
  const { base: head, glob } = picomatch.scan(s);
  if (GLOB_ESCAPES.test(glob)) return undefined;
  const dir = head === '' ? '.' : head;
  const placed = relativeTo !== undefined && relativeTo.trim() !== '' && !looksRooted(dir) ? `${relativeTo.trim().replace(/[\\/]+$/, '')}/${dir}` : dir;
  const base = resolveToolPath(placed, ctx);
  if (base === undefined) return undefined;
  const sep = platform === 'win32' ? '\\' : '/';
  return { base, glob, pattern: glob === '' ? base : `${base.replace(/[\\/]+$/, '')}${sep}${glob}` };
}

/** Whether a text has glob magic in it (`*`, `?`, `[…]`, `{…}`, extglobs). */
function isGlob(s: string, platform: NodeJS.Platform): boolean {
  return picomatch.scan(platform === 'win32' ? s.replace(/\\/g, '/') : s).isGlob;
}

/** Every path the call names, resolved. */
export function toolCallPaths(call: ToolCallView, ctx: PathContext): ToolPaths {
  const platform = ctx.platform ?? process.platform;
  const named: Found[] = [];
  // Locations and diffs name paths by definition: an empty or odd one cannot be placed (and is asked about).
  for (const l of call.locations ?? []) named.push({ raw: l.path, from: 'locations' });
  for (const d of call.diffPaths ?? []) named.push({ raw: d, from: 'diff' });
  let input = call.rawInput;
  let truncated = false;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      // Not JSON: a plain string (a patch body, say) is searched as it is.
    }
  }
  if (input !== undefined && input !== null) truncated = searchInput(input, named, platform);
  const paths = named.slice(0, MAX_PATHS).map((n): NamedPath => {
    if (!n.glob) return { raw: n.raw, from: n.from, resolved: resolveToolPath(n.raw, ctx) };
    const g = resolveToolGlob(n.raw, ctx, n.relativeTo);
    return { raw: n.raw, from: n.from, resolved: g?.base, ...(g ? { pattern: g.pattern, glob: g.glob } : {}) };
  });
  return { paths, truncated: truncated || named.length > MAX_PATHS };
}

/** A path found in a call, before it is resolved. */
interface Found {
  readonly raw: string;
  readonly from: string;
  /** Read as a glob, relative to `relativeTo` (the call's own path) when it is relative. */
  readonly glob?: boolean;
  readonly relativeTo?: string;
}

/** What a value is, by the key it is under: a path, a glob pattern, a map from paths, or anything else. */
type Role = 'path' | 'pattern' | 'map' | 'other';

function roleOf(key: string): Role {
  if (isPatternKey(key)) return 'pattern';
  if (PATH_MAP_KEYS.has(key.toLowerCase().replace(/[_-]/g, ''))) return 'map';
  return isPathKey(key) ? 'path' : 'other';
}

/** Adds the paths in `rawInput` to `out`; true when the search stopped at a bound. */
function searchInput(input: unknown, out: Found[], platform: NodeJS.Platform): boolean {
  let nodes = 0;
  let truncated = false;
  const visit = (v: unknown, where: string, role: Role, depth: number, relativeTo: string | undefined): void => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH || out.length > MAX_PATHS) {
      truncated = true;
      return;
    }
    if (typeof v === 'string') {
      const t = v.trim();
      // Under a path key, anything but a web address counts: what cannot be placed (another scheme, a line break) is asked about.
      if ((role === 'path' || (role === 'map' && !v.includes('\n'))) && t !== '' && !/^https?:\/\//i.test(t)) {
        out.push({ raw: v, from: where });
        // A path with wildcards is a glob too (gemini's read_many_files `paths`): where its magic part may lead counts.
        if (!v.includes('\n') && isGlob(v, platform)) out.push({ raw: v, from: `${where} (glob)`, glob: true, relativeTo });
      }
      // A pattern: a regular expression that reads like a scheme (`TODO:`) or a web address is no path.
      if (role === 'pattern' && t !== '' && !v.includes('\n') && !isNonFileUri(t)) out.push({ raw: v, from: `${where} (glob)`, glob: true, relativeTo });
      if (v.length > MAX_SCAN_CHARS) truncated = true;
      else if (/^\s*[[{]/.test(v)) {
        // JSON given as a string (`arguments: "{\"file_path\": …}"`): searched like the object it holds.
        let inner: unknown;
        try {
          inner = JSON.parse(v);
        } catch {
          inner = undefined;
        }
        if (inner !== undefined && typeof inner === 'object') visit(inner, `${where} (JSON)`, 'other', depth + 1, undefined);
      } else if (role !== 'path' || v.includes('\n')) for (const p of patchPaths(v)) out.push({ raw: p, from: `${where} (patch)` });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, `${where}[${i}]`, role === 'map' ? 'path' : role, depth + 1, relativeTo));
      return;
    }
    if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      // The call's own folder (Glob's and Grep's `path`): its patterns are relative to it.
      const own = entries.find(([k, x]) => typeof x === 'string' && x.trim() !== '' && roleOf(k) === 'path')?.[1] as string | undefined;
      for (const [k, x] of entries) {
        // A key is a path under a map of paths (`changes: {"/home/u/.bashrc": …}`), or when it starts somewhere of its own.
        const keyIsPath = role === 'map' || looksRooted(k);
        if (keyIsPath && k.trim() !== '') out.push({ raw: k, from: `${where}[${JSON.stringify(k)}] (key)` });
        visit(x, `${where}.${k}`, keyIsPath ? 'other' : roleOf(k), depth + 1, own);
      }
    }
  };
  visit(input, 'rawInput', 'other', 0, undefined);
  return truncated;
}
