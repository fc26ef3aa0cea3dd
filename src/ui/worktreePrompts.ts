import * as vscode from 'vscode';

/** The questions about worktrees (commands/worktrees.ts); the tests answer them. */
export interface WorktreeUi {
  pick<T extends vscode.QuickPickItem>(items: T[], title: string, placeHolder: string): Thenable<T | undefined>;
  input(options: vscode.InputBoxOptions): Thenable<string | undefined>;
}

export const worktreePrompts: WorktreeUi = {
  pick: (items, title, placeHolder) => vscode.window.showQuickPick(items, { title, placeHolder, matchOnDescription: true }),
  input: (options) => vscode.window.showInputBox(options),
};
