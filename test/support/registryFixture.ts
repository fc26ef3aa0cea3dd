/**
 * A local ACP Registry for the tests: an http server on 127.0.0.1 serving a
 * registry.json, archives and icons from memory (with ETag / 304), recording
 * every request; and builders for the archives — honest ones holding the fake
 * agent, and hostile ones (`../` entries, absolute paths, links out).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as tarStream from 'tar-stream';
import * as yazl from 'yazl';

export interface ArchiveEntry {
  readonly name: string;
  readonly content?: string | Buffer;
  /** A symbolic link to this target. */
  readonly link?: string;
  readonly mode?: number;
  readonly dir?: boolean;
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A .tar.gz of `entries`, names as given (tar-stream writes what it is told, `../` included). */
export async function tarGz(entries: readonly ArchiveEntry[]): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    const gz = pack.pipe(zlib.createGzip());
    gz.on('data', (c: Buffer) => chunks.push(c));
    gz.on('end', () => resolve(Buffer.concat(chunks)));
    gz.on('error', reject);
  });
  for (const e of entries) {
    if (e.link !== undefined) pack.entry({ name: e.name, type: 'symlink', linkname: e.link });
    else if (e.dir) pack.entry({ name: e.name, type: 'directory', mode: 0o755 });
    else pack.entry({ name: e.name, mode: e.mode ?? 0o644 }, typeof e.content === 'string' ? Buffer.from(e.content) : (e.content ?? Buffer.alloc(0)));
  }
  pack.finalize();
  return await done;
}

/** A .zip of `entries` (links as Unix symlink entries). */
export async function zip(entries: readonly ArchiveEntry[]): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const e of entries) {
    if (e.link !== undefined) z.addBuffer(Buffer.from(e.link), e.name, { mode: 0o120777 });
    else z.addBuffer(typeof e.content === 'string' ? Buffer.from(e.content) : (e.content ?? Buffer.alloc(0)), e.name, { mode: e.mode ?? 0o100644 });
  }
  z.end();
  const chunks: Buffer[] = [];
  return await new Promise((resolve, reject) => {
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

/**
 * The fake agent as an archive would hold it: `agent` (a shell script that
 * runs fake-agent.mjs with the Node in $ACP_TEST_NODE) and the agent with its
 * default scenario. `fixtures` is test/fixtures.
 */
export function fakeAgentEntries(fixtures: string, scenario?: unknown): ArchiveEntry[] {
  const agentsDir = path.join(fixtures, 'agents');
  const prefix = '';
  return [
    { name: `${prefix}agent`, mode: 0o644, content: '#!/bin/sh\nhere="$(cd "$(dirname "$0")" && pwd)"\nexec "$ACP_TEST_NODE" "$here/fake-agent.mjs" "$@"\n' },
    { name: `${prefix}fake-agent.mjs`, content: fs.readFileSync(path.join(agentsDir, 'fake-agent.mjs')) },
    { name: `${prefix}scenarios/default.json`, content: scenario ? JSON.stringify(scenario) : fs.readFileSync(path.join(agentsDir, 'scenarios', 'default.json')) },
  ];
}

export interface LocalRegistry {
  readonly url: string;
  readonly base: string;
  /** Serves `body` at `/name` (a later call replaces it). */
  put(name: string, body: string | Buffer): void;
  /** Every request: path and its If-None-Match header. */
  readonly requests: { path: string; ifNoneMatch?: string }[];
  close(): Promise<void>;
}

export async function startLocalRegistry(): Promise<LocalRegistry> {
  const files = new Map<string, Buffer>();
  const requests: { path: string; ifNoneMatch?: string }[] = [];
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0] ?? '/';
    const ifNoneMatch = typeof req.headers['if-none-match'] === 'string' ? req.headers['if-none-match'] : undefined;
    requests.push({ path: p, ...(ifNoneMatch ? { ifNoneMatch } : {}) });
    const body = files.get(p);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const etag = `"${sha256(body).slice(0, 16)}"`;
    if (ifNoneMatch === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { etag, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/registry.json`,
    base,
    put: (name, body) => void files.set(`/${name}`, typeof body === 'string' ? Buffer.from(body) : body),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A registry.json entry for a binary agent served by `reg`, for every platform or only `platforms`. */
export function binaryEntry(
  reg: LocalRegistry,
  o: { id: string; name?: string; version: string; archive: string; sha256?: string; cmd?: string; env?: Record<string, string>; args?: string[]; platforms?: string[] },
) {
  const platforms = o.platforms ?? ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'];
  const target = { archive: `${reg.base}/${o.archive}`, cmd: o.cmd ?? './agent', ...(o.args ? { args: o.args } : {}), ...(o.env ? { env: o.env } : {}), ...(o.sha256 ? { sha256: o.sha256 } : {}) };
  return {
    id: o.id,
    name: o.name ?? o.id,
    version: o.version,
    description: `${o.name ?? o.id}, a fake agent from a local registry`,
    authors: ['The ACP Agents tests'],
    license: 'MIT',
    icon: `${reg.base}/${o.id}.svg`,
    distribution: { binary: Object.fromEntries(platforms.map((p) => [p, target])) },
  };
}
