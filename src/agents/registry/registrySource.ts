/**
 * Where the list of registry agents comes from: the registry (a conditional GET
 * with the cached ETag / Last-Modified), else the last good copy in global
 * storage, else the snapshot shipped inside the extension. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRegistry, type RegistryAgent } from './format';
import { getText } from './http';

export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

export interface RegistryList {
  readonly agents: readonly RegistryAgent[];
  /** Entries skipped, each with why. */
  readonly problems: readonly string[];
  /** 'registry': fetched (or confirmed current) just now. */
  readonly from: 'registry' | 'cache' | 'snapshot';
  /** When the copy was fetched (epoch ms); none for the snapshot. */
  readonly fetchedAt?: number;
  /** Why the registry could not be read, when it could not. */
  readonly error?: string;
}

interface CacheFile {
  url: string;
  etag?: string;
  lastModified?: string;
  fetchedAt: number;
  text: string;
}

export interface RegistrySourceOptions {
  readonly url: () => string;
  /** `<globalStorage>/registry/registry.json` */
  readonly cacheFile: string;
  /** The snapshot inside the extension (media/registry-snapshot.json). */
  readonly snapshotFile: string;
  readonly log: (message: string) => void;
  readonly timeoutMs?: number;
}

const MAX_INDEX_BYTES = 16 * 1024 * 1024;

export class RegistrySource {
  private last: RegistryList | undefined;
  private inFlight: Promise<RegistryList> | undefined;
  private readonly reported = new Set<string>();

  constructor(private readonly o: RegistrySourceOptions) {}

  /** What is known now without the network: the last list, the cache, or the snapshot. */
  current(): RegistryList {
    this.last ??= this.offline();
    return this.last;
  }

  /**
   * Asks the registry (one fetch at a time, shared by every caller, so no
   * caller's cancel ends another's); falls back to the cache, then the snapshot.
   * With `maxAgeMs`, a list fetched from the registry that recently is used as it is.
   */
  refresh(opts: { maxAgeMs?: number } = {}): Promise<RegistryList> {
    const last = this.last;
    if (opts.maxAgeMs !== undefined && last?.from === 'registry' && last.fetchedAt !== undefined && Date.now() - last.fetchedAt < opts.maxAgeMs) return Promise.resolve(last);
    this.inFlight ??= this.fetch().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetch(): Promise<RegistryList> {
    const url = this.o.url();
    const cache = this.readCache(url);
    try {
      const idle = this.o.timeoutMs ?? 15_000;
      const r = await getText(url, { idleTimeoutMs: idle, deadlineMs: 2 * idle, maxBytes: MAX_INDEX_BYTES, etag: cache?.etag, lastModified: cache?.lastModified });
      let text = r.text;
      if (r.status === 304) {
        if (!cache) throw new Error('the registry answered 304 Not Modified to a request without a cached copy');
        text = cache.text;
      }
      const parsed = this.parse(text ?? '', url);
      const fetchedAt = Date.now();
      this.writeCache({ url, etag: r.etag, lastModified: r.lastModified, fetchedAt, text: text ?? '' });
      this.last = { ...parsed, from: 'registry', fetchedAt };
    } catch (err) {
      const error = l10n.t('The ACP Registry ({0}) could not be read: {1}', url, (err as Error).message ?? String(err));
      this.o.log(error);
      this.last = { ...this.offline(), error };
    }
    return this.last;
  }

  private parse(text: string, from: string): { agents: RegistryAgent[]; problems: string[] } {
    const parsed = parseRegistry(text);
    for (const p of parsed.problems) {
      const key = `${from}\u0000${p}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.o.log(`${p} (${from})`);
    }
    return parsed;
  }

  private offline(): RegistryList {
    const url = this.o.url();
    const cache = this.readCache(url);
    if (cache) {
      try {
        return { ...this.parse(cache.text, 'the cached registry'), from: 'cache', fetchedAt: cache.fetchedAt };
      } catch (err) {
        this.o.log(`The cached registry is unreadable: ${(err as Error).message}`);
      }
    }
    try {
      return { ...this.parse(fs.readFileSync(this.o.snapshotFile, 'utf8'), 'the bundled snapshot'), from: 'snapshot' };
    } catch (err) {
      this.o.log(`The bundled registry snapshot is unreadable: ${(err as Error).message}`);
      return { agents: [], problems: [], from: 'snapshot' };
    }
  }

  /** The cached copy, when it is of this URL. */
  private readCache(url: string): CacheFile | undefined {
    try {
      const c = JSON.parse(fs.readFileSync(this.o.cacheFile, 'utf8')) as CacheFile;
      return c.url === url && typeof c.text === 'string' ? c : undefined;
    } catch {
      return undefined;
    }
  }

  private writeCache(c: CacheFile): void {
    try {
      fs.mkdirSync(path.dirname(this.o.cacheFile), { recursive: true });
      const tmp = `${this.o.cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(c));
      fs.renameSync(tmp, this.o.cacheFile);
    } catch (err) {
      this.o.log(`The registry could not be cached: ${(err as Error).message}`);
    }
  }
}
