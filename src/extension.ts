import * as vscode from 'vscode';
import type { AgentDefinition } from './agents/agentDefinition';
import { ChatPanelManager, type ChatPanel } from './chat/chatPanel';
import { Config, SECTION } from './config';
import { SessionTreeProvider } from './sessions/sessionTree';

/** What the extension exports: used by the integration tests and by other extensions. */
export interface AcpAgentsApi {
  readonly version: string;
  agents(): readonly AgentDefinition[];
  /** Opens a chat panel for an agent, as "ACP: New Session…" does after the pick. */
  openChat(agentId: string): ChatPanel;
  panels(): readonly ChatPanel[];
}

export function activate(context: vscode.ExtensionContext): AcpAgentsApi {
  const log = vscode.window.createOutputChannel('ACP Agents', { log: true });
  const config = new Config();
  context.subscriptions.push(log);

  const agents = (): AgentDefinition[] => config.agents().agents;
  const findAgent = (id: string) => agents().find((a) => a.id === id);
  const reportSettingsProblems = () => {
    for (const p of config.agents().problems) log.warn(p.message);
  };
  reportSettingsProblems();

  const panels = new ChatPanelManager(context.extensionUri, log, findAgent);
  const tree = new SessionTreeProvider(agents);
  const treeView = vscode.window.createTreeView('acpAgents.sessions', { treeDataProvider: tree, showCollapseAll: false });
  context.subscriptions.push(panels, tree, treeView);

  const openChat = (agentId: string): ChatPanel => {
    const agent = findAgent(agentId);
    if (!agent) throw new Error(`No agent with id "${agentId}" is configured in acpAgents.agents.`);
    return panels.open(agent);
  };

  const pickAgent = async (): Promise<AgentDefinition | undefined> => {
    const all = agents();
    const preferred = config.defaultAgent();
    const byDefault = preferred ? all.find((a) => a.id === preferred) : undefined;
    if (byDefault) return byDefault;
    if (all.length === 0) {
      const open = 'Open Settings';
      const choice = await vscode.window.showInformationMessage(
        'No ACP agents are configured yet. Add one to the "acpAgents.agents" user setting.',
        open,
      );
      if (choice === open) await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.agents`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      all.map((agent) => ({ label: agent.name, description: [agent.command, ...agent.args].join(' '), agent })),
      { title: 'ACP: New Session', placeHolder: 'Pick an agent to start a session with', matchOnDescription: true },
    );
    return picked?.agent;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('acpAgents.newSession', async (agentId?: unknown) => {
      const agent = typeof agentId === 'string' ? findAgent(agentId) : await pickAgent();
      if (agent) panels.open(agent);
    }),
    vscode.commands.registerCommand('acpAgents.resumeSession', async () => {
      await vscode.window.showInformationMessage('There are no past ACP sessions to resume yet.');
    }),
    vscode.commands.registerCommand('acpAgents.cancel', () => {
      vscode.window.setStatusBarMessage('ACP: nothing is running.', 3000);
    }),
    vscode.commands.registerCommand('acpAgents.restartAgent', () => {
      vscode.window.setStatusBarMessage('ACP: no agent is running.', 3000);
    }),
    vscode.commands.registerCommand('acpAgents.showLog', () => log.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.agents`)) {
        reportSettingsProblems();
        tree.refresh();
      }
    }),
  );

  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  log.info(`ACP Agents ${version} activated in ${vscode.env.appName} ${vscode.version}`);
  return { version, agents, openChat, panels: () => panels.all() };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
