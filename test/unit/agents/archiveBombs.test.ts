// The bounds on what an agent's .tar.gz or .zip may unpack to (registry/archive.ts): the bytes all
// entries add up to, the number of entries, and (gzip) the unpacked/packed ratio; a zip that lies
// about its sizes. Real archives built here (tar-stream + zlib, yazl, a byte patch), unpacked into
// temp folders; each refusal leaves nothing behind, and an archive just inside the same bounds
// unpacks (so each refusal is the bound's doing, not the archive's).
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { archiveKind, extractArchive, UnsafeArchiveError, type ExtractLimits } from '../../../src/agents/registry/archive';
import { tarGz, zip, type ArchiveEntry } from '../../support/registryFixture';

const MB = 1024 ** 2;
const SMALL: ExtractLimits = { maxBytes: MB, maxEntries: 10 };

describe('registry: archive bombs (.tar.gz and .zip)', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const place = (name: string, buf: Buffer) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bomb-'));
    dirs.push(dir);
    const file = path.join(dir, name);
    fs.writeFileSync(file, buf);
    return { dir, file, dest: path.join(dir, 'out') };
  };
  const extract = async (name: string, buf: Buffer, limits?: ExtractLimits) => {
    const { file, dest } = place(name, buf);
    await extractArchive(file, archiveKind(name), dest, 'agent', limits);
    return dest;
  };
  /** Refused with an error whose message matches `why`; nothing left in the destination or beside the archive. */
  const refused = async (name: string, buf: Buffer, why: RegExp, limits?: ExtractLimits, unsafe = true) => {
    const { dir, file, dest } = place(name, buf);
    let caught: unknown;
    await assert.rejects(extractArchive(file, archiveKind(name), dest, 'agent', limits), (e: unknown) => ((caught = e), true));
    assert.ok(caught instanceof Error && why.test(caught.message), `${name}: refused for the wrong reason: ${String(caught)}`);
    if (unsafe) assert.ok(caught instanceof UnsafeArchiveError, `${name}: an UnsafeArchiveError, not ${String(caught)}`);
    assert.equal(fs.existsSync(dest), false, `${name}: nothing is left of a refused archive`);
    assert.deepEqual(fs.readdirSync(dir), [name], `${name}: nothing was written beside it`);
    return caught as Error;
  };
  /**
   * `size` bytes of random hex: it packs to about half, so a .tar.gz of more than 1 MB of it is
   * under 1 MB packed (only the unpacked size can refuse it) and far from the ratio bound.
   */
  const hex = (size: number) => Buffer.from(randomBytes(Math.ceil(size / 2)).toString('hex').slice(0, size));
  const files = (n: number, size: number): ArchiveEntry[] => Array.from({ length: n }, (_, i) => ({ name: `f${i}.bin`, content: hex(size) }));

  for (const [kind, build] of [
    ['tar.gz', tarGz],
    ['zip', zip],
  ] as const) {
    const name = `a.${kind}`;

    it(`${kind}: an archive inside the bounds unpacks whole, byte for byte`, async () => {
      // 10 entries (the limit) holding 900 KB (under 1 MB).
      const entries = files(10, 90 * 1024);
      const out = await extract(name, await build(entries), SMALL);
      assert.deepEqual(fs.readdirSync(out).sort(), entries.map((e) => e.name).sort());
      for (const e of entries) assert.ok(fs.readFileSync(path.join(out, e.name)).equals(e.content as Buffer), e.name);
    });

    it(`${kind}: refused when it unpacks to more than the size limit, one entry or several together`, async () => {
      const one = await refused(name, await build([{ name: 'big.bin', content: hex(MB + 1024) }]), /more than 1 MB/, SMALL);
      assert.equal(one.message, 'it unpacks to more than 1 MB');
      // Each under the limit; together over it.
      const several = await build(files(3, 400 * 1024));
      assert.ok(several.length < MB, `packed, it is under the limit (${several.length} bytes)`);
      await refused(name, several, /more than 1 MB/, SMALL);
    });

    it(`${kind}: refused when it has more entries than the limit`, async () => {
      const err = await refused(name, await build(files(11, 10)), /more than 10 entries/, SMALL);
      assert.equal(err.message, 'it has more than 10 entries');
    });
  }

  it('tar.gz: a gzip bomb (over 1000 times its size) is refused under the default limits, nothing left', async () => {
    // 40 MB of zeros in one entry packs to about 40 KB: a ratio of about 1030, deflate's ceiling, past
    // the bound of 1000 (node-tar's own guard, which the extension keeps at its default).
    const bomb = await tarGz([{ name: 'zeros', content: Buffer.alloc(40 * MB) }]);
    assert.ok(bomb.length < 64 * 1024, `the bomb is ${bomb.length} bytes`);
    await refused('a.tar.gz', bomb, /decompression ratio exceeded: [\d.]+ > 1000|over 1000 times its size/);
    // The same bytes at a ratio under 1000 (half of them random) unpack.
    const mixed = Buffer.concat([randomBytes(64 * 1024), Buffer.alloc(20 * MB)]);
    const out = await extract('a.tar.gz', await tarGz([{ name: 'mixed', content: mixed }]));
    assert.ok(fs.readFileSync(path.join(out, 'mixed')).equals(mixed));
  });

  it('zip: an entry that unpacks to more than its declared size is refused, nothing left', async () => {
    // A deflated entry of 2 MB of zeros whose headers (local and central) claim 1000 bytes: the size
    // limit only ever sees the claim; yauzl's size check must stop the stream.
    const honest = await zip([{ name: 'zeros', content: Buffer.alloc(2 * MB) }]);
    const lying = Buffer.from(honest);
    let patched = 0;
    for (let i = 0; i + 4 <= lying.length; i++) {
      const sig = lying.readUInt32LE(i);
      // The uncompressed size: at 22 in a local file header, at 24 in a central directory one.
      const at = sig === 0x04034b50 ? i + 22 : sig === 0x02014b50 ? i + 24 : -1;
      if (at >= 0 && lying.readUInt32LE(at) === 2 * MB) {
        lying.writeUInt32LE(1000, at);
        patched++;
      }
    }
    assert.equal(patched, 2, 'both headers patched');
    // The honest one unpacks (under the default limits: no ratio bound on zip, sizes are declared).
    const out = await extract('a.zip', honest);
    assert.equal(fs.statSync(path.join(out, 'zeros')).size, 2 * MB);
    await refused('a.zip', lying, /too many bytes in the stream|cannot be read/, undefined, false);
  });
});
