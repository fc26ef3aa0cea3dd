/**
 * Follow the agent: while on, each new location a live tool call reports opens
 * in a preview editor beside the panel, at its line — without taking the focus
 * from the composer, and only inside the session's folders (never a question).
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../sessions/agentSession';

export class Follower implements vscode.Disposable {
  private on = false;
  private last = '';
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly session: AgentSession,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.sub = session.onDidChangeTranscript((changes) => {
      if (!this.on || !session.live) return;
      for (const c of changes) {
        if ((c.c !== 'add' && c.c !== 'put') || c.item.kind !== 'tool') continue;
        const loc = c.item.locations.at(-1);
        if (loc) void this.open(loc.path, loc.line);
      }
    });
  }

  get following(): boolean {
    return this.on;
  }

  set(on: boolean): void {
    this.on = on;
    this.last = '';
  }

  private async open(file: string, line: number | undefined): Promise<void> {
    const key = `${file}:${line ?? ''}`;
    if (key === this.last) return;
    this.last = key;
    const inside = this.session.requests.agentPathInside(file);
    if (!inside) {
      this.log.info(`follow: not opening ${file.slice(0, 300)} (outside the session's folders)`);
      return;
    }
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(inside));
      const pos = new vscode.Position(Math.max(0, Math.min((line ?? 1) - 1, doc.lineCount - 1)), 0);
      // Beside the panel, never over it; the composer keeps the focus.
      const column = this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
      await vscode.window.showTextDocument(doc, { viewColumn: column, preview: true, preserveFocus: true, selection: new vscode.Range(pos, pos) });
    } catch (err) {
      this.log.warn(`follow: could not open ${file.slice(0, 300)}: ${String(err)}`);
    }
  }

  dispose(): void {
    this.sub.dispose();
  }
}
