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
  /** Answers in place of the user (the tests set it): the action picked, or undefined (dismissed). */
  answer: ((shown: ShownMessage) => Promise<string | undefined>) | undefined;

  show(severity: ShownMessage['severity'], message: string, ...actions: string[]): Thenable<string | undefined> {
    const shown = { severity, message, actions, at: Date.now() };
    this.recent.push(shown);
    if (this.recent.length > 100) this.recent.shift();
    if (this.answer) return this.answer(shown);
    const fn =
      severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    return fn(message, ...actions);
  }

  /** A store could not be written (a full disk…): logged and said; sessions go on, and what was not written is tried again. */
  storeWriteFailed(log: (message: string) => void, what: string, err: unknown): void {
    const reason = (err as NodeJS.ErrnoException | undefined)?.code ?? String(err);
    log(`writing ${what} failed: ${String(err)}`);
    void this.show('error', vscode.l10n.t('ACP: {0} could not be saved ({1}; is the disk full?). Sessions go on; it is saved again once writing works.', what, reason));
  }

  history(): readonly ShownMessage[] {
    return [...this.recent];
  }
}
