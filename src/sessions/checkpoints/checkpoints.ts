/**
 * Checkpoints: what each turn changed, so that "Restore files to here" can put
 * the files back as they were before a user message. A turn records, for every
 * file it touched (written through fs/*, written by the agent itself, deleted,
 * renamed), the bytes it had when the turn began and when the turn ended. Kept
 * next to the session's archive (size-limited, contents stored once by hash),
 * so a reload can still restore. No `vscode` import.
 */
import { createHash } from 'node:crypto';
import type { SessionSidecar, SidecarFormat } from '../store/sessionSidecar';

/** A file's bytes: null when it does not exist; undefined when unknown. */
export type FileBytes = Buffer | null | undefined;

/** A recorded state: a blob's hash, null (missing) or undefined (unknown). */
type Ref = string | null | undefined;

interface Turn {
  readonly id: string;
  /** The start of the prompt, to find its message again after a reload. */
  readonly text: string;
  readonly at: number;
  /** Bytes when the turn began, per file the turn touched. */
  readonly before: Map<string, Ref>;
  /** Bytes when the turn ended. */
  readonly after: Map<string, Ref>;
}

/** One file of a restore. */
export interface RestoreEntry {
  readonly path: string;
  /** restore: put old bytes back; recreate: it was deleted since; delete: it did not exist then; unknown: its old bytes are not known. */
  readonly action: 'restore' | 'recreate' | 'delete' | 'unknown';
  /** The bytes to put back (null: remove the file). */
  readonly target: Buffer | null | undefined;
  /** Set when the file changed after the agent's last turn touched it: what the agent left (null: it had deleted it). */
  readonly userEdited?: { readonly agent: Buffer | null };
}

/** At most this many bytes of file contents are kept per session (oldest turns lose theirs first). */
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
/** Files a turn records with contents; beyond that, names only. */
const MAX_FILES_PER_TURN = 500;
const PROMPT_KEY_CHARS = 200;

const sha = (b: Buffer): string => createHash('sha1').update(b).digest('hex');

/** The checkpoints as kept: `{ v: 1, seq, turns, blobs }` (a ref stored as 0 is unknown; blobs in base64 by sha1). */
export interface StoredCheckpoints {
  seq: number;
  turns: { id: string; text: string; at: number; before: Record<string, string | null | 0>; after: Record<string, string | null | 0> }[];
  blobs: Record<string, string>;
}

/** How checkpoints are kept next to the archive (see sessionSidecar.ts); the contents' budget bounds the file. */
export const CHECKPOINTS_FORMAT: SidecarFormat<StoredCheckpoints> = {
  kind: 'checkpoints',
  version: 1,
  // Base64 of the contents' budget, and room for the turns' names.
  maxBytes: Math.ceil((MAX_BLOB_BYTES * 4) / 3) + 16 * 1024 * 1024,
  empty: () => ({ seq: 0, turns: [], blobs: {} }),
  encode: (stored) => ({ ...stored }),
  decode: ({ seq, turns, blobs }) => ({
    seq: Number(seq) || 0,
    turns: Array.isArray(turns) ? (turns as StoredCheckpoints['turns']) : [],
    blobs: typeof blobs === 'object' && blobs !== null ? (blobs as Record<string, string>) : {},
  }),
};

export class Checkpoints {
  private turns: Turn[] = [];
  private current: Turn | undefined;
  private readonly blobs = new Map<string, Buffer>();
  /** At the start of the current turn: the bytes of every file earlier turns touched. */
  private startBytes = new Map<string, Buffer | null>();
  private seq = 0;

  constructor(
    /** Where the checkpoints of the session are kept (undefined: nowhere yet). */
    private readonly store: () => SessionSidecar<StoredCheckpoints> | undefined,
    /** A file's bytes now: an editor's unsaved text, else the disk's (null: missing; undefined: unreadable). */
    private readonly read: (file: string) => FileBytes,
    /** A turn that changed files ended: which files (for "Sessions That Changed This File"). */
    private readonly ended: (turn: { id: string; text: string; at: number; files: string[] }) => void = () => undefined,
  ) {}

  private put(b: Buffer | null | undefined): Ref {
    if (b === null || b === undefined) return b;
    const h = sha(b);
    if (!this.blobs.has(h)) this.blobs.set(h, b);
    return h;
  }

  private get(r: Ref): FileBytes {
    if (r === null || r === undefined) return r;
    return this.blobs.get(r);
  }

  /**
   * What the agent's last recorded turn that touched `file` left in it (null: it deleted it); undefined
   * when unknown — also while a turn that touched it has not ended (its end is recorded a second late).
   */
  agentLeft(file: string): FileBytes {
    if (this.current?.before.has(file)) return undefined;
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const t = this.turns[i]!;
      if (t.after.has(file)) return this.get(t.after.get(file));
    }
    return undefined;
  }

  /** A turn begins; returns its checkpoint id. */
  begin(prompt: string, now = Date.now()): string {
    this.end();
    const id = `cp${++this.seq}`;
    this.current = { id, text: prompt.slice(0, PROMPT_KEY_CHARS), at: now, before: new Map(), after: new Map() };
    this.turns.push(this.current);
    // Files earlier turns touched may be touched again: what they hold now is this turn's "before".
    this.startBytes = new Map();
    for (const f of this.touchedFiles()) {
      if (this.startBytes.size >= MAX_FILES_PER_TURN) break;
      const b = this.read(f);
      if (b !== undefined) this.startBytes.set(f, b);
    }
    return id;
  }

  private touchedFiles(): Set<string> {
    const out = new Set<string>();
    for (const t of this.turns) for (const f of t.before.keys()) out.add(f);
    return out;
  }

  /** What a file held when the current turn began, when known from an earlier turn. */
  knownBefore(file: string): Buffer | null | undefined {
    return this.current ? this.startBytes.get(file) : undefined;
  }

  /** The current turn touched a file; `before`: its bytes before that change, when known. */
  touch(file: string, before: FileBytes): void {
    const t = this.current;
    if (!t) return;
    const known = before !== undefined ? before : this.startBytes.get(file);
    if (t.before.has(file)) {
      // Learnt later (git, the diff's snapshot): an unknown start becomes known.
      if (t.before.get(file) === undefined && known !== undefined) t.before.set(file, this.put(known));
      return;
    }
    if (t.before.size >= MAX_FILES_PER_TURN) {
      t.before.set(file, undefined);
      return;
    }
    t.before.set(file, this.put(known));
  }

  /** The current turn ended: what its files hold now is kept, and everything is saved. */
  end(): void {
    const t = this.current;
    if (!t) return;
    this.current = undefined;
    this.startBytes = new Map();
    for (const f of t.before.keys()) t.after.set(f, this.put(this.read(f)));
    if (t.before.size === 0) return;
    this.trim();
    void this.save();
    this.ended({ id: t.id, text: t.text, at: t.at, files: [...t.before.keys()] });
  }

  /** Whether restoring to this checkpoint would touch anything (this turn or a later one changed files). */
  restorable(id: string): boolean {
    const i = this.turns.findIndex((t) => t.id === id);
    return i >= 0 && this.turns.slice(i).some((t) => t.before.size > 0);
  }

  /** Checkpoint ids with the prompt they began with, oldest first. */
  list(): { id: string; text: string }[] {
    return this.turns.map((t) => ({ id: t.id, text: t.text }));
  }

  /**
   * What "Restore files to here" would do: every file a turn from this one on
   * touched goes back to its bytes when this checkpoint's turn (or the first
   * later turn that touched it) began. Files already as they were are left out.
   */
  plan(id: string): RestoreEntry[] | undefined {
    const i = this.turns.findIndex((t) => t.id === id);
    if (i < 0) return undefined;
    const target = new Map<string, Ref>();
    const agentLeft = new Map<string, Ref>();
    for (const t of this.turns.slice(i)) for (const [f, r] of t.before) if (!target.has(f)) target.set(f, r);
    // What the agent last left in each file (later turns than the checkpoint's included).
    for (const t of this.turns) for (const [f, r] of t.after) if (target.has(f)) agentLeft.set(f, r);
    const out: RestoreEntry[] = [];
    for (const [f, ref] of target) {
      const want = this.get(ref);
      const now = this.read(f);
      if (want === undefined) {
        out.push({ path: f, action: 'unknown', target: undefined });
        continue;
      }
      if (same(now, want)) continue;
      const left = this.get(agentLeft.get(f));
      const userEdited = left !== undefined && now !== undefined && !same(now, left) ? { userEdited: { agent: left } } : {};
      const action = want === null ? 'delete' : now === null ? 'recreate' : 'restore';
      out.push({ path: f, action, target: want, ...userEdited });
    }
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Keeps file contents under the budget: the oldest turns' contents are dropped first (their files become unknown). */
  private trim(): void {
    let total = 0;
    const keep = new Set<string>();
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const t = this.turns[i]!;
      for (const map of [t.before, t.after]) {
        for (const [f, r] of map) {
          if (typeof r !== 'string' || keep.has(r)) continue;
          const size = this.blobs.get(r)?.length ?? 0;
          if (total + size > MAX_BLOB_BYTES) {
            map.set(f, undefined);
            continue;
          }
          total += size;
          keep.add(r);
        }
      }
    }
    for (const h of [...this.blobs.keys()]) if (!keep.has(h)) this.blobs.delete(h);
  }

  /** Writes the checkpoints next to the archive (whole or not at all, one write at a time). */
  save(): Promise<void> {
    const store = this.store();
    if (!store) return Promise.resolve();
    const stored: StoredCheckpoints = { seq: this.seq, turns: [], blobs: {} };
    const refs = new Set<string>();
    const enc = (m: Map<string, Ref>) => {
      const o: Record<string, string | null | 0> = {};
      for (const [f, r] of m) {
        o[f] = r === undefined ? 0 : r;
        if (typeof r === 'string') refs.add(r);
      }
      return o;
    };
    for (const t of this.turns) if (t !== this.current) stored.turns.push({ id: t.id, text: t.text, at: t.at, before: enc(t.before), after: enc(t.after) });
    for (const h of refs) {
      const b = this.blobs.get(h);
      if (b) stored.blobs[h] = b.toString('base64');
    }
    return store.write(stored);
  }

  /** Reads the checkpoints a session kept (a reload, a resumed session). Bad files are ignored. */
  async load(): Promise<void> {
    const stored = await this.store()?.read();
    if (!stored) return;
    const dec = (o: unknown): Map<string, Ref> => {
      const m = new Map<string, Ref>();
      if (o && typeof o === 'object') for (const [f, r] of Object.entries(o)) m.set(f, typeof r === 'string' ? r : r === null ? null : undefined);
      return m;
    };
    const loaded: Turn[] = [];
    for (const t of stored.turns) {
      if (typeof t?.id !== 'string' || this.turns.some((x) => x.id === t.id)) continue;
      loaded.push({ id: t.id, text: String(t.text ?? ''), at: Number(t.at) || 0, before: dec(t.before), after: dec(t.after) });
    }
    for (const [h, b64] of Object.entries(stored.blobs)) {
      if (typeof b64 !== 'string') continue;
      const b = Buffer.from(b64, 'base64');
      if (sha(b) === h) this.blobs.set(h, b);
    }
    this.turns = [...loaded, ...this.turns];
    this.seq = Math.max(this.seq, Number(stored.seq) || 0, ...this.turns.map((t) => Number(t.id.slice(2)) || 0));
    this.trim();
  }
}

function same(a: FileBytes, b: FileBytes): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return a === b;
}
