/** The user's message: plain text, its parts, Copy and "Restore files to here". */
import * as l10n from '@vscode/l10n';
import type { MessageItem } from '../../shared/transcriptTypes';
import { h, icon, setText, type Post } from './dom';
import { copyButton, pinButton, syncParts, syncPin } from './parts';
import { ViewState, type ItemView } from './types';

interface State {
  readonly post: Post;
  readonly body: HTMLElement;
  readonly parts: HTMLElement;
  readonly actions: HTMLElement;
  readonly pin: HTMLButtonElement | undefined;
  current: MessageItem;
}
const states = new ViewState<State>();

function fillActions(s: State, checkpoint: string | undefined): void {
  s.actions.replaceChildren(copyButton(() => s.current.text, l10n.t('Copy your message')), ...(s.pin ? [s.pin] : []));
  if (checkpoint === undefined) return;
  const b = h('button', 'link-button restore-checkpoint');
  b.type = 'button';
  b.append(icon('history'), document.createTextNode(` ${l10n.t('Restore files to here')}`));
  b.title = l10n.t('Put the files the agent changed since this message back as they were before it (shows what changes first)');
  b.addEventListener('click', () => s.post({ type: 'checkpoint', action: 'preview', id: checkpoint }));
  s.actions.append(b);
}

export const userMessageView: ItemView<MessageItem> = {
  create(item, { post }) {
    const el = h('article', `item msg msg-${item.kind}`);
    el.dataset.id = item.id;
    el.setAttribute('aria-label', l10n.t('You'));
    const s = states.set(el, { post, body: h('div', 'user-text', item.text), parts: h('div', 'parts'), actions: h('div', 'msg-actions'), pin: pinButton(item, post), current: item });
    syncParts(s.parts, undefined, item.parts, post);
    fillActions(s, item.checkpoint);
    el.append(s.body, s.parts, s.actions);
    return el;
  },
  update(el, prev, next) {
    const s = states.get(el);
    s.current = next;
    setText(s.body, next.text);
    syncParts(s.parts, prev.parts, next.parts, s.post);
    syncPin(s.pin, next);
    if (prev.checkpoint !== next.checkpoint) fillActions(s, next.checkpoint);
  },
  appendText(el, item) {
    const s = states.get(el);
    s.current = item;
    setText(s.body, item.text);
  },
};
