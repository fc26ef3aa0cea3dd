/**
 * The local transcript archive: every update of every session appended to a
 * per-session JSON-lines file, so history can be shown when the agent cannot
 * load it or has died. Appends are batched and asynchronous (rendering never
 * waits); a file stops growing at a size limit, with a marker line. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ArchivedLine {
  /** Time (ms since epoch). */
  readonly t: number;
  /** A session/update's `update` object, or a local event. */
  readonly u: unknown;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

export class TranscriptArchive {
  private readonly pending = new Map<string, string[]>();
  private readonly sizes = new Map<string, number>();
  private readonly full = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly maxBytes: () => number,
  ) {}

  fileOf(agentId: string, sessionId: string): string {
    return path.join(this.dir, safe(agentId), `${safe(sessionId)}.jsonl`);
  }

  append(agentId: string, sessionId: string, update: unknown, now = Date.now()): void {
    const file = this.fileOf(agentId, sessionId);
    if (this.full.has(file)) return;
    let size = this.sizes.get(file);
    if (size === undefined) {
      try {
        size = fs.statSync(file).size;
      } catch {
        size = 0;
      }
    }
    const line = `${JSON.stringify({ t: now, u: update })}\n`;
    const bytes = Buffer.byteLength(line);
    let list = this.pending.get(file);
    if (!list) this.pending.set(file, (list = []));
    if (size + bytes > this.maxBytes()) {
      this.full.add(file);
      list.push(`${JSON.stringify({ t: now, u: { sessionUpdate: '_archive_full', limit: this.maxBytes() } })}\n`);
    } else {
      list.push(line);
      this.sizes.set(file, size + bytes);
    }
    this.timer ??= setTimeout(() => void this.flush(), 250);
  }

  /** Writes what is pending. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batches = [...this.pending.entries()];
    this.pending.clear();
    if (batches.length === 0) return this.writing;
    this.writing = this.writing.then(async () => {
      for (const [file, lines] of batches) {
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.appendFile(file, lines.join(''));
      }
    }).catch(() => undefined);
    return this.writing;
  }

  async read(agentId: string, sessionId: string): Promise<ArchivedLine[]> {
    await this.flush();
    let text: string;
    try {
      text = await fs.promises.readFile(this.fileOf(agentId, sessionId), 'utf8');
    } catch {
      return [];
    }
    const out: ArchivedLine[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as ArchivedLine);
      } catch {
        // a torn line (the window closed mid-write): skip it
      }
    }
    return out;
  }

  has(agentId: string, sessionId: string): boolean {
    return this.pending.has(this.fileOf(agentId, sessionId)) || fs.existsSync(this.fileOf(agentId, sessionId));
  }

  async delete(agentId: string, sessionId: string): Promise<void> {
    const file = this.fileOf(agentId, sessionId);
    this.pending.delete(file);
    this.sizes.delete(file);
    this.full.delete(file);
    await this.flush();
    await fs.promises.rm(file, { force: true });
  }
}
