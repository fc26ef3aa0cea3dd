/**
 * Unpacks an agent's archive (.zip, .tar.gz/.tgz, .tar.bz2/.tbz2, or a raw
 * executable) into a fresh folder, refusing the whole archive when any entry
 * would land outside it: `..` segments, absolute paths, links that point out
 * (checked on the names, then again on the disk once unpacked), device files.
 * Sizes, entry counts and the unpacked/packed ratio are bounded. node-tar,
 * yauzl and unbzip2-stream (in a child process: bz2Worker.ts) do the formats. No
 * `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fork } from 'node:child_process';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract as tarExtract } from 'tar/extract';
import type { ReadEntry } from 'tar/read-entry';
import * as yauzl from 'yauzl';

/**
 * The extension's translations, for this module's messages: in the .vsix it is a bundle of its own
 * (dist/registryArchive.js, loaded only when an agent is installed), with its own copy of @vscode/l10n.
 */
export function useTranslations(contents: Record<string, string> | undefined): void {
  if (contents) l10n.config({ contents });
}

export type ArchiveKind = 'zip' | 'tar.gz' | 'tar.bz2' | 'raw' | 'unsupported';

export interface ExtractLimits {
  /** Bytes all entries may add up to once unpacked. */
  readonly maxBytes: number;
  readonly maxEntries: number;
}

const DEFAULT_LIMITS: ExtractLimits = { maxBytes: 2 * 1024 ** 3, maxEntries: 100_000 };

/** The archive is refused: what it holds would not stay inside its folder, or it is too big. */
export class UnsafeArchiveError extends Error {}

/** The format, from the URL's path (query and fragment ignored). */
export function archiveKind(url: string): ArchiveKind {
  let p = url;
  try {
    p = new URL(url).pathname;
  } catch {
    // not a URL: use it as it is
  }
  p = p.toLowerCase();
  if (p.endsWith('.zip')) return 'zip';
  if (p.endsWith('.tar.gz') || p.endsWith('.tgz')) return 'tar.gz';
  if (p.endsWith('.tar.bz2') || p.endsWith('.tbz2')) return 'tar.bz2';
  // Installers and formats the registry does not allow are never taken for an executable.
  if (/\.(dmg|pkg|deb|rpm|msi|appimage|7z|rar|xz|txz|zst|gz|bz2|tar|lz|lzma)$/.test(p)) return 'unsupported';
  return 'raw';
}

const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** Where an entry named `name` goes under `root`; throws when it would go anywhere else. */
export function entryPath(root: string, name: string): string {
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[A-Za-z]:/.test(n)) throw new UnsafeArchiveError(l10n.t('the entry "{0}" has an absolute path', name));
  const parts = n.split('/').filter((s) => s !== '' && s !== '.');
  if (parts.includes('..')) throw new UnsafeArchiveError(l10n.t("the entry \"{0}\" points outside the agent's folder", name));
  return path.join(root, ...parts);
}

/** Throws when a link at `at` with target `target` would lead outside `root` (judged on the names). */
function checkLink(root: string, at: string, target: string, name: string): void {
  const t = target.replace(/\\/g, '/');
  if (t.startsWith('/') || /^[A-Za-z]:/.test(t)) throw new UnsafeArchiveError(l10n.t('the link "{0}" points to the absolute path "{1}"', name, target));
  if (!inside(root, path.resolve(path.dirname(at), t))) throw new UnsafeArchiveError(l10n.t("the link \"{0}\" points outside the agent's folder (\"{1}\")", name, target));
}

/**
 * On the disk, every link must resolve inside `root`: a chain of links that
 * each look fine can still lead out. The native realpath resolves as the kernel
 * does (Node's own one folds `link/..` by name first).
 */
function checkLinksOnDisk(root: string): void {
  const realRoot = fs.realpathSync.native(root);
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isSymbolicLink()) {
        let real: string;
        try {
          real = fs.realpathSync.native(p);
        } catch {
          throw new UnsafeArchiveError(l10n.t('the link "{0}" leads nowhere', path.relative(root, p)));
        }
        if (!inside(realRoot, real)) throw new UnsafeArchiveError(l10n.t("the link \"{0}\" leads outside the agent's folder", path.relative(root, p)));
      } else if (d.isDirectory()) {
        walk(p);
      }
    }
  };
  walk(root);
}

/**
 * Unpacks `file` into `dest` (which must not exist yet). On any refusal or error
 * `dest` is removed again before the error is thrown.
 */
export async function extractArchive(file: string, kind: ArchiveKind, dest: string, rawName: string, limits: ExtractLimits = DEFAULT_LIMITS): Promise<void> {
  fs.mkdirSync(dest, { recursive: false });
  const root = fs.realpathSync(dest);
  try {
    if (kind === 'unsupported') {
      throw new UnsafeArchiveError(l10n.t('it is an installer or an archive format agents are not shipped in (zip, tar.gz, tar.bz2 or a plain executable)'));
    } else if (kind === 'raw') {
      const target = entryPath(root, rawName);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
    } else if (kind === 'zip') {
      await extractZip(file, root, limits);
    } else {
      await extractTar(file, kind, root, limits);
    }
    checkLinksOnDisk(root);
  } catch (err) {
    fs.rmSync(dest, { recursive: true, force: true });
    throw err;
  }
}

const tooManyEntries = (limits: ExtractLimits) => l10n.t('it has more than {0} entries', limits.maxEntries);
const tooBig = (limits: ExtractLimits) => l10n.t('it unpacks to more than {0} MB', Math.round(limits.maxBytes / 1024 ** 2));
const aBomb = () => l10n.t('it unpacks to over {0} times its size (an archive bomb)', MAX_RATIO);

const PLAIN_TYPES = new Set<string>(['File', 'OldFile', 'ContiguousFile', 'Directory', 'GNUDumpDir']);
/** Like node-tar's own guard for gzip: more than this many bytes out per byte in is a bomb. */
const MAX_RATIO = 1000;

async function extractTar(file: string, kind: 'tar.gz' | 'tar.bz2', root: string, limits: ExtractLimits): Promise<void> {
  let refusal: UnsafeArchiveError | undefined;
  let entries = 0;
  let bytes = 0;
  const source = kind === 'tar.bz2' ? bunzipInChild(file) : fs.createReadStream(file);
  const refuse = (err: unknown) => {
    refusal ??= err instanceof UnsafeArchiveError ? err : new UnsafeArchiveError(String(err));
    source.destroy(refusal); // stop reading: nothing more of a refused archive is unpacked
    return false;
  };
  const unpack = tarExtract({
    cwd: root,
    preservePaths: false,
    preserveOwner: false,
    strict: false,
    filter: (name: string, entry) => {
      if (refusal) return false;
      const e = entry as ReadEntry;
      try {
        if (++entries > limits.maxEntries) throw new UnsafeArchiveError(tooManyEntries(limits));
        bytes += e.size ?? 0;
        if (bytes > limits.maxBytes) throw new UnsafeArchiveError(tooBig(limits));
        const at = entryPath(root, name);
        if (PLAIN_TYPES.has(e.type)) return true;
        if (e.type === 'SymbolicLink') {
          checkLink(root, at, e.linkpath ?? '', name);
          return true;
        }
        if (e.type === 'Link') {
          // A hard link's target is named from the archive's root.
          entryPath(root, e.linkpath ?? '');
          return true;
        }
        // pax/GNU headers never reach the filter; anything else (devices, FIFOs) has no place here.
        throw new UnsafeArchiveError(l10n.t('the entry "{0}" is a {1}', name, e.type));
      } catch (err) {
        return refuse(err);
      }
    },
    onwarn: (code: string, message: string) => {
      // node-tar's own refusals (a path through a link, a stripped absolute path) refuse the archive too.
      if (code === 'TAR_ENTRY_ERROR' || code === 'TAR_ENTRY_UNSUPPORTED') refuse(new UnsafeArchiveError(message));
    },
  });
  // What came in, for the ratio: the file's bytes (bz2: all of it, the child reads it) or those read so far.
  let consumed = kind === 'tar.bz2' ? fs.statSync(file).size : 0;
  let produced = 0;
  if (kind !== 'tar.bz2') source.on('data', (c: Buffer) => (consumed += c.length));
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      produced += chunk.length;
      if (produced > limits.maxBytes) return done(new UnsafeArchiveError(tooBig(limits)));
      if (produced > consumed * MAX_RATIO + 1024 ** 2) return done(new UnsafeArchiveError(aBomb()));
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, unpack);
  } catch (err) {
    throw refusal ?? (err instanceof UnsafeArchiveError ? err : new UnsafeArchiveError(l10n.t('the archive cannot be read: {0}', (err as Error).message)));
  }
  if (refusal) throw refusal;
}

/**
 * The decompressed bytes of a .bz2 file, from a child process (bz2Worker.ts):
 * a bomb costs that process, never the extension host. Destroying the stream
 * (the meter refusing) kills it; a child that fails makes the stream fail.
 */
function bunzipInChild(file: string): Readable {
  const child = fork(path.join(__dirname, 'bz2Worker.js'), [file], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: ['--max-old-space-size=1024'] });
  // The decoder is plain JavaScript: slow, but a real agent's archive is done in well under this.
  const deadline = setTimeout(() => out.destroy(new UnsafeArchiveError(l10n.t('its bzip2 data took over 10 minutes to unpack'))), 10 * 60_000);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-500)));
  const out = new PassThrough({
    destroy(err, done) {
      clearTimeout(deadline);
      child.kill('SIGKILL');
      done(err);
    },
  });
  child.stdout?.pipe(out, { end: false });
  child.on('error', (err) => out.destroy(new UnsafeArchiveError(l10n.t('the bzip2 data cannot be read: {0}', err.message))));
  child.on('close', (code, signal) => {
    clearTimeout(deadline);
    if (out.destroyed) return;
    if (code === 0) out.end();
    else if (code === 2) out.destroy(new UnsafeArchiveError(l10n.t('the bzip2 data cannot be read: {0}', stderr.trim())));
    // 3: the child's own meter refused (its words are English; the same refusal, translated, here).
    else if (code === 3) out.destroy(new UnsafeArchiveError(aBomb()));
    else if (signal) out.destroy(new UnsafeArchiveError(l10n.t('its bzip2 decoder ran out of memory or crashed ({0}): an archive bomb, or a broken archive', signal)));
    else out.destroy(new UnsafeArchiveError(l10n.t('its bzip2 decoder ran out of memory or crashed (exit code {0}): an archive bomb, or a broken archive', String(code))));
  });
  return out;
}

function extractZip(file: string, root: string, limits: ExtractLimits): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (openErr, zip) => {
      if (openErr) return reject(new UnsafeArchiveError(l10n.t('the archive cannot be read: {0}', openErr.message)));
      let entries = 0;
      let bytes = 0;
      let failed = false;
      const links: { at: string; target: string; name: string }[] = [];
      const fail = (err: unknown) => {
        if (failed) return;
        failed = true;
        zip.close();
        reject(err instanceof Error ? err : new Error(String(err)));
      };
      zip.on('error', (err: Error) => fail(new UnsafeArchiveError(l10n.t('the archive cannot be read: {0}', err.message))));
      zip.on('end', () => {
        if (failed) return;
        // Links last, so no file is ever written through one.
        try {
          for (const l of links) {
            fs.mkdirSync(path.dirname(l.at), { recursive: true });
            fs.symlinkSync(l.target, l.at);
          }
          resolve();
        } catch (err) {
          fail(err);
        }
      });
      zip.on('entry', (entry: yauzl.Entry) => {
        if (failed) return;
        try {
          if (++entries > limits.maxEntries) throw new UnsafeArchiveError(tooManyEntries(limits));
          bytes += entry.uncompressedSize;
          if (bytes > limits.maxBytes) throw new UnsafeArchiveError(tooBig(limits));
          const at = entryPath(root, entry.fileName);
          const mode = (entry.externalFileAttributes >>> 16) & 0o177777;
          const type = mode & 0o170000;
          if (entry.fileName.endsWith('/') || type === 0o040000) {
            fs.mkdirSync(at, { recursive: true });
            zip.readEntry();
            return;
          }
          if (type !== 0 && type !== 0o100000 && type !== 0o120000) throw new UnsafeArchiveError(l10n.t('the entry "{0}" is not a file, folder or link', entry.fileName));
          zip.openReadStream(entry, (err, stream) => {
            if (err) return fail(new UnsafeArchiveError(l10n.t('the entry "{0}" cannot be read: {1}', entry.fileName, err.message)));
            if (type === 0o120000) {
              const chunks: Buffer[] = [];
              let size = 0;
              stream.on('data', (c: Buffer) => {
                size += c.length;
                if (size > 4096) stream.destroy(new UnsafeArchiveError(l10n.t('the link "{0}" is too long', entry.fileName)));
                else chunks.push(c);
              });
              stream.on('error', fail);
              stream.on('end', () => {
                try {
                  const target = Buffer.concat(chunks).toString('utf8');
                  checkLink(root, at, target, entry.fileName);
                  links.push({ at, target, name: entry.fileName });
                  zip.readEntry();
                } catch (e) {
                  fail(e);
                }
              });
              return;
            }
            fs.mkdirSync(path.dirname(at), { recursive: true });
            // 'wx': never through something already there (a link, a second entry of the same name).
            const out = fs.createWriteStream(at, { flags: 'wx', mode: (mode & 0o777) | 0o600 });
            pipeline(stream, out).then(() => zip.readEntry(), fail);
          });
        } catch (err) {
          fail(err);
        }
      });
      zip.readEntry();
    });
  });
}
