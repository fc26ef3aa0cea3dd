/**
 * Whether a folder is too wide to be given to an agent session as a context
 * folder (sessions/parts/sessionFolders.ts): inside an added folder the agent
 * reads and writes without a question, so a filesystem or drive root, the
 * user's home folder (their shell profile, keys, the editor's own settings)
 * or a folder that holds one of the session's own folders (a workspace folder,
 * the session's folder) is refused. Each spelling of the folder is checked —
 * the path the user gave and its real path — so a link to home is home.
 * No `vscode` import.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export type TooWide =
  | { readonly kind: 'root' }
  | { readonly kind: 'home' }
  | { readonly kind: 'holdsHome' }
  /** Holds `folder`, one of the session's own folders. */
  | { readonly kind: 'holds'; readonly folder: string };

export interface GrantOptions {
  /** The user's home folder ('' when there is none). */
  readonly home?: string;
  /** The path rules (path.win32 to check Windows paths anywhere). */
  readonly path?: path.PlatformPath;
}

/** The path as given and, where it exists, its real path. */
function spellings(p: string, paths: path.PlatformPath): string[] {
  const out = [paths.resolve(p)];
  if (paths === path) {
    try {
      const real = fs.realpathSync.native(p);
      if (!out.includes(real)) out.push(real);
    } catch {
      // Not there: its name is all there is.
    }
  }
  return out;
}

/**
 * Why `folder` may not be added to a session, or undefined when it may.
 * `folder`: the folder's spellings to check (the path given, its real path
 * when added); `own`: the session's own folders and the workspace folders
 * (a folder that holds one is refused; one inside them is the caller's
 * "already among the session's folders").
 */
export function tooWideToGrant(folder: readonly string[], own: readonly string[], opts: GrantOptions = {}): TooWide | undefined {
  const paths = opts.path ?? path;
  const home = opts.home ?? os.homedir();
  const mine = folder.flatMap((f) => spellings(f, paths));
  // A root is its own parent: `/`, `C:\`, `\\server\share\`.
  if (mine.some((m) => paths.dirname(m) === m)) return { kind: 'root' };
  const inside = (child: string, root: string) => {
    const rel = paths.relative(root, child);
    return rel === '' || (!rel.startsWith('..') && !paths.isAbsolute(rel));
  };
  const same = (a: string, b: string) => paths.relative(a, b) === '';
  const homes = home ? spellings(home, paths) : [];
  if (mine.some((m) => homes.some((h) => same(m, h)))) return { kind: 'home' };
  if (mine.some((m) => homes.some((h) => inside(h, m)))) return { kind: 'holdsHome' };
  for (const o of own) {
    if (spellings(o, paths).some((s) => mine.some((m) => inside(s, m) && !same(s, m)))) return { kind: 'holds', folder: o };
  }
  return undefined;
}
