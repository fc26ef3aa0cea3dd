import * as path from 'node:path';
import * as vscode from 'vscode';

const DIFF_SCHEME = 'acp-diff';

/**
 * Read-only documents holding the old and new text of an agent's diff, so that
 * VS Code's own diff editor can show them.
 */
export class DiffDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private seq = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  /** Read-only documents for the two sides of a diff. */
  uris(filePath: string, oldText: string | null, newText: string): [vscode.Uri, vscode.Uri] {
    const n = ++this.seq;
    const base = path.basename(filePath) || 'file';
    const left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${n}/old/${base}` });
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${n}/new/${base}` });
    this.texts.set(left.path, oldText ?? '');
    this.texts.set(right.path, newText);
    return [left, right];
  }

  /** Opens the diff editor for one diff of a tool call. */
  async open(filePath: string, oldText: string | null, newText: string, title?: string): Promise<void> {
    const n = ++this.seq;
    const base = path.basename(filePath) || 'file';
    const left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${n}/old/${base}` });
    this.texts.set(left.path, oldText ?? '');
    // The new side is the real file when it still has the agent's text; otherwise a snapshot.
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${n}/new/${base}` });
    this.texts.set(right.path, newText);
    if (this.texts.size > 400) {
      const first = this.texts.keys().next().value as string;
      this.texts.delete(first);
    }
    const label = title ?? (oldText === null ? vscode.l10n.t('{0} (new file)', base) : vscode.l10n.t('{0} (agent’s change)', base));
    await vscode.commands.executeCommand('vscode.diff', left, right, label, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
