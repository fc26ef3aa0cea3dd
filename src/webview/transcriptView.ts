/**
 * The transcript in the DOM, virtualized: applied from a snapshot and then
 * deltas, never re-rendered as a whole. The top-level items are grouped in
 * blocks; a block is either expanded (its items' elements in the DOM) or
 * collapsed (one spacer of its measured — or, never shown, estimated — height).
 * Blocks are expanded as they near the viewport and the ones farthest from it
 * collapse again past a budget, so the DOM holds about a screenful or two
 * whatever the session's length. Layout is read at most once per frame (never
 * per delta); streamed text is rendered at most once per frame; the view sticks
 * to the bottom while the user is there.
 *
 * This is the view's face, its entries by id and its one frame; each concern
 * owns its state in a file of its own: the windowing (`transcriptBlocks.ts`),
 * scroll and follow (`transcriptFollow.ts`), older history (`transcriptOlder.ts`),
 * items inside cards (`transcriptCards.ts`), streamed text and terminal output
 * (`transcriptStreams.ts`), the keyboard (`transcriptKeys.ts`).
 */
import type { MessageItem, TranscriptDelta, TranscriptItem } from '../shared/transcriptTypes';
import { renderItem, type Post } from './render';
import { Blocks, NearViewport, type Block, type Entry } from './transcriptBlocks';
import { Cards } from './transcriptCards';
import { Follow } from './transcriptFollow';
import { keyNavigation } from './transcriptKeys';
import { OlderHistory } from './transcriptOlder';
import { StreamedText, TerminalIndex } from './transcriptStreams';

export class TranscriptView {
  private readonly entries = new Map<string, Entry>();
  private readonly near: NearViewport;
  private readonly blocks: Blocks;
  private readonly follow: Follow;
  private readonly older: OlderHistory;
  private readonly cards: Cards;
  private readonly streams = new StreamedText();
  private readonly terminals = new TerminalIndex();
  private frame = 0;
  private wantTrim: Block | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: Post,
  ) {
    this.near = new NearViewport(root);
    this.blocks = new Blocks(root, this.near, {
      render: (e, streaming) => this.render(e, streaming),
      shown: (block) => {
        this.wantTrim = block;
        this.schedule();
      },
      hidden: (e) => this.streams.hidden(e.item.id),
    });
    this.older = new OlderHistory(root, post, this.near, () => this.blocks.itemHeight());
    this.cards = new Cards(root, { entry: (id) => this.entries.get(id), show: (e) => this.show(e), render: (e, streaming) => this.render(e, streaming) });
    this.follow = new Follow(root);
    keyNavigation(root, this.blocks);
  }

  /** The text of the newest message of a kind (for announcing the reply when a turn ends). */
  lastText(kind: 'agent'): string | undefined {
    const blocks = this.blocks.all;
    for (let b = blocks.length - 1; b >= 0; b--) {
      const list = blocks[b]!.entries;
      for (let i = list.length - 1; i >= 0; i--) {
        const it = list[i]!.item;
        if (it.kind === kind) return it.text;
      }
    }
    return undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Replaces everything with a snapshot (`older`: how many items came before these, asked for as needed). */
  reset(items: readonly TranscriptItem[], older = 0): void {
    this.near.clear();
    this.older.reset(items[0]?.id);
    this.entries.clear();
    this.blocks.reset();
    this.cards.clear();
    this.terminals.clear();
    this.streams.clear();
    this.root.replaceChildren();
    this.follow.stickToEnd();
    this.addMany(items, false);
    this.older.set(older);
    this.counted();
    this.follow.wantEndNextFrame();
    this.schedule();
  }

  /** How many items the view holds, for tests and tools (`data-items`). */
  private counted(): void {
    this.root.dataset.items = String(this.entries.size);
    this.root.dataset.older = String(this.older.count);
  }

  /** Older history, above everything shown: collapsed blocks, shown when scrolled near; `remaining`: how many are older still. */
  prepend(items: readonly TranscriptItem[], remaining: number): void {
    this.older.received(items[0]?.id);
    const { top, nested } = this.index(items, true);
    // Keep what the user looks at in place: the spacers' heights are known without a layout.
    const keep = this.follow.sticks ? undefined : this.root.scrollTop;
    const olderBefore = this.older.height();
    const added = this.blocks.prepend(top, this.older.spacer);
    this.older.set(remaining);
    const olderShrunk = olderBefore - this.older.height();
    // Items of subagent cards (and requests on tool calls) go before what their card already holds.
    for (const e of nested) this.cards.place(e, true);
    // A card whose items came before it is shown at once, with them.
    for (const e of top) if (this.cards.waiting(e.item.id) && e.block) this.blocks.expand(e.block);
    if (keep !== undefined) this.root.scrollTop = keep + added - olderShrunk;
    else this.follow.wantEndNextFrame();
    this.counted();
    this.schedule();
    const revealing = this.older.revealing;
    if (revealing !== undefined && this.entries.has(revealing)) this.reveal(revealing);
  }

  /**
   * Scrolls to an item and gives it the keyboard: its block shown (and its card
   * unfolded), or — still in older history — once the batches before it have come
   * (asked for at once). False when the view neither has it nor expects more.
   */
  reveal(id: string): boolean {
    const e = this.entries.get(id);
    this.follow.release();
    if (!e) return this.older.reveal(id);
    this.older.revealed();
    this.show(e);
    this.cards.unfold(e.item.parent);
    if (e.block) this.wantTrim = e.block;
    if (!e.el) return false;
    e.el.tabIndex = -1;
    e.el.scrollIntoView({ block: 'center' });
    e.el.focus({ preventScroll: true });
    this.schedule();
    return true;
  }

  apply(deltas: readonly TranscriptDelta[], streaming: boolean): void {
    const adds: TranscriptItem[] = [];
    const flushAdds = () => {
      if (adds.length) this.addMany(adds.splice(0), streaming);
    };
    for (const d of deltas) {
      switch (d.t) {
        case 'add':
          adds.push(d.item);
          break;
        case 'put': {
          flushAdds();
          const e = this.entries.get(d.item.id);
          // Not here: older history not fetched yet (its batch will carry this), else new.
          if (!e) {
            if (this.older.count === 0) this.addMany([d.item], streaming);
          } else {
            e.item = d.item;
            this.terminals.track(d.item);
            e.view?.update(d.item);
          }
          break;
        }
        case 'text': {
          flushAdds();
          const e = this.entries.get(d.id);
          if (e && 'text' in e.item) {
            (e.item as MessageItem).text += d.text;
            this.streams.grew(d.id, e.view !== undefined);
          }
          break;
        }
        case 'term':
          flushAdds();
          this.terminals.apply(d.terminalId, d.text, d.start, d.truncated, this.entries);
          break;
        case 'remove':
          flushAdds();
          this.remove(d.id);
          break;
        case 'header':
          break;
      }
    }
    flushAdds();
    this.counted();
    this.follow.followNextFrame();
    this.schedule();
  }

  private remove(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.blocks.remove(e);
    this.entries.delete(id);
    this.streams.forget(id);
  }

  /**
   * At the end of a turn: streamed messages are rendered once more as a whole —
   * in the task after the next frame, so that frame shows their last text at
   * once (markdown for all of a long answer can take longer than a frame).
   */
  finalizeStreams(): void {
    const ids = this.streams.takeStreamed();
    if (ids.length === 0) return;
    this.schedule();
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.streams.draw(this.entries);
        this.streams.finalize(ids, this.entries);
        this.follow.followNextFrame();
        this.schedule();
      }),
    );
  }

  private isTopLevel(item: TranscriptItem): boolean {
    return item.parent === undefined && !(item.kind === 'permission' && item.toolItemId !== undefined && this.entries.has(item.toolItemId));
  }

  /** Entries for new items, split into top-level and nested ones (`skipKnown`: items the view has are left out). */
  private index(items: readonly TranscriptItem[], skipKnown: boolean): { top: Entry[]; nested: Entry[] } {
    const top: Entry[] = [];
    const nested: Entry[] = [];
    for (const item of items) {
      if (skipKnown && this.entries.has(item.id)) continue;
      const entry: Entry = { item };
      this.entries.set(item.id, entry);
      this.terminals.track(item);
      (this.isTopLevel(item) ? top : nested).push(entry);
    }
    return { top, nested };
  }

  /** New items at the end: the top-level ones into blocks (see `Blocks.append`), the nested ones into their cards. */
  private addMany(items: readonly TranscriptItem[], streaming: boolean): void {
    const { top, nested } = this.index(items, false);
    this.root.append(this.blocks.append(top, this.follow.sticks, streaming));
    for (const e of nested) this.cards.place(e, false, streaming);
    // A question waiting for the user is always in the DOM, even where the user scrolled away.
    for (const e of top) if ((e.item.kind === 'permission' || e.item.kind === 'elicitation') && e.item.state === 'pending') this.show(e);
  }

  private render(e: Entry, streaming: boolean): HTMLElement {
    const view = renderItem(e.item, this.post, streaming && (e.item.kind === 'agent' || e.item.kind === 'thought'));
    e.view = view;
    e.el = view.el;
    this.cards.adopt(e.item.id, view);
    return view.el;
  }

  /** Makes an entry rendered and in the DOM: its block expanded (or, nested, its card's). A card kept while collapsed has a view but is not in the DOM. */
  private show(e: Entry): void {
    if (e.block) {
      if (e.block.spacer) this.blocks.expand(e.block);
    } else if (e.item.parent !== undefined) {
      const card = this.entries.get(e.item.parent);
      if (card) this.show(card);
    }
  }

  /** One frame: streamed text, trimming, and the stick to the bottom — the layout read once. */
  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.streams.draw(this.entries);
      const near = this.wantTrim ?? (this.follow.sticks ? this.blocks.last : undefined);
      this.wantTrim = undefined;
      if (near) this.blocks.trim(near, this.follow.sticks);
      this.follow.settle();
    });
  }

  /** Scrolls to a saved position (not sticking to the bottom unless it is the bottom). */
  scrollTo(top: number): void {
    this.follow.scrollTo(top);
  }
}
