/** The default answers of Ctx's replaceable questions (the tests answer them instead). */
import * as vscode from 'vscode';

export async function confirmModal(message: string, detail: string, action: string): Promise<boolean> {
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
}

export async function pickWorkspaceFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  return await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Pick the folder the agent works in') });
}

/** Picks one of an agent's past sessions. */
export async function pickSession<T extends vscode.QuickPickItem>(items: T[], title: string): Promise<T | undefined> {
  return await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Pick a session to open'), matchOnDescription: true, matchOnDetail: true });
}
