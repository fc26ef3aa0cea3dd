/**
 * The editor-context tools' view of VS Code (`EditorPort`): the active, visible
 * and open editors, the problems, the workspace symbol providers and
 * `files.exclude`. `file:` documents only. Read-only.
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

export function vscodeEditorPort(enabled: () => boolean): EditorPort {
  return {
    enabled,
    activeEditor: () => {
      const e = vscode.window.activeTextEditor;
      return e ? view(e) : undefined;
    },
    visibleEditors: () => vscode.window.visibleTextEditors.flatMap((e) => view(e) ?? []),
    openEditors: () => {
      const out: OpenEditor[] = [];
      for (const [i, group] of vscode.window.tabGroups.all.entries()) {
        for (const tab of group.tabs) {
          const input = tab.input;
          const uri = input instanceof vscode.TabInputText ? input.uri : input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
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
  };
}
