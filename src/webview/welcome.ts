/**
 * An empty session is not a blank page: what the agent offers — its modes, its
 * slash commands, what can be attached — and how to start.
 */
import * as l10n from '@vscode/l10n';
import type { HeaderState } from '../shared/transcriptTypes';
import { h, icon } from './render';

const MAX_COMMANDS = 8;

export function renderWelcome(el: HTMLElement, header: HeaderState | undefined, agentName: string, empty: boolean): void {
  el.hidden = !empty || !header;
  if (el.hidden || !header) return;
  el.replaceChildren();
  el.append(h('h2', 'welcome-title', agentName ? l10n.t('Ask {0}', agentName) : l10n.t('Ask the agent')));
  const dl = h('dl', 'welcome-offers');
  const row = (name: string, iconName: string, content: (string | HTMLElement)[]) => {
    const dt = h('dt');
    dt.append(icon(iconName), document.createTextNode(` ${name}`));
    const dd = h('dd');
    dd.append(...content);
    dl.append(dt, dd);
  };
  const modeOption = header.configOptions.find((o) => o.category === 'mode' && o.type === 'select');
  const modes = modeOption ? modeOption.options.map((o) => ({ name: o.name, current: o.value === modeOption.currentValue })) : (header.modes?.availableModes ?? []).map((m) => ({ name: m.name, current: m.id === header.modes?.currentModeId }));
  if (modes.length) row(l10n.t('Modes'), 'settings', [l10n.t('{0} — switch in the header above.', modes.map((m) => (m.current ? l10n.t('{0} (current)', m.name) : m.name)).join(' · '))]);
  if (header.commands.length) {
    const ul = h('ul', 'welcome-commands');
    for (const c of header.commands.slice(0, MAX_COMMANDS)) {
      const li = h('li');
      li.append(h('code', undefined, `/${c.name}`), document.createTextNode(c.description ? ` ${c.description}` : ''));
      ul.append(li);
    }
    const more = header.commands.length - MAX_COMMANDS;
    row(l10n.t('Commands'), 'terminal', [ul, more > 0 ? l10n.t('Type / to pick one ({0} more).', more) : l10n.t('Type / to pick one.')]);
  }
  const accepts = header.accepts;
  const attach = [l10n.t('@ mentions files, symbols, open editors, the selection and the Problems list'), l10n.t('Attach… or drop files')];
  if (accepts?.image) attach.push(l10n.t('paste or drop images'));
  const how = accepts ? (accepts.embeddedContext ? l10n.t('sent with their content') : l10n.t('sent as links (this agent reads them itself)')) : '';
  row(l10n.t('Context'), 'mention', [`${attach.join('; ')}${how ? ` — ${how}` : ''}.`]);
  el.append(dl, h('p', 'welcome-keys', l10n.t('Enter sends, Shift+Enter starts a new line, Up recalls earlier messages.')));
}
