/**
 * The user's message: plain text, its parts, Copy, Pin, Edit and Retry (a fork
 * taken before it goes on with the new text; E on the focused message edits)
 * and "Restore files to here".
 */
import * as l10n from '@vscode/l10n';
import type { MessageItem } from '../../shared/transcriptTypes';
import { button, h, icon, setText, type Post } from './dom';
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

/** Edit and Retry: only on the session's own messages (a subagent's are not the user's to rewind). */
function rewindButtons(s: State): HTMLButtonElement[] {
  if (s.current.parent !== undefined) return [];
  const edit = button(l10n.t('Edit'), 'link-button edit-message', () => s.post({ type: 'rewind', action: 'edit', id: s.current.id }), 'edit');
  edit.title = l10n.t('Edit this message (E): it goes back into the box below; sending it restores the files to before it and continues in a fork, this session left as it is');
  const retry = button(l10n.t('Retry'), 'link-button retry-message', () => s.post({ type: 'rewind', action: 'retry', id: s.current.id }), 'refresh');
  retry.title = l10n.t('Send this message again: the files go back to before it, and the conversation continues in a fork taken just before it');
  return [edit, retry];
}

function fillActions(s: State, checkpoint: string | undefined): void {
  s.actions.replaceChildren(copyButton(() => s.current.text, l10n.t('Copy your message')), ...(s.pin ? [s.pin] : []), ...rewindButtons(s));
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
    if (item.parent === undefined) {
      // E on the focused message: Edit (the transcript's keys are arrows, Home and End; typing keys are the composer's).
      el.setAttribute('aria-keyshortcuts', 'E');
      el.addEventListener('keydown', (e) => {
        if (e.target !== el || e.key.toLowerCase() !== 'e' || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
        e.preventDefault();
        post({ type: 'rewind', action: 'edit', id: s.current.id });
      });
    }
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
