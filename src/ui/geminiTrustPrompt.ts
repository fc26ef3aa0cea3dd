import * as vscode from 'vscode';
import type { GeminiFolderConfig } from '../agents/geminiWorkspace';
import { forMessage } from '../shared/nativeText';

/** The window function the dialog uses (the tests pass a stand-in that sees the text and answers). */
export type WarningModal = (message: string, options: vscode.MessageOptions, ...items: string[]) => Thenable<string | undefined>;

/**
 * The native question before gemini-cli is told to trust the workspace: what it would load from
 * each folder (names, MCP commands), in a modal. Escape trusts nothing.
 */
export function geminiTrustPrompt(modal: WarningModal = (m, o, ...i) => vscode.window.showWarningMessage(m, o, ...i)) {
  return async (agentName: string, found: readonly GeminiFolderConfig[]): Promise<boolean> => {
    const trust = vscode.l10n.t('Trust and Let It Load Them');
    // Folder names, server names and commands come from the repository: no link or codicon syntax survives.
    const list = found
      .map((c) => `${forMessage(c.folder, 300)}\n${c.items.map((i) => `• ${forMessage(i.file, 100)}: ${forMessage(i.detail, 1200)}`).join('\n')}`)
      .join('\n\n');
    const choice = await modal(
      vscode.l10n.t('This workspace has Gemini CLI settings that {0} would load and run. Trust them?', forMessage(agentName, 100)),
      {
        modal: true,
        detail: `${list}\n\n${vscode.l10n.t('Passing your VS Code workspace trust on to Gemini CLI makes it load these: MCP servers start at once and run as you, hooks and tool settings run or allow commands, and .env variables reach every program it starts. Trust them only if you trust this repository. Otherwise Gemini CLI starts without the workspace trust, and it does not start MCP servers here.')}`,
      },
      trust,
    );
    return choice === trust;
  };
}
