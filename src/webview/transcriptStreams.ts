/**
 * What grows while a turn runs: streamed message text, drawn at most once per
 * frame and once more as a whole when the turn ends; and terminal output, kept
 * in every tool call that shows the terminal.
 */
import type { MessageItem, TranscriptItem } from '../shared/transcriptTypes';
import { mergeTerminalText } from '../shared/terminalText';
import type { Entry } from './transcriptBlocks';

type Entries = ReadonlyMap<string, Entry>;

export class StreamedText {
  /** Messages whose new text is still to draw. */
  private readonly dirty = new Set<string>();
  /** Messages streamed this turn. */
  private readonly streamed = new Set<string>();

  clear(): void {
    this.dirty.clear();
    this.streamed.clear();
  }

  /** A message's text grew (`shown`: it has a view, to draw in the next frame). */
  grew(id: string, shown: boolean): void {
    if (shown) this.dirty.add(id);
    this.streamed.add(id);
  }

  /** A message left the DOM: nothing to draw. */
  hidden(id: string): void {
    this.dirty.delete(id);
  }

  forget(id: string): void {
    this.dirty.delete(id);
    this.streamed.delete(id);
  }

  /** Draws the new text of every message that grew (in a frame). */
  draw(entries: Entries): void {
    for (const id of this.dirty) {
      const e = entries.get(id);
      if (e?.view?.appendText && 'text' in e.item) e.view.appendText(e.item as MessageItem);
    }
    this.dirty.clear();
  }

  /** The turn ended: the messages streamed in it, forgotten here. */
  takeStreamed(): string[] {
    const ids = [...this.streamed];
    this.streamed.clear();
    return ids;
  }

  /** Renders streamed messages once more as a whole. */
  finalize(ids: readonly string[], entries: Entries): void {
    for (const id of ids) {
      const e = entries.get(id);
      if (e?.view?.finalize && 'text' in e.item) e.view.finalize(e.item as MessageItem);
    }
  }
}

export class TerminalIndex {
  /** Tool call items showing a terminal, by terminal id. */
  private readonly byTerminal = new Map<string, Set<string>>();

  clear(): void {
    this.byTerminal.clear();
  }

  /** Remembers which tool calls show which terminal. */
  track(item: TranscriptItem): void {
    if (item.kind !== 'tool') return;
    for (const c of item.content) {
      if (c.type !== 'terminal') continue;
      let set = this.byTerminal.get(c.terminalId);
      if (!set) this.byTerminal.set(c.terminalId, (set = new Set()));
      set.add(item.id);
    }
  }

  /** New terminal output: every tool call showing the terminal holds the newest part (and is redrawn if on screen). */
  apply(terminalId: string, text: string, start: number, truncated: boolean, entries: Entries): void {
    for (const id of this.byTerminal.get(terminalId) ?? []) {
      const e = entries.get(id);
      if (e?.item.kind !== 'tool') continue;
      const content = e.item.content.map((c) => (c.type !== 'terminal' || c.terminalId !== terminalId ? c : { ...c, ...mergeTerminalText(c, text, start, truncated) }));
      e.item = { ...e.item, content };
      e.view?.update(e.item);
    }
  }
}
