/**
 * Is a path inside the session's roots? Symlinks are resolved (for a file that
 * does not exist yet, its nearest existing parent is), so a link inside the
 * workspace cannot lead an agent outside it. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The real path of `p`, resolving symlinks of its nearest existing ancestor.
 * `..` is resolved the way the file system does it — after the links before it
 * (`link/..` is the link target's parent, not the link's folder) — never by text
 * first; a dangling link is followed to where a write through it would land.
 */
export function realPathLoose(p: string, hops = 0): string {
  let current = path.isAbsolute(p) ? p : `${process.cwd()}${path.sep}${p}`;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(current), ...[...rest].reverse());
    } catch {
      const target = hops < MAX_LINK_HOPS ? danglingTarget(current) : undefined;
      if (target !== undefined) return realPathLoose([target, ...[...rest].reverse()].join(path.sep), hops + 1);
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(current, ...[...rest].reverse());
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/** Links followed through dangling ones before giving up (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;

/** Where a link that leads nowhere (yet) points: a write through it creates that file. */
function danglingTarget(p: string): string | undefined {
  try {
    if (!fs.lstatSync(p).isSymbolicLink()) return undefined;
    const to = fs.readlinkSync(p);
    return path.isAbsolute(to) ? to : `${path.dirname(p)}${path.sep}${to}`;
  } catch {
    return undefined;
  }
}

export function isInside(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether a session folder needs the user's word before it becomes a session's root: it is
 * outside every workspace folder (by its path and by its real path) and outside `own` (the
 * extension's scratch folders of no-folder sessions).
 */
export function outsideWorkspace(folder: string, workspaceFolders: readonly string[], own: readonly string[]): boolean {
  const candidates = [folder, realPathLoose(folder)];
  const roots = [...workspaceFolders, ...own].flatMap((r) => [r, realPathLoose(r)]);
  return !candidates.every((c) => roots.some((r) => isInside(c, r)));
}

/** Checks an agent's path against the roots; returns the resolved path and whether it is inside. */
export function checkPath(p: string, roots: readonly string[]): { resolved: string; inside: boolean } {
  const resolved = realPathLoose(p);
  const inside = roots.some((r) => isInside(resolved, realPathLoose(r)));
  return { resolved, inside };
}

/**
 * `checkPath`'s answer for many paths against the same roots, as one caller's batch: the roots' real
 * paths are resolved once, and each folder's once per checker (make a new checker for each batch;
 * nothing is kept longer). A path whose last step is a link (or `.`/`..`, or not normalized) is
 * resolved whole; else its folder's real path and its name as spelled (on a case-insensitive disk
 * the name's case may differ from `checkPath`'s `resolved`; `inside` does not).
 */
export function pathChecker(roots: readonly string[]): (p: string) => { resolved: string; inside: boolean } {
  const real = roots.map((r) => realPathLoose(r));
  const folders = new Map<string, string>();
  const resolve = (p: string): string => {
    const abs = path.isAbsolute(p) ? p : `${process.cwd()}${path.sep}${p}`;
    const base = path.basename(abs);
    if (path.normalize(abs) !== abs || base === '' || base === '.' || base === '..') return realPathLoose(abs);
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      return realPathLoose(abs);
    }
    // A link at the last step (a dangling one included): resolved whole.
    if (st?.isSymbolicLink()) return realPathLoose(abs);
    // A plain name (or a missing one) in a folder: the folder's real path, then the name.
    const dir = path.dirname(abs);
    let realDir = folders.get(dir);
    if (realDir === undefined) folders.set(dir, (realDir = realPathLoose(dir)));
    return path.join(realDir, base);
  };
  return (p) => {
    const resolved = resolve(p);
    return { resolved, inside: real.some((r) => isInside(resolved, r)) };
  };
}

/** 1-based `line` and `limit` (lines) of a text. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit !== undefined && limit !== null ? start + Math.max(0, limit) : lines.length;
  return lines.slice(start, end).join('\n');
}

/**
 * A Windows UNC or device path (`\\server\share`, `//server/share`, `\\?\…`,
 * `\\.\pipe\…`): refused before anything (realpath, stat) touches it, since
 * resolving one reaches out to the network. Never true on other platforms.
 */
export function isUncPath(p: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' && /^[\\/]{2}/.test(p);
}

/** Absolute on this platform (Windows drive paths, or POSIX absolute paths). */
export function isAbsolutePath(p: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' ? path.win32.isAbsolute(p) : path.posix.isAbsolute(p);
}
