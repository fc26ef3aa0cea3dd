/**
 * An empty session is not a blank page: what the agent offers — its modes, its
 * slash commands, what can be attached — and how to start.
 */
import type { HeaderState } from '../shared/transcriptTypes';
import { h, icon } from './render';

const MAX_COMMANDS = 8;

export function renderWelcome(el: HTMLElement, header: HeaderState | undefined, agentName: string, empty: boolean): void {
  el.hidden = !empty || !header;
  if (el.hidden || !header) return;
  el.replaceChildren();
  el.append(h('h2', 'welcome-title', `Ask ${agentName || 'the agent'}`));
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
  if (modes.length) row('Modes', 'settings', [modes.map((m) => (m.current ? `${m.name} (current)` : m.name)).join(' · '), ' — switch in the header above.']);
  if (header.commands.length) {
    const ul = h('ul', 'welcome-commands');
    for (const c of header.commands.slice(0, MAX_COMMANDS)) {
      const li = h('li');
      li.append(h('code', undefined, `/${c.name}`), document.createTextNode(c.description ? ` ${c.description}` : ''));
      ul.append(li);
    }
    const more = header.commands.length > MAX_COMMANDS ? ` (${header.commands.length - MAX_COMMANDS} more)` : '';
    row('Commands', 'terminal', [ul, `Type / to pick one${more}.`]);
  }
  const accepts = header.accepts;
  const attach = ['@ mentions files, symbols, open editors, the selection and the Problems list', 'Attach… or drop files'];
  if (accepts?.image) attach.push('paste or drop images');
  const how = accepts ? (accepts.embeddedContext ? 'sent with their content' : 'sent as links (this agent reads them itself)') : '';
  row('Context', 'mention', [`${attach.join('; ')}${how ? ` — ${how}` : ''}.`]);
  el.append(dl, h('p', 'welcome-keys', 'Enter sends, Shift+Enter starts a new line, Up recalls earlier messages.'));
}
