/**
 * "Restore files to here": the confirmation under its user message — the files
 * that will change (and those the user edited since, with a diff) — then the
 * outcome, with Undo.
 */
import type { RestoreView } from '../shared/transcriptTypes';
import { h, icon, type Post } from './render';

const ACTION_TEXT: Record<RestoreView['files'][number]['action'], string> = {
  restore: 'back to its content then',
  recreate: 'made again (deleted since)',
  delete: 'removed (it did not exist then)',
  unknown: 'cannot be restored: its content then is not known',
};

/** Shows (or removes) the card: after its message when that is on screen, else at the top of `fallback`. */
export function renderRestore(transcript: HTMLElement, fallback: HTMLElement, view: RestoreView | undefined, post: Post): void {
  for (const old of document.querySelectorAll('.restore-card')) old.remove();
  if (!view) return;
  const card = h('section', `restore-card state-${view.state}`);
  card.setAttribute('role', 'group');
  card.setAttribute('aria-label', 'Restore files to here');
  const title = h('div', 'restore-title');
  title.append(icon('history'), document.createTextNode(' '));
  const n = view.files.filter((f) => f.action !== 'unknown').length;
  const heading =
    view.state === 'confirm' ? `Restore ${n} file${n === 1 ? '' : 's'} to before this message?` : view.state === 'restoring' ? 'Restoring…' : view.state === 'done' ? 'Files restored' : view.state === 'undone' ? 'Restore undone' : 'Not restored';
  title.append(h('strong', undefined, heading));
  card.append(title);
  if (view.files.length && view.state !== 'failed') {
    const ul = h('ul', 'restore-files');
    for (const f of view.files) {
      const li = h('li', `restore-file action-${f.action}`);
      li.title = f.path;
      li.append(h('span', 'restore-name', f.name), h('span', 'restore-action', ` ${ACTION_TEXT[f.action]}`));
      if (f.userEdited) {
        const warn = h('span', 'restore-edited');
        warn.append(icon('warning'), document.createTextNode(' edited since the agent changed it'));
        li.classList.add('is-edited');
        li.append(warn);
        const diff = h('button', 'link-button restore-diff', 'Show Diff');
        diff.type = 'button';
        diff.setAttribute('aria-label', `Show what changed in ${f.name} since the agent left it`);
        diff.addEventListener('click', () => post({ type: 'checkpoint', action: 'diff', id: view.checkpoint, path: f.path }));
        li.append(diff);
      }
      ul.append(li);
    }
    card.append(ul);
  }
  if (view.note) card.append(h('p', 'restore-note', view.note));
  const buttons = h('div', 'restore-buttons');
  const button = (cls: string, text: string, action: 'restore' | 'undo' | 'dismiss', primary = false) => {
    const b = h('button', `${primary ? 'primary' : 'secondary'} ${cls}`, text);
    b.type = 'button';
    b.addEventListener('click', () => post({ type: 'checkpoint', action, id: view.checkpoint }));
    return b;
  };
  if (view.state === 'confirm' && n > 0) buttons.append(button('restore-confirm', `Restore ${n} File${n === 1 ? '' : 's'}`, 'restore', true));
  if (view.state === 'done') buttons.append(button('restore-undo', 'Undo Restore', 'undo'));
  if (view.state !== 'restoring') buttons.append(button('restore-dismiss', view.state === 'confirm' ? 'Cancel' : 'Close', 'dismiss'));
  card.append(buttons);
  const anchor = transcript.querySelector(`[data-id="${CSS.escape(view.messageId)}"]`);
  if (anchor) anchor.after(card);
  else fallback.prepend(card);
  if (view.state === 'confirm') card.scrollIntoView({ block: 'nearest' });
}
