import * as vscode from 'vscode';
import type { Attachment } from '../shared/attachments';
import { fuzzyFiles } from '../sessions/promptBuilder';

/**
 * Where attachments come from: the last text editor (a webview panel being
 * active hides it from `activeTextEditor`), its selection, a file picker, and
 * the workspace's files for @-mentions.
 */
export class AttachmentSources implements vscode.Disposable {
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private files: { path: string; uri: string }[] = [];
  private filesAt = 0;
  private readonly sub: vscode.Disposable;

  constructor() {
    this.sub = vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e && e.document.uri.scheme === 'file') this.lastEditor = e;
    });
  }

  async pick(): Promise<Attachment[]> {
    const editor = this.lastEditor;
    const items: (vscode.QuickPickItem & { id: string })[] = [];
    if (editor) items.push({ id: 'file', label: '$(file) Active file', description: vscode.workspace.asRelativePath(editor.document.uri) });
    if (editor && !editor.selection.isEmpty) items.push({ id: 'selection', label: '$(selection) Selection', description: `${vscode.workspace.asRelativePath(editor.document.uri)}:${editor.selection.start.line + 1}-${editor.selection.end.line + 1}` });
    items.push({ id: 'files', label: '$(files) Files…', description: 'Pick files to attach' });
    const picked = await vscode.window.showQuickPick(items, { title: 'Attach to the prompt' });
    if (!picked) return [];
    if (picked.id === 'file' && editor) return [this.fileOf(editor.document.uri)];
    if (picked.id === 'selection' && editor) {
      const sel = editor.selection;
      return [
        {
          kind: 'selection',
          uri: editor.document.uri.toString(),
          name: basename(editor.document.uri),
          startLine: sel.start.line + 1,
          endLine: sel.end.line + 1,
          text: editor.document.getText(sel),
        },
      ];
    }
    const uris = await vscode.window.showOpenDialog({ canSelectMany: true, canSelectFiles: true, canSelectFolders: false, openLabel: 'Attach' });
    return (uris ?? []).map((u) => this.fileOf(u));
  }

  fromUris(uris: readonly string[]): Attachment[] {
    const out: Attachment[] = [];
    for (const raw of uris) {
      try {
        const u = vscode.Uri.parse(raw.trim(), true);
        if (u.scheme === 'file' || u.scheme === 'vscode-remote') out.push(this.fileOf(vscode.Uri.file(u.path)));
      } catch {
        // not a URI
      }
    }
    return out;
  }

  fileOf(uri: vscode.Uri): Attachment {
    return { kind: 'file', uri: uri.toString(), name: basename(uri) };
  }

  /** Workspace files matching an @-mention query (the list is cached for 30 s). */
  async match(query: string): Promise<{ path: string; uri: string }[]> {
    if (Date.now() - this.filesAt > 30_000) {
      const found = await vscode.workspace.findFiles('**/*', '**/{node_modules,.git,dist,out,.venv,target,build}/**', 20_000);
      this.files = found.map((u) => ({ path: vscode.workspace.asRelativePath(u), uri: u.toString() })).sort((a, b) => a.path.localeCompare(b.path));
      this.filesAt = Date.now();
    }
    const byPath = new Map(this.files.map((f) => [f.path, f]));
    return fuzzyFiles(this.files.map((f) => f.path), query, 20).map((p) => byPath.get(p)!);
  }

  dispose(): void {
    this.sub.dispose();
  }
}

function basename(u: vscode.Uri): string {
  return u.path.slice(u.path.lastIndexOf('/') + 1) || u.path;
}

/** A file's text: the open document's (unsaved changes included), else the file on disk. */
export async function readText(uri: string): Promise<string | undefined> {
  try {
    const u = vscode.Uri.parse(uri, true);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString());
    if (open) return open.getText();
    const bytes = await vscode.workspace.fs.readFile(u);
    if (bytes.includes(0)) return undefined;
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  } catch {
    return undefined;
  }
}
