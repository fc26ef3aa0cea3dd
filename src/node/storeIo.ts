/**
 * How the extension's stores (the session index, the archive, what a session
 * keeps beside it, the file touches) reach the disk: one seam, so a test can
 * give them a disk that fails (ENOSPC) in the real host. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from './atomicWrite';

export interface StoreIo {
  /** Appends to a file (its folder made first). */
  appendFile(file: string, data: string): Promise<void>;
  /** Replaces a file whole or not at all (its folder made first). */
  writeFileAtomic(file: string, data: string): Promise<void>;
  /** A file's text, at most `maxBytes` of it: rejects with `ENOENT` when missing, with an error saying its size when larger. */
  readFile(file: string, maxBytes: number): Promise<string>;
}

/** A file larger than a store reads. */
class TooBigError extends Error {
  constructor(
    readonly file: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`${file} is ${size} bytes, more than the ${maxBytes} read`);
  }
}

async function readBounded(file: string, maxBytes: number): Promise<string> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const { size } = await fh.stat();
    if (size > maxBytes) throw new TooBigError(file, size, maxBytes);
    // Read at most one byte past the limit: a file that grew since the stat is still caught.
    const buf = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    if (got > maxBytes) throw new TooBigError(file, got, maxBytes);
    return buf.subarray(0, got).toString('utf8');
  } finally {
    await fh.close();
  }
}

export const diskIo: StoreIo = {
  appendFile: async (file, data) => {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.appendFile(file, data);
  },
  writeFileAtomic,
  readFile: readBounded,
};

/** A disk that is full: every write fails with ENOSPC, as Node reports it (reads still work). */
export function fullDiskIo(): StoreIo {
  const fail = (file: string) => Promise.reject(Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC', syscall: 'write', path: file }));
  return { appendFile: fail, writeFileAtomic: fail, readFile: readBounded };
}
