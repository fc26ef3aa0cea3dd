import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkPath } from './pathPolicy';

interface Change {
  /** The text before the agent first changed it in this session; null: the file did not exist; undefined: unknown. */
  before: string | null | undefined;
}

/**
 * When VS Code itself last saved each file (the user, a Revert, our own writes):
 * disk events right after such a save are not the agent's doing. One listener
 * for the extension's lifetime, shared by every session.
 */
let saveTimes: Map<string, number> | undefined;
function editorSaves(): Map<string, number> {
  if (!saveTimes) {
    const times = new Map<string, number>();
    vscode.workspace.onDidSaveTextDocument((d) => {
      times.set(d.uri.fsPath, Date.now());
      if (times.size > 500) for (const [k, t] of times) if (Date.now() - t > 10_000) times.delete(k);
    });
    saveTimes = times;
  }
  return saveTimes;
}

/** Files above this size are not snapshotted (their changes are listed without Revert). */
const MAX_SNAPSHOT_BYTES = 5 * 1024 * 1024;
const UNREADABLE = Symbol('unreadable');

/**
 * The file's text on disk: null when it does not exist; UNREADABLE when it is not a
 * regular file (a FIFO, a device — the path comes from the model) or too large.
 */
function readDisk(file: string): string | null | typeof UNREADABLE {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return null;
  }
  if (!st.isFile() || st.size > MAX_SNAPSHOT_BYTES) return UNREADABLE;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return UNREADABLE;
  }
}

/**
 * Every file an agent changed in a session — through fs/write_text_file, through
 * a tool call's diff, or on its own on disk during a turn — with Open Diff,
 * Review All and Revert (to the text before the agent's first change).
 */
export class ChangeTracker implements vscode.Disposable {
  private readonly changes = new Map<string, Change>();
  /**
   * Files a tool call's diff says the agent is changing, with their text when the
   * diff was first seen (null: missing). A diff is a claim, and its oldText may be
   * only a hunk: a file is listed once its content really differs from that
   * snapshot, and reverting restores the snapshot, never the diff's oldText.
   */
  private readonly proposed = new Map<string, { snapshot: string | null; oldText: string | null; newText: string }>();
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly openDiff: (file: string, before: string | null, after: string, title: string) => Promise<void>,
    private readonly diffUris: (file: string, before: string | null, after: string) => [vscode.Uri, vscode.Uri],
  ) {
    editorSaves();
  }

  /** Records the text before a change (the first record for a file wins). */
  record(file: string, before: string | null | undefined): void {
    const existing = this.changes.get(file);
    if (existing && existing.before !== undefined) return;
    if (existing && before === undefined) return;
    this.changes.set(file, { before });
    this.emitter.fire();
  }

  /**
   * A tool call's diff names a file the agent changes (or says it changed). Only
   * files inside the session's folders are tracked (the path comes from the model).
   */
  noteDiff(file: string, oldText: string | null, newText: string, roots: readonly string[]): void {
    if (!checkPath(file, roots).inside) return;
    const existing = this.changes.get(file);
    if (existing) {
      // Seen changing on disk before the diff arrived: a whole-file diff tells what it was.
      if (existing.before === undefined && oldText !== null && readDisk(file) === newText) this.record(file, oldText);
      return;
    }
    if (this.proposed.has(file)) return;
    const snapshot = readDisk(file);
    if (snapshot === UNREADABLE) return;
    this.proposed.set(file, { snapshot, oldText, newText });
  }

  /** Lists proposed files whose content on disk now differs from their snapshot; with `final`, forgets the rest. */
  settle(final = false): void {
    for (const [file, p] of [...this.proposed]) {
      const now = readDisk(file);
      if (now !== UNREADABLE && now !== p.snapshot) {
        this.proposed.delete(file);
        this.record(file, p.snapshot);
      } else if (final) this.proposed.delete(file);
    }
  }

  /** While a turn runs, files created or changed on disk inside the roots are noticed too. */
  watch(roots: readonly string[]): void {
    this.unwatch();
    if (roots.length === 0) return;
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(roots[0]!), '**/*'));
    const since = Date.now();
    const seen = (u: vscode.Uri, created: boolean) => {
      const file = u.fsPath;
      if (/[\\/](\.git|node_modules)[\\/]/.test(file)) return;
      let st: fs.Stats;
      try {
        st = fs.statSync(file);
      } catch {
        return;
      }
      // Directories; late events of changes made before the turn began; and what VS Code
      // itself saved (the user, a Revert, our own writes) while the disk still holds it.
      if (!st.isFile() || st.mtimeMs < since - 250) return;
      const saved = editorSaves().get(file);
      if (saved !== undefined && st.mtimeMs <= saved + 50) return;
      // A late "created" event for a file that existed before the turn: a change, not a new
      // file (Revert would delete it). Where birth times are coarse or missing, this errs
      // towards "changed", which Revert never deletes.
      if (created && !(st.birthtimeMs >= since)) created = false;
      const p = this.proposed.get(file);
      if (!p) return this.record(file, created ? null : undefined);
      const now = readDisk(file);
      if (now !== UNREADABLE && now !== p.snapshot) {
        this.proposed.delete(file);
        return this.record(file, p.snapshot);
      }
      // Unchanged since the diff was seen: the agent wrote before telling. A whole-file
      // diff says what the file was; otherwise it is listed without a way back — and a
      // later change from the snapshot still makes it revertable.
      if (created && p.oldText === null && now === p.newText) {
        this.proposed.delete(file);
        this.record(file, null);
      } else if (!created && p.oldText !== null && now === p.newText) {
        this.proposed.delete(file);
        this.record(file, p.oldText);
      } else {
        this.record(file, undefined);
      }
    };
    w.onDidCreate((u) => seen(u, true));
    w.onDidChange((u) => seen(u, false));
    this.watcher = w;
  }

  unwatch(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
  }

  list(): { path: string; name: string; added: boolean; canRevert: boolean }[] {
    return [...this.changes.entries()].map(([file, c]) => ({ path: file, name: path.basename(file), added: c.before === null, canRevert: c.before !== undefined }));
  }

  private current(file: string): string {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    if (doc) return doc.getText();
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  }

  async open(file: string): Promise<void> {
    const c = this.changes.get(file);
    if (!c) return;
    await this.openDiff(file, c.before ?? null, this.current(file), `${path.basename(file)} (changes by the agent)`);
  }

  /** A multi-file diff of every change (VS Code's multi-diff editor where available). */
  async reviewAll(): Promise<void> {
    const entries = [...this.changes.entries()];
    if (entries.length === 0) return;
    const resources = entries.map(([file, c]) => {
      const [left, right] = this.diffUris(file, c.before ?? null, this.current(file));
      return [vscode.Uri.file(file), left, right];
    });
    try {
      await vscode.commands.executeCommand('vscode.changes', `Changes by the agent (${entries.length})`, resources);
    } catch {
      // Older VS Code without the multi-diff editor: one diff after another.
      for (const [file] of entries) await this.open(file);
    }
  }

  /** Puts the file back as it was before the agent's first change (an undoable edit). */
  async revert(file: string): Promise<boolean> {
    const c = this.changes.get(file);
    if (!c || c.before === undefined) return false;
    const uri = vscode.Uri.file(file);
    const edit = new vscode.WorkspaceEdit();
    if (c.before === null) edit.deleteFile(uri, { ignoreIfNotExists: true });
    else {
      const doc = await vscode.workspace.openTextDocument(uri);
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), c.before);
    }
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    if (doc?.isDirty) await doc.save();
    this.changes.delete(file);
    this.emitter.fire();
    return true;
  }

  dispose(): void {
    this.unwatch();
    this.emitter.dispose();
  }
}
