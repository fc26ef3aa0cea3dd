/**
 * Removes a folder tree that another process (an agent) may still be able to
 * change, without being led out of it: a link is removed as a link, never
 * followed, and a folder swapped for another (or for a link) while the walk
 * runs stops the walk — what is left stays, and the caller logs it.
 *
 * Node has no openat/unlinkat. On Linux the walk gets them through
 * `/proc/self/fd/N`: every folder is opened (O_DIRECTORY | O_NOFOLLOW), its
 * identity (dev, ino) compared with the lstat of its name, and its entries are
 * listed, lstat-ed, opened, unlinked and rmdir-ed through the open descriptor
 * — a folder swapped above it afterwards no longer matters. Elsewhere (or when
 * /proc is not mounted) the walk goes by path, re-checking the identity of the
 * folder by its full path before each entry: a swap between that check and
 * the unlink that follows it (microseconds) is not caught there. No `vscode`
 * import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface RemoveTreeOptions {
  /** Test seam: called after a folder's entries were listed, before any is removed. */
  readonly between?: (dir: string) => void | Promise<void>;
  /** Why a walk stopped (a folder swapped, an entry that would not go). */
  readonly log?: (message: string) => void;
  /** Walk by path even where descriptors can be walked through (tests of the fallback). */
  readonly byPath?: boolean;
}

/** Deeper than this, the walk stops (a descriptor is held per level). */
const MAX_DEPTH = 128;

const DIR_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

type Id = { readonly dev: bigint; readonly ino: bigint };
const sameId = (a: Id, b: Id): boolean => a.dev === b.dev && a.ino === b.ino;

let procFd: boolean | undefined;
/** Whether `/proc/self/fd/N/<name>` reaches the entries of descriptor N's folder (Linux with /proc). */
function canWalkDescriptors(): boolean {
  if (procFd !== undefined) return procFd;
  procFd = false;
  if (process.platform !== 'linux') return procFd;
  let fd: number | undefined;
  try {
    fd = fs.openSync('/', DIR_FLAGS);
    procFd = fs.statSync(`/proc/self/fd/${fd}/.`).ino === fs.statSync('/').ino;
  } catch {
    procFd = false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  return procFd;
}

class Stop extends Error {}

/**
 * Removes `dir` and everything in it, never following a link and never leaving
 * the tree (see the file comment). True when it is gone; false when it was not
 * a folder, or the walk stopped (`log` says why). Never throws.
 */
export async function removeTree(dir: string, opts: RemoveTreeOptions = {}): Promise<boolean> {
  const log = opts.log ?? (() => undefined);
  try {
    const top = await fs.promises.lstat(dir, { bigint: true });
    if (!top.isDirectory()) return false;
    if (!opts.byPath && canWalkDescriptors()) await emptyPinned(dir, top, dir, 0, opts);
    else await emptyByPath(dir, top, 0, opts);
    // The folder itself, by name: a link put in its place is not a folder (rmdir refuses it).
    await fs.promises.rmdir(dir);
    return true;
  } catch (err) {
    log(`left ${dir} (in part): ${err instanceof Stop ? err.message : String((err as Error).message ?? err)}`);
    return false;
  }
}

/** Opens the folder `at` names (not through a link) and checks it is the one `expect` describes. */
async function openChecked(at: string, expect: Id, label: string): Promise<fs.promises.FileHandle> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(at, DIR_FLAGS);
  } catch (err) {
    throw new Stop(`${label} could not be opened as a folder (${(err as NodeJS.ErrnoException).code ?? 'error'}): changed while it was removed`);
  }
  const st = await fh.stat({ bigint: true });
  if (!st.isDirectory() || !sameId(st, expect)) {
    await fh.close();
    throw new Stop(`${label} is not the folder it was a moment before: changed while it was removed`);
  }
  return fh;
}

/** Empties the folder named `at` (whose lstat was `expect`), every step through its open descriptor. */
async function emptyPinned(at: string, expect: Id, label: string, depth: number, opts: RemoveTreeOptions): Promise<void> {
  if (depth > MAX_DEPTH) throw new Stop(`${label} is nested too deeply`);
  const fh = await openChecked(at, expect, label);
  try {
    const self = `/proc/self/fd/${fh.fd}`;
    const names = await fs.promises.readdir(self);
    await opts.between?.(label);
    for (const name of names) {
      const child = `${self}/${name}`;
      let st: fs.BigIntStats;
      try {
        st = await fs.promises.lstat(child, { bigint: true });
      } catch {
        continue; // gone already
      }
      if (st.isDirectory()) {
        await emptyPinned(child, st, path.join(label, name), depth + 1, opts);
        await fs.promises.rmdir(child);
      } else {
        // unlink never follows a link: a link (or a file) goes as itself.
        await unlinkQuiet(child);
      }
    }
  } finally {
    await fh.close();
  }
}

/** Empties `dir` by path, checking before every step that `dir` is still the folder `expect` describes. */
async function emptyByPath(dir: string, expect: Id, depth: number, opts: RemoveTreeOptions): Promise<void> {
  if (depth > MAX_DEPTH) throw new Stop(`${dir} is nested too deeply`);
  const still = async (): Promise<void> => {
    const now = await fs.promises.lstat(dir, { bigint: true });
    if (!now.isDirectory() || !sameId(now, expect)) throw new Stop(`${dir} is not the folder it was a moment before: changed while it was removed`);
  };
  // Where a folder can be opened (POSIX), its descriptor must be the folder its name was.
  if (process.platform !== 'win32') await (await openChecked(dir, expect, dir)).close();
  const names = await fs.promises.readdir(dir);
  await opts.between?.(dir);
  for (const name of names) {
    const child = path.join(dir, name);
    await still();
    let st: fs.BigIntStats;
    try {
      st = await fs.promises.lstat(child, { bigint: true });
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      await emptyByPath(child, st, depth + 1, opts);
      await still();
      await fs.promises.rmdir(child);
    } else {
      await unlinkQuiet(child);
    }
  }
  await still();
}

/** Removes a file or a link as itself; on Windows a link to a folder (or a junction) goes by rmdir, which removes the link only. */
async function unlinkQuiet(file: string): Promise<void> {
  try {
    await fs.promises.unlink(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (process.platform === 'win32' && (code === 'EPERM' || code === 'EISDIR') && (await fs.promises.lstat(file)).isSymbolicLink()) return fs.promises.rmdir(file);
    throw err;
  }
}
