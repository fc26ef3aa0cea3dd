/**
 * The window's folders as paths, and the agent manager's few editor needs
 * (progress, trust, folders): one place for what ctx.ts would build inline.
 */
import * as vscode from 'vscode';
import type { AgentHostUi } from '../agents/ports';

/** The workspace folders' paths, in order. */
export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
}

/** The first workspace folder, where a session opens by default. */
export function workspaceCwd(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** What AgentManager asks of the editor. */
export function agentHostUi(): AgentHostUi {
  return {
    withProgress: (title, task) => Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_p, token) => task(token))),
    isTrusted: () => vscode.workspace.isTrusted,
    defaultFolder: () => workspaceCwd(),
    workspaceFolders: () => workspaceFolderPaths(),
    restartRequested: (id) => void vscode.commands.executeCommand('acpAgents.restartAgent', id),
  };
}
