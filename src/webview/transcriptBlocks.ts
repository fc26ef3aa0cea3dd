/**
 * The transcript's windowing: top-level items grouped in blocks, each either
 * expanded (its items' elements in the DOM) or collapsed behind one spacer of
 * its measured — or, never shown, estimated — height. Owns the blocks, how many
 * items are rendered and what was measured; knows items only as `Entry`s, which
 * it renders through the view's `render`.
 */
import type { TranscriptItem } from '../shared/transcriptTypes';
import type { ItemHandle } from './render';

/** One item of the view. */
export interface Entry {
  item: TranscriptItem;
  view?: ItemHandle;
  /** The item's element while rendered. */
  el?: HTMLElement;
  /** A top-level item's block (nested items — in a subagent's card, on a tool call's card — have none). */
  block?: Block;
  /** Something else is shown inside this item's element (a card's items, a permission request): kept when its block collapses. */
  holds?: boolean;
}

export interface Block {
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

/**
 * One IntersectionObserver for every spacer (the blocks', older history's): each
 * is told when it comes within 1,500 px of the viewport, or leaves.
 */
export class NearViewport {
  private readonly observer: IntersectionObserver;
  private readonly handlers = new WeakMap<Element, (near: boolean, el: Element) => void>();

  constructor(root: HTMLElement) {
    this.observer = new IntersectionObserver((records) => {
      for (const r of records) this.handlers.get(r.target)?.(r.isIntersecting, r.target);
    }, { root, rootMargin: '1500px 0px' });
  }

  watch(el: Element, onNear: (near: boolean, el: Element) => void): void {
    this.handlers.set(el, onNear);
    this.observer.observe(el);
  }

  unwatch(el: Element): void {
    this.observer.unobserve(el);
  }

  clear(): void {
    this.observer.disconnect();
  }
}

/** What the blocks need of the view. */
export interface BlockHost {
  /** Renders an entry (its view and element set). */
  render(e: Entry, streaming: boolean): HTMLElement;
  /** A collapsed block came near the viewport and was expanded. */
  shown(block: Block): void;
  /** An entry's element left the DOM with its block. */
  hidden(e: Entry): void;
}

export class Blocks {
  private list: Block[] = [];
  /** Entries of blocks whose elements are in the DOM (nested items not counted). */
  private rendered = 0;
  private measuredHeight = 0;
  private measuredItems = 0;
  private readonly spacers = new WeakMap<Element, Block>();
  private readonly onSpacer = (near: boolean, el: Element): void => {
    if (!near) return;
    const block = this.spacers.get(el);
    if (block) {
      this.expand(block);
      this.host.shown(block);
    }
  };

  constructor(
    private readonly root: HTMLElement,
    private readonly near: NearViewport,
    private readonly host: BlockHost,
  ) {}

  get all(): readonly Block[] {
    return this.list;
  }

  get first(): Block | undefined {
    return this.list[0];
  }

  get last(): Block | undefined {
    return this.list.at(-1);
  }

  /** The block a spacer stands for. */
  ofSpacer(el: Element): Block | undefined {
    return this.spacers.get(el);
  }

  reset(): void {
    this.list = [];
    this.rendered = 0;
  }

  /** An item's height, about: the average of what was measured so far. */
  itemHeight(): number {
    return this.measuredItems ? this.measuredHeight / this.measuredItems : DEFAULT_ITEM_HEIGHT;
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
    this.near.watch(s, this.onSpacer);
    return s;
  }

  private renderIn(e: Entry, streaming: boolean): HTMLElement {
    const el = this.host.render(e, streaming);
    this.rendered++;
    return el;
  }

  /**
   * New top-level entries at the end. The last block takes them while it has
   * room; new blocks after it are collapsed, but for the newest one when the user
   * is at the bottom (`stick`) — a large batch renders only what will be on
   * screen. Returns what to append to the transcript.
   */
  append(top: readonly Entry[], stick: boolean, streaming: boolean): DocumentFragment {
    // Which of the new top-level items are rendered now: the last block's worth, when the user is at the bottom.
    const eagerFrom = stick ? Math.max(0, top.length - BLOCK) : top.length;
    const frag = document.createDocumentFragment();
    let i = 0;
    // The last block takes what it has room for, rendered if it is shown (a large batch starts blocks of its own).
    const last = top.length > BLOCK ? undefined : this.list.at(-1);
    while (last && last.entries.length < BLOCK && i < top.length) {
      const e = top[i++]!;
      e.block = last;
      last.entries.push(e);
      if (last.spacer) last.spacer.style.height = `${this.heightOf(last)}px`;
      else frag.append(this.renderIn(e, streaming));
    }
    while (i < top.length) {
      const block: Block = { entries: top.slice(i, i + BLOCK) };
      const show = i + block.entries.length > eagerFrom;
      i += block.entries.length;
      this.list.push(block);
      for (const e of block.entries) {
        e.block = block;
        if (show) frag.append(this.renderIn(e, streaming));
      }
      if (!show) frag.append((block.spacer = this.spacer(block)));
    }
    return frag;
  }

  /** Older entries above all blocks, collapsed, their spacers after `after` (else first in the transcript); returns the height added. */
  prepend(top: readonly Entry[], after: HTMLElement | undefined): number {
    const blocks: Block[] = [];
    for (let i = 0; i < top.length; i += BLOCK) {
      const block: Block = { entries: top.slice(i, i + BLOCK) };
      for (const e of block.entries) e.block = block;
      block.spacer = this.spacer(block);
      blocks.push(block);
    }
    if (after) after.after(...blocks.map((b) => b.spacer!));
    else this.root.prepend(...blocks.map((b) => b.spacer!));
    this.list = [...blocks, ...this.list];
    return blocks.reduce((n, b) => n + this.heightOf(b), 0);
  }

  /** An entry gone: out of the DOM and of its block (a block left empty goes too). */
  remove(e: Entry): void {
    if (e.el) {
      e.el.remove();
      this.rendered -= e.block ? 1 : 0;
    }
    const block = e.block;
    if (block) {
      block.entries.splice(block.entries.indexOf(e), 1);
      if (block.entries.length === 0) {
        block.spacer?.remove();
        this.list.splice(this.list.indexOf(block), 1);
      } else if (block.spacer) block.spacer.style.height = `${this.heightOf(block)}px`;
    }
  }

  /** Shows a collapsed block's items in place of its spacer. */
  expand(block: Block): void {
    const spacer = block.spacer;
    if (!spacer) return;
    this.near.unwatch(spacer);
    block.spacer = undefined;
    const frag = document.createDocumentFragment();
    for (const e of block.entries) {
      if (e.el && e.holds) {
        // A card kept whole (it holds other items): back as it was.
        this.rendered++;
        frag.append(e.el);
      } else frag.append(this.renderIn(e, false));
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
      this.host.hidden(e);
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
   * once; call it in a frame. `stick`: the user is at the bottom.
   */
  trim(near: Block, stick: boolean): void {
    // A question waiting for the user (on a card of the block, or in a subagent's) stays in the DOM.
    const pending = '.permission[data-state="pending"], .elicitation[data-state="pending"]';
    const waits = (b: Block) => b.entries.some((e) => !!e.el && (e.el.matches(pending) || (e.holds === true && !!e.el.querySelector(pending))));
    const last = this.list.length - 1;
    // At the bottom, only the last blocks stay (what they hold is the budget); scrolling around, up to BUDGET.
    const budget = stick && near === this.list[last] ? this.list.slice(-(KEEP_NEAR + 1)).reduce((n, b) => n + (b.spacer ? 0 : b.entries.length), 0) : BUDGET;
    if (this.rendered <= budget) return;
    const at = this.list.indexOf(near);
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const candidates = this.list
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
    const atTop = !stick && this.root.scrollTop === 0;
    for (const { b, height } of plan) this.collapse(b, height);
    // Scroll anchoring keeps the view in place; at the very top it does not, and nothing collapsed above then anyway.
    if (atTop) this.root.scrollTop = 0;
  }
}
