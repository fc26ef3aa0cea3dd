/**
 * A file's bytes as the change tracker and Restore see them: read synchronously,
 * bounded, never from a FIFO or a device (the path comes from the model). No
 * `vscode` import.
 */
import * as fs from 'node:fs';

/** Files above this size are not snapshotted (their changes are listed without Revert). */
const MAX_SNAPSHOT_BYTES = 5 * 1024 * 1024;
export const UNREADABLE = Symbol('unreadable');
export type Disk = Buffer | null | typeof UNREADABLE;

/**
 * The file's bytes on disk: null when it does not exist; UNREADABLE when it is not a
 * regular file (a FIFO, a device — the path comes from the model) or too large.
 */
export function readDisk(file: string): Disk {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return null;
  }
  if (!st.isFile() || st.size > MAX_SNAPSHOT_BYTES) return UNREADABLE;
  try {
    return fs.readFileSync(file);
  } catch {
    return UNREADABLE;
  }
}

export function same(a: Disk | undefined, b: Disk | undefined): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return a === b;
}

export const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/** Bytes that a text editor round-trips exactly (valid UTF-8, no BOM, no CR: editors normalise line endings). */
export function isPlainUtf8(bytes: Buffer): boolean {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return false;
  if (bytes.includes(0x0d)) return false;
  return utf8(bytes.toString('utf8')).equals(bytes);
}

/**
 * Whether an unmodified document's text is not the file's bytes: VS Code has not read the file again since it
 * changed on disk (no watcher event yet, or none ever: files.watcherExclude), and would refuse to save over it.
 * Bytes that are not UTF-8 are never called different (VS Code decoded them its own way); a BOM and line ends
 * are not differences.
 */
export function staleAgainst(text: string, disk: Buffer): boolean {
  let onDisk = disk.toString('utf8');
  if (onDisk.includes('\uFFFD')) return false;
  if (onDisk.charCodeAt(0) === 0xfeff) onDisk = onDisk.slice(1);
  return onDisk.replace(/\r\n/g, '\n') !== text.replace(/\r\n/g, '\n');
}
