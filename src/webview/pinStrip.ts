/**
 * The pinned messages, in a strip below the header: each goes to its message
 * (Enter or a click; the message is brought in first when it is in history not
 * shown yet) and can be unpinned (its × button, or Delete on it). The text is
 * the message's — the agent's is untrusted: textContent only.
 */
import * as l10n from '@vscode/l10n';
import type { PinView } from '../shared/transcriptTypes';
import { h, icon, type Post } from './items/dom';

export class PinStrip {
  readonly el: HTMLElement;
  private readonly list: HTMLUListElement;

  constructor(
    private readonly post: Post,
    /** Scrolls to the message; false when it is not in the history shown. */
    private readonly reveal: (id: string) => boolean,
    private readonly announce: (text: string) => void,
  ) {
    this.el = h('nav', 'pins');
    this.el.id = 'pins';
    this.el.setAttribute('aria-label', l10n.t('Pinned messages'));
    this.el.hidden = true;
    this.list = h('ul', 'pin-list');
    this.el.append(this.list);
  }

  render(pins: readonly PinView[] | undefined): void {
    const list = pins ?? [];
    // Where the keyboard was: the same pin's button again after the rebuild (or the next pin's, after an unpin).
    const active = document.activeElement instanceof HTMLElement && this.el.contains(document.activeElement) ? document.activeElement : undefined;
    const focusKey = active?.closest<HTMLElement>('.pin')?.dataset.key;
    const focusIndex = active ? [...this.list.children].findIndex((li) => li.contains(active)) : -1;
    const focusClass = active?.classList.contains('pin-remove') ? 'pin-remove' : 'pin-go';
    this.el.hidden = list.length === 0;
    this.list.replaceChildren(...list.map((p) => this.item(p)));
    if (!active) return;
    const items = [...this.list.querySelectorAll<HTMLElement>('.pin')];
    const same = items.find((li) => li.dataset.key === focusKey);
    const target = same?.querySelector<HTMLElement>(`.${focusClass}`) ?? items[Math.min(focusIndex, items.length - 1)]?.querySelector<HTMLElement>('.pin-go');
    (target ?? document.getElementById('transcript'))?.focus();
  }

  private item(p: PinView): HTMLLIElement {
    const li = h('li', `pin pin-${p.role}`);
    li.dataset.key = p.key;
    if (p.id !== undefined) li.dataset.id = p.id;
    const who = p.role === 'user' ? l10n.t('You') : l10n.t('Agent');
    const go = h('button', 'pin-go');
    go.type = 'button';
    go.append(icon('pinned'), h('span', 'pin-role', who), h('span', 'pin-text', p.text));
    go.title = p.text;
    go.setAttribute('aria-label', p.role === 'user' ? l10n.t('Go to your pinned message: {0}', p.text) : l10n.t('Go to the agent’s pinned message: {0}', p.text));
    go.setAttribute('aria-keyshortcuts', 'Delete');
    go.addEventListener('click', () => {
      if (p.id === undefined || !this.reveal(p.id)) this.announce(l10n.t('This pinned message is not in the history shown.'));
    });
    go.addEventListener('keydown', (e) => {
      if (e.key !== 'Delete' && e.key !== 'Backspace') return;
      e.preventDefault();
      this.unpin(p);
    });
    const remove = h('button', 'link-button pin-remove');
    remove.type = 'button';
    remove.append(icon('close'));
    remove.title = l10n.t('Unpin');
    remove.setAttribute('aria-label', l10n.t('Unpin: {0}', p.text));
    remove.addEventListener('click', () => this.unpin(p));
    li.append(go, remove);
    return li;
  }

  private unpin(p: PinView): void {
    this.post({ type: 'pin', action: 'unpin', id: p.key });
    this.announce(l10n.t('Unpinned: {0}', p.text));
  }
}
