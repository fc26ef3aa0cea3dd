/**
 * The transcript in the DOM: applied from a snapshot and then deltas, never
 * re-rendered as a whole. Items far above the viewport stay cheap placeholders
 * until scrolled near; streamed text is rendered at most once per frame; the
 * view sticks to the bottom while the user is there.
 */
import type { MessageItem, TranscriptDelta, TranscriptItem } from '../shared/transcriptTypes';
import { mergeTerminalText } from '../shared/terminalText';
import { renderItem, type ItemView, type Post } from './render';

interface Entry {
  item: TranscriptItem;
  view?: ItemView;
  el: HTMLElement;
}

/**
 * Items rendered right away at the end of a large batch (about a screenful); the
 * rest wait as placeholders, rendered by the observer once near the viewport.
 */
const EAGER_TAIL = 20;
const PLACEHOLDER_HEIGHT = 64;

export class TranscriptView {
  private readonly entries = new Map<string, Entry>();
  /** Items of a subagent card not shown yet (the card is in older history still to come), by card id. */
  private readonly orphans = new Map<string, HTMLElement>();
  private readonly dirtyText = new Set<string>();
  private readonly streamed = new Set<string>();
  private frame = 0;
  private stick = true;
  private readonly observer: IntersectionObserver;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: Post,
  ) {
    this.observer = new IntersectionObserver((records) => {
      for (const r of records) if (r.isIntersecting) this.materialize((r.target as HTMLElement).dataset.id ?? '');
    }, { root, rootMargin: '1500px 0px' });
    root.addEventListener('scroll', () => {
      this.stick = root.scrollTop + root.clientHeight >= root.scrollHeight - 40;
    }, { passive: true });
    root.addEventListener('keydown', (e) => this.onKey(e));
  }

  /**
   * Keyboard: Up/Down move between messages, tool calls and the other items
   * (into subagent cards too), Home/End to the first/last; from the transcript
   * itself, Up goes to the last item.
   */
  private onKey(e: KeyboardEvent): void {
    if (!['ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    // Keys inside a form field or a select are theirs.
    if (target.closest('input, textarea, select')) return;
    const items = [...this.root.querySelectorAll<HTMLElement>('.item')].filter((el) => !el.closest('details:not([open]) > :not(summary)'));
    if (items.length === 0) return;
    const current = target.closest<HTMLElement>('.item');
    let i = current ? items.indexOf(current) : items.length;
    if (e.key === 'Home') i = 0;
    else if (e.key === 'End') i = items.length - 1;
    else i = Math.max(0, Math.min(items.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)));
    const next = items[i];
    if (!next || next === current) return;
    e.preventDefault();
    this.focusItem(next);
  }

  private focusItem(el: HTMLElement): void {
    const id = el.dataset.id;
    // An item of older history not rendered yet: rendered first.
    if (id !== undefined && el.classList.contains('placeholder')) this.materialize(id);
    const shown = (id !== undefined ? this.entries.get(id)?.el : undefined) ?? el;
    shown.tabIndex = -1;
    shown.focus();
    shown.scrollIntoView({ block: 'nearest' });
  }

  /** The text of the newest message of a kind (for announcing the reply when a turn ends). */
  lastText(kind: 'agent'): string | undefined {
    const all = [...this.entries.values()];
    for (let i = all.length - 1; i >= 0; i--) {
      const it = all[i]!.item;
      if (it.kind === kind && it.parent === undefined) return it.text;
    }
    return undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Replaces everything with a snapshot. */
  reset(items: readonly TranscriptItem[]): void {
    this.observer.disconnect();
    this.entries.clear();
    this.orphans.clear();
    this.dirtyText.clear();
    this.streamed.clear();
    this.root.replaceChildren();
    this.addMany(items, false);
    this.stick = true;
    this.scrollToEnd();
  }

  /** Older history, above everything shown: placeholders, rendered when scrolled near. */
  prepend(items: readonly TranscriptItem[]): void {
    const frag = document.createDocumentFragment();
    // Items of subagent cards go before what those cards already hold.
    const inCards = new Map<HTMLElement, DocumentFragment>();
    for (const item of items) {
      if (this.entries.has(item.id)) continue;
      const el = this.placeholder(item.id);
      this.entries.set(item.id, { item, el });
      const card = item.parent !== undefined ? this.container(item.parent) : undefined;
      if (!card) frag.append(el);
      else {
        let f = inCards.get(card);
        if (!f) inCards.set(card, (f = document.createDocumentFragment()));
        f.append(el);
      }
      // A card whose items are already here is shown at once, with them.
      if (this.orphans.has(item.id)) this.materialize(item.id);
    }
    // Keep what the user looks at in place (browsers do not anchor at scrollTop 0).
    const before = this.root.scrollHeight;
    const top = this.root.scrollTop;
    for (const [card, f] of inCards) card.prepend(f);
    this.root.prepend(frag);
    if (this.stick) this.scrollToEnd();
    else this.root.scrollTop = top + (this.root.scrollHeight - before);
  }

  /**
   * Where the items of a subagent card go: the card's body (the card is rendered
   * now if it was a placeholder), or — the card not here yet — a holding place.
   */
  private container(cardId: string): HTMLElement {
    const e = this.entries.get(cardId);
    if (e && !e.view) this.materialize(cardId);
    const children = this.entries.get(cardId)?.view?.children;
    if (children) return children;
    let held = this.orphans.get(cardId);
    if (!held) this.orphans.set(cardId, (held = document.createElement('div')));
    return held;
  }

  /** A tool call's card's place for its permission request (rendered now if it was a placeholder); none when it is not here. */
  private slotOf(toolItemId: string): HTMLElement | undefined {
    const e = this.entries.get(toolItemId);
    if (!e) return undefined;
    if (!e.view) this.materialize(toolItemId);
    return this.entries.get(toolItemId)?.view?.slot;
  }

  /** Opens a card and the cards around it. */
  private unfold(cardId: string | undefined): void {
    for (let id = cardId, n = 0; id !== undefined && n < 50; n++) {
      const e = this.entries.get(id);
      const d = e?.el.querySelector('details');
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
  }

  private placeholder(id: string): HTMLElement {
    const ph = document.createElement('div');
    ph.className = 'item placeholder';
    ph.dataset.id = id;
    ph.style.minHeight = `${PLACEHOLDER_HEIGHT}px`;
    this.observer.observe(ph);
    return ph;
  }

  apply(deltas: readonly TranscriptDelta[], streaming: boolean): void {
    const atBottom = this.stick;
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
          if (!e) this.addMany([d.item], streaming);
          else {
            e.item = d.item;
            e.view?.update(d.item);
          }
          break;
        }
        case 'text': {
          flushAdds();
          const e = this.entries.get(d.id);
          if (e && 'text' in e.item) {
            (e.item as MessageItem).text += d.text;
            this.dirtyText.add(d.id);
            this.streamed.add(d.id);
          }
          break;
        }
        case 'term':
          flushAdds();
          this.applyTerminal(d.terminalId, d.text, d.start, d.truncated);
          break;
        case 'remove': {
          flushAdds();
          const e = this.entries.get(d.id);
          if (e) {
            this.observer.unobserve(e.el);
            e.el.remove();
            this.entries.delete(d.id);
            this.dirtyText.delete(d.id);
            this.streamed.delete(d.id);
          }
          break;
        }
        case 'header':
          break;
      }
    }
    flushAdds();
    if (this.dirtyText.size > 0) this.schedule();
    if (atBottom) this.scrollToEnd();
  }

  /** New terminal output: every tool call showing the terminal holds the newest part (and is redrawn if on screen). */
  private applyTerminal(terminalId: string, text: string, start: number, truncated: boolean): void {
    for (const e of this.entries.values()) {
      if (e.item.kind !== 'tool') continue;
      let hit = false;
      const content = e.item.content.map((c) => {
        if (c.type !== 'terminal' || c.terminalId !== terminalId) return c;
        hit = true;
        return { ...c, ...mergeTerminalText(c, text, start, truncated) };
      });
      if (!hit) continue;
      e.item = { ...e.item, content };
      e.view?.update(e.item);
    }
  }

  /** At the end of a turn: streamed messages are rendered once more as a whole. */
  finalizeStreams(): void {
    this.renderDirty();
    for (const id of this.streamed) {
      const e = this.entries.get(id);
      if (e?.view?.finalize && 'text' in e.item) e.view.finalize(e.item as MessageItem);
    }
    this.streamed.clear();
    if (this.stick) this.scrollToEnd();
  }

  private addMany(items: readonly TranscriptItem[], streaming: boolean): void {
    const frag = document.createDocumentFragment();
    const lazyUntil = items.length > EAGER_TAIL ? items.length - EAGER_TAIL : 0;
    items.forEach((item, i) => {
      let entry: Entry;
      if (i < lazyUntil && item.kind !== 'subagent') {
        entry = { item, el: this.placeholder(item.id) };
      } else {
        const view = renderItem(item, this.post, streaming && (item.kind === 'agent' || item.kind === 'thought'));
        entry = { item, view, el: view.el };
        this.adopt(item.id, view);
      }
      this.entries.set(item.id, entry);
      // A permission request goes on its tool call's card; a subagent's items go in its card.
      const onCard = item.kind === 'permission' && item.toolItemId !== undefined ? this.slotOf(item.toolItemId) : undefined;
      (onCard ?? (item.parent !== undefined ? this.container(item.parent) : frag)).append(entry.el);
      // A question inside a folded card (or cards) unfolds them: it must not wait unseen.
      if (item.parent !== undefined && (item.kind === 'permission' || item.kind === 'elicitation')) this.unfold(item.parent);
    });
    this.root.append(frag);
  }

  private materialize(id: string): void {
    const e = this.entries.get(id);
    if (!e || e.view) return;
    this.observer.unobserve(e.el);
    const view = renderItem(e.item, this.post, false);
    e.el.replaceWith(view.el);
    e.view = view;
    e.el = view.el;
    this.adopt(id, view);
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const atBottom = this.stick;
      this.renderDirty();
      if (atBottom) this.scrollToEnd();
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
    this.stick = this.root.scrollTop + this.root.clientHeight >= this.root.scrollHeight - 40;
  }

  private scrollToEnd(): void {
    this.root.scrollTop = this.root.scrollHeight;
  }
}
