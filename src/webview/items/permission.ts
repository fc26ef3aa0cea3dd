/** The agent asks permission for a tool call: what is asked about, and its options — answered once. */
import * as l10n from '@vscode/l10n';
import type { PermissionItem } from '../../shared/transcriptTypes';
import { button, h, icon, setText, syncChildren, type Post } from './dom';
import { syncContent, syncRaw, type ContentEls } from './toolContent';
import { ViewState, type ItemView } from './types';

interface State {
  readonly post: Post;
  readonly context: HTMLElement;
  readonly title: HTMLElement;
  readonly row: HTMLElement;
  content: ContentEls;
  raw: HTMLDetailsElement | undefined;
  answered: boolean;
  /** After a reject: the reason offered (an input, then what was kept). */
  reason: HTMLElement | undefined;
}
const states = new ViewState<State>();

const isReject = (kind: string | undefined) => kind === 'reject_once' || kind === 'reject_always';

/**
 * After a reject (already answered): an optional one-line reason, in place. Enter sends it (it goes to
 * the agent with the next prompt); Escape, or leaving it empty, sends none.
 */
function offerReason(el: HTMLElement, s: State, id: string, focus: boolean): void {
  if (s.reason) return;
  const wrap = (s.reason = h('div', 'permission-reason'));
  const input = h('input', 'permission-reason-input');
  input.type = 'text';
  input.id = `reason-${id}`;
  input.maxLength = 500;
  input.placeholder = l10n.t('Enter sends it, Escape skips');
  const label = h('label', undefined, l10n.t('Why not? (optional, sent with your next message)'));
  label.htmlFor = input.id;
  const done = (reason: string) => {
    const had = document.activeElement === input;
    if (reason === '') wrap.replaceChildren();
    else {
      s.post({ type: 'permissionReason', id, reason });
      const kept = h('span', 'permission-verdict', l10n.t('Your reason goes to the agent with your next message: {0}', reason));
      kept.tabIndex = -1;
      wrap.replaceChildren(kept);
      if (had) kept.focus();
      return;
    }
    if (had) {
      el.tabIndex = -1;
      el.focus();
    }
  };
  input.addEventListener('keydown', (e) => {
    if ((e.key !== 'Enter' && e.key !== 'Escape') || e.isComposing) return;
    e.preventDefault();
    done(e.key === 'Enter' ? input.value.trim() : '');
  });
  input.addEventListener('blur', () => input.isConnected && input.value.trim() === '' && done(''));
  wrap.append(label, input);
  el.append(wrap);
  if (focus) input.focus();
}

function fillRow(s: State, p: PermissionItem, el: HTMLElement): void {
  const row = s.row;
  row.replaceChildren();
  row.setAttribute('aria-label', l10n.t('Permission requested: {0}', p.title));
  if (p.state === 'pending' && !s.answered) {
    const ask = h('span', 'permission-ask');
    ask.append(icon('shield'), document.createTextNode(` ${l10n.t('Permission needed:')}`));
    row.append(ask);
    for (const o of p.options) {
      const b = button(o.name, `permission-option kind-${o.kind}`, () => {
        if (s.answered) return;
        s.answered = true;
        for (const other of row.querySelectorAll('button')) (other as HTMLButtonElement).disabled = true;
        s.post({ type: 'permission', id: p.id, optionId: o.optionId });
        if (isReject(o.kind)) offerReason(el, s, p.id, true);
      });
      b.dataset.optionId = o.optionId;
      row.append(b);
    }
  } else {
    const chosen = p.options.find((o) => o.optionId === p.chosen);
    const verdict = p.state === 'cancelled' ? l10n.t('Cancelled') : p.state === 'auto' ? l10n.t('Answered automatically: {0}', String(chosen?.name ?? p.chosen)) : l10n.t('You chose: {0}', chosen?.name ?? p.chosen ?? '…');
    row.append(h('span', 'permission-verdict', verdict));
  }
}

/** What is asked about: shown here only when the tool call's own card is not (on the card it is already there). */
function patchContext(s: State, p: PermissionItem): void {
  setText(s.title, ` ${p.title}`);
  s.content = syncContent(s.content, p.content, p.id, s.post);
  s.raw = syncRaw(s.raw, l10n.t('Details'), p.rawInput);
  syncChildren(s.context, [s.context.firstElementChild!, ...s.content.map((c) => c.el), ...(s.raw ? [s.raw] : [])]);
}

export const permissionView: ItemView<PermissionItem> = {
  create(item, { post }) {
    const el = h('article', 'item permission');
    el.dataset.id = item.id;
    el.dataset.state = item.state;
    const head = h('div', 'permission-head');
    const title = h('span');
    head.append(icon('shield'), title);
    const context = h('div', 'permission-context');
    context.append(head);
    const row = h('div', 'permission-options');
    row.setAttribute('role', 'group');
    const s = states.set(el, { post, context, title, row, content: [], raw: undefined, answered: false, reason: undefined });
    patchContext(s, item);
    fillRow(s, item, el);
    el.append(context, row);
    return el;
  },
  update(el, prev, next) {
    const s = states.get(el);
    el.dataset.state = next.state;
    patchContext(s, next);
    if (next.state !== 'pending') s.answered = true;
    if (prev.state !== next.state || prev.chosen !== next.chosen || prev.title !== next.title || prev.options !== next.options || (s.answered && s.row.querySelector('button'))) fillRow(s, next, el);
    // Rejected by a key (Alt+N) rather than on the card: the reason is offered too, without taking the focus.
    if (prev.state === 'pending' && next.state === 'answered' && isReject(next.options.find((o) => o.optionId === next.chosen)?.kind)) offerReason(el, s, next.id, false);
  },
};
