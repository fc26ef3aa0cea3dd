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
 */
import type { MessageItem, TranscriptDelta, TranscriptItem } from '../shared/transcriptTypes';
import { mergeTerminalText } from '../shared/terminalText';
import { renderItem, type ItemHandle as ItemView, type Post } from './render';

interface Entry {
  item: TranscriptItem;
  view?: ItemView;
  /** The item's element while rendered. */
  el?: HTMLElement;
  /** A top-level item's block (nested items — in a subagent's card, on a tool call's card — have none). */
  block?: Block;
  /** Something else is shown inside this item's element (a card's items, a permission request): kept when its block collapses. */
  holds?: boolean;
}

interface Block {
  readonly entries: Entry[];
  /** The spacer standing for the block while collapsed. */
  spacer?: HTMLElement;
  /** Its height when last shown (undefined: never shown, estimated). */
  height?: number;
}

/** Top-level items per block. */
const BLOCK = 25;
/** Top-level items kept rendered, while the user scrolls around, before the farthest blocks collapse again. */
const BUDGET = 1000;
/** Blocks on each side of the one the user looks at that never collapse (at the bottom: the blocks above the last). */
const KEEP_NEAR = 3;
/** Before anything was measured: the height of an item, about. */
const DEFAULT_ITEM_HEIGHT = 64;

export class TranscriptView {
  private readonly entries = new Map<string, Entry>();
  private blocks: Block[] = [];
  /** Items of a subagent card not shown yet (the card is in older history still to come), by card id. */
  private readonly orphans = new Map<string, HTMLElement>();
  /** Tool call items showing a terminal, by terminal id. */
  private readonly byTerminal = new Map<string, Set<string>>();
  private readonly dirtyText = new Set<string>();
  private readonly streamed = new Set<string>();
  private frame = 0;
  private wantEnd = false;
  private wantTrim: Block | undefined;
  private stick = true;
  /** Where the last scroll to the end put the view. */
  private ownTop = -1;
  /** When the user last scrolled (wheel, keys, scrollbar, touch). */
  private userScrollAt = -Infinity;
  private rendered = 0;
  private measuredHeight = 0;
  private measuredItems = 0;
  private readonly observer: IntersectionObserver;
  private readonly spacers = new WeakMap<Element, Block>();
  /** Older history the host still has for us, asked for a batch at a time: how many items, and the spacer standing for them. */
  private olderPending = 0;
  private olderSpacer: HTMLElement | undefined;
  private olderNear = false;
  private olderAsked = false;
  private olderTimer: ReturnType<typeof setTimeout> | undefined;
  /** The oldest item we have (what the next batch comes before). */
  private firstId: string | undefined;
  /** An item to bring into view once its older history arrives (a pin clicked). */
  private revealing: string | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: Post,
  ) {
    this.observer = new IntersectionObserver((records) => {
      for (const r of records) {
        if (r.target === this.olderSpacer) {
          this.olderNear = r.isIntersecting;
          if (r.isIntersecting) this.askOlder();
          continue;
        }
        if (!r.isIntersecting) continue;
        const block = this.spacers.get(r.target);
        if (block) {
          this.expand(block);
          this.wantTrim = block;
          this.schedule();
        }
      }
    }, { root, rootMargin: '1500px 0px' });
    // Only the user unsticks the view from the bottom: a scroll by the wheel, the keys, the scrollbar
    // or a touch. Scrolls of our own (to the end, reported a frame later when more may have been
    // appended) and the browser's scroll anchoring say nothing of where the user wants to be.
    const byUser = () => (this.userScrollAt = performance.now());
    root.addEventListener('wheel', byUser, { passive: true });
    root.addEventListener('touchmove', byUser, { passive: true });
    root.addEventListener('pointerdown', (e) => e.target === root && byUser(), { passive: true });
    root.addEventListener('keydown', (e) => ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' '].includes(e.key) && byUser(), { passive: true });
    root.addEventListener('scroll', () => {
      if (root.scrollTop === this.ownTop) return;
      if (this.atBottom()) this.stick = true;
      else if (performance.now() - this.userScrollAt < 1000) this.stick = false;
    }, { passive: true });
    root.addEventListener('keydown', (e) => this.onKey(e));
  }

  /**
   * Keyboard: Up/Down move between messages, tool calls and the other items
   * (into subagent cards too), Home/End to the first/last; from the transcript
   * itself, Up goes to the last item. Collapsed history is shown on the way.
   */
  private onKey(e: KeyboardEvent): void {
    if (!['ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    // Keys inside a form field or a select are theirs.
    if (target.closest('input, textarea, select')) return;
    const current = target.closest<HTMLElement>('.item');
    if (e.key === 'Home' && this.blocks[0]) this.expand(this.blocks[0]);
    else if (e.key === 'End' && this.blocks.at(-1)) this.expand(this.blocks.at(-1)!);
    else if (current) {
      // The neighbouring block, if it is a spacer, is shown first.
      const top = this.topLevelOf(current);
      const sibling = e.key === 'ArrowUp' ? top?.previousElementSibling : top?.nextElementSibling;
      const block = sibling ? this.spacers.get(sibling) : undefined;
      if (block) this.expand(block);
    } else if (e.key === 'ArrowUp' && this.blocks.at(-1)) this.expand(this.blocks.at(-1)!);
    const items = [...this.root.querySelectorAll<HTMLElement>('.item')].filter((el) => !el.closest('details:not([open]) > :not(summary)'));
    if (items.length === 0) return;
    let i = current ? items.indexOf(current) : items.length;
    if (e.key === 'Home') i = 0;
    else if (e.key === 'End') i = items.length - 1;
    else i = Math.max(0, Math.min(items.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)));
    const next = items[i];
    if (!next || next === current) return;
    e.preventDefault();
    next.tabIndex = -1;
    next.focus();
    next.scrollIntoView({ block: 'nearest' });
  }

  /** The child of the transcript an element is in. */
  private topLevelOf(el: HTMLElement): Element | undefined {
    let e: Element | null = el;
    while (e && e.parentElement !== this.root) e = e.parentElement;
    return e ?? undefined;
  }

  /** The text of the newest message of a kind (for announcing the reply when a turn ends). */
  lastText(kind: 'agent'): string | undefined {
    for (let b = this.blocks.length - 1; b >= 0; b--) {
      const list = this.blocks[b]!.entries;
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
    this.observer.disconnect();
    clearTimeout(this.olderTimer);
    this.olderSpacer = undefined;
    this.olderNear = false;
    this.olderAsked = false;
    this.olderPending = 0;
    this.revealing = undefined;
    this.firstId = items[0]?.id;
    this.entries.clear();
    this.blocks = [];
    this.rendered = 0;
    this.orphans.clear();
    this.byTerminal.clear();
    this.dirtyText.clear();
    this.streamed.clear();
    this.root.replaceChildren();
    this.stick = true;
    this.addMany(items, false);
    this.setOlder(older);
    this.counted();
    this.wantEnd = true;
    this.schedule();
  }

  /** How many items the view holds, for tests and tools (`data-items`). */
  private counted(): void {
    this.root.dataset.items = String(this.entries.size);
    this.root.dataset.older = String(this.olderPending);
  }

  /** Older history still to come: a spacer of about its height at the top, and the first batch asked for. */
  private setOlder(count: number): void {
    this.olderPending = count;
    if (count <= 0) {
      if (this.olderSpacer) {
        this.observer.unobserve(this.olderSpacer);
        this.olderSpacer.remove();
      }
      this.olderSpacer = undefined;
      this.olderNear = false;
      return;
    }
    if (!this.olderSpacer) {
      this.olderSpacer = document.createElement('div');
      this.olderSpacer.className = 'placeholder older-spacer';
      this.olderSpacer.setAttribute('aria-hidden', 'true');
      this.root.prepend(this.olderSpacer);
      this.observer.observe(this.olderSpacer);
    }
    this.olderSpacer.style.height = `${this.olderHeight()}px`;
    // Near the viewport: at once; else in the background, a batch at a time.
    clearTimeout(this.olderTimer);
    this.olderTimer = setTimeout(() => this.askOlder(), this.olderNear ? 0 : 30);
  }

  private olderHeight(): number {
    return Math.round(Math.min(this.olderPending, 200_000) * this.itemHeight() * 0.8);
  }

  /** An item's height, about: the average of what was measured so far. */
  private itemHeight(): number {
    return this.measuredItems ? this.measuredHeight / this.measuredItems : DEFAULT_ITEM_HEIGHT;
  }

  private askOlder(): void {
    if (this.olderAsked || this.olderPending <= 0 || this.firstId === undefined) return;
    this.olderAsked = true;
    this.post({ type: 'older', before: this.firstId, pending: this.olderPending });
  }

  /** Older history, above everything shown: collapsed blocks, shown when scrolled near; `remaining`: how many are older still. */
  prepend(items: readonly TranscriptItem[], remaining: number): void {
    this.olderAsked = false;
    if (items[0]) this.firstId = items[0].id;
    const top: Entry[] = [];
    const nested: Entry[] = [];
    for (const item of items) {
      if (this.entries.has(item.id)) continue;
      const entry: Entry = { item };
      this.entries.set(item.id, entry);
      this.track(item);
      (this.isTopLevel(item) ? top : nested).push(entry);
    }
    const blocks: Block[] = [];
    for (let i = 0; i < top.length; i += BLOCK) {
      const block: Block = { entries: top.slice(i, i + BLOCK) };
      for (const e of block.entries) e.block = block;
      block.spacer = this.spacer(block);
      blocks.push(block);
    }
    // Keep what the user looks at in place: the spacers' heights are known without a layout.
    const keep = this.stick ? undefined : this.root.scrollTop;
    const olderBefore = this.olderSpacer ? this.olderHeight() : 0;
    if (this.olderSpacer) this.olderSpacer.after(...blocks.map((b) => b.spacer!));
    else this.root.prepend(...blocks.map((b) => b.spacer!));
    this.blocks = [...blocks, ...this.blocks];
    this.setOlder(remaining);
    const olderShrunk = olderBefore - (this.olderSpacer ? this.olderHeight() : 0);
    // Items of subagent cards (and requests on tool calls) go before what their card already holds.
    for (const e of nested) this.placeNested(e, true);
    // A card whose items came before it is shown at once, with them.
    for (const e of top) if (this.orphans.has(e.item.id) && e.block) this.expand(e.block);
    if (keep !== undefined) this.root.scrollTop = keep + blocks.reduce((n, b) => n + this.heightOf(b), 0) - olderShrunk;
    else this.wantEnd = true;
    this.counted();
    this.schedule();
    if (this.revealing !== undefined && this.entries.has(this.revealing)) this.reveal(this.revealing);
  }

  /**
   * Scrolls to an item and gives it the keyboard: its block shown (and its card
   * unfolded), or — still in older history — once the batches before it have come
   * (asked for at once). False when the view neither has it nor expects more.
   */
  reveal(id: string): boolean {
    const e = this.entries.get(id);
    this.stick = false;
    if (!e) {
      this.revealing = this.olderPending > 0 ? id : undefined;
      clearTimeout(this.olderTimer);
      this.askOlder();
      return this.revealing !== undefined;
    }
    this.revealing = undefined;
    this.show(e);
    this.unfold(e.item.parent);
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
            if (this.olderPending === 0) this.addMany([d.item], streaming);
          } else {
            e.item = d.item;
            this.track(d.item);
            e.view?.update(d.item);
          }
          break;
        }
        case 'text': {
          flushAdds();
          const e = this.entries.get(d.id);
          if (e && 'text' in e.item) {
            (e.item as MessageItem).text += d.text;
            if (e.view) this.dirtyText.add(d.id);
            this.streamed.add(d.id);
          }
          break;
        }
        case 'term':
          flushAdds();
          this.applyTerminal(d.terminalId, d.text, d.start, d.truncated);
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
    if (this.stick) this.wantEnd = true;
    this.schedule();
  }

  private remove(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    if (e.el) {
      e.el.remove();
      this.rendered -= e.block ? 1 : 0;
    }
    const block = e.block;
    if (block) {
      block.entries.splice(block.entries.indexOf(e), 1);
      if (block.entries.length === 0) {
        block.spacer?.remove();
        this.blocks.splice(this.blocks.indexOf(block), 1);
      } else if (block.spacer) block.spacer.style.height = `${this.heightOf(block)}px`;
    }
    this.entries.delete(id);
    this.dirtyText.delete(id);
    this.streamed.delete(id);
  }

  /** Remembers which tool calls show which terminal. */
  private track(item: TranscriptItem): void {
    if (item.kind !== 'tool') return;
    for (const c of item.content) {
      if (c.type !== 'terminal') continue;
      let set = this.byTerminal.get(c.terminalId);
      if (!set) this.byTerminal.set(c.terminalId, (set = new Set()));
      set.add(item.id);
    }
  }

  /** New terminal output: every tool call showing the terminal holds the newest part (and is redrawn if on screen). */
  private applyTerminal(terminalId: string, text: string, start: number, truncated: boolean): void {
    for (const id of this.byTerminal.get(terminalId) ?? []) {
      const e = this.entries.get(id);
      if (e?.item.kind !== 'tool') continue;
      const content = e.item.content.map((c) => (c.type !== 'terminal' || c.terminalId !== terminalId ? c : { ...c, ...mergeTerminalText(c, text, start, truncated) }));
      e.item = { ...e.item, content };
      e.view?.update(e.item);
    }
  }

  /**
   * At the end of a turn: streamed messages are rendered once more as a whole —
   * in the task after the next frame, so that frame shows their last text at
   * once (markdown for all of a long answer can take longer than a frame).
   */
  finalizeStreams(): void {
    const ids = [...this.streamed];
    this.streamed.clear();
    if (ids.length === 0) return;
    this.schedule();
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.renderDirty();
        for (const id of ids) {
          const e = this.entries.get(id);
          if (e?.view?.finalize && 'text' in e.item) e.view.finalize(e.item as MessageItem);
        }
        if (this.stick) this.wantEnd = true;
        this.schedule();
      }),
    );
  }

  private isTopLevel(item: TranscriptItem): boolean {
    return item.parent === undefined && !(item.kind === 'permission' && item.toolItemId !== undefined && this.entries.has(item.toolItemId));
  }

  /**
   * New items at the end. The last block takes them while it has room; new
   * blocks after it are collapsed, but for the newest one when the user is at
   * the bottom — a large batch renders only what will be on screen.
   */
  private addMany(items: readonly TranscriptItem[], streaming: boolean): void {
    const nested: Entry[] = [];
    const top: Entry[] = [];
    for (const item of items) {
      const entry: Entry = { item };
      this.entries.set(item.id, entry);
      this.track(item);
      (this.isTopLevel(item) ? top : nested).push(entry);
    }
    // Which of the new top-level items are rendered now: the last block's worth, when the user is at the bottom.
    const eagerFrom = this.stick ? Math.max(0, top.length - BLOCK) : top.length;
    const frag = document.createDocumentFragment();
    let i = 0;
    // The last block takes what it has room for, rendered if it is shown (a large batch starts blocks of its own).
    const last = top.length > BLOCK ? undefined : this.blocks.at(-1);
    while (last && last.entries.length < BLOCK && i < top.length) {
      const e = top[i++]!;
      e.block = last;
      last.entries.push(e);
      if (last.spacer) last.spacer.style.height = `${this.heightOf(last)}px`;
      else frag.append(this.render(e, streaming));
    }
    while (i < top.length) {
      const block: Block = { entries: top.slice(i, i + BLOCK) };
      const show = i + block.entries.length > eagerFrom;
      i += block.entries.length;
      this.blocks.push(block);
      for (const e of block.entries) {
        e.block = block;
        if (show) frag.append(this.render(e, streaming));
      }
      if (!show) frag.append((block.spacer = this.spacer(block)));
    }
    this.root.append(frag);
    for (const e of nested) this.placeNested(e, false, streaming);
    // A question waiting for the user is always in the DOM, even where the user scrolled away.
    for (const e of top) if ((e.item.kind === 'permission' || e.item.kind === 'elicitation') && e.item.state === 'pending') this.show(e);
  }

  /** An item shown inside another: a subagent's in its card, a permission request on its tool call's card. */
  private placeNested(e: Entry, atStart: boolean, streaming = false): void {
    const item = e.item;
    const host = item.kind === 'permission' && item.toolItemId !== undefined && item.parent === undefined ? this.slotOf(item.toolItemId) : item.parent !== undefined ? this.container(item.parent) : undefined;
    const el = this.render(e, streaming && (item.kind === 'agent' || item.kind === 'thought'));
    if (!host) {
      // Its card is gone: shown at the end rather than lost.
      this.root.append(el);
      return;
    }
    if (atStart) host.prepend(el);
    else host.append(el);
    // A question inside a folded card (or cards) unfolds them: it must not wait unseen.
    if (item.parent !== undefined && (item.kind === 'permission' || item.kind === 'elicitation')) this.unfold(item.parent);
  }

  private render(e: Entry, streaming: boolean): HTMLElement {
    const view = renderItem(e.item, this.post, streaming && (e.item.kind === 'agent' || e.item.kind === 'thought'));
    e.view = view;
    e.el = view.el;
    if (e.block) this.rendered++;
    this.adopt(e.item.id, view);
    return view.el;
  }

  /**
   * Where the items of a subagent card go: the card's body (its block shown
   * now if it was collapsed), or — the card not here yet — a holding place.
   */
  private container(cardId: string): HTMLElement {
    const card = this.entries.get(cardId);
    if (card) {
      this.show(card);
      card.holds = true;
      if (card.view?.children) return card.view.children;
    }
    let held = this.orphans.get(cardId);
    if (!held) this.orphans.set(cardId, (held = document.createElement('div')));
    return held;
  }

  /** A tool call's card's place for its permission request (shown now if it was collapsed); none when it is not here. */
  private slotOf(toolItemId: string): HTMLElement | undefined {
    const e = this.entries.get(toolItemId);
    if (!e) return undefined;
    this.show(e);
    e.holds = true;
    return e.view?.slot;
  }

  /** Makes an entry rendered and in the DOM: its block expanded (or, nested, its card's). A card kept while collapsed has a view but is not in the DOM. */
  private show(e: Entry): void {
    if (e.block) {
      if (e.block.spacer) this.expand(e.block);
    } else if (e.item.parent !== undefined) {
      const card = this.entries.get(e.item.parent);
      if (card) this.show(card);
    }
  }

  /** Opens a card and the cards around it. */
  private unfold(cardId: string | undefined): void {
    for (let id = cardId, n = 0; id !== undefined && n < 50; n++) {
      const e = this.entries.get(id);
      const d = e?.el?.querySelector('details');
      if (d) d.open = true;
      id = e?.item.parent;
    }
  }

  /** A card just rendered takes in the items that came before it. */
  private adopt(id: string, view: ItemView): void {
    const held = this.orphans.get(id);
    if (!held || !view.children) return;
    this.orphans.delete(id);
    view.children.prepend(...held.childNodes);
    const e = this.entries.get(id);
    if (e) e.holds = true;
  }

  private heightOf(block: Block): number {
    return block.height ?? block.entries.length * this.itemHeight();
  }

  private spacer(block: Block): HTMLElement {
    const s = document.createElement('div');
    s.className = 'placeholder block-spacer';
    s.setAttribute('aria-hidden', 'true');
    s.style.height = `${this.heightOf(block)}px`;
    this.spacers.set(s, block);
    this.observer.observe(s);
    return s;
  }

  /** Shows a collapsed block's items in place of its spacer. */
  private expand(block: Block): void {
    const spacer = block.spacer;
    if (!spacer) return;
    this.observer.unobserve(spacer);
    block.spacer = undefined;
    const frag = document.createDocumentFragment();
    for (const e of block.entries) {
      if (e.el && e.holds) {
        // A card kept whole (it holds other items): back as it was.
        this.rendered++;
        frag.append(e.el);
      } else frag.append(this.render(e, false));
    }
    spacer.replaceWith(frag);
  }

  /** Puts a shown block back behind a spacer of the height it had (its items' views go, unless they hold others). */
  private collapse(block: Block, height: number): void {
    const first = block.entries[0]?.el;
    if (!first || block.spacer) return;
    this.measuredHeight += height;
    this.measuredItems += block.entries.length;
    block.height = height;
    const spacer = this.spacer(block);
    first.before(spacer);
    block.spacer = spacer;
    for (const e of block.entries) {
      e.el?.remove();
      if (e.el) this.rendered--;
      this.dirtyText.delete(e.item.id);
      // Cards that hold other items keep their elements (detached): those items live there.
      if (!e.holds) {
        e.view = undefined;
        e.el = undefined;
      }
    }
  }

  /**
   * Past the budget, the shown blocks farthest from `near` collapse (never the
   * last block, one holding the focus, or one near `near`). Reads the layout
   * once, in a frame.
   */
  private trim(near: Block): void {
    // A question waiting for the user (on a card of the block, or in a subagent's) stays in the DOM.
    const pending = '.permission[data-state="pending"], .elicitation[data-state="pending"]';
    const waits = (b: Block) => b.entries.some((e) => !!e.el && (e.el.matches(pending) || (e.holds === true && !!e.el.querySelector(pending))));
    const last = this.blocks.length - 1;
    // At the bottom, only the last blocks stay (what they hold is the budget); scrolling around, up to BUDGET.
    const budget = this.stick && near === this.blocks[last] ? this.blocks.slice(-(KEEP_NEAR + 1)).reduce((n, b) => n + (b.spacer ? 0 : b.entries.length), 0) : BUDGET;
    if (this.rendered <= budget) return;
    const at = this.blocks.indexOf(near);
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const candidates = this.blocks
      .map((b, i) => ({ b, i }))
      .filter(({ b, i }) => !b.spacer && i !== last && Math.abs(i - at) > KEEP_NEAR && !(focused && b.entries.some((e) => e.el?.contains(focused))) && !waits(b))
      .sort((x, y) => Math.abs(y.i - at) - Math.abs(x.i - at));
    // Measure first (one layout), then change the DOM.
    const plan: { b: Block; height: number }[] = [];
    let left = this.rendered;
    for (const { b } of candidates) {
      if (left <= budget) break;
      const els = b.entries.map((e) => e.el).filter((x): x is HTMLElement => !!x);
      const first = els[0];
      const lastEl = els.at(-1);
      if (!first || !lastEl) continue;
      plan.push({ b, height: Math.max(0, lastEl.getBoundingClientRect().bottom - first.getBoundingClientRect().top) });
      left -= els.length;
    }
    const atTop = !this.stick && this.root.scrollTop === 0;
    for (const { b, height } of plan) this.collapse(b, height);
    // Scroll anchoring keeps the view in place; at the very top it does not, and nothing collapsed above then anyway.
    if (atTop) this.root.scrollTop = 0;
  }

  /** One frame: streamed text, trimming, and the stick to the bottom — the layout read once. */
  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderDirty();
      const near = this.wantTrim ?? (this.stick ? this.blocks.at(-1) : undefined);
      this.wantTrim = undefined;
      if (near) this.trim(near);
      if (this.wantEnd) {
        this.wantEnd = false;
        if (this.stick) this.scrollToEnd();
      }
    });
  }

  private renderDirty(): void {
    for (const id of this.dirtyText) {
      const e = this.entries.get(id);
      if (e?.view?.appendText && 'text' in e.item) e.view.appendText(e.item as MessageItem);
    }
    this.dirtyText.clear();
  }

  /** Scrolls to a saved position (not sticking to the bottom unless it is the bottom). */
  scrollTo(top: number): void {
    this.root.scrollTop = top;
    this.stick = this.atBottom();
  }

  private atBottom(): boolean {
    return this.root.scrollTop + this.root.clientHeight >= this.root.scrollHeight - 40;
  }

  private scrollToEnd(): void {
    this.root.scrollTop = this.root.scrollHeight;
    this.ownTop = this.root.scrollTop;
  }
}
