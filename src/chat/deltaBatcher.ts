/**
 * Coalesces transcript changes into one message per frame (~16 ms): text
 * appended to a message within a frame becomes one delta; an item added or
 * replaced within the frame is sent once, in its latest state. No `vscode` import.
 */
import type { HeaderState, TranscriptDelta, TranscriptItem } from '../shared/transcriptTypes';
import type { Change } from '../sessions/transcript';

type Entry =
  | { kind: 'add' | 'put'; item: TranscriptItem }
  | { kind: 'text'; id: string; parts: string[] }
  | { kind: 'remove'; id: string }
  | { kind: 'term'; terminalId: string; text: string; start: number; truncated: boolean }
  | { kind: 'header' };

export interface Timer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: Timer = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as NodeJS.Timeout) };

export class DeltaBatcher {
  private entries: Entry[] = [];
  private readonly full = new Set<string>();
  private readonly texts = new Map<string, Entry & { kind: 'text' }>();
  private readonly terms = new Map<string, Entry & { kind: 'term' }>();
  private header = false;
  private handle: unknown;

  constructor(
    private readonly send: (deltas: TranscriptDelta[]) => void,
    private readonly headerState: () => HeaderState,
    private readonly intervalMs = 16,
    private readonly timer: Timer = realTimer,
  ) {}

  push(changes: readonly Change[]): void {
    if (changes.length === 0) return;
    for (const ch of changes) {
      switch (ch.c) {
        case 'add':
        case 'put': {
          const id = ch.item.id;
          if (this.full.has(id)) break;
          const text = this.texts.get(id);
          if (text) {
            // The full item carries the text too.
            this.entries.splice(this.entries.indexOf(text), 1);
            this.texts.delete(id);
          }
          this.full.add(id);
          this.entries.push({ kind: ch.c, item: ch.item });
          break;
        }
        case 'text': {
          const id = ch.item.id;
          if (this.full.has(id)) break;
          const existing = this.texts.get(id);
          if (existing) existing.parts.push(ch.text);
          else {
            const e = { kind: 'text' as const, id, parts: [ch.text] };
            this.texts.set(id, e);
            this.entries.push(e);
          }
          break;
        }
        case 'term': {
          // One delta per terminal per frame (a later gap restarts it).
          const e = this.terms.get(ch.terminalId);
          if (!e) {
            const n = { kind: 'term' as const, terminalId: ch.terminalId, text: ch.text, start: ch.start, truncated: ch.truncated };
            this.terms.set(ch.terminalId, n);
            this.entries.push(n);
          } else if (ch.start > e.start + e.text.length) {
            e.text = ch.text;
            e.start = ch.start;
            e.truncated = true;
          } else {
            e.text += ch.text.slice(e.start + e.text.length - ch.start);
            e.truncated ||= ch.truncated;
          }
          break;
        }
        case 'remove': {
          // Whatever is pending for it goes; the webview drops what it has.
          const text = this.texts.get(ch.id);
          if (text) this.entries.splice(this.entries.indexOf(text), 1);
          this.texts.delete(ch.id);
          this.full.delete(ch.id);
          this.entries = this.entries.filter((e) => !((e.kind === 'add' || e.kind === 'put') && e.item.id === ch.id));
          this.entries.push({ kind: 'remove', id: ch.id });
          break;
        }
        case 'header':
          if (!this.header) {
            this.header = true;
            this.entries.push({ kind: 'header' });
          }
          break;
      }
    }
    this.handle ??= this.timer.set(() => this.flush(), this.intervalMs);
  }

  /** Sends what is pending now. */
  flush(): void {
    if (this.handle !== undefined) {
      this.timer.clear(this.handle);
      this.handle = undefined;
    }
    if (this.entries.length === 0) return;
    const deltas: TranscriptDelta[] = this.entries.map((e): TranscriptDelta => {
      switch (e.kind) {
        case 'add':
          return { t: 'add', item: e.item };
        case 'put':
          return { t: 'put', item: e.item };
        case 'text':
          return { t: 'text', id: e.id, text: e.parts.join('') };
        case 'remove':
          return { t: 'remove', id: e.id };
        case 'term':
          return { t: 'term', terminalId: e.terminalId, text: e.text, start: e.start, truncated: e.truncated };
        case 'header':
          return { t: 'header', header: this.headerState() };
      }
    });
    this.discard();
    this.send(deltas);
  }

  /** Drops what is pending (a snapshot is about to carry it). */
  discard(): void {
    if (this.handle !== undefined) {
      this.timer.clear(this.handle);
      this.handle = undefined;
    }
    this.entries = [];
    this.full.clear();
    this.texts.clear();
    this.terms.clear();
    this.header = false;
  }
}
