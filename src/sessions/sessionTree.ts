import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentStatus } from '../agents/agentManager';

const STATUS_TEXT: Record<AgentStatus, string> = {
  'not-started': '',
  starting: 'starting…',
  running: 'running',
  'needs-sign-in': 'needs sign-in',
  failed: 'failed',
  stopped: 'stopped',
};
const STATUS_ICON: Record<AgentStatus, string> = {
  'not-started': 'hubot',
  starting: 'loading~spin',
  running: 'pass-filled',
  'needs-sign-in': 'key',
  failed: 'error',
  stopped: 'circle-slash',
};

export type SessionTreeNode = { readonly kind: 'agent'; readonly agent: AgentDefinition };

/**
 * The "Sessions" view: agents at the top level. Sessions beneath them arrive with
 * the session index; until then an empty list shows the welcome view.
 */
export class SessionTreeProvider implements vscode.TreeDataProvider<SessionTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly agents: () => readonly AgentDefinition[],
    private readonly status: (id: string) => AgentStatus,
  ) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: SessionTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.agent.name, vscode.TreeItemCollapsibleState.None);
    item.id = `agent:${node.agent.id}`;
    const status = this.status(node.agent.id);
    item.description = STATUS_TEXT[status];
    item.tooltip = `${node.agent.name} — ${[node.agent.command, ...node.agent.args].join(' ')}`;
    item.iconPath = new vscode.ThemeIcon(STATUS_ICON[status]);
    item.contextValue = 'acpAgent';
    item.command = { command: 'acpAgents.newSession', title: 'New Session', arguments: [node.agent.id] };
    return item;
  }

  getChildren(node?: SessionTreeNode): SessionTreeNode[] {
    if (node) return [];
    // Your agents always; built-in presets once they have been started.
    return this.agents()
      .filter((agent) => agent.source === 'settings' || this.status(agent.id) !== 'not-started')
      .map((agent) => ({ kind: 'agent', agent }));
  }

  getParent(): undefined {
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
