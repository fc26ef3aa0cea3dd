/**
 * Adding a context folder to a session, from the panel header (a folder
 * picker) or the Explorer's "Add Folder to Agent Session": what the session's
 * `folders` part says no to is shown as an error, never thrown.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../sessions/agentSession';

/** How a refusal is shown (the command's goes through the extension's messages, which the tests see). */
type ShowRefusal = (message: string) => unknown;
const showError: ShowRefusal = (message) => vscode.window.showErrorMessage(message);

/**
 * Adds `folder` (or, without one, a folder the user picks) to the session;
 * true when added. The refusal's sentence names the folder escaped (the
 * session part's `add` escapes what it puts in).
 */
export async function addContextFolder(session: AgentSession, folder?: vscode.Uri, show: ShowRefusal = showError): Promise<boolean> {
  let uri = folder;
  if (!uri) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      openLabel: vscode.l10n.t('Add to Session'),
      title: vscode.l10n.t('Add a folder to the session with {0}', session.def.name),
    });
    uri = picked?.[0];
    if (!uri) return false;
  }
  if (uri.scheme !== 'file') {
    void show(vscode.l10n.t('Only a folder on this machine can be added to a session.'));
    return false;
  }
  const refused = await session.folders.add(uri.fsPath);
  if (refused !== undefined) void show(refused);
  return refused === undefined;
}
