/**
 * The local transcript archive: every update of every session appended to a
 * per-session JSON-lines file, so history can be shown when the agent cannot
 * load it or has died. Appends are batched and asynchronous (rendering never
 * waits); a file stops growing at a size limit, with a marker line. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { diskIo, type StoreIo } from '../../node/storeIo';
import { SIDECAR_KINDS, type SidecarHome, type SidecarKind } from './sessionSidecar';

export interface ArchivedLine {
  /** Time (ms since epoch). */
  readonly t: number;
  /** A session/update's `update` object, or a local event. */
  readonly u: unknown;
}

/** appendLater's bound: a session's archive holds at most this many updates in memory before they are written. */
export const LATER_MAX = 20_000;
const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

export class TranscriptArchive implements SidecarHome {
  /** Updates waiting to be written: kept as objects, serialized off the hot path. */
  private readonly pending = new Map<string, ArchivedLine[]>();
  private readonly sizes = new Map<string, number>();
  private readonly full = new Set<string>();
  private readonly files = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** The disk (replaceable: the tests give it a full one). */
  io: StoreIo = diskIo;
  /** Writes are failing (said once, until one succeeds again). */
  private failing = false;

  /** `onWriteError`: the first failed write of a streak (a full disk…); what failed stays pending and is written again. */
  constructor(
    private readonly dir: string,
    private readonly maxBytes: () => number,
    private readonly onWriteError: (err: unknown) => void = () => {},
  ) {}

  fileOf(agentId: string, sessionId: string): string {
    const key = `${agentId}\u0000${sessionId}`;
    let f = this.files.get(key);
    if (!f) {
      f = path.join(this.dir, safe(agentId), `${safe(sessionId)}.jsonl`);
      this.files.set(key, f);
    }
    return f;
  }

  /** Where a session keeps one kind of what it keeps beside its archive (see sessionSidecar.ts). */
  sidecarFile(agentId: string, sessionId: string, kind: SidecarKind): string {
    return this.fileOf(agentId, sessionId).replace(/\.jsonl$/, `.${kind}.json`);
  }

  /** Cheap: remembers the update; the write happens later, in the background. */
  append(agentId: string, sessionId: string, update: unknown, now = Date.now()): void {
    if (this.remember(agentId, sessionId, update, now) > 0) this.timer ??= setTimeout(() => void this.flush(), 250);
  }

  /**
   * Remembers the update and arms no timer: it is written by the next flush (an explicit one,
   * another append's, a read of the archive). For a load's replay, which comes as fast as the
   * agent writes: serializing it meanwhile would slow the reading of the agent's pipe; the
   * load's end flushes it (`lastTurnOpen`, `lines`), and so does closing the session.
   */
  appendLater(agentId: string, sessionId: string, update: unknown): void {
    // Bounded all the same: a replay that never ends (an agent replaying forever) is written every
    // LATER_MAX updates, as append's would be, rather than held in memory until its end.
    if (this.remember(agentId, sessionId, update, Date.now()) >= LATER_MAX) this.timer ??= setTimeout(() => void this.flush(), 250);
  }

  /** The number of updates now pending for that session's archive, 0 when it takes no more (full). */
  private remember(agentId: string, sessionId: string, update: unknown, now: number): number {
    const file = this.fileOf(agentId, sessionId);
    if (this.full.has(file)) return 0;
    let list = this.pending.get(file);
    if (!list) this.pending.set(file, (list = []));
    list.push({ t: now, u: update });
    return list.length;
  }

  /** Writes what is pending (serializing in slices, so the extension host stays responsive). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batches = [...this.pending.entries()];
    this.pending.clear();
    if (batches.length === 0) return this.writing;
    this.writing = this.writing.then(async () => {
      // Read once per write (a configuration read per line costs more than the line).
      const max = this.maxBytes();
      for (const [file, raw] of batches) {
        try {
          await this.write(file, raw, max);
          this.failing = false;
        } catch (err) {
          // Nothing is dropped: the lines go back in front of what came since, and are tried again.
          this.pending.set(file, [...raw, ...(this.pending.get(file) ?? [])]);
          this.timer ??= setTimeout(() => void this.flush(), RETRY_MS).unref();
          if (!this.failing) this.onWriteError(err);
          this.failing = true;
        }
      }
    }).catch(() => undefined);
    return this.writing;
  }

  private async write(file: string, raw: readonly ArchivedLine[], max: number): Promise<void> {
    const entries = coalesceChunks(raw);
    let size = this.sizes.get(file);
    // A file left cut mid-line (a crash, a full disk): the next line starts on a line of its own.
    let lead = '';
    if (size === undefined) {
      size = 0;
      try {
        size = (await fs.promises.stat(file)).size;
        if (size > 0 && (await lastByte(file)) !== 0x0a) lead = '\n';
      } catch {
        // no archive yet
      }
    }
    const out: string[] = [lead];
    let full = false;
    for (let i = 0; i < entries.length; i++) {
      if (i > 0 && i % 2000 === 0) await new Promise((r) => setImmediate(r));
      const line = `${JSON.stringify(entries[i])}\n`;
      const bytes = Buffer.byteLength(line);
      if (size + bytes > max) {
        full = true;
        out.push(`${JSON.stringify({ t: entries[i]!.t, u: { sessionUpdate: '_archive_full', limit: max } })}\n`);
        break;
      }
      out.push(line);
      size += bytes;
    }
    await this.io.appendFile(file, out.join(''));
    this.sizes.set(file, size + lead.length);
    if (full) this.full.add(file);
  }

  /**
   * Whether the session's last turn in the archive began and never ended (the
   * window or the agent went first). Reads only the end of the file.
   */
  async lastTurnOpen(agentId: string, sessionId: string): Promise<boolean> {
    await this.flush();
    let text: string;
    try {
      const fh = await fs.promises.open(this.fileOf(agentId, sessionId), 'r');
      try {
        const { size } = await fh.stat();
        const len = Math.min(size, TAIL_BYTES);
        const buf = Buffer.alloc(len);
        await fh.read(buf, 0, len, size - len);
        text = buf.toString('utf8');
      } finally {
        await fh.close();
      }
    } catch {
      return false;
    }
    const lines = text.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const kind = /"sessionUpdate":"(_turn_begin|_turn_end|_turn_interrupted)"/.exec(lines[i]!)?.[1];
      if (kind) return kind === '_turn_begin';
    }
    return false;
  }

  /** The whole archive of a session, in order. */
  async read(agentId: string, sessionId: string): Promise<ArchivedLine[]> {
    const out: ArchivedLine[] = [];
    for await (const batch of this.lines(agentId, sessionId)) out.push(...batch);
    return out;
  }

  /**
   * The archive read incrementally: a stream of the file, parsed a batch of
   * lines at a time (the event loop runs between batches; the file is never
   * held whole as one string).
   */
  async *lines(agentId: string, sessionId: string, batchSize = 2000, onUnreadable?: (count: number) => void): AsyncGenerator<ArchivedLine[]> {
    await this.flush();
    let stream: fs.ReadStream;
    try {
      const file = this.fileOf(agentId, sessionId);
      await fs.promises.access(file);
      stream = fs.createReadStream(file, { encoding: 'utf8' });
    } catch {
      return;
    }
    const reader = readline.createInterface({ input: stream, crlfDelay: Infinity });
    let batch: ArchivedLine[] = [];
    let unreadable = 0;
    try {
      for await (const line of reader) {
        if (!line) continue;
        try {
          const parsed = JSON.parse(line) as unknown;
          if (!parsed || typeof parsed !== 'object' || !('u' in parsed)) throw new Error('not an archived update');
          batch.push(parsed as ArchivedLine);
        } catch {
          // A torn line (the window closed, or the disk filled, mid-write) or a damaged one: skipped, counted, the rest kept.
          onUnreadable?.(++unreadable);
        }
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
    } finally {
      reader.close();
      stream.destroy();
    }
    if (batch.length) yield batch;
  }

  has(agentId: string, sessionId: string): boolean {
    return this.pending.has(this.fileOf(agentId, sessionId)) || fs.existsSync(this.fileOf(agentId, sessionId));
  }

  /** Forgets a session: its archive and everything it keeps beside it. */
  async delete(agentId: string, sessionId: string): Promise<void> {
    const file = this.fileOf(agentId, sessionId);
    this.pending.delete(file);
    this.sizes.delete(file);
    this.full.delete(file);
    await this.flush();
    await fs.promises.rm(file, { force: true });
    for (const kind of SIDECAR_KINDS) await fs.promises.rm(this.sidecarFile(agentId, sessionId, kind), { force: true });
  }
}

/** How long a failed write waits before it is tried again. */
const RETRY_MS = 5000;
/** How much of an archive's end is read to find its last turn's mark. */
const TAIL_BYTES = 256 * 1024;

async function lastByte(file: string): Promise<number | undefined> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const { size } = await fh.stat();
    if (size === 0) return undefined;
    const b = Buffer.alloc(1);
    await fh.read(b, 0, 1, size - 1);
    return b[0];
  } finally {
    await fh.close();
  }
}

const CHUNKS = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);

/**
 * Consecutive text chunks of one message become one archived update (a
 * 20,000-chunk answer is one line): the replayed text is the same.
 */
export function coalesceChunks(entries: readonly ArchivedLine[]): ArchivedLine[] {
  const out: ArchivedLine[] = [];
  let open: { t: number; u: { sessionUpdate: string; messageId?: unknown; content: { type: 'text'; text: string } } } | undefined;
  let parts: string[] = [];
  const close = () => {
    if (open) {
      open.u.content.text = parts.join('');
      out.push(open);
    }
    open = undefined;
    parts = [];
  };
  for (const e of entries) {
    const u = e.u as { sessionUpdate?: string; messageId?: unknown; content?: { type?: string; text?: unknown } } | null;
    const isText = !!u && CHUNKS.has(String(u.sessionUpdate)) && u.content?.type === 'text' && typeof u.content.text === 'string';
    if (isText && open && open.u.sessionUpdate === u!.sessionUpdate && open.u.messageId === u!.messageId) {
      parts.push(u!.content!.text as string);
      continue;
    }
    close();
    if (isText) {
      open = { t: e.t, u: { ...(u as object), sessionUpdate: u!.sessionUpdate!, content: { type: 'text', text: '' } } };
      parts = [u!.content!.text as string];
    } else out.push(e);
  }
  close();
  return out;
}
