/**
 * File I/O on a path that was checked earlier, checked again at the moment of
 * use: a folder swapped for a symlink between the check and the I/O must not
 * lead outside the session's folders. Reads open with no-follow (where the
 * platform has it) and compare the opened file with what the path resolves to
 * now; writes (done elsewhere, through VS Code) re-check just before and after.
 * Also the checks before Restore / Revert / Undo write a file: never through a
 * link. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, realPathLoose } from './pathPolicy';

export type VerifiedRead =
  | { readonly kind: 'ok'; readonly bytes: Buffer }
  | { readonly kind: 'missing'; readonly code: string }
  /** The path no longer leads to the file that was checked (a link appeared, a folder was swapped). */
  | { readonly kind: 'changed'; readonly now: string }
  | { readonly kind: 'not-file'; readonly what: string }
  | { readonly kind: 'too-large'; readonly size: number };

/** Open flags for reading a checked path: never follow a final symlink, never block on a FIFO. */
function readFlags(): number {
  const c = fs.constants;
  return c.O_RDONLY | (c.O_NOFOLLOW ?? 0) | (c.O_NONBLOCK ?? 0);
}

export function kindOf(st: fs.Stats): string {
  return st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSymbolicLink() ? 'a symbolic link' : 'not a file';
}

const errCode = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? String(err);

/**
 * Reads `resolved` (a real path the caller checked) if it still is that file:
 * opened without following a final link, then the path is resolved again and
 * must name the same file (same real path, same device and inode) as the one
 * opened. At most `maxBytes` are read. `afterOpen` is a test seam (a swap
 * between the open and the re-check).
 */
export async function readVerified(resolved: string, maxBytes: number, afterOpen?: () => Promise<void>): Promise<VerifiedRead> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(resolved, readFlags());
  } catch (err) {
    const code = errCode(err);
    // ELOOP (EMLINK on some BSDs): the last component became a link after the check.
    if (code === 'ELOOP' || code === 'EMLINK') return { kind: 'changed', now: realPathLoose(resolved) };
    return { kind: 'missing', code };
  }
  try {
    const st = await fh.stat();
    await afterOpen?.();
    const now = await recheck(resolved, st);
    if (now !== undefined) return { kind: 'changed', now };
    if (!st.isFile()) return { kind: 'not-file', what: kindOf(st) };
    if (st.size > maxBytes) return { kind: 'too-large', size: st.size };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - total));
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      // Grew past the bound since the fstat: refused, never read whole.
      if (total > maxBytes) return { kind: 'too-large', size: total };
    }
    return { kind: 'ok', bytes: Buffer.concat(chunks) };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Undefined when `resolved` still resolves to itself and names the opened file; else where it leads now. */
async function recheck(resolved: string, opened: fs.Stats): Promise<string | undefined> {
  let real: string;
  let st: fs.Stats;
  try {
    real = await fs.promises.realpath(resolved);
    st = await fs.promises.stat(real);
  } catch {
    return realPathLoose(resolved);
  }
  if (real !== resolved) return real;
  if (st.dev !== opened.dev || st.ino !== opened.ino) return `${resolved} (another file than the one opened)`;
  return undefined;
}

/**
 * Before (and after) a write to `resolved`, a real path the caller checked:
 * undefined while the path still resolves to itself and is not a link
 * (a dangling link included); else a description of where it leads now.
 */
export function writeTargetChanged(resolved: string): string | undefined {
  try {
    if (fs.lstatSync(resolved).isSymbolicLink()) return `${resolved} is a symbolic link (to ${realPathLoose(resolved)})`;
  } catch {
    // Missing: a new file; its folders are checked below.
  }
  const now = realPathLoose(resolved);
  return now === resolved ? undefined : `${resolved} now resolves to ${now}`;
}

/**
 * The first symbolic link on the way to `file`: the file itself or a folder
 * between the session folder holding it and the file (the session folder
 * itself may be a link: the user opened it so). For a file in no session
 * folder, only the file itself is looked at (its resolved path is asked about).
 */
export function linkOnPath(file: string, roots: readonly string[]): string | undefined {
  const abs = path.resolve(file);
  const root = roots.map((r) => path.resolve(r)).find((r) => isInside(abs, r)) ?? roots.map((r) => realPathLoose(r)).find((r) => isInside(abs, r));
  const steps: string[] = [];
  if (root === undefined) steps.push(abs);
  else {
    let at = root;
    for (const part of path.relative(root, abs).split(path.sep).filter(Boolean)) steps.push((at = path.join(at, part)));
  }
  for (const step of steps) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(step);
    } catch {
      return undefined; // Missing from here on: nothing to follow.
    }
    if (st.isSymbolicLink()) return step;
  }
  return undefined;
}

export type UserWriteCheck =
  | { readonly kind: 'ok'; readonly resolved: string }
  | { readonly kind: 'link'; readonly link: string }
  | { readonly kind: 'outside'; readonly resolved: string }
  | { readonly kind: 'protected'; readonly resolved: string; readonly glob: string };

/**
 * What stands between Restore / Revert / Undo and writing `file`: a link on
 * the way (refused), a path outside the session's folders or a protected one
 * (asked). The protected check sees the resolved path.
 */
export function checkUserWrite(file: string, roots: readonly string[], protectedGlob: (resolved: string) => string | undefined): UserWriteCheck {
  const link = linkOnPath(file, roots);
  if (link !== undefined) return { kind: 'link', link };
  const resolved = realPathLoose(file);
  if (!roots.some((r) => isInside(resolved, realPathLoose(r)))) return { kind: 'outside', resolved };
  const glob = protectedGlob(resolved);
  return glob !== undefined ? { kind: 'protected', resolved, glob } : { kind: 'ok', resolved };
}
