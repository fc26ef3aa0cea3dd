/**
 * The editor-context tools' view of VS Code (`EditorPort`): the active, visible,
 * last focused and open editors, the problems, the workspace symbol providers
 * and `files.exclude`. `file:` documents only. Read-only.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Diagnostic, EditorPort, EditorView, OpenEditor, Range, Severity, WorkspaceSymbol } from './editorPort';

const SEVERITY: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

const range = (r: vscode.Range): Range => ({ start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } });

function view(e: vscode.TextEditor): EditorView | undefined {
  const doc = e.document;
  if (doc.uri.scheme !== 'file') return undefined;
  return {
    file: doc.uri.fsPath,
    languageId: doc.languageId,
    dirty: doc.isDirty,
    selections: e.selections.map(range),
    visibleRanges: e.visibleRanges.map(range),
    text: (r) => doc.getText(new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character)),
  };
}

function code(c: vscode.Diagnostic['code']): string | undefined {
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}

const diagnostic = (d: vscode.Diagnostic): Diagnostic => ({ range: range(d.range), severity: SEVERITY[d.severity], message: d.message, source: d.source, code: code(d.code) });

/** How many last-focused editors are remembered (one per document): sessions on other folders skip the rest. */
const MAX_FOCUSED = 8;

const tabUri = (input: unknown): vscode.Uri | undefined => (input instanceof vscode.TabInputText ? input.uri : input instanceof vscode.TabInputTextDiff ? input.modified : undefined);

export function vscodeEditorPort(enabled: () => boolean): EditorPort & vscode.Disposable {
  // The text editors the user had focus in, most recent first: the chat panel (a webview) takes
  // the focus whenever the user types to the agent, and then no text editor is active.
  let focused: vscode.TextEditor[] = [];
  const remember = (e: vscode.TextEditor | undefined) => {
    if (e?.document.uri.scheme === 'file') focused = [e, ...focused.filter((x) => x.document !== e.document)].slice(0, MAX_FOCUSED);
  };
  remember(vscode.window.activeTextEditor);
  const subs = [vscode.window.onDidChangeActiveTextEditor(remember), vscode.workspace.onDidCloseTextDocument((d) => (focused = focused.filter((x) => x.document !== d)))];
  return {
    enabled,
    activeEditor: () => {
      const e = vscode.window.activeTextEditor;
      return e ? view(e) : undefined;
    },
    lastFocused: () => {
      // Closed means no tab shows it any more (VS Code may keep the document itself a while).
      const open = new Set(vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => tabUri(t.input)?.toString())));
      return focused.flatMap((e) => (!e.document.isClosed && open.has(e.document.uri.toString()) ? (view(e) ?? []) : []));
    },
    visibleEditors: () => vscode.window.visibleTextEditors.flatMap((e) => view(e) ?? []),
    openEditors: () => {
      const out: OpenEditor[] = [];
      for (const [i, group] of vscode.window.tabGroups.all.entries()) {
        for (const tab of group.tabs) {
          const uri = tabUri(tab.input);
          if (uri?.scheme === 'file') out.push({ file: uri.fsPath, dirty: tab.isDirty, active: tab.isActive && group.isActive, group: i + 1 });
        }
      }
      return out;
    },
    diagnostics: (file) => {
      if (file !== undefined) return [[file, vscode.languages.getDiagnostics(vscode.Uri.file(file)).map(diagnostic)]];
      return vscode.languages
        .getDiagnostics()
        .filter(([uri, list]) => uri.scheme === 'file' && list.length > 0)
        .map(([uri, list]) => [uri.fsPath, list.map(diagnostic)] as const);
    },
    symbols: async (query) => {
      const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
      return found
        .filter((s) => s.location.uri.scheme === 'file')
        .map((s): WorkspaceSymbol => ({ name: s.name, kind: vscode.SymbolKind[s.kind] ?? 'Unknown', containerName: s.containerName || undefined, file: s.location.uri.fsPath, range: range(s.location.range) }));
    },
    excludes: (folder) => vscode.workspace.getConfiguration('files', vscode.Uri.file(folder)).get<Record<string, boolean | { when: string }>>('exclude') ?? {},
    exists: (file) => fs.existsSync(file),
    dispose: () => {
      for (const d of subs) d.dispose();
      focused = [];
    },
  };
}
