/**
 * Pinned messages: the user pins any message of the conversation (theirs or
 * the agent's) from its action row; the pins show in a strip at the top of the
 * panel (`header.pins`) and on the messages (`pinned`), and come back with the
 * session — after a reload, a `session/load`, or a replay of the local archive.
 *
 * Identity. A load or a replay re-creates the transcript with new item ids, so
 * a pin names its message by what survives: its role (`user`/`agent`), its
 * ordinal among the top-level messages of that role (the session's own
 * timeline; subagents' and thoughts are not pinnable), and a hash of its text
 * (sha-256 of the whitespace-normalized text, 16 hex digits). A pin resolves
 * to the message at its ordinal when the hash matches; else to the message
 * with that hash nearest the ordinal (a history that differs a little); else
 * to none — it stays in the strip, says it is not in this history, and can be
 * unpinned. While a pinned message is still on screen in the transcript it was
 * pinned in, its key follows its text (an answer pinned while streaming).
 *
 * Storage: `<session>.pins.json` next to the archive (like the checkpoints),
 * rewritten on each change — not archive lines, because a `session/load`
 * never reads the archive and an archive stops growing at its size limit.
 * No `vscode` import.
 */
import { createHash } from 'node:crypto';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { Disposable, Event } from '../../shared/events';
import type { MessageItem, PinView } from '../../shared/transcriptTypes';
import type { PanelStatus } from '../../shared/webviewProtocol';
import type { SessionCore, SessionPart } from '../sessionCore';
import { parseSidecar, sessionSidecar, type SessionSidecar, type SidecarFormat } from '../store/sessionSidecar';
import type { Change, Transcript } from '../transcript';

/** What pins need from their session besides the core (the session itself). */
export interface PinsHost {
  /** The past session a panel was opened for (an archive shown before, or without, an attach). */
  readonly targetSessionId: string | undefined;
  /** The transcript was replaced (a load begins, an archive was shown). */
  readonly onDidResetTranscript: Event<void>;
  /** The phase changed (a load ended). */
  readonly onDidChangeStatus: Event<PanelStatus>;
}

type Role = PinView['role'];

/** One pin as stored. */
export interface PinRecord {
  readonly role: Role;
  readonly ordinal: number;
  readonly hash: string;
  /** The start of the text, for the strip before (or without) the message. */
  readonly text: string;
}

/** Pins kept per session, at most. */
const MAX_PINS = 100;
const EXCERPT = 160;

const norm = (text: string) => text.replace(/\s+/g, ' ').trim();
export const textHash = (text: string) => createHash('sha256').update(norm(text)).digest('hex').slice(0, 16);
const keyOf = (p: PinRecord) => `${p.role}:${p.ordinal}:${p.hash}`;
const pinnable = (item: { kind: string; parent?: string }): item is MessageItem & { kind: Role } => (item.kind === 'user' || item.kind === 'agent') && item.parent === undefined;

/** How pins are kept: `{ v: 1, pins: [PinRecord…] }`, read tolerantly (a bad entry is skipped). */
export const PINS_FORMAT: SidecarFormat<PinRecord[]> = {
  kind: 'pins',
  version: 1,
  maxBytes: 256 * 1024,
  empty: () => [],
  encode: (pins) => ({ pins }),
  decode: ({ pins: list }) => {
    if (!Array.isArray(list)) return [];
    const out: PinRecord[] = [];
    for (const p of list.slice(0, MAX_PINS) as Partial<PinRecord>[]) {
      if ((p?.role !== 'user' && p?.role !== 'agent') || !Number.isSafeInteger(p.ordinal) || p.ordinal! < 0 || typeof p.hash !== 'string' || !/^[0-9a-f]{16}$/.test(p.hash)) continue;
      const rec: PinRecord = { role: p.role, ordinal: p.ordinal!, hash: p.hash, text: typeof p.text === 'string' ? p.text.slice(0, EXCERPT) : '' };
      if (!out.some((x) => keyOf(x) === keyOf(rec))) out.push(rec);
    }
    return out;
  },
};

/** The pins file, read tolerantly: a bad file is no pins, a bad entry is skipped. */
export const parsePins = (text: string): PinRecord[] => parseSidecar(PINS_FORMAT, text);

export class Pins implements SessionPart {
  private pins: PinRecord[] = [];
  /** The session whose pins these are. */
  private of: string | undefined;
  /** Each pin's message in the transcript shown (by key), as last resolved. */
  private resolved = new Map<string, MessageItem>();
  private resolvedIn: Transcript | undefined;
  /** Where the pins of session `of` are kept. */
  private store: SessionSidecar<PinRecord[]> | undefined;
  private reading: Promise<void> = Promise.resolve();
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly core: SessionCore,
    private readonly host: PinsHost,
  ) {
    this.subscriptions = [host.onDidResetTranscript(() => this.sync()), host.onDidChangeStatus(() => this.sync())];
  }

  attached(_rt: AgentRuntime, sessionId: string): void {
    this.use(sessionId);
  }

  /** Pins the message `itemId` (a top-level user or agent message). */
  pin(itemId: string): boolean {
    const t = this.core.transcript();
    const item = t.get(itemId);
    if (!item || !pinnable(item)) return false;
    this.sync();
    if ([...this.resolved.values()].includes(item)) return false;
    if (this.pins.length >= MAX_PINS) {
      this.core.log(`pins: at most ${MAX_PINS} messages can be pinned; not pinned`);
      return false;
    }
    let ordinal = 0;
    for (const it of t.items) {
      if (it === item) break;
      if (it.kind === item.kind && it.parent === undefined) ordinal++;
    }
    this.pins.push({ role: item.kind, ordinal, hash: textHash(item.text), text: norm(item.text).slice(0, EXCERPT) });
    this.changed();
    return true;
  }

  /** Unpins by the pin's key (the strip) or by its message's item id (the message's own button). */
  unpin(idOrKey: string): boolean {
    const before = this.pins.length;
    this.pins = this.pins.filter((p) => keyOf(p) !== idOrKey && this.resolved.get(keyOf(p))?.id !== idOrKey);
    if (this.pins.length === before) return false;
    this.changed();
    return true;
  }

  /** What the strip shows (for tests and the header). */
  list(): readonly PinView[] {
    return this.core.transcript().header.pins ?? [];
  }

  private changed(): void {
    this.show(true);
    this.save();
  }

  /** The session's pins: the session now (or the one the panel was opened for) — read once per session id. */
  private sync(): void {
    this.use(this.core.sessionId() ?? this.host.targetSessionId);
    // A load in progress: its transcript is not whole yet (its end, a status change, resolves again).
    if (this.core.phase().kind !== 'loading') this.show(false);
  }

  private use(sessionId: string | undefined): void {
    if (sessionId === undefined || sessionId === this.of) return;
    this.of = sessionId;
    // An earlier session's pins are not this one's (a fork, a new session after a sign-in).
    this.pins = [];
    this.resolved.clear();
    const store = (this.store = sessionSidecar(this.core.services.archive, PINS_FORMAT, this.core.def.id, sessionId, (m) => this.core.log(m)));
    this.reading = store.read().then((stored) => {
      if (this.of !== sessionId) return;
      // Pins made while the file was read stay (after the stored ones).
      this.pins = [...stored, ...this.pins.filter((p) => !stored.some((s) => keyOf(s) === keyOf(p)))];
      this.sync();
    });
  }

  /** Settles once the stored pins of the session shown have been read (and matched to its messages). */
  whenRead(): Promise<void> {
    return this.reading;
  }

  /** Finds each pin's message in the transcript shown, marks the messages, and updates the strip (changes emitted only when something differs). */
  private show(force: boolean): void {
    const t = this.core.transcript();
    const byRole: Record<Role, MessageItem[]> = { user: [], agent: [] };
    const order = new Map<MessageItem, number>();
    t.items.forEach((it, i) => {
      if (!pinnable(it)) return;
      byRole[it.kind].push(it);
      order.set(it, i);
    });
    const previous = this.resolvedIn === t ? this.resolved : new Map<string, MessageItem>();
    const next = new Map<string, MessageItem>();
    let rekeyed = false;
    this.pins = this.pins.map((p) => {
      // Still the same message on screen: the pin follows its text (a streamed answer grows).
      const known = previous.get(keyOf(p));
      if (known && order.has(known)) {
        const hash = textHash(known.text);
        const q = hash === p.hash ? p : { ...p, hash, text: norm(known.text).slice(0, EXCERPT) };
        rekeyed ||= q !== p;
        next.set(keyOf(q), known);
        return q;
      }
      const found = this.find(byRole[p.role], p, next);
      if (found) next.set(keyOf(p), found);
      return p;
    });
    const out: Change[] = [];
    const pinnedNow = new Set(next.values());
    for (const item of new Set([...previous.values(), ...pinnedNow])) {
      const pinned = pinnedNow.has(item);
      if ((item.pinned === true) !== pinned) {
        if (pinned) item.pinned = true;
        else delete item.pinned;
        out.push(...t.changed(item));
      }
    }
    this.resolved = next;
    this.resolvedIn = t;
    const views: PinView[] = this.pins
      .map((p) => ({ p, item: next.get(keyOf(p)) }))
      .sort((a, b) => (a.item ? order.get(a.item)! : Infinity) - (b.item ? order.get(b.item)! : Infinity))
      .map(({ p, item }) => ({ key: keyOf(p), role: p.role, text: p.text, ...(item ? { id: item.id } : {}) }));
    const changedStrip = JSON.stringify(views) !== JSON.stringify(t.header.pins ?? []);
    if (changedStrip) t.header.pins = views;
    if (changedStrip || force) out.push({ c: 'header' });
    this.core.emit(out);
    if (rekeyed) this.save();
  }

  /** The pin's message among those of its role: at its ordinal with its text, else its text nearest the ordinal. */
  private find(messages: readonly MessageItem[], p: PinRecord, taken: ReadonlyMap<string, MessageItem>): MessageItem | undefined {
    const used = new Set(taken.values());
    const free = (m: MessageItem) => !used.has(m);
    const at = messages[p.ordinal];
    if (at && free(at) && textHash(at.text) === p.hash) return at;
    let best: MessageItem | undefined;
    let distance = Infinity;
    messages.forEach((m, i) => {
      if (Math.abs(i - p.ordinal) < distance && free(m) && textHash(m.text) === p.hash) {
        best = m;
        distance = Math.abs(i - p.ordinal);
      }
    });
    return best;
  }

  /** Kept next to the archive (see sessionSidecar.ts). */
  private save(): void {
    void this.store?.write(this.pins);
  }

  /** For tests: the writes so far are done. */
  flushed(): Promise<void> {
    return this.store?.flushed() ?? Promise.resolve();
  }

  dispose(): void {
    while (this.subscriptions.length) this.subscriptions.pop()?.dispose();
  }
}
