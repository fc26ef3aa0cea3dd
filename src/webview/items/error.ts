/** A turn that failed, with Retry when the prompt can be sent again. */
import * as l10n from '@vscode/l10n';
import type { ErrorItem } from '../../shared/transcriptTypes';
import { button, h, icon } from './dom';
import type { ItemView } from './types';

export const errorView: ItemView<ErrorItem> = {
  create(item, { post }) {
    const el = h('div', 'item turn-error');
    el.dataset.id = item.id;
    el.setAttribute('role', 'alert');
    el.append(icon('error'), h('span', undefined, ` ${item.message}`));
    if (item.retryPrompt !== undefined) el.append(button(l10n.t('Retry'), 'link-button retry', () => post({ type: 'retry', id: item.id }), 'refresh'));
    return el;
  },
  // Its fields never change.
  update() {},
};
