/**
 * What a session keeps beside its archive: one small file per kind
 * (`<session>.<kind>.json`: its checkpoints, its pins, its context folders),
 * each a versioned record `{ "v": <version>, ...fields }`. Written whole or not
 * at all, one write at a time, through the stores' one disk seam
 * (node/storeIo.ts); read bounded. A file that is damaged, too large or of
 * a version this build does not know reads as the empty value, with a line in
 * the log — never an error. The archive's `delete` removes every kind
 * (SIDECAR_KINDS). No `vscode` import.
 */
import type { StoreIo } from '../../node/storeIo';

/** Every kind a session keeps beside its archive: deleting a session deletes them all. */
export const SIDECAR_KINDS = ['checkpoints', 'pins', 'folders'] as const;
export type SidecarKind = (typeof SIDECAR_KINDS)[number];

/** How one kind is stored. */
export interface SidecarFormat<T> {
  readonly kind: SidecarKind;
  readonly version: number;
  /** A larger file is not read (it reads as empty). */
  readonly maxBytes: number;
  readonly empty: () => T;
  /** The record's fields (its `v` checked already) as the value; tolerant: a bad entry is skipped. */
  readonly decode: (record: Readonly<Record<string, unknown>>) => T;
  /** The value as the record's fields (without `v`). */
  readonly encode: (value: T) => Record<string, unknown>;
}

/** Where sidecars live: the archive (their file names, and the disk they are written to). */
export interface SidecarHome {
  sidecarFile(agentId: string, sessionId: string, kind: SidecarKind): string;
  readonly io: StoreIo;
}

/** A sidecar's text as its value, or why it is not one. */
function decodeSidecar<T>(format: SidecarFormat<T>, text: string): { value: T } | { error: string } {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return { error: 'not JSON' };
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return { error: 'not a record' };
  const v = (stored as { v?: unknown }).v;
  if (v !== format.version) return { error: `version ${JSON.stringify(v)?.slice(0, 20) ?? 'none'}, not ${format.version}` };
  return { value: format.decode(stored as Record<string, unknown>) };
}

/** The value of a sidecar's text; the empty value when it is not one. */
export function parseSidecar<T>(format: SidecarFormat<T>, text: string): T {
  const r = decodeSidecar(format, text);
  return 'value' in r ? r.value : format.empty();
}

export class SessionSidecar<T> {
  private saving: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly format: SidecarFormat<T>,
    /** The disk, when a write begins (a test may swap it for a full one). */
    private readonly io: () => StoreIo,
    private readonly log: (m: string) => void = () => undefined,
  ) {}

  /** What was kept: the empty value when nothing was, or it cannot be read (said in the log). */
  async read(): Promise<T> {
    const { kind } = this.format;
    let text: string;
    try {
      text = await this.io().readFile(this.file, this.format.maxBytes);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`${kind}: ${this.file} not read (${err instanceof Error ? err.message : String(err)}); starting empty`);
      return this.format.empty();
    }
    const r = decodeSidecar(this.format, text);
    if ('value' in r) return r.value;
    this.log(`${kind}: ${this.file} ignored (${r.error}); starting empty`);
    return this.format.empty();
  }

  /** Keeps `value` (replacing what was kept); one write at a time, in order. A failed write is logged. */
  write(value: T): Promise<void> {
    const text = JSON.stringify({ v: this.format.version, ...this.format.encode(value) });
    this.saving = this.saving.then(async () => {
      try {
        await this.io().writeFileAtomic(this.file, text);
      } catch (err) {
        this.log(`${this.format.kind}: not saved (${err instanceof Error ? err.message : String(err)})`);
      }
    });
    return this.saving;
  }

  /** The writes so far are done. */
  flushed(): Promise<void> {
    return this.saving;
  }
}

/** The sidecar of kind `format` of one session. */
export function sessionSidecar<T>(home: SidecarHome, format: SidecarFormat<T>, agentId: string, sessionId: string, log?: (m: string) => void): SessionSidecar<T> {
  return new SessionSidecar(home.sidecarFile(agentId, sessionId, format.kind), format, () => home.io, log);
}
