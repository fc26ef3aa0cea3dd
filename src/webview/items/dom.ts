/**
 * What every item view builds with: elements (agent text only as textContent),
 * icons, buttons, translated sentences with elements in them, and the
 * session's folder for showing paths relative to it.
 */
import type { WebviewToHost } from '../../shared/webviewProtocol';

export type Post = (m: WebviewToHost) => void;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function icon(name: string, label?: string): HTMLSpanElement {
  const s = h('span', `codicon codicon-${name}`);
  if (label) {
    s.setAttribute('role', 'img');
    s.setAttribute('aria-label', label);
  } else s.setAttribute('aria-hidden', 'true');
  return s;
}

export function button(label: string, cls: string, onClick: () => void, iconName?: string): HTMLButtonElement {
  const b = h('button', cls);
  b.type = 'button';
  if (iconName) b.append(icon(iconName), document.createTextNode(` ${label}`));
  else b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * A translated sentence with elements in it: `template`'s `{0}`, `{1}` … become
 * `nodes[0]`, `nodes[1]` …, the words around them text.
 */
export function sentence(template: string, ...nodes: Node[]): Node[] {
  return template.split(/(\{\d+\})/).map((piece) => {
    const m = /^\{(\d+)\}$/.exec(piece);
    return (m && nodes[Number(m[1])]) || document.createTextNode(piece);
  });
}

/** Sets an element's text only when it differs (no needless DOM change). */
export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Makes `parent`'s children exactly `desired`, in order, moving as little as
 * possible: children that stay are never taken out (an element keeps its
 * focus, its open state, its scroll position).
 */
export function syncChildren(parent: Element, desired: readonly Node[]): void {
  const keep = new Set(desired);
  for (let c = parent.firstChild; c; ) {
    const next = c.nextSibling;
    if (!keep.has(c)) c.remove();
    c = next;
  }
  let cur = parent.firstChild;
  for (const n of desired) {
    if (n === cur) cur = cur.nextSibling;
    else parent.insertBefore(n, cur);
  }
}

let displayRoot: string | undefined;
/** The session's folder, for showing the paths inside it relative to it. */
export function setDisplayRoot(root: string | undefined): void {
  displayRoot = root;
}
export function getDisplayRoot(): string | undefined {
  return displayRoot;
}

export function basename(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}
