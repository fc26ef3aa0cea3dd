/**
 * The session's MCP servers, below the header: a one-line summary that opens
 * to one line per server (its name, what became of it, the tools it listed)
 * with the action that helps. Names, tool names and messages come from the
 * user's settings, the agent or the server: text only, never markup.
 */
import * as l10n from '@vscode/l10n';
import type { HeaderState, McpStatusView } from '../shared/transcriptTypes';
import type { PanelAction } from '../shared/webviewProtocol';
import { button, h, icon, type Post } from './items/dom';

const ICONS: Record<string, string> = { listed: 'pass', started: 'loading', offered: 'circle-outline', skipped: 'circle-slash', failed: 'error', exited: 'debug-stop', notStarted: 'warning', unused: 'info' };

export class McpSection {
  readonly el: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly note: HTMLElement;

  constructor(
    private readonly post: Post,
    private readonly label: (action: PanelAction) => string,
  ) {
    this.el = h('details', 'mcp-status');
    this.el.id = 'mcp-status';
    this.el.hidden = true;
    this.summary = h('summary', 'mcp-summary');
    this.list = h('ul', 'mcp-list');
    this.list.setAttribute('aria-label', l10n.t('MCP servers'));
    this.note = h('div', 'mcp-note');
    this.el.append(this.summary, this.list, this.note);
  }

  render(mcp: HeaderState['mcp']): void {
    const servers = mcp?.servers ?? [];
    this.el.hidden = servers.length === 0;
    if (!servers.length) return;
    const count = (states: readonly string[]) => servers.filter((s) => states.includes(s.state)).length;
    const trouble = count(['failed', 'notStarted']) + servers.filter((s) => s.state === 'exited' && s.action).length;
    this.summary.replaceChildren(
      icon(trouble ? 'warning' : 'server'),
      document.createTextNode(` ${l10n.t('MCP servers: {0} started, {1} offered, {2} with a problem, {3} left out', count(['listed', 'started']), count(['offered', 'unused']), trouble, count(['skipped']))}`),
    );
    this.el.classList.toggle('has-trouble', trouble > 0);
    // The user opens it when something is wrong; it opens by itself the first time something is.
    if (trouble > 0 && !this.el.dataset.opened) {
      this.el.dataset.opened = '1';
      this.el.open = true;
    }
    this.list.replaceChildren(...servers.map((s) => this.item(s)));
    this.note.textContent = mcp?.note ?? '';
    this.note.hidden = !mcp?.note;
  }

  private item(s: McpStatusView): HTMLLIElement {
    const li = h('li', `mcp-server state-${s.state}`);
    li.dataset.name = s.name;
    li.dataset.state = s.state;
    li.append(icon(ICONS[s.state] ?? 'circle-outline'), h('strong', 'mcp-name', ` ${s.name}`), h('span', 'mcp-text', ` — ${s.text}`));
    if (s.tools) {
      const tools = h('div', 'mcp-tools', s.tools);
      tools.title = s.tools;
      li.append(tools);
    }
    const action = s.action;
    if (action) {
      li.append(button(this.label(action), 'link-button mcp-action', () => this.post({ type: 'action', action })));
    }
    return li;
  }
}
