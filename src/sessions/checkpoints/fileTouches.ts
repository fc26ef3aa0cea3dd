/**
 * Which sessions changed a file ("ACP: Sessions That Changed This File"): for every turn
 * that changed files, the session, the turn (its checkpoint id and the start of its
 * prompt) and the files. One small JSON file in the extension's storage, apart from the
 * checkpoints (which hold bytes and would be slow to scan). Bounded; before each write
 * what another window wrote is read and merged, and the file is replaced atomically,
 * all under the store lock (one window at a time, see storeLock.ts).
 * No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withStoreLock } from '../../node/storeLock';
import { diskIo, type StoreIo } from '../../node/storeIo';

export interface TurnTouch {
  readonly agentId: string;
  readonly sessionId: string;
  /** The turn's checkpoint id (see Checkpoints). */
  readonly turnId: string;
  /** The start of the turn's prompt. */
  readonly text: string;
  readonly at: number;
  readonly files: readonly string[];
}

/** Turns kept (the oldest go first), files per turn, characters of a prompt. */
export const TOUCH_LIMITS = { turns: 2000, filesPerTurn: 500, text: 200 } as const;
const DEBOUNCE_MS = 300;

/** How a path is compared: case folded where the file system usually folds it. */
export const touchKey = (file: string, platform: NodeJS.Platform = process.platform): string => {
  const p = path.normalize(file);
  return platform === 'win32' || platform === 'darwin' ? p.toLowerCase() : p;
};

const turnKey = (t: TurnTouch) => `${t.agentId}\u0000${t.sessionId}\u0000${t.turnId}`;

/** A stored record, or undefined when it is not one (a hand-edited or half-written file). */
function valid(v: unknown): TurnTouch | undefined {
  const t = v as Partial<TurnTouch> | null;
  if (!t || typeof t !== 'object') return undefined;
  if (typeof t.agentId !== 'string' || typeof t.sessionId !== 'string' || typeof t.turnId !== 'string' || typeof t.at !== 'number') return undefined;
  if (!Array.isArray(t.files)) return undefined;
  const files = t.files.filter((f): f is string => typeof f === 'string' && path.isAbsolute(f)).slice(0, TOUCH_LIMITS.filesPerTurn);
  return { agentId: t.agentId, sessionId: t.sessionId, turnId: t.turnId, text: typeof t.text === 'string' ? t.text.slice(0, TOUCH_LIMITS.text) : '', at: t.at, files };
}

export class FileTouches {
  private pending = new Map<string, TurnTouch>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** The disk (replaceable: the tests give it a full one). */
  io: StoreIo = diskIo;

  constructor(
    private readonly file: string,
    private readonly log: (m: string) => void = () => undefined,
  ) {}

  /** A turn changed `files` (written to disk a moment later, merged with other windows'). */
  record(turn: TurnTouch): void {
    if (turn.files.length === 0) return;
    const t = valid({ ...turn, files: [...turn.files] });
    if (!t) return;
    this.pending.set(turnKey(t), t);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), DEBOUNCE_MS);
  }

  private read(): TurnTouch[] {
    let raw: string;
    try {
      raw = fs.readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    try {
      const v = JSON.parse(raw) as unknown;
      return Array.isArray(v) ? v.map(valid).filter((t): t is TurnTouch => t !== undefined) : [];
    } catch {
      this.log(`file touches: ${this.file} is not JSON; starting again from what this window records`);
      return [];
    }
  }

  /** Writes what was recorded: the file as it is now (another window's turns too) plus ours. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.writing;
    const ours = [...this.pending.values()];
    this.pending.clear();
    const mergeAndReplace = async () => {
      const merged = new Map<string, TurnTouch>();
      for (const t of [...this.read(), ...ours]) merged.set(turnKey(t), t);
      const kept = [...merged.values()].sort((a, b) => a.at - b.at).slice(-TOUCH_LIMITS.turns);
      try {
        await this.io.writeFileAtomic(this.file, JSON.stringify(kept));
      } catch (e) {
        this.log(`file touches: could not write ${this.file}: ${(e as Error).message}`);
      }
    };
    this.writing = this.writing.then(() => withStoreLock(this.file, mergeAndReplace, this.log));
    return this.writing;
  }

  /** The turns that changed `file`, newest first (what other windows wrote too). */
  async turnsThatChanged(file: string): Promise<TurnTouch[]> {
    await this.flush();
    const want = touchKey(file);
    return this.read()
      .filter((t) => t.files.some((f) => touchKey(f) === want))
      .sort((a, b) => b.at - a.at);
  }

  dispose(): void {
    void this.flush();
  }
}
