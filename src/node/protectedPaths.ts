/**
 * Paths an agent may change only with the user's yes (`.vscode/**`, `.git/**`,
 * CI workflows, `.env*`, the agents' own configuration…): globs relative to a
 * session folder, matched at any depth, so `packages/app/.env.local` is as
 * protected as `.env`. A glob `x/**` protects `x` itself too (a `.git` file is
 * a git directory's pointer). Matching follows the file system: case-insensitive
 * where it is, and Windows spellings (`.git.`, `.git::$INDEX_ALLOCATION`, 8.3
 * short names) count as what Windows opens. No `vscode` import.
 */
import * as path from 'node:path';
import picomatch from 'picomatch';
import { isInside, realPathLoose } from './pathPolicy';
import { caseInsensitiveAt, caseInsensitivePlatform, looksLikeShortName, normalizeRelPath, realPathParts, windowsSegment } from './pathSpelling';

/** The default `acpAgents.files.protectedPaths` (package.json repeats it): writes there always ask. */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.vscode/**',
  '.git/**',
  '.github/workflows/**',
  '.devcontainer/**',
  '.devcontainer.json',
  '.env*',
  '.npmrc',
  '.yarnrc.yml',
  '.yarnrc',
  '.pnpmfile.cjs',
  'bunfig.toml',
  '.husky/**',
  '*.code-workspace',
  '.claude/**',
  '.gemini/**',
  '.codex/**',
  '.qwen/**',
  '.opencode/**',
  '.mcp.json',
];

/** A glob as written and as compared: slashes forward, no leading `./` or `/`, no spaces around. */
function globKey(g: string): string {
  return g.trim().replace(/\\/g, '/').replace(/^\.?\//, '');
}

/**
 * The globs in force for the user's `acpAgents.files.protectedPaths`: the user's entries add to
 * the defaults (a user who adds one pattern keeps `.git/**`, `.vscode/**`…); an entry `!glob`
 * drops that glob — a default only goes when the user names it so. `unknown`: `!` entries that
 * name no glob in the list (a typo), for the log.
 */
export function effectiveProtectedPaths(user: unknown): { globs: string[]; dropped: string[]; unknown: string[] } {
  const entries = Array.isArray(user) ? user.filter((p): p is string => typeof p === 'string' && p.trim() !== '') : [];
  const drops = new Set(entries.filter((e) => e.trim().startsWith('!')).map((e) => globKey(e.trim().slice(1))));
  const globs: string[] = [];
  const seen = new Set<string>();
  for (const g of [...DEFAULT_PROTECTED_PATHS, ...entries.filter((e) => !e.trim().startsWith('!'))]) {
    const k = globKey(g);
    if (k === '' || seen.has(k)) continue;
    seen.add(k);
    if (!drops.has(k)) globs.push(g.trim());
  }
  const dropped = [...drops].filter((d) => seen.has(d));
  return { globs, dropped, unknown: [...drops].filter((d) => !seen.has(d)) };
}

/** What a matcher names when a path holds a name that may be a Windows 8.3 short name of anything. */
export const SHORT_NAME_REASON = '8.3 short name (*~N)';

export type ProtectedMatcher = (file: string, roots: readonly string[]) => string | undefined;

export interface MatcherOptions {
  /** The platform whose spelling rules apply (tests pass 'win32'); default this one. */
  readonly platform?: NodeJS.Platform;
  /** Whether the file system holding a directory ignores case (default: probed, see caseInsensitiveAt). */
  readonly caseInsensitive?: (dir: string) => boolean;
}

/** Returns a matcher telling which glob protects a file (undefined: not protected). */
export function protectedMatcher(globs: readonly string[], opts: MatcherOptions = {}): ProtectedMatcher {
  const platform = opts.platform ?? process.platform;
  const insensitiveAt = opts.caseInsensitive ?? ((dir: string) => caseInsensitivePlatform(platform) || caseInsensitiveAt(dir));
  const tests = globs.map((g) => {
    const glob = g.replace(/\\/g, '/').replace(/^\.?\//, '');
    const anyDepth = glob.startsWith('**/') ? glob : `**/${glob}`;
    // `x/**` protects `x` too, whatever the glob library makes of it.
    const patterns = anyDepth.endsWith('/**') && anyDepth.length > 3 ? [anyDepth, anyDepth.slice(0, -3)] : [anyDepth];
    return {
      glob: g,
      exact: picomatch(patterns, { dot: true }),
      folded: picomatch(patterns, { dot: true, nocase: true }),
    };
  });
  return (file, roots) => {
    const { real, missing } = realPathParts(file);
    const resolved = path.join(real, ...missing);
    const realRoots = roots.map((r) => realPathLoose(r));
    // The nearest existing directory: where case-sensitivity is probed for a path outside the roots.
    const anchor = missing.length ? real : path.dirname(real);
    let root = realRoots.find((r) => isInside(resolved, r));
    if (!root && insensitiveAt(anchor)) root = realRoots.find((r) => isInside(resolved.toLowerCase(), r.toLowerCase()));
    const fold = insensitiveAt(root ?? anchor);
    // Outside every root: relative to the file system root (the outside-roots question comes first anyway).
    const raw = root ? path.relative(fold ? root.toLowerCase() : root, fold ? resolved.toLowerCase() : resolved) : resolved.replace(/^[A-Za-z]:/, '').replace(/^[\\/]+/, '');
    const rel = normalizeRelPath(raw.split(path.sep).join('/'), platform);
    if (rel === '') return undefined;
    // A name that did not resolve may be the short name of a protected folder (`GITHUB~1` for `.github`).
    if (missing.some((m) => looksLikeShortName(windowsSegment(m, platform), platform))) return SHORT_NAME_REASON;
    return tests.find((t) => (fold ? t.folded : t.exact)(rel))?.glob;
  };
}
