/**
 * Review by hunks: VS Code's diff editor between the text before the agent's
 * change (a read-only `acp-review:` document that follows what is kept) and the
 * real file, with Keep / Undo for each hunk — CodeLens above each hunk, and the
 * same as editor actions for the hunk at the cursor — and for the whole file.
 * The Changes list follows: a file leaves it once nothing differs.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hunks, keepHunk, type Hunk } from '../../shared/hunks';
import type { ChangeTracking } from '../../sessions/ports';

const SCHEME = 'acp-review';
const CONTEXT_KEY = 'acpAgents.reviewing';

export class HunkReview implements vscode.CodeLensProvider, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly lensEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensEmitter.event;
  private readonly contentEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.contentEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly watched = new WeakSet<ChangeTracking>();

  /**
   * `told`: the session a tracker belongs to, to be told that the user undid (a hunk of) the agent's
   * change to a file, or kept it (both done already): parts/rejectReasons.ts.
   */
  constructor(
    private readonly trackers: () => Iterable<ChangeTracking>,
    private readonly told: (tracker: ChangeTracking) => { undone(file: string): void; keptChange(file: string): void } | undefined = () => undefined,
  ) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, this),
      vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === 'file' && this.owner(e.document.uri.fsPath)) this.lensEmitter.fire();
      }),
      this.lensEmitter,
      this.contentEmitter,
    );
  }

  /** A session's tracker: its changes refresh the lenses, the review documents and the editor actions. */
  watch(tracker: ChangeTracking): vscode.Disposable {
    if (this.watched.has(tracker)) return { dispose: () => undefined };
    this.watched.add(tracker);
    return tracker.onDidChange(() => this.refresh());
  }

  private refresh(): void {
    this.lensEmitter.fire();
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === SCHEME) this.contentEmitter.fire(doc.uri);
    this.updateContext();
  }

  private updateContext(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const on = doc?.uri.scheme === 'file' && this.owner(doc.uri.fsPath) !== undefined;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, on);
  }

  /** The session tracking a file's change, when it can be reviewed by hunks. */
  private owner(file: string): ChangeTracking | undefined {
    for (const t of this.trackers()) if (t.reviewBase(file) !== undefined) return t;
    return undefined;
  }

  static uri(file: string): vscode.Uri {
    return vscode.Uri.from({ scheme: SCHEME, path: `/${path.basename(file)}`, query: file });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.owner(uri.query)?.reviewBase(uri.query) ?? '';
  }

  /** Review: the diff editor, the text before on the left, the real file on the right. */
  async open(file: string, title: string): Promise<void> {
    await vscode.commands.executeCommand('vscode.diff', HunkReview.uri(file), vscode.Uri.file(file), title, { preview: true });
    this.updateContext();
  }

  private hunksOf(doc: vscode.TextDocument): { tracker: ChangeTracking; base: string; list: Hunk[] } | undefined {
    const tracker = this.owner(doc.uri.fsPath);
    const base = tracker?.reviewBase(doc.uri.fsPath);
    if (!tracker || base === undefined) return undefined;
    const list = hunks(base, doc.getText());
    return list ? { tracker, base, list } : undefined;
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const r = this.hunksOf(doc);
    if (!r || r.list.length === 0) return [];
    const lenses: vscode.CodeLens[] = [];
    r.list.forEach((h, i) => {
      const at = new vscode.Range(Math.min(h.line, doc.lineCount - 1), 0, Math.min(h.line, doc.lineCount - 1), 0);
      lenses.push(
        new vscode.CodeLens(at, { title: `$(check) ${vscode.l10n.t('Keep')}`, tooltip: vscode.l10n.t('Keep this agent change {0} of {1}', i + 1, r.list.length), command: 'acpAgents.keepHunk', arguments: [doc.uri, i] }),
        new vscode.CodeLens(at, { title: `$(discard) ${vscode.l10n.t('Undo')}`, tooltip: vscode.l10n.t('Undo this agent change {0} of {1}', i + 1, r.list.length), command: 'acpAgents.undoHunk', arguments: [doc.uri, i] }),
      );
    });
    return lenses;
  }

  /** The hunk a command is about: the one given, else the one at (or after) the cursor. */
  private async target(uri?: vscode.Uri, index?: number): Promise<{ doc: vscode.TextDocument; tracker: ChangeTracking; base: string; hunk: Hunk } | undefined> {
    const editor = vscode.window.activeTextEditor;
    const doc = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : editor?.document;
    if (!doc || doc.uri.scheme !== 'file') return undefined;
    const r = this.hunksOf(doc);
    if (!r || r.list.length === 0) return undefined;
    let hunk: Hunk | undefined;
    if (typeof index === 'number') hunk = r.list[index];
    else {
      const line = editor?.document === doc ? editor.selection.active.line : 0;
      hunk = r.list.find((h) => line <= doc.positionAt(Math.max(h.newStart, h.newEnd - 1)).line) ?? r.list[r.list.length - 1];
    }
    return hunk ? { doc, tracker: r.tracker, base: r.base, hunk } : undefined;
  }

  /** Keep one hunk: the text before takes it; the file itself is not touched. */
  async keepHunk(uri?: vscode.Uri, index?: number): Promise<boolean> {
    const t = await this.target(uri, index);
    if (!t) return false;
    t.tracker.accept(t.doc.uri.fsPath, keepHunk(t.base, t.hunk));
    this.told(t.tracker)?.keptChange(t.doc.uri.fsPath);
    return true;
  }

  /** Undo one hunk: an undoable edit of the file (saved), the other hunks untouched. */
  async undoHunk(uri?: vscode.Uri, index?: number): Promise<boolean> {
    const t = await this.target(uri, index);
    if (!t) return false;
    // Saved at once: never through a link planted on the way (outside or protected files are asked about).
    if (!(await t.tracker.mayWrite([t.doc.uri.fsPath])).has(t.doc.uri.fsPath)) return false;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(t.doc.uri, new vscode.Range(t.doc.positionAt(t.hunk.newStart), t.doc.positionAt(t.hunk.newEnd)), t.hunk.oldText);
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    if (t.doc.isDirty) await t.doc.save();
    t.tracker.recheck(t.doc.uri.fsPath);
    this.lensEmitter.fire();
    this.told(t.tracker)?.undone(t.doc.uri.fsPath);
    return true;
  }

  /** Next / previous change (hunk) of the file under review, from the cursor, wrapping around. */
  goTo(delta: 1 | -1): boolean {
    const editor = vscode.window.activeTextEditor;
    const r = editor && editor.document.uri.scheme === 'file' ? this.hunksOf(editor.document) : undefined;
    if (!editor || !r || r.list.length === 0) return false;
    const line = editor.selection.active.line;
    const lines = r.list.map((h) => Math.min(h.line, editor.document.lineCount - 1));
    const target = delta > 0 ? (lines.find((l) => l > line) ?? lines[0]!) : ([...lines].reverse().find((l) => l < line) ?? lines[lines.length - 1]!);
    const at = new vscode.Position(target, 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return true;
  }

  private fileOf(uri?: vscode.Uri): string | undefined {
    const u = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    return u?.scheme === 'file' ? u.fsPath : u?.scheme === SCHEME ? u.query : undefined;
  }

  keepFile(uri?: vscode.Uri): boolean {
    const file = this.fileOf(uri);
    const t = file ? this.owner(file) : undefined;
    if (!file || !t) return false;
    t.keep(file);
    this.told(t)?.keptChange(file);
    return true;
  }

  async undoFile(uri?: vscode.Uri): Promise<boolean> {
    const file = this.fileOf(uri);
    const t = file ? this.owner(file) : undefined;
    if (!file || !t || !(await t.revert(file))) return false;
    this.told(t)?.undone(file);
    return true;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
