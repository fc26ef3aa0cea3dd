/**
 * A tool call's card: kind, title, status, locations, content, raw input and
 * output, and a slot for a permission request about it. Patched in place: an
 * open "Raw input" stays open and keeps the focus, an unchanged diff is not
 * computed again.
 */
import * as l10n from '@vscode/l10n';
import { relativizeText } from '../../shared/paths';
import type { ToolItem } from '../../shared/transcriptTypes';
import { basename, getDisplayRoot, h, icon, setText, syncChildren, type Post } from './dom';
import { syncContent, syncRaw, type ContentEls } from './toolContent';
import { ViewState, type ItemView } from './types';

const TOOL_ICONS: Record<string, string> = {
  read: 'file',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'arrow-both',
  other: 'tools',
};

/** What a tool call's kind is called (its icon's label). */
function toolKindLabel(kind: string): string {
  switch (kind) {
    case 'read':
      return l10n.t('read');
    case 'edit':
      return l10n.t('edit');
    case 'delete':
      return l10n.t('delete');
    case 'move':
      return l10n.t('move');
    case 'search':
      return l10n.t('search');
    case 'execute':
      return l10n.t('execute');
    case 'think':
      return l10n.t('think');
    case 'fetch':
      return l10n.t('fetch');
    case 'switch_mode':
      return l10n.t('switch mode');
    case 'other':
      return l10n.t('other');
    default:
      return kind;
  }
}

function statusLabel(status: string): string {
  switch (status) {
    case 'pending':
      return l10n.t('Pending');
    case 'in_progress':
      return l10n.t('Running');
    case 'completed':
      return l10n.t('Done');
    case 'failed':
      return l10n.t('Failed');
    default:
      return status;
  }
}

interface State {
  readonly post: Post;
  readonly head: HTMLElement;
  readonly slot: HTMLElement;
  locs: HTMLElement | undefined;
  content: ContentEls;
  raw: HTMLDetailsElement | undefined;
  out: HTMLDetailsElement | undefined;
}
const states = new ViewState<State>();

function fillHead(head: HTMLElement, t: ToolItem, status: string): void {
  const title = h('span', 'tool-title', relativizeText(getDisplayRoot(), t.title));
  title.title = t.title;
  head.replaceChildren(icon(TOOL_ICONS[t.toolKind] ?? 'tools', toolKindLabel(t.toolKind)), title, h('span', `badge status-${status}`, t.cancelled ? l10n.t('Cancelled') : statusLabel(t.status)));
}

function locationsView(t: ToolItem, post: Post): HTMLElement | undefined {
  if (!t.locations.length) return undefined;
  const locs = h('div', 'locations');
  for (const loc of t.locations) {
    const a = h('a', 'location', `${basename(loc.path)}${loc.line ? `:${loc.line}` : ''}`);
    a.href = '#';
    a.title = `${loc.path}${loc.line ? `:${loc.line}` : ''}`;
    a.addEventListener('click', (e) => {
      e.preventDefault();
      post({ type: 'openLocation', path: loc.path, ...(loc.line ? { line: loc.line } : {}) });
    });
    locs.append(a);
  }
  return locs;
}

function sameLocations(a: ToolItem['locations'], b: ToolItem['locations']): boolean {
  return a === b || (a.length === b.length && a.every((l, i) => l.path === b[i]!.path && l.line === b[i]!.line));
}

function patch(el: HTMLElement, s: State, prev: ToolItem | undefined, t: ToolItem): void {
  const status = t.cancelled ? 'cancelled' : t.status;
  el.dataset.status = status;
  const badge = s.head.lastElementChild;
  if (!prev || !badge || prev.toolKind !== t.toolKind || prev.title !== t.title) fillHead(s.head, t, status);
  else {
    // Only the status changed: the badge is patched.
    badge.className = `badge status-${status}`;
    setText(badge, t.cancelled ? l10n.t('Cancelled') : statusLabel(t.status));
  }
  if (!prev || !sameLocations(prev.locations, t.locations)) s.locs = locationsView(t, s.post);
  s.content = syncContent(s.content, t.content, t.id, s.post);
  s.raw = syncRaw(s.raw, l10n.t('Raw input'), t.rawInput);
  s.out = syncRaw(s.out, l10n.t('Raw output'), t.rawOutput);
  const desired: Node[] = [s.head];
  if (s.locs) desired.push(s.locs);
  for (const c of s.content) desired.push(c.el);
  if (s.raw) desired.push(s.raw);
  if (s.out) desired.push(s.out);
  desired.push(s.slot);
  syncChildren(el, desired);
}

export const toolView: ItemView<ToolItem> = {
  create(item, { post }) {
    const el = h('article', 'item tool');
    el.dataset.id = item.id;
    const s = states.set(el, { post, head: h('div', 'tool-head'), slot: h('div', 'tool-slot'), locs: undefined, content: [], raw: undefined, out: undefined });
    patch(el, s, undefined, item);
    return el;
  },
  update(el, prev, next) {
    patch(el, states.get(el), prev, next);
  },
  slot: (el) => states.get(el).slot,
};
