/** A subagent (child session): a card with its state, Stop where allowed, and the child's own items inside. */
import * as l10n from '@vscode/l10n';
import { relativeTo } from '../../shared/paths';
import type { SubagentItem } from '../../shared/transcriptTypes';
import { button, getDisplayRoot, h, icon, type Post } from './dom';
import { stopReasonText } from './turnEnd';
import { ViewState, type ItemView } from './types';

function subagentState(state: string): string {
  switch (state) {
    case 'running':
      return l10n.t('Running');
    case 'idle':
      return l10n.t('Idle');
    case 'requires_action':
      return l10n.t('Needs you');
    case 'unknown':
      return l10n.t('Unknown');
    default:
      return state;
  }
}

interface State {
  readonly post: Post;
  readonly summary: HTMLElement;
  readonly about: HTMLElement;
  readonly children: HTMLElement;
}
const states = new ViewState<State>();

function fillSummary(s: State, a: SubagentItem, failed: boolean, state: string): void {
  const summary = s.summary;
  summary.replaceChildren(icon('type-hierarchy-sub'), h('span', 'subagent-title', ` ${a.title}`));
  const label = failed ? l10n.t('Error') : a.state ? subagentState(a.state) : '';
  if (label) {
    const badge = h('span', `badge subagent-state state-${state}`, label);
    badge.setAttribute('role', 'status');
    summary.append(badge);
  }
  if (a.canCancel && (a.state === 'running' || a.state === 'requires_action')) {
    const stop = button(l10n.t('Stop'), 'link-button subagent-stop', () => {
      stop.disabled = true;
      s.post({ type: 'stopSubagent', sessionId: a.sessionId });
    }, 'debug-stop');
    stop.setAttribute('aria-label', l10n.t('Stop {0}', a.title));
    // A click on the button is not a click on the summary (which folds the card).
    stop.addEventListener('click', (e) => e.preventDefault(), true);
    summary.append(stop);
  }
}

function fillAbout(s: State, a: SubagentItem): void {
  const root = getDisplayRoot();
  s.about.replaceChildren();
  if (a.description) s.about.append(h('div', 'subagent-description', a.description));
  if (a.error) s.about.append(h('div', 'subagent-error', a.error));
  else if (a.state === 'idle' && a.stopReason && a.stopReason !== 'end_turn') s.about.append(h('div', 'subagent-stop-reason', stopReasonText(a.stopReason) || l10n.t('Stopped ({0}).', a.stopReason)));
  if (a.cwd && a.cwd !== root) s.about.append(h('div', 'subagent-cwd', l10n.t('in {0}', relativeTo(root, a.cwd))));
}

function patch(el: HTMLElement, s: State, prev: SubagentItem | undefined, a: SubagentItem): void {
  const failed = a.stopReason === 'error' || a.error !== undefined;
  const state = failed ? 'error' : (a.state ?? 'unknown');
  el.dataset.state = state;
  // Rebuilt only when it shows something else (a focused Stop stays focused).
  if (!prev || prev.title !== a.title || prev.state !== a.state || prev.stopReason !== a.stopReason || prev.error !== a.error || prev.canCancel !== a.canCancel) fillSummary(s, a, failed, state);
  if (!prev || prev.description !== a.description || prev.error !== a.error || prev.state !== a.state || prev.stopReason !== a.stopReason || prev.cwd !== a.cwd) fillAbout(s, a);
}

export const subagentView: ItemView<SubagentItem> = {
  create(item, { post }) {
    const el = h('article', 'item subagent');
    el.dataset.id = item.id;
    el.dataset.session = item.sessionId;
    const details = h('details', 'subagent-card');
    details.open = true;
    const s = states.set(el, { post, summary: h('summary', 'subagent-head'), about: h('div', 'subagent-about'), children: h('div', 'subagent-items') });
    details.append(s.summary, s.about, s.children);
    el.append(details);
    patch(el, s, undefined, item);
    return el;
  },
  update(el, prev, next) {
    patch(el, states.get(el), prev, next);
  },
  children: (el) => states.get(el).children,
};
