import * as path from 'node:path';
import * as vscode from 'vscode';
import { patchExcerpt, textBefore } from '../shared/patch';
import type { ToolContent } from '../shared/transcriptTypes';

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

  /**
   * Opens one file of an ACP v2 diff. `now`: the file's text now (undefined: unknown). When the agent's hunks,
   * applied backwards, give the text before the change, the whole file is shown; else the hunks alone, said so.
   */
  async openPatch(c: ToolContent & { type: 'patch' }, now: string | undefined): Promise<void> {
    const base = path.basename(c.path) || 'file';
    const before = now === undefined ? undefined : textBefore(now, c.hunks);
    if (now !== undefined && before !== undefined) return this.open(c.path, c.operation === 'add' && before === '' ? null : before, now);
    const { before: old, after } = patchExcerpt(c.hunks);
    return this.open(c.path, c.operation === 'add' ? null : old, after, vscode.l10n.t('{0} (the agent’s hunks only: the file is not as the change left it)', base));
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
