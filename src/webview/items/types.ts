/**
 * The contract of an item view: one per kind of transcript item, in the typed
 * table of ./index.ts. `create` builds the element once; `update` patches it
 * in place from the item as it was to the item as it is, so what the user
 * opened stays open and the focus stays where it was.
 */
import type { MessageItem, TranscriptItem } from '../../shared/transcriptTypes';
import type { Post } from './dom';

export type Kind = TranscriptItem['kind'];

/** The item type of a kind (the message kinds share one). */
export type ItemOf<K extends Kind> = K extends MessageItem['kind'] ? MessageItem : Extract<TranscriptItem, { kind: K }>;

export interface ItemContext {
  readonly post: Post;
  /** A message still streaming: rendered incrementally until finalized. */
  readonly streaming: boolean;
}

export interface ItemView<T extends TranscriptItem> {
  create(item: T, ctx: ItemContext): HTMLElement;
  /** Patches `el` (made by `create`) from `prev` to `next`. */
  update(el: HTMLElement, prev: T, next: T): void;
  /** Streamed text was added to the item (rendered at most once per frame). */
  appendText?(el: HTMLElement, item: T): void;
  /** Renders a streamed message once more as a whole (at the end of a turn). */
  finalize?(el: HTMLElement, item: T): void;
  /** Where the items of a subagent's card go. */
  children?(el: HTMLElement): HTMLElement | undefined;
  /** On a tool call's card: where a permission request about it goes (kept across updates). */
  slot?(el: HTMLElement): HTMLElement | undefined;
}

/** A view for every kind: a kind without one does not build. */
export type ItemViews = { readonly [K in Kind]: ItemView<ItemOf<K>> };

/** Per-element state of a view, kept beside the element. */
export class ViewState<S> {
  private readonly map = new WeakMap<HTMLElement, S>();
  set(el: HTMLElement, s: S): S {
    this.map.set(el, s);
    return s;
  }
  get(el: HTMLElement): S {
    const s = this.map.get(el);
    if (!s) throw new Error('an item view was asked to update an element it did not create');
    return s;
  }
}
