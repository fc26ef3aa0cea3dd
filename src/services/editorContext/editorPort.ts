/**
 * What the editor-context tools read from the editor, as plain data: the VS
 * Code side is `vscodeEditor.ts`; the unit tests and the benchmark pass a plain
 * object. Files are absolute paths (`file:` documents only). Lines and
 * characters are 0-based here, as in VS Code; the tools answer 1-based.
 * No `vscode` import.
 */

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export interface EditorView {
  readonly file: string;
  readonly languageId: string;
  readonly dirty: boolean;
  readonly selections: readonly Range[];
  readonly visibleRanges: readonly Range[];
  /** The text of a range of the document. */
  text(range: Range): string;
}

export interface OpenEditor {
  readonly file: string;
  readonly dirty: boolean;
  readonly active: boolean;
  /** The editor group, 1-based. */
  readonly group: number;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface Diagnostic {
  readonly range: Range;
  readonly severity: Severity;
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

export interface WorkspaceSymbol {
  readonly name: string;
  readonly kind: string;
  readonly containerName?: string;
  readonly file: string;
  readonly range: Range;
}

export interface EditorPort {
  /** Whether the user lets agents read the editor (acpAgents.editorContext). */
  enabled(): boolean;
  activeEditor(): EditorView | undefined;
  /**
   * The text editors the user last had focus in, most recent first (a few at most), whose
   * documents are still open in a tab: what the user means while the focus is in the chat.
   */
  lastFocused(): readonly EditorView[];
  visibleEditors(): readonly EditorView[];
  openEditors(): readonly OpenEditor[];
  /** The problems of one file, or (no file) of every file that has some. */
  diagnostics(file?: string): readonly (readonly [string, readonly Diagnostic[]])[];
  /** The workspace symbol providers' answer for a query. */
  symbols(query: string): Promise<readonly WorkspaceSymbol[]>;
  /** The `files.exclude` globs in force for a folder: each a glob, or a glob with a `when` sibling clause. */
  excludes(folder: string): Readonly<Record<string, boolean | { when: string }>>;
  /** Whether a file exists (for `when` clauses of files.exclude). */
  exists(file: string): boolean;
}
