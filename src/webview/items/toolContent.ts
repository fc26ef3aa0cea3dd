/**
 * What a tool call shows (on its card, or on a permission request about it):
 * diffs, terminals, a link to a subagent, content. Each piece is kept while
 * it is the same and patched or replaced alone when it changes; a diff is
 * computed once per content (shared/lineDiff caches it).
 */
import * as l10n from '@vscode/l10n';
import { relativeTo } from '../../shared/paths';
import { lineDiff, withContext, type DiffLine } from '../../shared/lineDiff';
import { patchLines, patchStats, type PatchHunk } from '../../shared/patch';
import type { ToolContent } from '../../shared/transcriptTypes';
import { renderMarkdown } from '../markdown';
import { button, getDisplayRoot, h, icon, setText, type Post } from './dom';
import { renderPart, samePart } from './parts';

type Diff = ToolContent & { type: 'diff' };
type Terminal = ToolContent & { type: 'terminal' };
type Patch = ToolContent & { type: 'patch' };

function diffView(c: Diff, onOpen: () => void): HTMLElement {
  const box = h('div', 'diff');
  const head = h('div', 'diff-head');
  const name = h('span', 'diff-path', relativeTo(getDisplayRoot(), c.path));
  name.title = c.path;
  const lines = lineDiff(c.oldText, c.newText);
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.op === '+') added++;
    else if (l.op === '-') removed++;
  }
  const stats = h('span', 'diff-stats', c.oldText === null ? l10n.t('new file, +{0} −{1}', added, removed) : `+${added} −${removed}`);
  head.append(icon('diff'), name, stats, button(l10n.t('Open Diff'), 'link-button open-diff', onOpen, 'go-to-file'));
  box.append(head, diffLines(withContext(lines, 2)));
  return box;
}

/** The first 80 lines of a diff, and a line saying there is more. */
function diffLines(context: readonly DiffLine[], cut = 0): HTMLElement {
  const pre = h('pre', 'diff-lines');
  const shown = context.slice(0, 80);
  for (const l of shown) {
    const row = h('div', l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'ctx');
    row.textContent = `${l.op === ' ' ? ' ' : l.op} ${l.text}`;
    pre.append(row);
  }
  if (context.length > shown.length || cut) pre.append(h('div', 'ctx', `  … ${l10n.t('open the diff to see all of it')}`));
  return pre;
}

/** What a v2 diff did to a file, for its header. */
function patchSummary(c: Patch): string {
  const { added, removed } = patchStats(c.hunks);
  const counts = `+${added} −${removed}`;
  const from = c.oldPath !== undefined ? relativeTo(getDisplayRoot(), c.oldPath) : '';
  switch (c.operation) {
    case 'add':
      return l10n.t('new file, +{0} −{1}', added, removed);
    case 'delete':
      return l10n.t('deleted, −{0}', removed);
    case 'move':
      return l10n.t('moved from {0}, {1}', from, counts);
    case 'copy':
      return l10n.t('copied from {0}, {1}', from, counts);
    case 'modify':
      return counts;
    default:
      return `${c.operation.slice(0, 40)}, ${counts}`;
  }
}

/** One file of an ACP v2 diff: the agent's hunks (v2 sends no whole texts; Open Diff rebuilds them from the file). */
function patchView(c: Patch, onOpen: () => void): HTMLElement {
  const box = h('div', 'diff');
  const head = h('div', 'diff-head');
  const name = h('span', 'diff-path', relativeTo(getDisplayRoot(), c.path));
  name.title = c.path;
  head.append(icon('diff'), name, h('span', 'diff-stats', patchSummary(c)));
  if (c.hunks.length && c.operation !== 'delete') head.append(button(l10n.t('Open Diff'), 'link-button open-diff', onOpen, 'go-to-file'));
  box.append(head);
  if (c.hunks.length) box.append(diffLines(patchLines(c.hunks), c.cut));
  return box;
}

function sameHunks(a: readonly PatchHunk[], b: readonly PatchHunk[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i];
    return y !== undefined && x.oldStart === y.oldStart && x.newStart === y.newStart && x.lines.length === y.lines.length && x.lines.every((l, j) => l === y.lines[j]);
  });
}

function terminalLabel(c: Terminal): string {
  return c.exitStatus
    ? c.exitStatus.signal
      ? l10n.t('Terminal {0} — stopped by {1}', c.terminalId, c.exitStatus.signal)
      : l10n.t('Terminal {0} — exited with code {1}', c.terminalId, String(c.exitStatus.exitCode))
    : c.output !== undefined
      ? l10n.t('Terminal {0} — running', c.terminalId)
      : l10n.t('Terminal {0}', c.terminalId);
}

function terminalText(c: Terminal): string {
  return `${c.truncated ? `${l10n.t('… (earlier output dropped)')}\n` : ''}${c.output !== undefined && c.output.length > 20_000 ? `…${c.output.slice(-20_000)}` : (c.output ?? '')}`;
}

function terminalView(c: Terminal): HTMLElement {
  const t = h('div', 'terminal');
  const head = h('div', 'terminal-head');
  head.append(icon('terminal'), document.createTextNode(` ${terminalLabel(c)}`));
  t.append(head);
  if (c.output !== undefined) t.append(h('pre', 'terminal-output', terminalText(c)));
  return t;
}

/** New output (or the exit) of the same terminal: its label and text patched, the element kept. */
function patchTerminal(t: HTMLElement, c: Terminal): void {
  const label = t.firstElementChild?.lastChild;
  if (label) setText(label, ` ${terminalLabel(c)}`);
  let pre = t.querySelector<HTMLPreElement>(':scope > pre.terminal-output');
  if (c.output === undefined) pre?.remove();
  else {
    if (!pre) t.append((pre = h('pre', 'terminal-output')));
    setText(pre, terminalText(c));
  }
}

function contentView(c: ToolContent, index: number, itemId: string, post: Post): HTMLElement {
  switch (c.type) {
    case 'diff':
      return diffView(c, () => post({ type: 'openDiff', id: itemId, index }));
    case 'patch':
      return patchView(c, () => post({ type: 'openDiff', id: itemId, index }));
    case 'terminal':
      return terminalView(c);
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

/** Whether a piece shows the same thing (a diff's texts compared as strings: equal content, no new diff). */
function sameContent(a: ToolContent, b: ToolContent): boolean {
  if (a === b) return true;
  switch (a.type) {
    case 'diff':
      return b.type === 'diff' && a.path === b.path && a.oldText === b.oldText && a.newText === b.newText;
    case 'patch':
      return b.type === 'patch' && a.path === b.path && a.oldPath === b.oldPath && a.operation === b.operation && a.cut === b.cut && sameHunks(a.hunks, b.hunks);
    case 'session':
      return b.type === 'session' && a.sessionId === b.sessionId;
    case 'content':
      return b.type === 'content' && samePart(a.content, b.content);
    case 'terminal':
      return b.type === 'terminal' && a.terminalId === b.terminalId && a.output === b.output && a.truncated === b.truncated && a.exitStatus?.exitCode === b.exitStatus?.exitCode && a.exitStatus?.signal === b.exitStatus?.signal && !a.exitStatus === !b.exitStatus;
  }
}

/** The shown pieces of a tool call's content: each element with the content it shows. */
export type ContentEls = readonly { readonly el: HTMLElement; readonly c: ToolContent }[];

/** The elements for `next`: the ones showing the same content kept, a terminal patched, the others new. */
export function syncContent(prev: ContentEls, next: readonly ToolContent[], itemId: string, post: Post): ContentEls {
  return next.map((c, i) => {
    const old = prev[i];
    if (old && sameContent(old.c, c)) return old.c === c ? old : { el: old.el, c };
    if (old?.c.type === 'terminal' && c.type === 'terminal' && old.c.terminalId === c.terminalId) {
      patchTerminal(old.el, c);
      return { el: old.el, c };
    }
    return { el: contentView(c, i, itemId, post), c };
  });
}

/**
 * A foldable section of raw JSON ("Raw input"): created when the text comes,
 * its text patched after (open, focused, it stays so), gone when there is none.
 */
export function syncRaw(d: HTMLDetailsElement | undefined, label: string, text: string | undefined): HTMLDetailsElement | undefined {
  if (text === undefined) return undefined;
  if (d) {
    setText(d.lastElementChild!, text);
    return d;
  }
  d = h('details', 'raw');
  d.append(h('summary', undefined, label), h('pre', undefined, text));
  return d;
}
