/**
 * One writer at a time, across processes, for a store that is read, merged and
 * replaced (the session index, the file touches): every window of a workspace
 * writes the same file, and two read-merge-replace cycles that overlap lose what
 * the first one added. The lock is proper-lockfile's: a directory beside the file
 * (`<file>.lock`, made with mkdir, atomic on every platform), its time refreshed
 * every second while held and removed when released. One
 * not refreshed for `staleMs` belongs to a window that was killed or froze, and
 * is taken over. The bundle gives the library plain `fs` and no exit hook
 * (esbuild.mjs, no-global-patches): its graceful-fs and signal-exit would patch
 * `fs` and `process.emit` for every extension in the host. A lock held when the
 * host exits is stale 2 s later.
 *
 * Waiting never blocks the thread (a timer between tries) and is bounded: after
 * `waitMs` the write goes ahead without the lock, merged as before, and the log
 * says so. What is in memory is never dropped. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as lockfile from 'proper-lockfile';

export const STORE_LOCK = {
  /** How long a writer waits for the lock before it writes without it. More than `staleMs`: a killed window's lock is taken over in time. */
  waitMs: 3000,
  /** A lock whose time is older than this is stale (2 s is proper-lockfile's least; a live holder refreshes it every second). */
  staleMs: 2000,
} as const;

/** The lock directory beside `file`. */
export const lockPathOf = (file: string): string => `${file}.lock`;

/**
 * Runs `work` (read, merge, replace `file`) holding the cross-process lock of
 * `file`; when it cannot be had within `STORE_LOCK.waitMs` (or not at all: a
 * read-only folder), runs it anyway and says so through `log`.
 */
export async function withStoreLock<T>(file: string, work: () => Promise<T>, log: (message: string) => void = () => undefined): Promise<T> {
  const release = await acquire(file, log);
  try {
    return await work();
  } finally {
    if (release) await release().catch((err: unknown) => log(`store lock: could not release the lock of ${file} (${messageOf(err)})`));
  }
}

async function acquire(file: string, log: (message: string) => void): Promise<(() => Promise<void>) | undefined> {
  const deadline = Date.now() + STORE_LOCK.waitMs;
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
  } catch {
    // the lock (and then the write) says why
  }
  for (;;) {
    try {
      return await lockfile.lock(file, {
        realpath: false, // the store may not exist yet
        stale: STORE_LOCK.staleMs,
        retries: 0, // the waiting is ours: bounded by time, not by a count
        onCompromised: (err) => log(`store lock: the lock of ${file} was taken over while held (${err.message}); the write goes on, merged`),
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') {
        log(`store lock: could not lock ${file} (${messageOf(err)}); writing without the lock, merged as before`);
        return undefined;
      }
      if (Date.now() >= deadline) {
        log(`store lock: ${file} stayed locked by another window for ${STORE_LOCK.waitMs / 1000} s; writing without the lock, merged as before`);
        return undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
