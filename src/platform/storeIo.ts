/**
 * How the session stores (the index, the archive) reach the disk: one seam, so
 * a test can give them a disk that fails (ENOSPC) in the real host. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from './atomicWrite';

export interface StoreIo {
  /** Appends to a file (its folder made first). */
  appendFile(file: string, data: string): Promise<void>;
  /** Replaces a file whole or not at all. */
  writeFileAtomic(file: string, data: string): Promise<void>;
}

export const diskIo: StoreIo = {
  appendFile: async (file, data) => {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.appendFile(file, data);
  },
  writeFileAtomic,
};

/** A disk that is full: every write fails with ENOSPC, as Node reports it. */
export function fullDiskIo(): StoreIo {
  const fail = (file: string) => Promise.reject(Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC', syscall: 'write', path: file }));
  return { appendFile: fail, writeFileAtomic: fail };
}
