/**
 * How the file system that will open a path spells it: the same file can be
 * named `.GIT/config`, `.git./config`, `.git::$INDEX_ALLOCATION/config` or
 * `GIT~1/config` on Windows, and `.Git/config` on any case-insensitive volume
 * (macOS, Windows, WSL's `/mnt/c`). Protected-path matching compares what the
 * file system would open, not what the agent typed. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * One path segment as Windows opens it: an alternate data stream suffix
 * (`:stream`, `::$DATA`, `::$INDEX_ALLOCATION`) and trailing dots and spaces
 * are dropped (`.git. ` is `.git`). `.` and `..` are left alone. Unchanged on
 * other platforms.
 */
export function windowsSegment(segment: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32' || segment === '.' || segment === '..') return segment;
  const colon = segment.indexOf(':');
  const name = colon >= 0 ? segment.slice(0, colon) : segment;
  const trimmed = name.replace(/[. ]+$/, '');
  return trimmed === '' ? name : trimmed;
}

/**
 * A relative path (either separator on Windows) as `/`-joined segments spelled
 * as the platform opens them (see windowsSegment). Empty segments are dropped.
 */
export function normalizeRelPath(rel: string, platform: NodeJS.Platform = process.platform): string {
  const parts = platform === 'win32' ? rel.split(/[\\/]+/) : rel.split('/');
  return parts
    .filter((s) => s !== '')
    .map((s) => windowsSegment(s, platform))
    .join('/');
}

/**
 * Could this segment be a Windows 8.3 short name (`GITHUB~1`, `VSCODE~2.JSO`)?
 * Windows opens such a name as the long one it abbreviates, so a short name
 * that did not resolve cannot be told apart from a protected folder.
 */
export function looksLikeShortName(segment: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' && /~\d/.test(segment);
}

/** Platforms whose file systems are case-insensitive as a rule (their default volumes are). */
export function caseInsensitivePlatform(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/**
 * The real path of `p` split in two: the part that exists (symlinks and, on
 * Windows, 8.3 short names resolved) and the names after it that do not exist
 * (as given).
 */
export function realPathParts(p: string): { real: string; missing: string[] } {
  let current = path.resolve(p);
  const missing: string[] = [];
  for (;;) {
    try {
      return { real: fs.realpathSync.native(current), missing: missing.reverse() };
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return { real: current, missing: missing.reverse() };
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The same name with its letters' case swapped, or undefined when it has no cased letter. */
function toggled(name: string): string | undefined {
  let out = '';
  for (const ch of name) {
    const lower = ch.toLowerCase();
    out += ch === lower ? ch.toUpperCase() : lower;
  }
  return out === name ? undefined : out;
}

function sameFile(a: string, b: string): boolean | undefined {
  try {
    const x = fs.statSync(a, { bigint: true });
    const y = fs.statSync(b, { bigint: true });
    return x.dev === y.dev && x.ino === y.ino;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? false : undefined;
  }
}

const probed = new Map<string, boolean>();
const MAX_PROBED = 256;

/**
 * Does the file system holding the directory `dir` ignore case? Probed once per
 * directory: an entry of it (else the directory itself) is looked up with its
 * case swapped; the same inode means it does. A directory that gives nothing to
 * probe counts as case-insensitive (matching more is the safe side).
 */
export function caseInsensitiveAt(dir: string): boolean {
  const known = probed.get(dir);
  if (known !== undefined) return known;
  let answer: boolean | undefined;
  try {
    const d = fs.opendirSync(dir);
    try {
      for (let i = 0; i < 64 && answer === undefined; i++) {
        const entry = d.readSync();
        if (!entry) break;
        const other = toggled(entry.name);
        if (other !== undefined) answer = sameFile(path.join(dir, entry.name), path.join(dir, other));
      }
    } finally {
      d.closeSync();
    }
  } catch {
    // unreadable: try the directory's own name
  }
  if (answer === undefined) {
    const other = toggled(path.basename(dir));
    if (other !== undefined) answer = sameFile(dir, path.join(path.dirname(dir), other));
  }
  const result = answer ?? true;
  if (probed.size >= MAX_PROBED) probed.delete(probed.keys().next().value as string);
  probed.set(dir, result);
  return result;
}
