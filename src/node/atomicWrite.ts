/**
 * Writes a file whole or not at all: a temporary file beside it (named for
 * this process, so two windows never share one), then a rename over it. A
 * crash midway leaves the old file. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(tmp, data);
  await fs.promises.rename(tmp, file);
}

/**
 * Removes the temporary files `writeFileAtomic` left beside `file` when its
 * process was killed mid-write (`<file>.<pid>.tmp` of a process that is gone);
 * another window's, still running, is left alone. Never throws.
 */
export function removeStaleTemps(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) && name.endsWith('.tmp') ? Number(name.slice(prefix.length, -4)) : NaN;
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
