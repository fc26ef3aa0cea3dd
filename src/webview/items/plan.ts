/** A plan: a checklist, or a Markdown document (sanitized), or the file it is in. */
import * as l10n from '@vscode/l10n';
import { relativeTo } from '../../shared/paths';
import type { PlanItem } from '../../shared/transcriptTypes';
import { renderMarkdown } from '../markdown';
import { getDisplayRoot, h, icon, type Post } from './dom';
import { ViewState, type ItemView } from './types';

/** A plan entry's status, as its icon's label. */
function planStatusLabel(status: string): string {
  switch (status) {
    case 'pending':
      return l10n.t('pending');
    case 'in_progress':
      return l10n.t('in progress');
    case 'completed':
      return l10n.t('completed');
    default:
      return status.replace('_', ' ');
  }
}

/** A plan's file: a plain path as it is, a file: URI decoded (left as it is when it cannot be). */
function fileUriPath(p: string): string {
  if (!p.startsWith('file://')) return p;
  try {
    return decodeURIComponent(p.slice('file://'.length));
  } catch {
    return p.slice('file://'.length);
  }
}

function fill(el: HTMLElement, p: PlanItem, post: Post): void {
  el.replaceChildren();
  el.dataset.format = p.format;
  if (p.format !== 'items') {
    const head = h('div', 'plan-head');
    head.append(icon(p.format === 'markdown' ? 'book' : 'file'), h('span', undefined, ` ${l10n.t('Plan')}`));
    const path = p.path;
    if (path) {
      // The file the plan is in: opened like any location (inside the session's folders, or after asking).
      const a = h('a', 'plan-path', path.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:/i.test(path) ? relativeTo(getDisplayRoot(), path.replace(/^file:\/\//, '')) : path);
      a.href = '#';
      a.title = path;
      a.addEventListener('click', (e) => {
        e.preventDefault();
        if (/^[a-z][a-z0-9+.-]*:/i.test(path) && !path.startsWith('file:')) post({ type: 'openLink', href: path });
        else post({ type: 'openLocation', path: fileUriPath(path) });
      });
      head.append(document.createTextNode(' · '), a);
    }
    el.append(head);
    if (p.markdown !== undefined) {
      const md = h('div', 'markdown plan-markdown');
      md.innerHTML = renderMarkdown(p.markdown);
      el.append(md);
    }
    return;
  }
  const head = h('div', 'plan-head');
  const done = p.entries.filter((e) => e.status === 'completed').length;
  head.append(icon('checklist'), h('span', undefined, ` ${l10n.t('Plan ({0}/{1})', done, p.entries.length)}`));
  const ol = h('ol', 'plan-entries');
  for (const e of p.entries) {
    const li = h('li', `plan-entry status-${e.status} priority-${e.priority}`);
    li.append(icon(e.status === 'completed' ? 'pass-filled' : e.status === 'in_progress' ? 'circle-filled' : 'circle-large-outline', planStatusLabel(e.status)), h('span', 'plan-text', e.content));
    if (e.priority === 'high') li.append(h('span', 'badge priority', l10n.t('high')));
    ol.append(li);
  }
  el.append(head, ol);
}

/** What the card shows of a plan: the same, and the card is left as it is. */
const shown = (p: PlanItem) => JSON.stringify([p.format, p.entries, p.markdown, p.path]);

const posts = new ViewState<Post>();

export const planView: ItemView<PlanItem> = {
  create(item, { post }) {
    const el = h('article', 'item plan');
    el.dataset.id = item.id;
    posts.set(el, post);
    fill(el, item, post);
    return el;
  },
  update(el, prev, next) {
    if (prev !== next && shown(prev) === shown(next)) return;
    fill(el, next, posts.get(el));
  },
};
