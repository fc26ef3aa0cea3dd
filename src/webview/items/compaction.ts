/** A divider at the compaction's place: earlier messages stay above it; the summary (Markdown, sanitized) folds open. */
import * as l10n from '@vscode/l10n';
import type { CompactionItem } from '../../shared/transcriptTypes';
import { renderMarkdown } from '../markdown';
import { h, icon, syncChildren } from './dom';
import { ViewState, type ItemView } from './types';

function compactionText(status: string): string {
  switch (status) {
    case 'in_progress':
      return l10n.t('Compacting the context…');
    case 'completed':
      return l10n.t('Context compacted');
    case 'failed':
      return l10n.t('Context compaction failed');
    case 'cancelled':
      return l10n.t('Context compaction cancelled');
    default:
      return l10n.t('Context compaction: {0}', status);
  }
}

interface State {
  readonly line: HTMLElement;
  details: HTMLDetailsElement | undefined;
}
const states = new ViewState<State>();

function patch(el: HTMLElement, s: State, prev: CompactionItem | undefined, c: CompactionItem): void {
  el.dataset.status = c.status;
  if (!prev || prev.status !== c.status || prev.error !== c.error) {
    const label = h('span', 'compaction-label', `${compactionText(c.status)}${c.error ? ` — ${c.error}` : ''}`);
    label.setAttribute('role', 'status');
    s.line.replaceChildren(icon(c.status === 'in_progress' ? 'loading' : c.status === 'failed' ? 'warning' : 'fold'), label);
  }
  if (!c.summary) s.details = undefined;
  else if (!s.details) {
    // Folded at first; open (if the user opened it) while it streams.
    s.details = h('details', 'compaction-summary');
    const md = h('div', 'markdown');
    md.innerHTML = renderMarkdown(c.summary);
    s.details.append(h('summary', undefined, l10n.t('Summary')), md);
  } else if (prev?.summary !== c.summary) s.details.lastElementChild!.innerHTML = renderMarkdown(c.summary);
  syncChildren(el, s.details ? [s.line, s.details] : [s.line]);
}

export const compactionView: ItemView<CompactionItem> = {
  create(item) {
    const el = h('div', 'item compaction');
    el.dataset.id = item.id;
    const s = states.set(el, { line: h('div', 'compaction-line'), details: undefined });
    patch(el, s, undefined, item);
    return el;
  },
  update(el, prev, next) {
    patch(el, states.get(el), prev, next);
  },
};
