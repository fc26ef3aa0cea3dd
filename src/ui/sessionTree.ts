import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentStatus } from '../agents/agentManager';
import { statusText as mcpStatusText, type McpServerStatus } from '../sessions/mcp/mcpStatus';
import type { SessionEntry, SessionIndex } from '../sessions/store/sessionIndex';
import { forLabel } from '../shared/nativeText';

/** An agent's state in words (the picker and the tree). */
export function agentStatusWords(status: AgentStatus): string {
  switch (status) {
    case 'not-started':
      return vscode.l10n.t('not started');
    case 'starting':
      return vscode.l10n.t('starting…');
    case 'running':
      return vscode.l10n.t('running');
    case 'needs-sign-in':
      return vscode.l10n.t('needs sign-in');
    case 'failed':
      return vscode.l10n.t('failed');
    case 'stopped':
      return vscode.l10n.t('stopped');
  }
}
/** In the tree, an agent not started yet says nothing. */
const statusText = (status: AgentStatus): string => (status === 'not-started' ? '' : agentStatusWords(status));

const STATUS_ICON: Record<AgentStatus, string> = {
  'not-started': 'hubot',
  starting: 'loading~spin',
  running: 'pass-filled',
  'needs-sign-in': 'key',
  failed: 'error',
  stopped: 'circle-slash',
};

export type SessionTreeNode =
  | { readonly kind: 'agent'; readonly agent: AgentDefinition }
  | { readonly kind: 'session'; readonly agent: AgentDefinition; readonly entry: SessionEntry };

function relativeTime(ms: number, now = Date.now()): string {
  const s = Math.round((now - ms) / 1000);
  if (s < 45) return vscode.l10n.t('just now');
  const m = Math.round(s / 60);
  if (m < 60) return vscode.l10n.t('{0} min ago', m);
  const h = Math.round(m / 60);
  if (h < 24) return vscode.l10n.t('{0} h ago', h);
  const d = Math.round(h / 24);
  if (d < 30) return vscode.l10n.t('{0} d ago', d);
  return new Date(ms).toLocaleDateString();
}

/**
 * A tooltip whose text from agents (names, titles, folders, commands) is text, never markdown:
 * no links, no images, no HTML, no theme icons. Pieces alternate: ours (markdown), theirs (text).
 */
function textTooltip(...pieces: readonly (readonly [markdown: string, text?: string])[]): vscode.MarkdownString {
  const tip = new vscode.MarkdownString(undefined, false);
  tip.isTrusted = false;
  tip.supportHtml = false;
  for (const [markdown, text] of pieces) {
    tip.appendMarkdown(markdown);
    if (text !== undefined) tip.appendText(forLabel(text, 500));
  }
  return tip;
}

/** The MCP servers of a session open in a panel, one line each (names and words are text, never markdown). */
function mcpTooltip(mcp: { statuses(): readonly McpServerStatus[]; trustNote(): string | undefined } | undefined): (readonly [string, string?])[] {
  const list = mcp?.statuses() ?? [];
  if (!list.length) return [];
  const lines: (readonly [string, string?])[] = [[`\n\n**${vscode.l10n.t('MCP servers')}**`]];
  for (const s of list.slice(0, 20)) lines.push(['\n\n- ', `${s.name}: ${mcpStatusText(s)}`]);
  if (list.length > 20) lines.push(['\n\n', vscode.l10n.t('and {0} more', list.length - 20)]);
  const note = mcp?.trustNote();
  if (note) lines.push(['\n\n', note]);
  return lines;
}

/** What the tree shows of sessions open in panels. */
export interface OpenSessionState {
  /** The MCP status of a session open in a panel (sessions/parts/mcpStatus.ts). */
  readonly mcp?: (agentId: string, sessionId: string) => { statuses(): readonly McpServerStatus[]; trustNote(): string | undefined } | undefined;
  /** Whether an open session waits for the user (a permission request or a question). */
  readonly waiting?: (agentId: string, sessionId: string) => boolean;
  /** The ACP version a running agent speaks (what its handshake settled); undefined while it is not running. */
  readonly protocol?: (agentId: string) => number | undefined;
  /** The git worktree a session's folder is (services/worktrees.ts): its branch, and the checkout it came from. */
  readonly worktree?: (cwd: string) => { readonly branch: string; readonly repoTop: string } | undefined;
}

/**
 * The "Sessions" view: agents (with their state) at the top level, their
 * sessions beneath, newest first. Empty → the welcome view with New Session.
 */
export class SessionTreeProvider implements vscode.TreeDataProvider<SessionTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly agents: () => readonly AgentDefinition[],
    private readonly status: (id: string) => AgentStatus,
    private readonly index: SessionIndex,
    private readonly open: OpenSessionState = {},
  ) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: SessionTreeNode): vscode.TreeItem {
    if (node.kind === 'agent') {
      const sessions = this.index.forAgent(node.agent.id).length;
      const name = forLabel(node.agent.name, 100);
      const item = new vscode.TreeItem(name, sessions ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.id = `agent:${node.agent.id}`;
      const status = this.status(node.agent.id);
      const version = node.agent.source === 'registry' && node.agent.version ? `${forLabel(node.agent.version, 50)} ` : '';
      const words = statusText(status) || vscode.l10n.t('not started');
      item.description = `${version}${statusText(status)}`.trim();
      item.tooltip = textTooltip(['**', node.agent.name], [`** — ${words}\n\n`, [node.agent.command, ...node.agent.args].join(' ')], [this.protocolLine(node.agent.id)]);
      item.iconPath = new vscode.ThemeIcon(STATUS_ICON[status]);
      item.contextValue = node.agent.source === 'registry' ? 'acpRegistryAgent' : 'acpAgent';
      item.accessibilityInformation = { label: vscode.l10n.t('Agent {0}, {1}, {2} sessions', name, words, sessions) };
      return item;
    }
    const e = node.entry;
    const title = e.title ? forLabel(e.title) : vscode.l10n.t('Untitled session');
    const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.None);
    item.id = `session:${e.agentId}:${e.sessionId}`;
    const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
    const wt = this.open.worktree?.(e.cwd);
    const elsewhere = folders.length > 0 && !folders.includes(e.cwd) && !wt;
    const waiting = this.open.waiting?.(e.agentId, e.sessionId) ?? false;
    // A session in a worktree of its own says its branch first.
    const where = wt ? `${vscode.l10n.t('branch {0}', forLabel(wt.branch, 60))} · ` : '';
    const when = `${where}${relativeTime(e.updatedAt)}${elsewhere ? ` · ${forLabel(path.basename(e.cwd), 100)}` : ''}`;
    // A fork made by an Edit or Retry names the session it came from (which stays in the list).
    const from = e.forkOf ? forLabel(e.forkOf.title ?? this.index.get(e.agentId, e.forkOf.sessionId)?.title ?? e.forkOf.sessionId, 60) : undefined;
    const rewound = e.forkOf && from !== undefined ? (e.forkOf.message !== undefined ? vscode.l10n.t('rewound from "{0}" before message {1}', from, e.forkOf.message) : vscode.l10n.t('forked from "{0}"', from)) : undefined;
    const described = rewound ? `${rewound} · ${when}` : when;
    item.description = waiting ? vscode.l10n.t('waiting for you · {0}', described) : described;
    item.tooltip = textTooltip(
      ['**', title],
      ['**\n\n', node.agent.name],
      [` · ${new Date(e.updatedAt).toLocaleString()}\n\n`, e.cwd],
      ...(wt ? [['\n\n', vscode.l10n.t('In a git worktree on branch {0}, made from {1}', wt.branch, wt.repoTop)] as [string, string]] : []),
      [e.source === 'agent' ? `\n\n${vscode.l10n.t('(listed by the agent)')}` : ''],
      ...(rewound ? [['\n\n', rewound] as [string, string]] : []),
      [waiting ? `\n\n${vscode.l10n.t('Waiting for your answer to a permission request or a question.')}` : ''],
      [this.protocolLine(e.agentId)],
      ...mcpTooltip(this.open.mcp?.(e.agentId, e.sessionId)),
    );
    item.iconPath = waiting ? new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('notificationsWarningIcon.foreground')) : new vscode.ThemeIcon(wt ? 'git-branch' : e.source === 'agent' ? 'cloud' : 'comment-discussion');
    item.contextValue = wt ? 'acpWorktreeSession' : 'acpSession';
    item.command = { command: 'acpAgents.openSession', title: vscode.l10n.t('Open'), arguments: [node] };
    item.accessibilityInformation = { label: waiting ? vscode.l10n.t('Session {0}, {1}, waiting for you', title, relativeTime(e.updatedAt)) : vscode.l10n.t('Session {0}, {1}', title, relativeTime(e.updatedAt)) };
    return item;
  }

  /** "ACP v2" on its own line while the agent runs (the version its handshake settled). */
  private protocolLine(agentId: string): string {
    const v = this.open.protocol?.(agentId);
    return v === undefined ? '' : `\n\n${vscode.l10n.t('Protocol: ACP v{0}', v)}`;
  }

  getChildren(node?: SessionTreeNode): SessionTreeNode[] {
    if (!node) {
      // Your agents and those installed from the ACP Registry.
      return this.agents().map((agent) => ({ kind: 'agent', agent }));
    }
    if (node.kind === 'agent') return this.index.forAgent(node.agent.id).map((entry) => ({ kind: 'session', agent: node.agent, entry }));
    return [];
  }

  getParent(node: SessionTreeNode): SessionTreeNode | undefined {
    return node.kind === 'session' ? { kind: 'agent', agent: node.agent } : undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
