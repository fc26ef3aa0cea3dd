/**
 * Every session the user opened (and sessions agents list), persisted as one
 * JSON file in the extension's storage. Writes are debounced and asynchronous.
 * No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../shared/events';

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
}

/** Tombstones kept (the oldest go first). */
const MAX_TOMBSTONES = 2000;

const key = (agentId: string, sessionId: string) => `${agentId}\u0000${sessionId}`;

export class SessionIndex {
  private readonly entries = new Map<string, SessionEntry>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private listeners: (() => void)[] = [];

  constructor(private readonly file: string) {
    try {
      const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      if (Array.isArray(raw)) {
        for (const e of raw as SessionEntry[]) {
          if (e && typeof e.agentId === 'string' && typeof e.sessionId === 'string') this.entries.set(key(e.agentId, e.sessionId), e);
        }
      }
    } catch {
      // no index yet, or unreadable: start empty
    }
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

  /** Writes the index now (atomically: temp file + rename). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const data = JSON.stringify([...this.entries.values()]);
    this.writing = this.writing.then(async () => {
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await fs.promises.writeFile(tmp, data);
      await fs.promises.rename(tmp, this.file);
    }).catch(() => undefined);
    return this.writing;
  }
}
