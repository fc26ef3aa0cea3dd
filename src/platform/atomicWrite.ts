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
