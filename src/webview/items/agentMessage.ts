/** The agent's message or thought: Markdown (sanitized), rendered incrementally while it streams, then whole. */
import * as l10n from '@vscode/l10n';
import type { MessageItem } from '../../shared/transcriptTypes';
import { renderMarkdown, StreamingMarkdown } from '../markdown';
import { h, icon, type Post } from './dom';
import { copyButton, pinButton, syncParts, syncPin } from './parts';
import { ViewState, type ItemView } from './types';

interface State {
  readonly post: Post;
  md: HTMLElement;
  stream: StreamingMarkdown | undefined;
  readonly parts: HTMLElement;
  pin?: HTMLButtonElement | undefined;
  current: MessageItem;
}
const states = new ViewState<State>();

function swap(s: State, next: HTMLElement): void {
  s.md.replaceWith(next);
  s.md = next;
}

/** The whole text as Markdown, through the sanitizer. */
function full(s: State, text: string): void {
  const next = h('div', 'markdown');
  next.innerHTML = renderMarkdown(text);
  swap(s, next);
  s.stream = undefined;
}

export const agentMessageView: ItemView<MessageItem> = {
  create(item, { post, streaming }) {
    const el = h('article', `item msg msg-${item.kind}`);
    el.dataset.id = item.id;
    let container: HTMLElement = el;
    if (item.kind === 'thought') {
      // Thoughts are collapsed by default.
      const details = h('details', 'thought');
      const summary = h('summary');
      summary.append(icon('lightbulb'), document.createTextNode(` ${l10n.t('Thinking')}`));
      details.append(summary);
      el.append(details);
      container = details;
    }
    const s = states.set(el, { post, md: h('div', 'markdown'), stream: undefined, parts: h('div', 'parts'), current: item });
    container.append(s.md, s.parts);
    if (streaming) {
      s.stream = new StreamingMarkdown();
      swap(s, s.stream.el);
      s.stream.render(item.text);
    } else full(s, item.text);
    syncParts(s.parts, undefined, item.parts, post);
    if (item.kind === 'agent') {
      const actions = h('div', 'msg-actions');
      s.pin = pinButton(item, post);
      actions.append(copyButton(() => s.current.text, l10n.t('Copy the agent’s message as Markdown')), ...(s.pin ? [s.pin] : []));
      el.append(actions);
    }
    return el;
  },
  update(el, prev, next) {
    const s = states.get(el);
    s.current = next;
    syncPin(s.pin, next);
    // Pinned or unpinned: the text stays as rendered.
    if (prev.text !== next.text || prev.pinned === next.pinned) full(s, next.text);
    syncParts(s.parts, prev.parts, next.parts, s.post);
  },
  appendText(el, item) {
    const s = states.get(el);
    s.current = item;
    if (!s.stream) {
      // Incremental rendering for the rest of the stream.
      s.stream = new StreamingMarkdown();
      swap(s, s.stream.el);
    }
    s.stream.render(item.text);
  },
  finalize(el, item) {
    const s = states.get(el);
    if (s.stream) full(s, item.text);
  },
};
