import * as vscode from 'vscode';

export interface ShownMessage {
  readonly severity: 'info' | 'warning' | 'error';
  readonly message: string;
  readonly actions: readonly string[];
  readonly at: number;
}

/**
 * Shows messages to the user, once, in words, with actions. Remembers the
 * recent ones so that tests in the real host can see what a person would.
 */
export class UserMessages {
  private readonly recent: ShownMessage[] = [];

  show(severity: ShownMessage['severity'], message: string, ...actions: string[]): Thenable<string | undefined> {
    this.recent.push({ severity, message, actions, at: Date.now() });
    if (this.recent.length > 100) this.recent.shift();
    const fn =
      severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    return fn(message, ...actions);
  }

  history(): readonly ShownMessage[] {
    return [...this.recent];
  }
}
