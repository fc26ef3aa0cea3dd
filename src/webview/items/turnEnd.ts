/** The end of a turn, and why it ended when that is worth saying. */
import * as l10n from '@vscode/l10n';
import type { TurnEndItem } from '../../shared/transcriptTypes';
import { h, icon } from './dom';
import type { ItemView } from './types';

/** Why a turn ended, in words: '' for a plain end, undefined for a reason this version does not know. */
export function stopReasonText(reason: string): string | undefined {
  switch (reason) {
    case 'end_turn':
      return '';
    case 'cancelled':
      return l10n.t('Stopped. The agent ended the turn when asked to.');
    case 'refusal':
      return l10n.t('The agent refused to continue. This prompt and what follows will not be part of the next prompt.');
    case 'max_tokens':
      return l10n.t('The agent stopped: it reached its maximum number of tokens for a reply.');
    case 'interrupted':
      return l10n.t('Interrupted: this turn was cut short (the agent stopped or failed, or the window closed) before it ended.');
    case 'max_turn_requests':
      return l10n.t('The agent stopped: it reached its maximum number of model requests for one turn.');
    default:
      return undefined;
  }
}

export const turnEndView: ItemView<TurnEndItem> = {
  create(item) {
    const text = stopReasonText(item.stopReason) ?? l10n.t('The turn ended ({0}).', item.stopReason);
    const el = h('div', `item turn-end reason-${item.stopReason}`);
    el.dataset.id = item.id;
    if (text) el.append(icon(item.stopReason === 'cancelled' ? 'debug-stop' : item.stopReason === 'interrupted' ? 'warning' : 'info'), document.createTextNode(` ${text}`));
    else el.classList.add('quiet');
    return el;
  },
  // Its fields never change.
  update() {},
};
