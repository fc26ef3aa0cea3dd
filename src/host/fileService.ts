import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-jsonrpc/node';
import type { Config } from '../config';
import { checkPath, sliceLines } from './pathPolicy';

const INVALID_PARAMS = -32602;
const INTERNAL = -32603;

/**
 * `fs/read_text_file` and `fs/write_text_file` for agents: the open editor's
 * text (unsaved changes included), writes as undoable WorkspaceEdits, and paths
 * outside the session's roots asked about (or refused) per the setting.
 */
export class FileService {
  /** Answers "may the agent touch this path outside its folders?" (replaceable for tests). */
  askOutside = async (agentName: string, action: string, filePath: string): Promise<boolean> => {
    const allow = 'Allow';
    const choice = await vscode.window.showWarningMessage(
      `${agentName} wants to ${action} ${filePath}, which is outside the session's folders.`,
      { modal: true, detail: 'Allow only if you expect the agent to need this file.' },
      allow,
    );
    return choice === allow;
  };

  constructor(
    private readonly config: Config,
    private readonly log: (message: string) => void,
  ) {}

  /** Resolves an agent's path and holds it to the roots (asking or refusing outside them). */
  async guard(agentName: string, action: 'read' | 'write' | 'run a command in', p: unknown, roots: readonly string[]): Promise<string> {
    if (typeof p !== 'string' || !path.isAbsolute(p)) throw new ResponseError(INVALID_PARAMS, `An absolute path is needed (got ${JSON.stringify(p)}).`);
    const { resolved, inside } = checkPath(p, roots);
    if (inside) return resolved;
    const policy = this.config.outsideRootsPolicy();
    const allowed = policy === 'ask' ? await this.askOutside(agentName, action, resolved) : false;
    this.log(`${action} ${resolved} outside the session's folders: ${allowed ? 'allowed by the user' : policy === 'deny' ? 'refused (acpAgents.files.outsideRoots is "deny")' : 'refused by the user'}`);
    if (!allowed) throw new ResponseError(INTERNAL, `Access refused: ${resolved} is outside the session's folders${resolved !== p ? ` (${p} resolves there)` : ''}.`);
    return resolved;
  }

  async read(agentName: string, roots: readonly string[], params: unknown): Promise<{ content: string }> {
    const p = (params ?? {}) as { path?: unknown; line?: unknown; limit?: unknown };
    const file = await this.guard(agentName, 'read', p.path, roots);
    const line = typeof p.line === 'number' ? p.line : undefined;
    const limit = typeof p.limit === 'number' ? p.limit : undefined;
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && (d.uri.fsPath === file || d.uri.fsPath === p.path));
    if (open) return { content: sliceLines(open.getText(), line, limit) };
    try {
      return { content: sliceLines(await fs.promises.readFile(file, 'utf8'), line, limit) };
    } catch (err) {
      throw new ResponseError(-32002, `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }

  /** Replaces (or creates) the file as one WorkspaceEdit: open editors update, Undo restores. */
  async write(agentName: string, roots: readonly string[], params: unknown, onBefore?: (file: string, before: string | null) => void): Promise<Record<string, never>> {
    const p = (params ?? {}) as { path?: unknown; content?: unknown };
    if (typeof p.content !== 'string') throw new ResponseError(INVALID_PARAMS, 'fs/write_text_file needs "content" (a string).');
    const file = await this.guard(agentName, 'write', p.path, roots);
    const uri = vscode.Uri.file(file);
    const edit = new vscode.WorkspaceEdit();
    const exists = fs.existsSync(file);
    const openDoc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    onBefore?.(file, exists ? (openDoc?.getText() ?? (await fs.promises.readFile(file, 'utf8').catch(() => ''))) : null);
    if (!exists) {
      edit.createFile(uri, { ignoreIfExists: true });
      edit.insert(uri, new vscode.Position(0, 0), p.content);
    } else {
      const doc = await vscode.workspace.openTextDocument(uri);
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), p.content);
    }
    const ok = await vscode.workspace.applyEdit(edit, { isRefactoring: false });
    if (!ok) throw new ResponseError(INTERNAL, `VS Code could not apply the edit to ${file}.`);
    if (this.config.saveAfterWrite()) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      if (doc?.isDirty) await doc.save();
    }
    this.log(`wrote ${file} (${p.content.length} characters${exists ? '' : ', new file'})`);
    return {};
  }
}
