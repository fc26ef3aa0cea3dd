/**
 * Files put back as they were (checkpoints): one WorkspaceEdit, so the whole
 * restore is one step of VS Code's undo; text files are replaced in place
 * (their editors keep their undo stacks), others are written whole.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { RestoreOutcome } from '../../sessions/checkpoints/restore';
import { realPathLoose } from '../../node/pathPolicy';
import { forMessage } from '../../shared/nativeText';
import { isPlainUtf8, readDisk, UNREADABLE } from './diskBytes';

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A file's bytes now: an open editor's unsaved text, else the disk's (null: missing; undefined: not a readable regular file). */
export function currentBytes(file: string): Buffer | null | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
  if (doc?.isDirty) return Buffer.from(doc.getText(), 'utf8');
  const disk = readDisk(file);
  return disk === UNREADABLE ? undefined : disk;
}

/**
 * `vet` is asked about every file first (undefined: go ahead; else why it is left
 * alone: a symbolic link on the way, a question about it denied); the others are
 * restored.
 */
export async function restoreFiles(
  entries: readonly { path: string; bytes: Buffer | null }[],
  label: string,
  vet: (file: string) => Promise<string | undefined>,
): Promise<RestoreOutcome> {
  const edit = new vscode.WorkspaceEdit();
  const meta: vscode.WorkspaceEditEntryMetadata = { label, needsConfirmation: false };
  const texts: vscode.Uri[] = [];
  const refused: { path: string; reason: string }[] = [];
  // First every question (they may wait on the user), then the documents, then — with no wait
  // left before the edit is built — each file is checked again: a link swapped in meanwhile is refused.
  const accepted: { entry: (typeof entries)[number]; real: string; doc?: vscode.TextDocument }[] = [];
  for (const e of entries) {
    const why = await vet(e.path);
    if (why !== undefined) refused.push({ path: e.path, reason: why });
    else accepted.push({ entry: e, real: realPathLoose(e.path) });
  }
  for (const a of accepted) {
    if (a.entry.bytes === null || !fs.existsSync(a.entry.path) || !isPlainUtf8(a.entry.bytes)) continue;
    try {
      a.doc = await vscode.workspace.openTextDocument(vscode.Uri.file(a.entry.path));
    } catch {
      a.doc = undefined; // binary: written whole
    }
  }
  for (const { entry: e, real, doc } of accepted) {
    if (isLink(e.path) || realPathLoose(e.path) !== real) {
      refused.push({ path: e.path, reason: vscode.l10n.t('{0} was left alone: it changed after it was checked (a symbolic link put in its place or in its folder).', forMessage(e.path)) });
      continue;
    }
    const uri = vscode.Uri.file(e.path);
    const exists = fs.existsSync(e.path);
    if (e.bytes === null) {
      if (exists) edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
      continue;
    }
    if (!exists) {
      edit.createFile(uri, { contents: e.bytes, overwrite: true }, meta);
      continue;
    }
    if (doc) {
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), e.bytes.toString('utf8'), meta);
      texts.push(uri);
    } else edit.createFile(uri, { contents: e.bytes, overwrite: true }, meta);
  }
  // Every file left alone: nothing to apply (VS Code refuses an empty edit).
  if (edit.size === 0) return { ok: true, refused };
  if (!(await vscode.workspace.applyEdit(edit))) return { ok: false, refused };
  for (const uri of texts) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc?.isDirty) await doc.save();
  }
  return { ok: true, refused };
}
