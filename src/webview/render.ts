/**
 * DOM for each kind of transcript item. Everything from the agent goes in as
 * text (textContent) or through the markdown sanitizer — never as raw HTML.
 */
import * as l10n from '@vscode/l10n';
import { relativeTo, relativizeText } from '../shared/paths';
import { lineDiff, withContext } from '../shared/lineDiff';
import type {
  ContentPart,
  ErrorItem,
  MessageItem,
  NoticeItem,
  CompactionItem,
  ElicitationFieldView,
  ElicitationItem,
  PermissionItem,
  PlanItem,
  SessionMessageItem,
  SubagentItem,
  ToolContent,
  ToolItem,
  TranscriptItem,
  TurnEndItem,
} from '../shared/transcriptTypes';
import type { WebviewToHost } from '../shared/webviewProtocol';
import { renderMarkdown, StreamingMarkdown } from './markdown';

export type Post = (m: WebviewToHost) => void;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function icon(name: string, label?: string): HTMLSpanElement {
  const s = h('span', `codicon codicon-${name}`);
  if (label) {
    s.setAttribute('role', 'img');
    s.setAttribute('aria-label', label);
  } else s.setAttribute('aria-hidden', 'true');
  return s;
}

function button(label: string, cls: string, onClick: () => void, iconName?: string): HTMLButtonElement {
  const b = h('button', cls);
  b.type = 'button';
  if (iconName) b.append(icon(iconName), document.createTextNode(` ${label}`));
  else b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

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

/** Why a turn ended, in words: '' for a plain end, undefined for a reason this version does not know. */
function stopReasonText(reason: string): string | undefined {
  switch (reason) {
    case 'end_turn':
      return '';
    case 'cancelled':
      return l10n.t('Stopped. The agent ended the turn when asked to.');
    case 'refusal':
      return l10n.t('The agent refused to continue. This prompt and what follows will not be part of the next prompt.');
    case 'max_tokens':
      return l10n.t('The agent stopped: it reached its maximum number of tokens for a reply.');
    case 'max_turn_requests':
      return l10n.t('The agent stopped: it reached its maximum number of model requests for one turn.');
    default:
      return undefined;
  }
}

/**
 * A translated sentence with elements in it: `template`'s `{0}`, `{1}` … become
 * `nodes[0]`, `nodes[1]` …, the words around them text.
 */
function sentence(template: string, ...nodes: Node[]): Node[] {
  return template.split(/(\{\d+\})/).map((piece) => {
    const m = /^\{(\d+)\}$/.exec(piece);
    return (m && nodes[Number(m[1])]) || document.createTextNode(piece);
  });
}

/** A rendered item: its element, and how to update it in place. */
export interface ItemView {
  readonly el: HTMLElement;
  update(item: TranscriptItem): void;
  appendText?(item: MessageItem | SessionMessageItem): void;
  /** Where the items of a subagent's card go. */
  readonly children?: HTMLElement;
  /** On a tool call's card: where a permission request about it goes (kept across updates). */
  readonly slot?: HTMLElement;
  /** Renders a streamed message once more as a whole (at the end of a turn). */
  finalize?(item: MessageItem): void;
}

let displayRoot: string | undefined;
/** The session's folder, for showing the paths inside it relative to it. */
export function setDisplayRoot(root: string | undefined): void {
  displayRoot = root;
}

function basename(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}

function renderPart(part: ContentPart, post: Post): HTMLElement {
  switch (part.type) {
    case 'text':
      return h('div', 'part-text', part.text ?? '');
    case 'image': {
      const mime = part.mimeType ?? '';
      if (/^image\/(png|jpe?g|gif|webp)$/.test(mime) && part.data && /^[A-Za-z0-9+/=\s]+$/.test(part.data)) {
        const img = h('img', 'part-image');
        img.alt = l10n.t('Image from the agent');
        img.src = `data:${mime};base64,${part.data}`;
        return img;
      }
      return h('div', 'part-unsupported', mime ? l10n.t('[image of type {0} not shown]', mime) : l10n.t('[image of unknown type not shown]'));
    }
    case 'resource_link':
    case 'resource': {
      const a = h('a', 'part-link', part.name ?? (part.uri ? basename(part.uri) : l10n.t('resource')));
      a.href = '#';
      a.title = part.uri ?? '';
      a.addEventListener('click', (e) => {
        e.preventDefault();
        if (part.uri) post({ type: 'openLink', href: part.uri });
      });
      const wrap = h('div', 'part-resource');
      wrap.append(icon(part.type === 'resource' ? 'file-code' : 'link'), document.createTextNode(' '), a);
      return wrap;
    }
    case 'audio':
      return h('div', 'part-unsupported', part.mimeType !== undefined ? l10n.t('[audio ({0}) not played]', part.mimeType) : l10n.t('[audio (unknown type) not played]'));
    default: {
      const d = h('details', 'part-unsupported');
      d.append(h('summary', undefined, l10n.t('Unsupported content of type "{0}"', part.type)), h('pre', undefined, part.text ?? ''));
      return d;
    }
  }
}

/** Copy: a message's text (its Markdown, as the agent wrote it) to the clipboard. */
function copyButton(text: () => string, ariaLabel: string): HTMLButtonElement {
  const b = h('button', 'link-button copy-message');
  b.type = 'button';
  b.append(icon('copy'), document.createTextNode(` ${l10n.t('Copy')}`));
  b.setAttribute('aria-label', ariaLabel);
  b.addEventListener('click', () => {
    void navigator.clipboard.writeText(text()).then(() => {
      b.lastChild!.textContent = ` ${l10n.t('Copied')}`;
      setTimeout(() => (b.lastChild!.textContent = ` ${l10n.t('Copy')}`), 1500);
    });
  });
  return b;
}

function messageView(item: MessageItem, post: Post, streaming: boolean): ItemView {
  const el = h('article', `item msg msg-${item.kind}`);
  el.dataset.id = item.id;
  if (item.kind === 'user') {
    el.setAttribute('aria-label', l10n.t('You'));
    const body = h('div', 'user-text', item.text);
    const parts = h('div', 'parts');
    for (const p of item.parts) parts.append(renderPart(p, post));
    const actions = h('div', 'msg-actions');
    let current = item;
    const setActions = (m: MessageItem) => {
      current = m;
      actions.replaceChildren(copyButton(() => current.text, l10n.t('Copy your message')));
      const checkpoint = m.checkpoint;
      if (checkpoint === undefined) return;
      const b = h('button', 'link-button restore-checkpoint');
      b.type = 'button';
      b.append(icon('history'), document.createTextNode(` ${l10n.t('Restore files to here')}`));
      b.title = l10n.t('Put the files the agent changed since this message back as they were before it (shows what changes first)');
      b.addEventListener('click', () => post({ type: 'checkpoint', action: 'preview', id: checkpoint }));
      actions.append(b);
    };
    setActions(item);
    el.append(body, parts, actions);
    return {
      el,
      update(it) {
        body.textContent = (it as MessageItem).text;
        parts.replaceChildren(...(it as MessageItem).parts.map((p) => renderPart(p, post)));
        setActions(it as MessageItem);
      },
      appendText(it) {
        body.textContent = it.text;
      },
    };
  }
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
  let mdEl: HTMLElement = h('div', 'markdown');
  let stream: StreamingMarkdown | undefined;
  const parts = h('div', 'parts');
  container.append(mdEl, parts);
  const swap = (next: HTMLElement) => {
    mdEl.replaceWith(next);
    mdEl = next;
  };
  const full = (text: string) => {
    const next = h('div', 'markdown');
    next.innerHTML = renderMarkdown(text);
    swap(next);
    stream = undefined;
  };
  if (streaming) {
    stream = new StreamingMarkdown();
    swap(stream.el);
    stream.render(item.text);
  } else full(item.text);
  for (const p of item.parts) parts.append(renderPart(p, post));
  let current = item;
  if (item.kind === 'agent') {
    const actions = h('div', 'msg-actions');
    actions.append(copyButton(() => current.text, l10n.t('Copy the agent’s message as Markdown')));
    el.append(actions);
  }
  return {
    el,
    update(it) {
      const m = it as MessageItem;
      current = m;
      full(m.text);
      parts.replaceChildren(...m.parts.map((p) => renderPart(p, post)));
    },
    appendText(it) {
      current = it as MessageItem;
      if (!stream) {
        // Incremental rendering for the rest of the stream.
        stream = new StreamingMarkdown();
        swap(stream.el);
      }
      stream.render(it.text);
    },
    finalize(it) {
      if (stream) full(it.text);
    },
  };
}

function diffView(c: ToolContent & { type: 'diff' }, onOpen: () => void): HTMLElement {
  const box = h('div', 'diff');
  const head = h('div', 'diff-head');
  const name = h('span', 'diff-path', relativeTo(displayRoot, c.path));
  name.title = c.path;
  const lines = lineDiff(c.oldText, c.newText);
  const added = lines.filter((l) => l.op === '+').length;
  const removed = lines.filter((l) => l.op === '-').length;
  const stats = h('span', 'diff-stats', c.oldText === null ? l10n.t('new file, +{0} −{1}', added, removed) : `+${added} −${removed}`);
  head.append(icon('diff'), name, stats, button(l10n.t('Open Diff'), 'link-button open-diff', onOpen, 'go-to-file'));
  const pre = h('pre', 'diff-lines');
  const shown = withContext(lines, 2).slice(0, 80);
  for (const l of shown) {
    const row = h('div', l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'ctx');
    row.textContent = `${l.op === ' ' ? ' ' : l.op} ${l.text}`;
    pre.append(row);
  }
  if (withContext(lines, 2).length > shown.length) pre.append(h('div', 'ctx', `  … ${l10n.t('open the diff to see all of it')}`));
  box.append(head, pre);
  return box;
}

function toolContentView(c: ToolContent, index: number, itemId: string, post: Post): HTMLElement {
  switch (c.type) {
    case 'diff':
      return diffView(c, () => post({ type: 'openDiff', id: itemId, index }));
    case 'terminal': {
      const t = h('div', 'terminal');
      const head = h('div', 'terminal-head');
      const label = c.exitStatus
        ? c.exitStatus.signal
          ? l10n.t('Terminal {0} — stopped by {1}', c.terminalId, c.exitStatus.signal)
          : l10n.t('Terminal {0} — exited with code {1}', c.terminalId, String(c.exitStatus.exitCode))
        : c.output !== undefined
          ? l10n.t('Terminal {0} — running', c.terminalId)
          : l10n.t('Terminal {0}', c.terminalId);
      head.append(icon('terminal'), document.createTextNode(` ${label}`));
      t.append(head);
      if (c.output !== undefined) {
        const pre = h('pre', 'terminal-output', `${c.truncated ? `${l10n.t('… (earlier output dropped)')}\n` : ''}${c.output.length > 20_000 ? `…${c.output.slice(-20_000)}` : c.output}`);
        t.append(pre);
      }
      return t;
    }
    case 'session': {
      // The call runs a subagent: a link to its card.
      const wrap = h('div', 'tool-session');
      const go = button(l10n.t('Show the subagent'), 'link-button show-subagent', () => {
        const card = [...document.querySelectorAll<HTMLElement>('.subagent')].find((e) => e.dataset.session === c.sessionId);
        if (!card) return;
        const d = card.querySelector('details');
        if (d) d.open = true;
        card.scrollIntoView({ block: 'start' });
        card.querySelector<HTMLElement>('summary')?.focus();
      }, 'type-hierarchy-sub');
      wrap.append(go);
      return wrap;
    }
    case 'content':
      if (c.content.type === 'text') {
        const d = h('div', 'markdown tool-text');
        d.innerHTML = renderMarkdown(c.content.text ?? '');
        return d;
      }
      return renderPart(c.content, post);
  }
}

function rawDetails(label: string, text: string | undefined): HTMLElement | undefined {
  if (text === undefined) return undefined;
  const d = h('details', 'raw');
  d.append(h('summary', undefined, label), h('pre', undefined, text));
  return d;
}

function toolView(item: ToolItem, post: Post): ItemView {
  const el = h('article', 'item tool');
  el.dataset.id = item.id;
  const slot = h('div', 'tool-slot');
  const fill = (t: ToolItem) => {
    el.replaceChildren();
    const status = t.cancelled ? 'cancelled' : t.status;
    el.dataset.status = status;
    const head = h('div', 'tool-head');
    const title = h('span', 'tool-title', relativizeText(displayRoot, t.title));
    title.title = t.title;
    head.append(icon(TOOL_ICONS[t.toolKind] ?? 'tools', toolKindLabel(t.toolKind)), title);
    const badge = h('span', `badge status-${status}`, t.cancelled ? l10n.t('Cancelled') : statusLabel(t.status));
    head.append(badge);
    el.append(head);
    if (t.locations.length) {
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
      el.append(locs);
    }
    t.content.forEach((c, i) => el.append(toolContentView(c, i, t.id, post)));
    const raw = rawDetails(l10n.t('Raw input'), t.rawInput);
    if (raw) el.append(raw);
    const out = rawDetails(l10n.t('Raw output'), t.rawOutput);
    if (out) el.append(out);
    el.append(slot);
  };
  fill(item);
  return { el, slot, update: (it) => fill(it as ToolItem) };
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

function planView(item: PlanItem, post: Post): ItemView {
  const el = h('article', 'item plan');
  el.dataset.id = item.id;
  const fill = (p: PlanItem) => {
    el.replaceChildren();
    el.dataset.format = p.format;
    if (p.format !== 'items') {
      const head = h('div', 'plan-head');
      head.append(icon(p.format === 'markdown' ? 'book' : 'file'), h('span', undefined, ` ${l10n.t('Plan')}`));
      if (p.path) {
        // The file the plan is in: opened like any location (inside the session's folders, or after asking).
        const a = h('a', 'plan-path', p.path.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:/i.test(p.path) ? relativeTo(displayRoot, p.path.replace(/^file:\/\//, '')) : p.path);
        a.href = '#';
        a.title = p.path;
        a.addEventListener('click', (e) => {
          e.preventDefault();
          if (/^[a-z][a-z0-9+.-]*:/i.test(p.path!) && !p.path!.startsWith('file:')) post({ type: 'openLink', href: p.path! });
          else post({ type: 'openLocation', path: fileUriPath(p.path!) });
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
  };
  fill(item);
  return { el, update: (it) => fill(it as PlanItem) };
}

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

/** A subagent (child session): a card with its state, Stop where allowed, and the child's own items inside. */
function subagentView(item: SubagentItem, post: Post): ItemView {
  const el = h('article', 'item subagent');
  el.dataset.id = item.id;
  el.dataset.session = item.sessionId;
  const details = h('details', 'subagent-card');
  details.open = true;
  const summary = h('summary', 'subagent-head');
  const about = h('div', 'subagent-about');
  const children = h('div', 'subagent-items');
  details.append(summary, about, children);
  el.append(details);
  const fill = (s: SubagentItem) => {
    const failed = s.stopReason === 'error' || s.error !== undefined;
    const state = failed ? 'error' : (s.state ?? 'unknown');
    el.dataset.state = state;
    summary.replaceChildren();
    summary.append(icon('type-hierarchy-sub'), h('span', 'subagent-title', ` ${s.title}`));
    const label = failed ? l10n.t('Error') : s.state ? subagentState(s.state) : '';
    if (label) {
      const badge = h('span', `badge subagent-state state-${state}`, label);
      badge.setAttribute('role', 'status');
      summary.append(badge);
    }
    if (s.canCancel && (s.state === 'running' || s.state === 'requires_action')) {
      const stop = button(l10n.t('Stop'), 'link-button subagent-stop', () => {
        stop.disabled = true;
        post({ type: 'stopSubagent', sessionId: s.sessionId });
      }, 'debug-stop');
      stop.setAttribute('aria-label', l10n.t('Stop {0}', s.title));
      // A click on the button is not a click on the summary (which folds the card).
      stop.addEventListener('click', (e) => e.preventDefault(), true);
      summary.append(stop);
    }
    about.replaceChildren();
    if (s.description) about.append(h('div', 'subagent-description', s.description));
    if (s.error) about.append(h('div', 'subagent-error', s.error));
    else if (s.state === 'idle' && s.stopReason && s.stopReason !== 'end_turn') about.append(h('div', 'subagent-stop-reason', stopReasonText(s.stopReason) || l10n.t('Stopped ({0}).', s.stopReason)));
    if (s.cwd && s.cwd !== displayRoot) about.append(h('div', 'subagent-cwd', l10n.t('in {0}', relativeTo(displayRoot, s.cwd))));
  };
  fill(item);
  return { el, children, update: (it) => fill(it as SubagentItem) };
}

/** A message between a session and a subagent: who to whom, and its text. */
function sessionMessageView(item: SessionMessageItem, post: Post): ItemView {
  const el = h('article', 'item msg msg-session');
  el.dataset.id = item.id;
  const head = h('div', 'session-message-head');
  const md = h('div', 'markdown');
  const parts = h('div', 'parts');
  el.append(head, md, parts);
  const fill = (m: SessionMessageItem) => {
    head.replaceChildren(icon('comment-discussion'), document.createTextNode(` ${m.from} → ${m.to}`));
    el.setAttribute('aria-label', l10n.t('Message from {0} to {1}', m.from, m.to));
    md.innerHTML = renderMarkdown(m.text);
    parts.replaceChildren(...m.parts.map((p) => renderPart(p, post)));
  };
  fill(item);
  return {
    el,
    update: (it) => fill(it as SessionMessageItem),
    appendText: (it) => {
      md.innerHTML = renderMarkdown(it.text);
    },
  };
}

function noticeView(item: NoticeItem): ItemView {
  const el = h('div', `item notice severity-${item.severity}`);
  el.dataset.id = item.id;
  el.setAttribute('role', item.severity === 'error' ? 'alert' : 'status');
  el.append(icon(item.severity === 'error' ? 'error' : item.severity === 'warning' ? 'warning' : 'info'), h('strong', undefined, ` ${item.title}`));
  if (item.description) el.append(h('div', 'notice-text', item.description));
  return { el, update: () => {} };
}

function turnEndView(item: TurnEndItem): ItemView {
  const text = stopReasonText(item.stopReason) ?? l10n.t('The turn ended ({0}).', item.stopReason);
  const el = h('div', `item turn-end reason-${item.stopReason}`);
  el.dataset.id = item.id;
  if (text) el.append(icon(item.stopReason === 'cancelled' ? 'debug-stop' : 'info'), document.createTextNode(` ${text}`));
  else el.classList.add('quiet');
  return { el, update: () => {} };
}

function errorView(item: ErrorItem, post: Post): ItemView {
  const el = h('div', 'item turn-error');
  el.dataset.id = item.id;
  el.setAttribute('role', 'alert');
  el.append(icon('error'), h('span', undefined, ` ${item.message}`));
  if (item.retryPrompt !== undefined) el.append(button(l10n.t('Retry'), 'link-button retry', () => post({ type: 'retry', id: item.id }), 'refresh'));
  return { el, update: () => {} };
}

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

/** A divider at the compaction's place: earlier messages stay above it; the summary folds open. */
function compactionView(item: CompactionItem): ItemView {
  const el = h('div', 'item compaction');
  el.dataset.id = item.id;
  const fill = (c: CompactionItem) => {
    el.replaceChildren();
    el.dataset.status = c.status;
    const label = h('span', 'compaction-label', `${compactionText(c.status)}${c.error ? ` — ${c.error}` : ''}`);
    label.setAttribute('role', 'status');
    const line = h('div', 'compaction-line');
    line.append(icon(c.status === 'in_progress' ? 'loading' : c.status === 'failed' ? 'warning' : 'fold'), label);
    el.append(line);
    if (c.summary) {
      const details = h('details', 'compaction-summary');
      const md = h('div', 'markdown');
      md.innerHTML = renderMarkdown(c.summary);
      details.append(h('summary', undefined, l10n.t('Summary')), md);
      el.append(details);
    }
  };
  fill(item);
  return {
    el,
    update: (it) => {
      // Keep the summary open while it streams, if the user opened it.
      const open = el.querySelector('details')?.open ?? false;
      fill(it as CompactionItem);
      const d = el.querySelector('details');
      if (d && open) d.open = true;
    },
  };
}

function permissionView(item: PermissionItem, post: Post): ItemView {
  const el = h('article', 'item permission');
  el.dataset.id = item.id;
  let answered = false;
  const fill = (p: PermissionItem) => {
    el.replaceChildren();
    el.dataset.state = p.state;
    // What is asked about: shown here only when the tool call's own card is not (on the card it is already there).
    const context = h('div', 'permission-context');
    const head = h('div', 'permission-head');
    head.append(icon('shield'), h('span', undefined, ` ${p.title}`));
    context.append(head);
    p.content.forEach((c, i) => context.append(toolContentView(c, i, p.id, post)));
    const raw = rawDetails(l10n.t('Details'), p.rawInput);
    if (raw) context.append(raw);
    el.append(context);
    const row = h('div', 'permission-options');
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', l10n.t('Permission requested: {0}', p.title));
    if (p.state === 'pending' && !answered) {
      const ask = h('span', 'permission-ask');
      ask.append(icon('shield'), document.createTextNode(` ${l10n.t('Permission needed:')}`));
      row.append(ask);
      for (const o of p.options) {
        const b = button(o.name, `permission-option kind-${o.kind}`, () => {
          if (answered) return;
          answered = true;
          for (const other of row.querySelectorAll('button')) (other as HTMLButtonElement).disabled = true;
          post({ type: 'permission', id: p.id, optionId: o.optionId });
        });
        b.dataset.optionId = o.optionId;
        row.append(b);
      }
    } else {
      const chosen = p.options.find((o) => o.optionId === p.chosen);
      const verdict = p.state === 'cancelled' ? l10n.t('Cancelled') : p.state === 'auto' ? l10n.t('Answered automatically: {0}', String(chosen?.name ?? p.chosen)) : l10n.t('You chose: {0}', chosen?.name ?? p.chosen ?? '…');
      row.append(h('span', 'permission-verdict', verdict));
    }
    el.append(row);
  };
  fill(item);
  return {
    el,
    update: (it) => {
      const p = it as PermissionItem;
      if (p.state !== 'pending') answered = true;
      fill(p);
    },
  };
}

function elicitationVerdict(state: string): string {
  switch (state) {
    case 'accepted':
      return l10n.t('Answered.');
    case 'declined':
      return l10n.t('You declined.');
    case 'cancelled':
      return l10n.t('Cancelled.');
    case 'withdrawn':
      return l10n.t('The agent withdrew the question.');
    case 'completed':
      return l10n.t('Done: the agent says the page’s work is complete.');
    default:
      return state;
  }
}

/** One form field: an input fitting its kind, its label, and why the last value was not accepted. */
function elicitationField(f: ElicitationFieldView, itemId: string, error: string | undefined, value: string | string[] | undefined): { el: HTMLElement; read: () => string | string[] | undefined } {
  const id = `${itemId}-${f.key}`;
  const wrap = h('div', 'elicit-field');
  const label = h('label', 'elicit-label', `${f.title}${f.required ? ' *' : ''}`);
  label.htmlFor = id;
  wrap.append(label);
  const def = value ?? (Array.isArray(f.def) ? f.def.map(String) : f.def !== undefined ? String(f.def) : undefined);
  let read: () => string | string[] | undefined;
  if (f.kind === 'multi') {
    const group = h('div', 'elicit-multi');
    group.id = id;
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', f.title);
    const boxes = f.options.map((o) => {
      const l = h('label', 'elicit-option');
      const b = h('input');
      b.type = 'checkbox';
      b.value = o.value;
      b.checked = Array.isArray(def) && def.includes(o.value);
      l.append(b, document.createTextNode(` ${o.title}`));
      group.append(l);
      return b;
    });
    wrap.append(group);
    read = () => boxes.filter((b) => b.checked).map((b) => b.value);
  } else if (f.kind === 'enum' || f.kind === 'boolean') {
    const sel = h('select', 'elicit-input');
    sel.id = id;
    if (!f.required || def === undefined) sel.append(h('option', undefined, ''));
    for (const o of f.options) {
      const opt = h('option', undefined, o.title);
      opt.value = o.value;
      sel.append(opt);
    }
    sel.value = typeof def === 'string' ? def : '';
    wrap.append(sel);
    read = () => (sel.value === '' ? undefined : sel.value);
  } else {
    const input = h('input', 'elicit-input');
    input.id = id;
    input.type = f.kind === 'string' ? 'text' : 'number';
    if (f.kind !== 'string') {
      if (f.min !== undefined) input.min = String(f.min);
      if (f.max !== undefined) input.max = String(f.max);
      input.step = f.kind === 'integer' ? '1' : 'any';
    }
    input.value = typeof def === 'string' ? def : '';
    wrap.append(input);
    read = () => input.value;
  }
  if (f.description) wrap.append(h('div', 'elicit-description', f.description));
  if (error) {
    const e = h('div', 'elicit-error', error);
    e.id = `${id}-error`;
    e.setAttribute('role', 'alert');
    wrap.querySelector('.elicit-input, .elicit-multi')?.setAttribute('aria-describedby', e.id);
    wrap.append(e);
  }
  return { el: wrap, read };
}

/** The agent asks: a form with its fields, or a page to open (its full address and host shown) — answered once. */
function elicitationView(item: ElicitationItem, post: Post): ItemView {
  const el = h('article', 'item elicitation');
  el.dataset.id = item.id;
  let typed: Record<string, string | string[]> = {};
  let sent = false;
  const fill = (e: ElicitationItem) => {
    el.replaceChildren();
    el.dataset.state = e.state;
    const head = h('div', 'elicitation-head');
    head.append(icon(e.mode === 'url' ? 'link-external' : 'question'), h('span', undefined, ` ${e.message || l10n.t('The agent asks for input')}`));
    el.append(head);
    if (e.state !== 'pending') {
      el.append(h('div', 'elicitation-verdict', elicitationVerdict(e.state)));
      return;
    }
    const answer = (action: 'accept' | 'decline' | 'cancel', values?: Record<string, string | string[]>) => {
      if (sent) return;
      sent = true;
      for (const b of el.querySelectorAll('button')) (b as HTMLButtonElement).disabled = true;
      post({ type: 'elicitation', id: e.id, action, ...(values ? { values } : {}) });
    };
    const row = h('div', 'elicitation-actions');
    if (e.mode === 'url') {
      const where = h('div', 'elicitation-url');
      where.append(...sentence(l10n.t('Opens {0}: {1}'), h('strong', undefined, e.host ?? ''), h('code', undefined, e.url ?? '')));
      el.append(where);
      row.append(button(e.host !== undefined ? l10n.t('Open {0}', e.host) : l10n.t('Open the page'), 'elicitation-accept', () => answer('accept'), 'link-external'));
    } else {
      const form = h('form', 'elicitation-form');
      const fields = e.fields.map((f) => elicitationField(f, e.id, e.errors?.[f.key], typed[f.key]));
      for (const f of fields) form.append(f.el);
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const values: Record<string, string | string[]> = {};
        e.fields.forEach((f, i) => {
          const v = fields[i]!.read();
          if (v !== undefined) values[f.key] = v;
        });
        typed = values;
        answer('accept', values);
      });
      const submit = h('button', 'elicitation-accept');
      submit.type = 'submit';
      submit.append(icon('check'), document.createTextNode(` ${l10n.t('Submit')}`));
      row.append(submit);
      form.append(row);
      el.append(form);
    }
    row.append(button(l10n.t('Decline'), 'link-button elicitation-decline', () => answer('decline')), button(l10n.t('Cancel'), 'link-button elicitation-cancel', () => answer('cancel')));
    if (e.mode === 'url') el.append(row);
  };
  fill(item);
  return {
    el,
    update: (it) => {
      // Answered but not accepted (a value was wrong): the form comes back with the reasons and what was typed.
      sent = false;
      fill(it as ElicitationItem);
    },
  };
}

export function renderItem(item: TranscriptItem, post: Post, streaming: boolean): ItemView {
  switch (item.kind) {
    case 'user':
    case 'agent':
    case 'thought':
      return messageView(item, post, streaming);
    case 'tool':
      return toolView(item, post);
    case 'plan':
      return planView(item, post);
    case 'subagent':
      return subagentView(item, post);
    case 'session-message':
      return sessionMessageView(item, post);
    case 'elicitation':
      return elicitationView(item, post);
    case 'notice':
      return noticeView(item);
    case 'turn-end':
      return turnEndView(item);
    case 'error':
      return errorView(item, post);
    case 'compaction':
      return compactionView(item);
    case 'permission':
      return permissionView(item, post);
  }
}
