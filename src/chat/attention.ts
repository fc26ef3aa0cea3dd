/**
 * "Needs you": when a turn ends, a permission request or a question waits, or
 * the agent fails — while its panel is hidden or the window is not focused —
 * a notification names the session and offers Show, and the panel's tab icon
 * changes until the panel is looked at.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../sessions/agentSession';
import { forMessage } from '../shared/nativeText';
import type { PanelStatus } from '../shared/webviewProtocol';

export interface AttentionDeps {
  /** `acpAgents.notifications`. */
  enabled(): boolean;
  /** Shows a notification; resolves with the action picked. */
  notify(message: string, ...actions: string[]): Thenable<string | undefined>;
}

export class PanelAttention implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private wasWorking = false;
  private wasFailed = false;
  private flagged = false;
  private waiting = false;

  constructor(
    private readonly panel: vscode.WebviewPanel,
    session: AgentSession,
    private readonly deps: AttentionDeps,
    private readonly icons: { normal: vscode.Uri; needsYou: vscode.Uri },
    private readonly title: () => string,
  ) {
    this.disposables.push(
      session.onDidChangeStatus((s) => this.onStatus(s)),
      session.onDidChangeTranscript((changes) => {
        for (const c of changes) {
          if (c.c !== 'add') continue;
          const item = c.item;
          if (item.kind === 'permission' && item.state === 'pending') this.raise(vscode.l10n.t('{0} asks for permission: {1}', forMessage(this.title(), 100), forMessage(item.title, 200)));
          else if (item.kind === 'elicitation' && item.state === 'pending') this.raise(item.message ? vscode.l10n.t('{0} asks: {1}', forMessage(this.title(), 100), forMessage(item.message, 200)) : vscode.l10n.t('{0} asks: a question', forMessage(this.title(), 100)));
        }
      }),
      panel.onDidChangeViewState(() => {
        if (panel.visible && vscode.window.state.focused) this.clear();
      }),
      vscode.window.onDidChangeWindowState((w) => {
        if (w.focused && panel.visible) this.clear();
      }),
    );
  }

  private onStatus(s: PanelStatus): void {
    const working = s.busy && s.actions.includes('stop');
    if (this.wasWorking && !working && s.severity !== 'error' && s.inputEnabled) this.raise(vscode.l10n.t('{0} finished its turn.', forMessage(this.title(), 100)));
    const failed = s.severity === 'error';
    if (failed && !this.wasFailed) this.raise(s.text ? vscode.l10n.t('{0}: {1}', forMessage(this.title(), 100), forMessage(s.text, 200)) : vscode.l10n.t('{0}: the agent failed', forMessage(this.title(), 100)));
    this.wasFailed = failed;
    this.wasWorking = working;
  }

  /** Tells the user, unless they are looking at the panel (or turned it off). */
  private raise(message: string): void {
    if (!this.deps.enabled()) return;
    if (this.panel.visible && vscode.window.state.focused) return;
    this.flag(true);
    const show = vscode.l10n.t('Show');
    void this.deps.notify(message.length > 300 ? `${message.slice(0, 300)}…` : message, show).then((choice) => {
      if (choice === show) this.panel.reveal(undefined, false);
    });
  }

  private clear(): void {
    if (this.flagged) this.flag(false);
  }

  private flag(on: boolean): void {
    this.flagged = on;
    this.paint();
  }

  /** A permission request or a question waits for the user: the tab says so until it is answered, looked at or not. */
  setWaiting(on: boolean): void {
    this.waiting = on;
    this.paint();
  }

  private paint(): void {
    this.panel.iconPath = this.flagged || this.waiting ? this.icons.needsYou : this.icons.normal;
  }

  /** Whether the tab shows "needs you". */
  get needsYou(): boolean {
    return this.flagged || this.waiting;
  }

  dispose(): void {
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
