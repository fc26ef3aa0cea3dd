/**
 * DOM for the transcript's items: the dispatch to the view of each kind
 * (./items, one module per kind, in a typed table). Everything from the agent
 * goes in as text (textContent) or through the markdown sanitizer — never as
 * raw HTML. A rendered item is patched in place on each update.
 */
import type { MessageItem, SessionMessageItem, TranscriptItem } from '../shared/transcriptTypes';
import { ITEM_VIEWS } from './items';
import type { ItemView } from './items/types';

export { h, icon, setDisplayRoot, type Post } from './items/dom';
import type { Post } from './items/dom';

/** A rendered item: its element, and how to update it in place. */
export interface ItemHandle {
  readonly el: HTMLElement;
  update(item: TranscriptItem): void;
  appendText?(item: MessageItem | SessionMessageItem): void;
  /** Where the items of a subagent's card go. */
  readonly children?: HTMLElement;
  /** On a tool call's card: where a permission request about it goes (kept across updates). */
  readonly slot?: HTMLElement;
  /** Renders a streamed message once more as a whole (at the end of a turn). */
  finalize?(item: MessageItem): void;
}

export function renderItem(item: TranscriptItem, post: Post, streaming: boolean): ItemHandle {
  // The table holds the view of `item.kind`, for the type of item of that kind.
  const view = ITEM_VIEWS[item.kind] as ItemView<TranscriptItem>;
  const el = view.create(item, { post, streaming });
  let prev = item;
  const appendText = view.appendText;
  const finalize = view.finalize;
  return {
    el,
    children: view.children?.(el),
    slot: view.slot?.(el),
    update(next) {
      view.update(el, prev, next);
      prev = next;
    },
    appendText: appendText && ((next) => {
      appendText(el, next);
      prev = next;
    }),
    finalize: finalize && ((next) => finalize(el, next)),
  };
}
