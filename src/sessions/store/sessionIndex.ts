/**
 * Every session the user opened (and sessions agents list), persisted as one
 * JSON file in the extension's storage, one entry a line. Writes are debounced
 * and asynchronous; each reads the file again, merges it by id (another window
 * of the workspace writes it too) and replaces it atomically, all under the
 * store lock (one window at a time, see storeLock.ts). A damaged or cut
 * line is skipped and said, the rest kept; a failed write (a full disk) is said
 * once and tried again, nothing dropped. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import { removeStaleTemps } from '../../node/atomicWrite';
import { diskIo, type StoreIo } from '../../node/storeIo';
import { withStoreLock } from '../../node/storeLock';
import type { Disposable } from '../../shared/events';
import { parseJsonc } from '../../shared/jsonc';

export interface SessionEntry {
  readonly agentId: string;
  readonly sessionId: string;
  title?: string;
  cwd: string;
  createdAt: number;
  updatedAt: number;
  /** 'local': opened here; 'agent': only known from the agent's session/list. */
  source: 'local' | 'agent';
  /** Set once a title came from session_info_update (a prompt text never replaces it then). */
  titleFromAgent?: boolean;
  /**
   * A tombstone: the user deleted the session. It stays hidden even when the
   * agent lists it again; `agentPending` until the agent was asked to delete it.
   */
  deleted?: { at: number; agentPending: boolean };
  /** A fork made by an Edit or Retry of an earlier message: the session it came from, and the message it was taken before. */
  forkOf?: { readonly sessionId: string; readonly title?: string; readonly message?: number };
}

/** Tombstones kept (the oldest go first). */
const MAX_TOMBSTONES = 2000;

const key = (agentId: string, sessionId: string) => `${agentId}\u0000${sessionId}`;

export interface SessionIndexOptions {
  /** Something the user should know about the file (lines skipped). */
  readonly onProblem?: (message: string) => void;
  /** The first failed write of a streak (a full disk…); the index is written again later. */
  readonly onWriteError?: (err: unknown) => void;
  /** For the log: a write that went ahead without the store lock (another window held it too long), and why. */
  readonly log?: (message: string) => void;
}

/** How long a failed write waits before it is tried again. */
const RETRY_MS = 5000;

export class SessionIndex {
  private readonly entries = new Map<string, SessionEntry>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private listeners: (() => void)[] = [];
  /** The disk (replaceable: the tests give it a full one). */
  io: StoreIo = diskIo;
  private failing = false;

  constructor(
    private readonly file: string,
    private readonly options: SessionIndexOptions = {},
  ) {
    // A window killed mid-write left its temporary file: the index itself is whole (old or new).
    removeStaleTemps(file);
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      // no index yet
    }
    if (text !== undefined) for (const e of this.parse(text)) this.entries.set(key(e.agentId, e.sessionId), e);
  }

  /** The entries a file holds; a line that cannot be read is skipped (and said), the others kept. */
  private parse(text: string): SessionEntry[] {
    const valid = (e: unknown): e is SessionEntry => {
      const x = e as Partial<SessionEntry> | null;
      return !!x && typeof x === 'object' && typeof x.agentId === 'string' && typeof x.sessionId === 'string' && typeof x.cwd === 'string' && typeof x.updatedAt === 'number' && typeof x.createdAt === 'number';
    };
    try {
      const all = JSON.parse(text) as unknown;
      if (Array.isArray(all)) return all.filter(valid);
    } catch {
      // damaged: read what can be read
    }
    const out: SessionEntry[] = [];
    let unreadable = 0;
    const lines = text.split('\n').map((l) => l.trim().replace(/,$/, '')).filter((l) => l !== '' && l !== '[' && l !== ']');
    for (const line of lines) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        // The one-line form of older versions, cut short: its whole entries still count.
        value = line.startsWith('[') ? parseJsonc(line) : undefined;
      }
      if (Array.isArray(value)) {
        const good = value.filter(valid);
        out.push(...good);
        if (good.length < value.length) unreadable += value.length - good.length;
      } else if (valid(value)) out.push(value);
      else unreadable++;
    }
    if (unreadable > 0 || out.length === 0) {
      this.options.onProblem?.(l10n.t('The list of sessions ({0}) was damaged: {1} unreadable part(s) were skipped and {2} session(s) kept.', this.file, Math.max(unreadable, 1), out.length));
    }
    return out;
  }

  /** What another window wrote: sessions it added, and newer states of ours (by last change). True when something changed here. */
  private merge(disk: readonly SessionEntry[]): boolean {
    const stamp = (e: SessionEntry) => Math.max(e.updatedAt, e.deleted?.at ?? 0);
    let changed = false;
    for (const d of disk) {
      const k = key(d.agentId, d.sessionId);
      const mine = this.entries.get(k);
      if (!mine || stamp(d) > stamp(mine)) {
        this.entries.set(k, d);
        changed = true;
      }
    }
    return changed;
  }

  onDidChange(listener: () => void): Disposable {
    this.listeners.push(listener);
    return { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }

  all(): SessionEntry[] {
    return [...this.entries.values()].filter((e) => !e.deleted).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  forAgent(agentId: string): SessionEntry[] {
    return this.all().filter((e) => e.agentId === agentId);
  }

  get(agentId: string, sessionId: string): SessionEntry | undefined {
    const e = this.entries.get(key(agentId, sessionId));
    return e?.deleted ? undefined : e;
  }

  /** Records a session the user opened here (or updates it). */
  touch(agentId: string, sessionId: string, cwd: string, now = Date.now()): SessionEntry {
    let e = this.entries.get(key(agentId, sessionId));
    if (!e) {
      e = { agentId, sessionId, cwd, createdAt: now, updatedAt: now, source: 'local' };
      this.entries.set(key(agentId, sessionId), e);
    } else {
      e.updatedAt = now;
      e.source = 'local';
      delete e.deleted; // used again here: it is back
    }
    this.changed();
    return e;
  }

  /** Title rules: the agent's session_info_update wins; else the first user message. */
  setTitle(agentId: string, sessionId: string, title: string | undefined, fromAgent: boolean): void {
    const e = this.entries.get(key(agentId, sessionId));
    if (!e) return;
    if (!fromAgent && (e.titleFromAgent || e.title)) return;
    const clean = title?.replace(/\s+/g, ' ').trim().slice(0, 120);
    if (e.title === clean && (!fromAgent || e.titleFromAgent)) return;
    e.title = clean || undefined;
    if (fromAgent) e.titleFromAgent = true;
    this.changed();
  }

  /** The session is a fork of another taken before one of its messages (the Sessions view links them). */
  setForkOf(agentId: string, sessionId: string, from: { sessionId: string; title?: string; message?: number }): void {
    const e = this.entries.get(key(agentId, sessionId));
    if (!e) return;
    e.forkOf = { sessionId: from.sessionId, ...(from.title !== undefined ? { title: from.title.slice(0, 120) } : {}), ...(from.message !== undefined ? { message: from.message } : {}) };
    this.changed();
  }

  /** Merges what an agent's session/list returned (keeps local titles the user saw). */
  mergeListed(agentId: string, listed: readonly { sessionId: string; cwd: string; title?: string | null; updatedAt?: string | null }[]): void {
    let changed = false;
    for (const s of listed) {
      const updatedAt = s.updatedAt ? Date.parse(s.updatedAt) || 0 : 0;
      const existing = this.entries.get(key(agentId, s.sessionId));
      if (existing?.deleted) continue; // deleted here: it never comes back from a list
      if (!existing) {
        this.entries.set(key(agentId, s.sessionId), { agentId, sessionId: s.sessionId, cwd: s.cwd, title: s.title ?? undefined, titleFromAgent: !!s.title, createdAt: updatedAt, updatedAt, source: 'agent' });
        changed = true;
      } else {
        if (s.title && existing.title !== s.title) {
          existing.title = s.title;
          existing.titleFromAgent = true;
          changed = true;
        }
        if (updatedAt > existing.updatedAt) {
          existing.updatedAt = updatedAt;
          changed = true;
        }
      }
    }
    if (changed) this.changed();
  }

  /** Deletes a session: hidden from now on, and remembered so a list cannot bring it back. */
  remove(agentId: string, sessionId: string, opts: { agentPending?: boolean } = {}, now = Date.now()): void {
    const k = key(agentId, sessionId);
    const e = this.entries.get(k) ?? { agentId, sessionId, cwd: '', createdAt: now, updatedAt: now, source: 'agent' as const };
    e.deleted = { at: now, agentPending: opts.agentPending ?? false };
    delete e.title; // nothing of it is kept but the ids
    this.entries.set(k, e);
    const tombs = [...this.entries.values()].filter((x) => x.deleted).sort((a, b) => a.deleted!.at - b.deleted!.at);
    for (const old of tombs.slice(0, Math.max(0, tombs.length - MAX_TOMBSTONES))) this.entries.delete(key(old.agentId, old.sessionId));
    this.changed();
  }

  isDeleted(agentId: string, sessionId: string): boolean {
    return !!this.entries.get(key(agentId, sessionId))?.deleted;
  }

  /** Deleted sessions the agent has not been asked to delete yet. */
  pendingDeletes(agentId: string): string[] {
    return [...this.entries.values()].filter((e) => e.agentId === agentId && e.deleted?.agentPending).map((e) => e.sessionId);
  }

  /** The agent was asked (or cannot be asked): the tombstone stays, the request is done. */
  deleteSettled(agentId: string, sessionId: string): void {
    const e = this.entries.get(key(agentId, sessionId));
    if (!e?.deleted?.agentPending) return;
    e.deleted.agentPending = false;
    this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) l();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), 300);
  }

  /**
   * Writes the index now: under the store lock (no other window reads or writes
   * it meanwhile), the file read again and merged (another window's sessions
   * stay), then replaced atomically (temp file + rename: a crash leaves the old
   * file or the new one).
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing
      .then(() => withStoreLock(this.file, () => this.mergeAndReplace(), this.options.log))
      .catch(() => undefined);
    return this.writing;
  }

  private async mergeAndReplace(): Promise<void> {
    let text: string | undefined;
    try {
      text = await fs.promises.readFile(this.file, 'utf8');
    } catch {
      // none yet
    }
    if (text !== undefined && this.merge(this.parse(text))) for (const l of this.listeners) l();
    const lines = [...this.entries.values()].map((e) => JSON.stringify(e));
    try {
      await this.io.writeFileAtomic(this.file, `[\n${lines.join(',\n')}\n]\n`);
      this.failing = false;
    } catch (err) {
      this.timer ??= setTimeout(() => void this.flush(), RETRY_MS).unref();
      if (!this.failing) this.options.onWriteError?.(err);
      this.failing = true;
    }
  }
}
