import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';

export type SessionTreeNode = { readonly kind: 'agent'; readonly agent: AgentDefinition };

/**
 * The "Sessions" view: agents at the top level. Sessions beneath them arrive with
 * the session index; until then an empty list shows the welcome view.
 */
export class SessionTreeProvider implements vscode.TreeDataProvider<SessionTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly agents: () => readonly AgentDefinition[]) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: SessionTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.agent.name, vscode.TreeItemCollapsibleState.None);
    item.id = `agent:${node.agent.id}`;
    item.description = 'not started';
    item.tooltip = `${node.agent.name} — ${[node.agent.command, ...node.agent.args].join(' ')}`;
    item.iconPath = new vscode.ThemeIcon('hubot');
    item.contextValue = 'acpAgent';
    item.command = { command: 'acpAgents.newSession', title: 'New Session', arguments: [node.agent.id] };
    return item;
  }

  getChildren(node?: SessionTreeNode): SessionTreeNode[] {
    if (node) return [];
    return this.agents().map((agent) => ({ kind: 'agent', agent }));
  }

  getParent(): undefined {
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
