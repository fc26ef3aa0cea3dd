/**
 * Keyboard in the transcript: Up/Down move between messages, tool calls and the
 * other items (into subagent cards too), Home/End to the first/last; from the
 * transcript itself, Up goes to the last item. Collapsed history is shown on the way.
 */
import type { Blocks } from './transcriptBlocks';

type KeyBlocks = Pick<Blocks, 'first' | 'last' | 'ofSpacer' | 'expand'>;

export function keyNavigation(root: HTMLElement, blocks: KeyBlocks): void {
  root.addEventListener('keydown', (e) => onKey(e, root, blocks));
}

function onKey(e: KeyboardEvent, root: HTMLElement, blocks: KeyBlocks): void {
  if (!['ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = e.target as HTMLElement;
  // Keys inside a form field or a select are theirs.
  if (target.closest('input, textarea, select')) return;
  const current = target.closest<HTMLElement>('.item');
  if (e.key === 'Home' && blocks.first) blocks.expand(blocks.first);
  else if (e.key === 'End' && blocks.last) blocks.expand(blocks.last);
  else if (current) {
    // The neighbouring block, if it is a spacer, is shown first.
    const top = topLevelOf(root, current);
    const sibling = e.key === 'ArrowUp' ? top?.previousElementSibling : top?.nextElementSibling;
    const block = sibling ? blocks.ofSpacer(sibling) : undefined;
    if (block) blocks.expand(block);
  } else if (e.key === 'ArrowUp' && blocks.last) blocks.expand(blocks.last);
  const items = [...root.querySelectorAll<HTMLElement>('.item')].filter((el) => !el.closest('details:not([open]) > :not(summary)'));
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
function topLevelOf(root: HTMLElement, el: HTMLElement): Element | undefined {
  let e: Element | null = el;
  while (e && e.parentElement !== root) e = e.parentElement;
  return e ?? undefined;
}
