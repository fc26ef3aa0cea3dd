/**
 * Paths an agent may change only with the user's yes (`.vscode/**`, `.git/**`,
 * CI workflows, `.env*`…): globs relative to a session folder, matched at any
 * depth, so `packages/app/.env.local` is as protected as `.env`. No `vscode` import.
 */
import * as path from 'node:path';
import picomatch from 'picomatch';
import { isInside, realPathLoose } from './pathPolicy';

/** The default `acpAgents.files.protectedPaths` (package.json repeats it): writes there always ask. */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = ['.vscode/**', '.git/**', '.github/workflows/**', '.devcontainer/**', '.env*', '.npmrc'];

export type ProtectedMatcher = (file: string, roots: readonly string[]) => string | undefined;

/** Returns a matcher telling which glob protects a file (undefined: not protected). */
export function protectedMatcher(globs: readonly string[]): ProtectedMatcher {
  const tests = globs.map((g) => {
    const glob = g.replace(/\\/g, '/').replace(/^\.?\//, '');
    const anyDepth = glob.startsWith('**/') ? glob : `**/${glob}`;
    return { glob: g, test: picomatch(anyDepth, { dot: true, nocase: process.platform !== 'linux' }) };
  });
  return (file, roots) => {
    const resolved = realPathLoose(file);
    const root = roots.map((r) => realPathLoose(r)).find((r) => isInside(resolved, r));
    // Outside every root: relative to the file system root (the outside-roots question comes first anyway).
    const rel = (root ? path.relative(root, resolved) : resolved.replace(/^[A-Za-z]:/, '').replace(/^[\\/]+/, '')).split(path.sep).join('/');
    if (rel === '') return undefined;
    return tests.find((t) => t.test(rel))?.glob;
  };
}
