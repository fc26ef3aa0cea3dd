import * as vscode from 'vscode';
import { outsideWorkspace } from '../node/pathPolicy';
import { forMessage } from '../shared/nativeText';
import type { WarningModal } from './geminiTrustPrompt';

/**
 * "Open this session in a folder outside the workspace?" — a past session's folder comes from
 * the agent's own list (session/list) or from another window. The answer is the user's: only a
 * yes makes it the session's root. A yes is kept for the window; Escape is no.
 */
export class SessionRootQuestion {
  private readonly allowed = new Set<string>();

  constructor(
    private readonly workspaceFolders: () => readonly string[],
    private readonly own: () => readonly string[],
    public modal: WarningModal = (m, o, ...i) => vscode.window.showWarningMessage(m, o, ...i),
  ) {}

  async confirm(agentName: string, folder: string): Promise<boolean> {
    if (!outsideWorkspace(folder, this.workspaceFolders(), this.own()) || this.allowed.has(folder)) return true;
    const open = vscode.l10n.t('Open in This Folder');
    // The folder comes from the agent (or another window's list): no link or codicon syntax survives.
    const choice = await this.modal(
      vscode.l10n.t('Open this session of {0} in {1}?', forMessage(agentName, 100), forMessage(folder, 500)),
      {
        modal: true,
        detail: vscode.l10n.t(
          'The folder {0} is outside the folders of this workspace. Opening the session there makes it the session\'s folder: {1} may read and change files in it and run commands there, and the editor context, MCP servers and the agent\'s folder trust follow it. If you do not open it there, the session\'s local history is shown, read-only.',
          forMessage(folder, 500),
          forMessage(agentName, 100),
        ),
      },
      open,
    );
    if (choice !== open) return false;
    this.allowed.add(folder);
    return true;
  }
}
