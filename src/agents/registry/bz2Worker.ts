/**
 * A child process (dist/bz2Worker.js <file>): decompresses one .bz2 file to
 * stdout. unbzip2-stream decodes a block at a time synchronously and one
 * hostile block can take hundreds of MB, so it runs here, where a bomb costs a
 * process that the extension host kills (or that dies of its own heap limit),
 * never the host itself.
 */
import * as fs from 'node:fs';
import bz2 from 'unbzip2-stream';

const file = process.argv[2];
const fail = (err: Error) => {
  process.stderr.write(err.message);
  process.exit(2);
};
/** The extension host's meter says the same, but only once bytes reach it: unbzip2-stream may decode many blocks first. */
const MAX_RATIO = 1000;
if (file) {
  const limit = fs.statSync(file).size * MAX_RATIO + 1024 ** 2;
  let produced = 0;
  const decoder = bz2();
  decoder.on('error', fail);
  decoder.on('data', (chunk: Buffer) => {
    produced += chunk.length;
    if (produced > limit) {
      process.stderr.write(`it unpacks to over ${MAX_RATIO} times its size (an archive bomb)`);
      process.exit(3);
    }
  });
  fs.createReadStream(file).on('error', fail).pipe(decoder).pipe(process.stdout);
}
