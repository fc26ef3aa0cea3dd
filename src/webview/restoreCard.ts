/**
 * "Restore files to here": the confirmation under its user message — the files
 * that will change (and those the user edited since, with a diff) — then the
 * outcome, with Undo.
 */
import * as l10n from '@vscode/l10n';
import type { RestoreView } from '../shared/transcriptTypes';
import { h, icon, type Post } from './render';

function actionText(action: RestoreView['files'][number]['action']): string {
  switch (action) {
    case 'restore':
      return l10n.t('back to its content then');
    case 'recreate':
      return l10n.t('made again (deleted since)');
    case 'delete':
      return l10n.t('removed (it did not exist then)');
    case 'unknown':
      return l10n.t('cannot be restored: its content then is not known');
  }
}

function headingOf(state: RestoreView['state'], n: number, rewind: number | undefined): string {
  switch (state) {
    case 'confirm':
      if (rewind !== undefined) return n === 1 ? l10n.t('Restore 1 file, then continue from before message {0} in a fork?', rewind) : l10n.t('Restore {0} files, then continue from before message {1} in a fork?', n, rewind);
      return n === 1 ? l10n.t('Restore 1 file to before this message?') : l10n.t('Restore {0} files to before this message?', n);
    case 'restoring':
      return l10n.t('Restoring…');
    case 'done':
      return l10n.t('Files restored');
    case 'undone':
      return l10n.t('Restore undone');
    case 'failed':
      return l10n.t('Not restored');
  }
}

/** Shows (or removes) the card: after its message when that is on screen, else at the top of `fallback`. */
export function renderRestore(transcript: HTMLElement, fallback: HTMLElement, view: RestoreView | undefined, post: Post): void {
  for (const old of document.querySelectorAll('.restore-card')) old.remove();
  if (!view) return;
  const card = h('section', `restore-card state-${view.state}`);
  card.setAttribute('role', 'group');
  card.setAttribute('aria-label', l10n.t('Restore files to here'));
  const title = h('div', 'restore-title');
  title.append(icon('history'), document.createTextNode(' '));
  const n = view.files.filter((f) => f.action !== 'unknown').length;
  title.append(h('strong', undefined, headingOf(view.state, n, view.rewind)));
  card.append(title);
  if (view.files.length && view.state !== 'failed') {
    const ul = h('ul', 'restore-files');
    for (const f of view.files) {
      const li = h('li', `restore-file action-${f.action}`);
      li.title = f.path;
      li.append(h('span', 'restore-name', f.name), h('span', 'restore-action', ` ${actionText(f.action)}`));
      if (f.userEdited) {
        const warn = h('span', 'restore-edited');
        warn.append(icon('warning'), document.createTextNode(` ${l10n.t('edited since the agent changed it')}`));
        li.classList.add('is-edited');
        li.append(warn);
        const diff = h('button', 'link-button restore-diff', l10n.t('Show Diff'));
        diff.type = 'button';
        diff.setAttribute('aria-label', l10n.t('Show what changed in {0} since the agent left it', f.name));
        diff.addEventListener('click', () => post({ type: 'checkpoint', action: 'diff', id: view.checkpoint, path: f.path }));
        li.append(diff);
      }
      ul.append(li);
    }
    card.append(ul);
  }
  if (view.note) card.append(h('p', 'restore-note', view.note));
  const buttons = h('div', 'restore-buttons');
  const button = (cls: string, text: string, action: 'restore' | 'restoreKeep' | 'undo' | 'dismiss', primary = false) => {
    const b = h('button', `${primary ? 'primary' : 'secondary'} ${cls}`, text);
    b.type = 'button';
    b.addEventListener('click', () => post({ type: 'checkpoint', action, id: view.checkpoint }));
    return b;
  };
  const edited = view.files.filter((f) => f.userEdited && f.action !== 'unknown').length;
  if (view.state === 'confirm' && view.rewind !== undefined) {
    // Before an Edit or Retry: the files the user changed since stay as they are unless the user says otherwise.
    const others = n - edited;
    if (edited > 0) {
      buttons.append(button('restore-keep', others === 1 ? l10n.t('Restore 1 File, Keep Your Changes, Continue') : l10n.t('Restore {0} Files, Keep Your Changes, Continue', others), 'restoreKeep', true));
      buttons.append(button('restore-confirm', l10n.t('Restore All {0}, Discarding Your Changes, Continue', n), 'restore'));
    } else buttons.append(button('restore-confirm', n === 1 ? l10n.t('Restore 1 File and Continue') : l10n.t('Restore {0} Files and Continue', n), 'restore', true));
  } else if (view.state === 'confirm' && n > 0) buttons.append(button('restore-confirm', n === 1 ? l10n.t('Restore 1 File') : l10n.t('Restore {0} Files', n), 'restore', true));
  if (view.state === 'done') buttons.append(button('restore-undo', l10n.t('Undo Restore'), 'undo'));
  if (view.state !== 'restoring') buttons.append(button('restore-dismiss', view.state === 'confirm' ? l10n.t('Cancel') : l10n.t('Close'), 'dismiss'));
  card.append(buttons);
  const anchor = transcript.querySelector(`[data-id="${CSS.escape(view.messageId)}"]`);
  if (anchor) anchor.after(card);
  else fallback.prepend(card);
  if (view.state === 'confirm') card.scrollIntoView({ block: 'nearest' });
}
