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
}
const states = new ViewState<State>();

function fillRow(s: State, p: PermissionItem): void {
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
    const s = states.set(el, { post, context, title, row, content: [], raw: undefined, answered: false });
    patchContext(s, item);
    fillRow(s, item);
    el.append(context, row);
    return el;
  },
  update(el, prev, next) {
    const s = states.get(el);
    el.dataset.state = next.state;
    patchContext(s, next);
    if (next.state !== 'pending') s.answered = true;
    if (prev.state !== next.state || prev.chosen !== next.chosen || prev.title !== next.title || prev.options !== next.options || (s.answered && s.row.querySelector('button'))) fillRow(s, next);
  },
};
