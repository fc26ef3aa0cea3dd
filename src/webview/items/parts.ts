/** Content blocks beside a message's text (images, links, resources), and the Copy button of a message. */
import * as l10n from '@vscode/l10n';
import type { ContentPart, MessageItem } from '../../shared/transcriptTypes';
import { basename, h, icon, type Post } from './dom';

export function renderPart(part: ContentPart, post: Post): HTMLElement {
  switch (part.type) {
    case 'text':
      return h('div', 'part-text', part.text ?? '');
    case 'note': {
      // Something the client sent with the user's message (a reason for a rejected permission).
      const d = h('div', 'part-note');
      d.append(icon('comment'), document.createTextNode(` ${part.text ?? ''}`));
      return d;
    }
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

export function samePart(a: ContentPart, b: ContentPart): boolean {
  return a === b || (a.type === b.type && a.text === b.text && a.uri === b.uri && a.name === b.name && a.mimeType === b.mimeType && a.data === b.data);
}

/** The parts of a message into `box`: rebuilt only when they changed (an open part stays open). */
export function syncParts(box: HTMLElement, prev: readonly ContentPart[] | undefined, next: readonly ContentPart[], post: Post): void {
  if (prev && prev.length === next.length && prev.every((p, i) => samePart(p, next[i]!))) return;
  box.replaceChildren(...next.map((p) => renderPart(p, post)));
}

/** Copy: a message's text (its Markdown, as the agent wrote it) to the clipboard. */
export function copyButton(text: () => string, ariaLabel: string): HTMLButtonElement {
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

/** Pin / Unpin: a message of the session's own timeline, in the strip at the top of the panel. None for a subagent's. */
export function pinButton(item: MessageItem, post: Post): HTMLButtonElement | undefined {
  if (item.parent !== undefined) return undefined;
  const b = h('button', 'link-button pin-message');
  b.type = 'button';
  b.addEventListener('click', () => post({ type: 'pin', action: b.getAttribute('aria-pressed') === 'true' ? 'unpin' : 'pin', id: b.dataset.id ?? '' }));
  syncPin(b, item);
  return b;
}

export function syncPin(b: HTMLButtonElement | undefined, item: MessageItem): void {
  if (!b) return;
  const pinned = item.pinned === true;
  b.dataset.id = item.id;
  if (b.getAttribute('aria-pressed') === String(pinned)) return;
  b.setAttribute('aria-pressed', String(pinned));
  b.replaceChildren(icon(pinned ? 'pinned' : 'pin'), document.createTextNode(` ${pinned ? l10n.t('Unpin') : l10n.t('Pin')}`));
  b.setAttribute('aria-label', pinned ? l10n.t('Unpin this message from the top of the panel') : l10n.t('Pin this message to the top of the panel'));
}
