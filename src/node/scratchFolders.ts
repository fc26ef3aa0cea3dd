/**
 * The scratch folders of sessions opened with no folder: made under one root of
 * the extension's own storage, named `<yyyy-mm-dd>-<8 hex>`, removed once their
 * session ended and every agent process that worked in them exited, and swept at
 * activation when old. Only such folders are ever removed: a name of any other
 * shape, a link or a file is left alone, and the removal never follows a link,
 * nor a folder swapped for one while it runs (node/safeRemove.ts). No
 * `vscode` import.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeTree } from './safeRemove';

const NAME = /^\d{4}-\d{2}-\d{2}-[0-9a-f]{8}$/;

/** Older than this (by name and by last change), a scratch folder is no session's any more. */
const SCRATCH_MAX_AGE_MS = 7 * 24 * 60 * 60_000;

/** A new, empty scratch folder under `root`. */
export function makeScratch(root: string, now = new Date()): string {
  const dir = path.join(root, `${now.toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Whether `dir` is one of ours: directly under `root`, named like one, and a real folder (not a link). */
function isScratch(root: string, dir: string): boolean {
  if (path.dirname(path.resolve(dir)) !== path.resolve(root) || !NAME.test(path.basename(dir))) return false;
  try {
    return fs.lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Removes one scratch folder (its session ended); anything else is left alone. A walk that
 * stopped (something in it changed while it ran) leaves the rest, says so to `log`, and
 * returns false. Never throws.
 */
export async function removeScratch(root: string, dir: string, log?: (message: string) => void): Promise<boolean> {
  if (!isScratch(root, dir)) return false;
  return removeTree(dir, log ? { log } : {});
}

/**
 * Removes a scratch folder once every agent process that had it (`holders`: their exits)
 * has exited: an agent still running could change the tree while it goes. Never throws.
 */
export async function removeScratchAfter(root: string, dir: string, holders: readonly Promise<unknown>[], log?: (message: string) => void): Promise<boolean> {
  await Promise.allSettled(holders);
  return removeScratch(root, dir, log);
}

/**
 * Removes the scratch folders under `root` older than `maxAgeMs` — by the date in
 * the name and by the folder's last change both, so one still in use in another
 * window stays. Returns those removed. Never throws.
 */
export async function sweepScratch(root: string, maxAgeMs = SCRATCH_MAX_AGE_MS, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = path.join(root, name);
    if (!NAME.test(name) || now - Date.parse(name.slice(0, 10)) <= maxAgeMs) continue;
    let st: fs.Stats;
    try {
      st = await fs.promises.lstat(dir);
    } catch {
      continue;
    }
    if (!st.isDirectory() || now - st.mtimeMs <= maxAgeMs) continue;
    if (await removeScratch(root, dir)) removed.push(dir);
  }
  return removed;
}
