/**
 * GET over https (plain http only to a loopback address: tests and local
 * mirrors), with a limit on redirects and bytes, an idle time-out and
 * cancellation. Used for the registry index, icons and agent archives. No
 * `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import type { CancelToken } from '../sessionRouter';

export interface GetOptions {
  /** Give up when no byte arrives for this long. */
  readonly idleTimeoutMs: number;
  /** Refuse bodies larger than this. */
  readonly maxBytes: number;
  readonly maxRedirects?: number;
  /** Give up when the whole transfer takes longer than this. */
  readonly deadlineMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly token?: CancelToken;
  readonly onProgress?: (received: number, total: number | undefined) => void;
}

export class HttpError extends Error {
  constructor(
    message: string,
    /** Why: 'offline' (could not connect, timed out), 'status', 'refused' (policy, size), 'cancelled'. */
    readonly reason: 'offline' | 'status' | 'refused' | 'cancelled',
  ) {
    super(message);
  }
}

/**
 * The caller's cancellation and the deadline as one token: `error` says which
 * (a deadline reads as offline, a cancel as cancelled).
 */
class Stop implements CancelToken {
  private readonly listeners = new Set<() => void>();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly sub: { dispose(): void } | undefined;
  error: HttpError | undefined;

  /** `tooLong(seconds)`: the words when the deadline passes. */
  constructor(opts: GetOptions, tooLong: (seconds: number) => string) {
    this.sub = opts.token?.onCancellationRequested(() => this.fire(new HttpError(l10n.t('Cancelled.'), 'cancelled')));
    if (opts.token?.isCancellationRequested) this.error = new HttpError(l10n.t('Cancelled.'), 'cancelled');
    if (opts.deadlineMs) this.timer = setTimeout(() => this.fire(new HttpError(tooLong(Math.round(opts.deadlineMs! / 1000)), 'offline')), opts.deadlineMs);
  }
  get isCancellationRequested(): boolean {
    return this.error !== undefined;
  }
  onCancellationRequested(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  private fire(err: HttpError): void {
    if (this.error) return;
    this.error = err;
    for (const l of [...this.listeners]) l();
  }
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.sub?.dispose();
    this.listeners.clear();
  }
}

function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

/**
 * Throws unless `url` is https, or http to a loopback address — and the
 * latter only when `from` (where a redirect came from) is itself loopback http.
 */
export function checkUrl(url: string, from?: URL): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new HttpError(l10n.t('"{0}" is not a URL.', url), 'refused');
  }
  if (u.protocol === 'https:') return u;
  if (u.protocol === 'http:' && isLoopback(u.hostname) && (!from || (from.protocol === 'http:' && isLoopback(from.hostname)))) return u;
  throw new HttpError(l10n.t('{0} is refused: agents and the registry are fetched over https only (plain http only from this machine).', `${u.protocol}//${u.host}`), 'refused');
}

interface Opened {
  /** Set by drain: a failed write (disk full) ends the transfer. */
  writeFailed?: (err: Error) => void;
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly response: http.IncomingMessage;
  readonly url: string;
}

function open(url: string, opts: GetOptions, stop: Stop, redirects = 0, from?: URL): Promise<Opened> {
  let u: URL;
  try {
    u = checkUrl(url, from);
  } catch (err) {
    // Also for a redirect: thrown inside the response callback it would escape every handler.
    return Promise.reject(err);
  }
  return new Promise((resolve, reject) => {
    if (stop.error) return reject(stop.error);
    const lib = u.protocol === 'https:' ? https : http;
    const req = lib.get(u, { headers: { 'user-agent': 'acp-agents-vscode', ...opts.headers } }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && status !== 304 && location) {
        res.resume();
        cancelSub?.dispose();
        if (redirects >= (opts.maxRedirects ?? 5)) return reject(new HttpError(l10n.t('Too many redirects fetching {0}.', `${u.origin}${u.pathname}`), 'refused'));
        let next: string;
        try {
          next = new URL(location, u).toString();
        } catch {
          return reject(new HttpError(l10n.t('A bad redirect from {0}.', `${u.origin}${u.pathname}`), 'refused'));
        }
        return open(next, opts, stop, redirects + 1, u).then(resolve, reject);
      }
      cancelSub?.dispose();
      resolve({ status, headers: res.headers, response: res, url: u.toString() });
    });
    req.setTimeout(opts.idleTimeoutMs, () => req.destroy(new HttpError(l10n.t('No answer from {0} in {1} s.', u.host, Math.round(opts.idleTimeoutMs / 1000)), 'offline')));
    req.on('error', (err) => reject(err instanceof HttpError ? err : new HttpError(l10n.t('Could not reach {0}: {1}', u.host, err.message), 'offline')));
    const cancelSub = stop.onCancellationRequested(() => req.destroy(stop.error));
  });
}

/** Streams the body to `sink`, enforcing the size limit, the idle time-out and cancellation. */
function drain(o: Opened, opts: GetOptions, stop: Stop, sink: (chunk: Buffer) => boolean | void): Promise<number> {
  const res = o.response;
  const declared = Number(res.headers['content-length']);
  const total = Number.isFinite(declared) && declared >= 0 ? declared : undefined;
  return new Promise((resolve, reject) => {
    if (total !== undefined && total > opts.maxBytes) {
      res.destroy();
      return reject(new HttpError(l10n.t('{0} is {1} bytes, over the limit of {2}.', o.url, total, opts.maxBytes), 'refused'));
    }
    let received = 0;
    const fail = (err: HttpError) => {
      sub?.dispose();
      res.destroy();
      reject(err);
    };
    const sub = stop.onCancellationRequested(() => fail(stop.error ?? new HttpError(l10n.t('Cancelled.'), 'cancelled')));
    if (stop.error) return fail(stop.error);
    res.setTimeout(opts.idleTimeoutMs, () => fail(new HttpError(l10n.t('The download from {0} stalled for {1} s.', new URL(o.url).host, Math.round(opts.idleTimeoutMs / 1000)), 'offline')));
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > opts.maxBytes) return fail(new HttpError(l10n.t('{0} is over the limit of {1} bytes.', o.url, opts.maxBytes), 'refused'));
      // A slow sink (the disk) pauses the download instead of buffering it.
      if (sink(chunk) === false) res.pause();
      opts.onProgress?.(received, total);
    });
    res.on('error', (err) => fail(new HttpError(l10n.t('The download failed: {0}', err.message), 'offline')));
    o.writeFailed = (err) => fail(new HttpError(l10n.t('The download could not be written: {0}', err.message), 'refused'));
    res.on('end', () => {
      sub?.dispose();
      if (total !== undefined && received < total) return reject(new HttpError(l10n.t('The download from {0} ended early ({1} of {2} bytes).', new URL(o.url).host, received, total), 'offline'));
      resolve(received);
    });
  });
}

export interface TextResult {
  /** 304: the cached copy is current. */
  readonly status: number;
  readonly text?: string;
  readonly etag?: string;
  readonly lastModified?: string;
}

/** A small text document (the registry index), conditional on a cached ETag / Last-Modified. */
export async function getText(url: string, opts: GetOptions & { readonly etag?: string; readonly lastModified?: string }): Promise<TextResult> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.etag) headers['if-none-match'] = opts.etag;
  if (opts.lastModified) headers['if-modified-since'] = opts.lastModified;
  const host = new URL(url).host;
  const stop = new Stop(opts, (s) => l10n.t('Fetching {0} took longer than {1} s.', host, s));
  try {
    return await getTextWith(url, { ...opts, headers }, stop);
  } finally {
    stop.dispose();
  }
}

async function getTextWith(url: string, opts: GetOptions, stop: Stop): Promise<TextResult> {
  const o = await open(url, opts, stop);
  const etag = typeof o.headers.etag === 'string' ? o.headers.etag : undefined;
  const lastModified = typeof o.headers['last-modified'] === 'string' ? o.headers['last-modified'] : undefined;
  if (o.status === 304) {
    o.response.resume();
    return { status: 304, etag, lastModified };
  }
  if (o.status !== 200) {
    o.response.resume();
    throw new HttpError(l10n.t('{0} answered HTTP {1}.', o.url, o.status), 'status');
  }
  const chunks: Buffer[] = [];
  await drain(o, opts, stop, (c) => void chunks.push(c));
  return { status: 200, text: Buffer.concat(chunks).toString('utf8'), etag, lastModified };
}

/** Downloads to `file`, hashing as it goes; returns the lower-case hex SHA-256 and the size. */
export async function download(url: string, file: string, opts: GetOptions): Promise<{ sha256: string; bytes: number }> {
  const stop = new Stop(opts, (s) => l10n.t('The download took longer than {0} s.', s));
  try {
    return await downloadWith(url, file, opts, stop);
  } finally {
    stop.dispose();
  }
}

async function downloadWith(url: string, file: string, opts: GetOptions, stop: Stop): Promise<{ sha256: string; bytes: number }> {
  const o = await open(url, opts, stop);
  if (o.status !== 200) {
    o.response.resume();
    throw new HttpError(l10n.t('{0} answered HTTP {1}.', o.url, o.status), 'status');
  }
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file, { mode: 0o600 });
  let writeError: Error | undefined;
  out.on('error', (err) => {
    writeError = err;
    o.writeFailed?.(err);
  });
  out.on('drain', () => o.response.resume());
  try {
    const bytes = await drain(o, opts, stop, (c) => {
      hash.update(c);
      return out.write(c);
    });
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (writeError) throw writeError;
    return { sha256: hash.digest('hex'), bytes };
  } catch (err) {
    out.destroy();
    throw err;
  }
}
