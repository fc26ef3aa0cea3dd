/**
 * Items shown inside another: a subagent's in its card, a permission request on
 * its tool call's card. Owns the items whose card is not here yet (older
 * history still to come), held until the card is rendered.
 */
import type { ItemHandle } from './render';
import type { Entry } from './transcriptBlocks';

/** What the cards need of the view. */
export interface CardHost {
  entry(id: string): Entry | undefined;
  /** Makes an entry rendered and in the DOM. */
  show(e: Entry): void;
  render(e: Entry, streaming: boolean): HTMLElement;
}

export class Cards {
  /** Items of a subagent card not shown yet (the card is in older history still to come), by card id. */
  private readonly orphans = new Map<string, HTMLElement>();

  constructor(
    private readonly root: HTMLElement,
    private readonly host: CardHost,
  ) {}

  clear(): void {
    this.orphans.clear();
  }

  /** Whether items wait for this card. */
  waiting(cardId: string): boolean {
    return this.orphans.has(cardId);
  }

  /** Renders a nested item into its card (`atStart`: before what the card holds: older history). */
  place(e: Entry, atStart: boolean, streaming = false): void {
    const item = e.item;
    const host = item.kind === 'permission' && item.toolItemId !== undefined && item.parent === undefined ? this.slotOf(item.toolItemId) : item.parent !== undefined ? this.container(item.parent) : undefined;
    const el = this.host.render(e, streaming && (item.kind === 'agent' || item.kind === 'thought'));
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

  /** Opens a card and the cards around it. */
  unfold(cardId: string | undefined): void {
    for (let id = cardId, n = 0; id !== undefined && n < 50; n++) {
      const e = this.host.entry(id);
      const d = e?.el?.querySelector('details');
      if (d) d.open = true;
      id = e?.item.parent;
    }
  }

  /** A card just rendered takes in the items that came before it. */
  adopt(id: string, view: ItemHandle): void {
    const held = this.orphans.get(id);
    if (!held || !view.children) return;
    this.orphans.delete(id);
    view.children.prepend(...held.childNodes);
    const e = this.host.entry(id);
    if (e) e.holds = true;
  }

  /**
   * Where the items of a subagent card go: the card's body (its block shown
   * now if it was collapsed), or — the card not here yet — a holding place.
   */
  private container(cardId: string): HTMLElement {
    const card = this.host.entry(cardId);
    if (card) {
      this.host.show(card);
      card.holds = true;
      if (card.view?.children) return card.view.children;
    }
    let held = this.orphans.get(cardId);
    if (!held) this.orphans.set(cardId, (held = document.createElement('div')));
    return held;
  }

  /** A tool call's card's place for its permission request (shown now if it was collapsed); none when it is not here. */
  private slotOf(toolItemId: string): HTMLElement | undefined {
    const e = this.host.entry(toolItemId);
    if (!e) return undefined;
    this.host.show(e);
    e.holds = true;
    return e.view?.slot;
  }
}
