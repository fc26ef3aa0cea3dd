/** A notice from the agent or the client: info, a warning, an error. */
import type { NoticeItem } from '../../shared/transcriptTypes';
import { h, icon } from './dom';
import type { ItemView } from './types';

export const noticeView: ItemView<NoticeItem> = {
  create(item) {
    const el = h('div', `item notice severity-${item.severity}`);
    el.dataset.id = item.id;
    el.setAttribute('role', item.severity === 'error' ? 'alert' : 'status');
    el.append(icon(item.severity === 'error' ? 'error' : item.severity === 'warning' ? 'warning' : 'info'), h('strong', undefined, ` ${item.title}`));
    if (item.description) el.append(h('div', 'notice-text', item.description));
    return el;
  },
  // Its fields never change.
  update() {},
};
