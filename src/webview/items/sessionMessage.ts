/** A message between a session and a subagent: who to whom, and its text (Markdown, sanitized). */
import * as l10n from '@vscode/l10n';
import type { SessionMessageItem } from '../../shared/transcriptTypes';
import { renderMarkdown } from '../markdown';
import { h, icon, type Post } from './dom';
import { syncParts } from './parts';
import { ViewState, type ItemView } from './types';

interface State {
  readonly post: Post;
  readonly head: HTMLElement;
  readonly md: HTMLElement;
  readonly parts: HTMLElement;
}
const states = new ViewState<State>();

function fill(el: HTMLElement, s: State, prev: SessionMessageItem | undefined, m: SessionMessageItem): void {
  if (!prev || prev.from !== m.from || prev.to !== m.to) {
    s.head.replaceChildren(icon('comment-discussion'), document.createTextNode(` ${m.from} → ${m.to}`));
    el.setAttribute('aria-label', l10n.t('Message from {0} to {1}', m.from, m.to));
  }
  s.md.innerHTML = renderMarkdown(m.text);
  syncParts(s.parts, prev?.parts, m.parts, s.post);
}

export const sessionMessageView: ItemView<SessionMessageItem> = {
  create(item, { post }) {
    const el = h('article', 'item msg msg-session');
    el.dataset.id = item.id;
    const s = states.set(el, { post, head: h('div', 'session-message-head'), md: h('div', 'markdown'), parts: h('div', 'parts') });
    el.append(s.head, s.md, s.parts);
    fill(el, s, undefined, item);
    return el;
  },
  update(el, prev, next) {
    fill(el, states.get(el), prev, next);
  },
  appendText(el, item) {
    states.get(el).md.innerHTML = renderMarkdown(item.text);
  },
};
