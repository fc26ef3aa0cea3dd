import * as vscode from 'vscode';
import type { Attachment, Mention } from '../shared/attachments';
import { forLabel } from '../shared/nativeText';
import { fuzzyFiles } from '../sessions/promptBuilder';
import { realPathLoose } from '../node/pathPolicy';
import { readVerified } from '../node/verifiedIo';

/** At most this many lines of a symbol, and this many problems, are attached. */
const MAX_SYMBOL_LINES = 400;
const MAX_PROBLEMS = 200;
/** Symbols are waited for this long; what comes later is offered through `onLate`. */
const SYMBOL_TIMEOUT_MS = 1500;
/** A symbol lookup is reused this long (one per query, at most this many kept). */
const SYMBOL_CACHE_MS = 15_000;
const SYMBOL_CACHE_SIZE = 32;

const SEVERITY = ['error', 'warning', 'info', 'hint'];

/**
 * Where attachments come from: the last text editor (a webview panel being
 * active hides it from `activeTextEditor`), its selection, a file picker, and
 * for @-mentions: the selection, the Problems list, open editors, workspace
 * symbols (VS Code's workspace symbol providers) and the workspace's files.
 */
export class AttachmentSources implements vscode.Disposable {
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private files: { path: string; uri: string }[] = [];
  private filesAt = 0;
  private readonly symbolLookups = new Map<string, { at: number; result: Promise<vscode.SymbolInformation[]> }>();
  private readonly sub: vscode.Disposable;

  constructor() {
    this.sub = vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e && e.document.uri.scheme === 'file') this.lastEditor = e;
    });
  }

  async pick(): Promise<Attachment[]> {
    const editor = this.lastEditor;
    const items: (vscode.QuickPickItem & { id: string })[] = [];
    if (editor) items.push({ id: 'file', label: `$(file) ${vscode.l10n.t('Active file')}`, description: forLabel(vscode.workspace.asRelativePath(editor.document.uri), 300) });
    if (editor && !editor.selection.isEmpty) items.push({ id: 'selection', label: `$(selection) ${vscode.l10n.t('Selection')}`, description: `${forLabel(vscode.workspace.asRelativePath(editor.document.uri), 300)}:${editor.selection.start.line + 1}-${editor.selection.end.line + 1}` });
    items.push({ id: 'files', label: `$(files) ${vscode.l10n.t('Files…')}`, description: vscode.l10n.t('Pick files to attach') });
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Attach to the prompt') });
    if (!picked) return [];
    if (picked.id === 'file' && editor) return [this.fileOf(editor.document.uri)];
    if (picked.id === 'selection' && editor) return [this.selectionOf(editor.document, editor.selection)];
    const uris = await vscode.window.showOpenDialog({ canSelectMany: true, canSelectFiles: true, canSelectFolders: false, openLabel: vscode.l10n.t('Attach') });
    return (uris ?? []).map((u) => this.fileOf(u));
  }

  /**
   * What was dropped on the composer (a uri-list): files inside the session's folders (`inside`)
   * are attached; anything else — another scheme, a file outside them, not a URI — is refused,
   * in words for the user (the Attach… picker still attaches a file from anywhere, as the user picks it).
   */
  fromUris(uris: readonly string[], inside: (fsPath: string) => boolean): { add: Attachment[]; refused: string[] } {
    const add: Attachment[] = [];
    const refused: string[] = [];
    for (const raw of uris.slice(0, 100)) {
      const shown = forLabel(raw.trim(), 200);
      let u: vscode.Uri;
      try {
        u = vscode.Uri.parse(raw.trim(), true);
      } catch {
        refused.push(vscode.l10n.t('{0} was not attached: it is not a file.', shown));
        continue;
      }
      if (u.scheme !== 'file' && u.scheme !== 'vscode-remote') refused.push(vscode.l10n.t('{0} was not attached: only files can be attached, and this is a {1} link.', shown, u.scheme));
      else if (!inside(vscode.Uri.file(u.path).fsPath)) refused.push(vscode.l10n.t("{0} was not attached: it is outside the session's folders. Use Attach… to pick it.", shown));
      else add.push(this.fileOf(vscode.Uri.file(u.path)));
    }
    return { add, refused };
  }

  fileOf(uri: vscode.Uri): Attachment {
    return { kind: 'file', uri: uri.toString(), name: basename(uri) };
  }

  /**
   * What an @-mention may attach, best first: the current selection and the
   * Problems list (when their names match), open editors, workspace symbols
   * (two characters or more), then workspace files. Symbol providers are
   * time-boxed (a language server still starting must not hold up the list);
   * when their answer comes later, `onLate` gets the whole list again.
   */
  async mentions(query: string, onLate?: (items: Mention[]) => void): Promise<Mention[]> {
    const q = query.toLowerCase();
    const out: Mention[] = [];
    const editor = this.lastEditor;
    if (editor && !editor.selection.isEmpty && 'selection'.startsWith(q)) {
      const sel = this.selectionOf(editor.document, editor.selection);
      out.push({ kind: 'selection', label: 'selection', detail: `${vscode.workspace.asRelativePath(editor.document.uri)}:${sel.startLine}-${sel.endLine}`, attachment: sel });
    }
    if ('problems'.startsWith(q)) {
      const problems = this.problems();
      if (problems) out.push({ kind: 'problems', label: 'problems', detail: problems.detail, attachment: { kind: 'problems', name: 'Problems', text: problems.text } });
    }
    const open = this.openEditors();
    const openPaths = new Set(open.map((f) => f.path));
    for (const p of fuzzyFiles([...openPaths], query, 5)) {
      const f = open.find((x) => x.path === p)!;
      out.push({ kind: 'editor', label: p, detail: vscode.l10n.t('open editor'), attachment: this.fileOf(vscode.Uri.parse(f.uri, true)) });
    }
    if (query.length >= 2) {
      const lookup = this.lookup(query);
      const found = await Promise.race([lookup, new Promise<undefined>((r) => setTimeout(() => r(undefined), SYMBOL_TIMEOUT_MS))]);
      if (found) out.push(...(await this.symbols(found)));
      else if (onLate) void lookup.then(async (late) => (late.length ? onLate(await this.mentions(query)) : undefined));
    }
    for (const f of await this.match(query)) {
      if (openPaths.has(f.path)) continue;
      out.push({ kind: 'file', label: f.path, attachment: this.fileOf(vscode.Uri.parse(f.uri, true)) });
    }
    return out.slice(0, 30);
  }

  /** A range as a selection attachment: exactly (a selection), or as whole lines (a symbol; at most MAX_SYMBOL_LINES). */
  private selectionOf(doc: vscode.TextDocument, range: vscode.Range, name = basename(doc.uri), wholeLines = false): Extract<Attachment, { kind: 'selection' }> {
    const last = Math.min(range.end.line, range.start.line + MAX_SYMBOL_LINES - 1, doc.lineCount - 1);
    const r = wholeLines ? new vscode.Range(range.start.line, 0, last, doc.lineAt(last).text.length) : doc.validateRange(range);
    return { kind: 'selection', uri: doc.uri.toString(), name, startLine: r.start.line + 1, endLine: r.end.line + 1, text: doc.getText(r) };
  }

  /** Files open in editor tabs (text and diff editors' files). */
  private openEditors(): { path: string; uri: string }[] {
    const seen = new Map<string, { path: string; uri: string }>();
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : tab.input instanceof vscode.TabInputTextDiff ? tab.input.modified : undefined;
      if (uri?.scheme === 'file' && !seen.has(uri.toString())) seen.set(uri.toString(), { path: vscode.workspace.asRelativePath(uri), uri: uri.toString() });
    }
    return [...seen.values()];
  }

  /** The Problems list as text: one line per diagnostic, errors first. */
  private problems(): { text: string; detail: string } | undefined {
    const all: { sev: number; line: string }[] = [];
    for (const [uri, diags] of vscode.languages.getDiagnostics()) {
      if (uri.scheme !== 'file') continue;
      const rel = vscode.workspace.asRelativePath(uri);
      for (const d of diags) all.push({ sev: d.severity, line: `${rel}:${d.range.start.line + 1}:${d.range.start.character + 1} ${SEVERITY[d.severity] ?? 'info'}: ${d.message.split('\n')[0]}${d.source ? ` (${d.source})` : ''}` });
    }
    if (all.length === 0) return undefined;
    all.sort((a, b) => a.sev - b.sev);
    const shown = all.slice(0, MAX_PROBLEMS).map((p) => p.line);
    // The list goes to the agent: English, like the rest of the prompt.
    if (all.length > MAX_PROBLEMS) shown.push(`… and ${all.length - MAX_PROBLEMS} more`);
    const errors = all.filter((p) => p.sev === vscode.DiagnosticSeverity.Error).length;
    return { text: shown.join('\n'), detail: errors === 1 ? vscode.l10n.t('{0} in the workspace (1 error)', all.length) : vscode.l10n.t('{0} in the workspace ({1} errors)', all.length, errors) };
  }

  /** One workspace symbol lookup per query (VS Code's providers), shared by the keystrokes that ask for it. */
  private lookup(query: string): Promise<vscode.SymbolInformation[]> {
    const now = Date.now();
    for (const [k, v] of this.symbolLookups) if (now - v.at > SYMBOL_CACHE_MS) this.symbolLookups.delete(k);
    const hit = this.symbolLookups.get(query);
    if (hit) return hit.result;
    const result = Promise.resolve(vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)).then(
      (found) => found ?? [],
      () => [],
    );
    this.symbolLookups.set(query, { at: now, result });
    if (this.symbolLookups.size > SYMBOL_CACHE_SIZE) this.symbolLookups.delete(this.symbolLookups.keys().next().value!);
    return result;
  }

  /** Workspace symbols as mentions: each attached as the lines it spans. */
  private async symbols(found: readonly vscode.SymbolInformation[]): Promise<Mention[]> {
    const out: Mention[] = [];
    for (const s of found.filter((x) => x.location.uri.scheme === 'file').slice(0, 8)) {
      try {
        const doc = await vscode.workspace.openTextDocument(s.location.uri);
        const rel = vscode.workspace.asRelativePath(s.location.uri);
        const name = `${s.name} (${basename(s.location.uri)})`;
        out.push({ kind: 'symbol', label: s.name, detail: `${vscode.SymbolKind[s.kind] ?? 'symbol'} · ${rel}:${s.location.range.start.line + 1}`, attachment: this.selectionOf(doc, s.location.range, name, true) });
      } catch {
        // a file that cannot be opened: not offered
      }
    }
    return out;
  }

  /** Workspace files matching an @-mention query (the list is cached for 30 s). */
  private async match(query: string): Promise<{ path: string; uri: string }[]> {
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

/** The real path (links resolved, now) of a `file:` URI; undefined for another scheme or not a URI. */
export function realPathOfUri(uri: string): string | undefined {
  try {
    const u = vscode.Uri.parse(uri, true);
    return u.scheme === 'file' ? realPathLoose(u.fsPath) : undefined;
  } catch {
    return undefined;
  }
}

/** The most of a file read for an attachment (more than is ever embedded). */
const MAX_READ_BYTES = 1024 * 1024;

/**
 * A file's text at send time: the open document's (unsaved changes included), else the file on disk,
 * read through a verified open (`readVerified`: no link followed at the last step, the file opened
 * re-checked against its path). `real` is the real path the host checked when the file was offered
 * (or sent): a file that leads elsewhere now — swapped for a link since — is refused (`refused`, the
 * reason in words), never read. Undefined: no text to embed (binary, too large, gone).
 */
export async function readText(uri: string, real?: string): Promise<string | { readonly refused: string } | undefined> {
  let u: vscode.Uri;
  try {
    u = vscode.Uri.parse(uri, true);
  } catch {
    return undefined;
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString());
  if (u.scheme !== 'file') return open?.getText() ?? (await readOther(u));
  const now = realPathLoose(u.fsPath);
  const changed = vscode.l10n.t('it was not read: it no longer leads to the file that was attached (a link took its place).');
  if (real !== undefined && now !== real) return { refused: changed };
  if (open) return open.getText();
  const r = await readVerified(now, MAX_READ_BYTES);
  if (r.kind === 'changed') return { refused: changed };
  if (r.kind !== 'ok' || r.bytes.includes(0)) return undefined;
  return new TextDecoder('utf-8', { fatal: false }).decode(r.bytes);
}

/** A document of another scheme (a file system an extension provides), through VS Code. */
async function readOther(u: vscode.Uri): Promise<string | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(u);
    if (bytes.includes(0) || bytes.byteLength > MAX_READ_BYTES) return undefined;
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  } catch {
    return undefined;
  }
}
