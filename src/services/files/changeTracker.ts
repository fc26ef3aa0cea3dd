import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkPath } from '../../node/pathPolicy';
import { forMessage } from '../../shared/nativeText';
import { REBUILD_MAX_BYTES, textBefore, type PatchHunk } from '../../shared/patch';
import { isPlainUtf8, readDisk, same, staleAgainst, UNREADABLE, utf8, type Disk } from './diskBytes';
import { TurnBaseline, type RepoPins } from './turnBaseline';
import type { ChangeEntry, ChangeTracking, TurnObserver } from '../../sessions/ports';

interface Change {
  /** The bytes before the agent first changed it in this session; null: the file did not exist; undefined: unknown. */
  before: Buffer | null | undefined;
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

/**
 * A file whose mtime is this much older than the turn's start was written before
 * it (a late watcher event): only the kernel's coarse file clock (a few ms
 * behind) separates an agent's first write from the turn's start.
 */
const MTIME_SLACK_MS = 100;

/** What a file holds as far as Undo is concerned: its bytes on disk and an editor's unsaved text. */
interface Seen {
  readonly disk: Disk;
  readonly unsaved: string | undefined;
}

function seenNow(file: string): Seen {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
  return { disk: readDisk(file), unsaved: doc?.isDirty ? doc.getText() : undefined };
}

/** Whether the file still holds what it held when Undo was chosen (read again now, synchronously). */
function stillAsSeen(file: string, seen: Seen): boolean {
  const now = seenNow(file);
  return same(now.disk, seen.disk) && now.unsaved === seen.unsaved;
}

/** Inside .git only hooks and config matter (they run code); the rest is git's own churn. */
const IGNORED = /[\\/]node_modules([\\/]|$)|[\\/]\.git$|[\\/]\.git[\\/](?!hooks[\\/]|config$)/;

/**
 * Every file an agent changed in a session — through fs/write_text_file, through
 * a tool call's diff, or on its own on disk during a turn — with Open Diff,
 * Review All and Revert (to the bytes before the agent's first change).
 */
export class ChangeTracker implements ChangeTracking {
  private readonly changes = new Map<string, Change>();
  /**
   * Files a tool call's diff says the agent is changing, with their bytes when the
   * diff was first seen (null: missing). A diff is a claim, and its oldText may be
   * only a hunk: a file is listed once its content really differs from that
   * snapshot, and reverting restores the snapshot, never the diff's oldText.
   */
  /** Files a diff named before they were seen changing: their bytes then, and what the diff says they held before. */
  private readonly proposed = new Map<string, { snapshot: Buffer | null; before: (now: Disk) => Buffer | null | undefined }>();
  private watchers: vscode.FileSystemWatcher[] = [];
  private baseline: TurnBaseline | undefined;
  /** The turn's handler of a created or changed file (its watcher's, and the sweep's at its end). */
  private seen: ((u: vscode.Uri, created: boolean) => Promise<void>) | undefined;
  /** Each folder's repository, decided at the first turn: one an agent makes later is never used. */
  private readonly repoPins: RepoPins = new Map();
  /** Files just put back by Revert: the disk events of that write are not the agent's. */
  private readonly reverted = new Map<string, { at: number; bytes: Buffer }>();
  /** The session's checkpoints: every change of a turn is reported there too. */
  private turn: TurnObserver | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly openDiff: (file: string, before: string | null, after: string, title: string) => Promise<void>,
    private readonly diffUris: (file: string, before: string | null, after: string) => [vscode.Uri, vscode.Uri],
    /** The protected-path glob a file falls under, if any. */
    private readonly sensitive: (file: string) => string | undefined = () => undefined,
    /** The review of a file still on disk: a diff with Keep/Undo per hunk (services/files/hunkReview.ts). */
    private readonly review?: (file: string, title: string) => Promise<void>,
    /** Before Revert / Undo writes a file: why it must be left alone (a link on the way, a refused question), or undefined. */
    private readonly vetWrite: (file: string) => Promise<string | undefined> = async () => undefined,
    /** Tells the user why files were left alone. */
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    editorSaves();
  }

  observe(turn: TurnObserver): void {
    this.turn = turn;
  }

  /** Records the bytes before a change (the first known record for a file wins). */
  record(file: string, before: Buffer | null | undefined): void {
    // Not there when the turn began: whatever it holds now, this turn made it ("added", and Undo removes it).
    // opencode writes a file itself and then through fs/write_text_file: our write may find its copy first.
    if (before && !this.changes.has(file) && this.baseline?.existed(file) === false) before = null;
    // A diff was announced for it, and the file changed since: the agent wrote it itself before our write
    // found it (opencode does both); what it held when the diff came is what it held before.
    const proposed = this.proposed.get(file);
    if (before && proposed && !same(before, proposed.snapshot)) {
      before = proposed.snapshot;
      this.proposed.delete(file);
    }
    this.turn?.touch(file, before);
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
    // A whole-file diff tells what the file was, once the disk holds its new text.
    this.propose(file, roots, (now) => (oldText !== null && same(now, utf8(newText)) ? utf8(oldText) : undefined));
  }

  /** The same for one file of an ACP v2 diff: its hunks, applied backwards to the disk as they left it, tell what it was. */
  notePatch(file: string, hunks: readonly PatchHunk[], roots: readonly string[]): void {
    if (!hunks.length) return;
    this.propose(file, roots, (now) => {
      const before = Buffer.isBuffer(now) && now.length <= REBUILD_MAX_BYTES ? textBefore(now.toString('utf8'), hunks) : undefined;
      return before === undefined ? undefined : utf8(before);
    });
  }

  /** What an agent's diff says a file held before is taken only for a file seen changing on disk during the turn. */
  private propose(file: string, roots: readonly string[], before: (now: Disk) => Buffer | null | undefined): void {
    if (!checkPath(file, roots).inside) return;
    const existing = this.changes.get(file);
    if (existing) {
      // Seen changing on disk before the diff arrived.
      if (existing.before === undefined) {
        const was = before(readDisk(file));
        if (was !== undefined) this.record(file, was);
      }
      return;
    }
    if (this.proposed.has(file)) return;
    const snapshot = readDisk(file);
    if (snapshot === UNREADABLE) return;
    this.proposed.set(file, { snapshot, before });
  }

  /** Lists proposed files whose content on disk now differs from their snapshot; with `final`, forgets the rest. */
  settle(final = false): void {
    for (const [file, p] of [...this.proposed]) {
      const now = readDisk(file);
      if (now !== UNREADABLE && !same(now, p.snapshot)) {
        this.proposed.delete(file);
        this.record(file, p.snapshot);
      } else if (final) this.proposed.delete(file);
    }
  }

  /**
   * While a turn runs, files created or changed on disk inside the roots are
   * noticed too. The turn's baseline (what existed, what git had clean) is taken
   * alongside the turn's start; a file the agent touches before the baseline
   * reaches it counts as pre-existing, which errs towards "modified" and never
   * towards deleting on Revert.
   */
  watch(roots: readonly string[]): void {
    this.unwatch();
    if (roots.length === 0) return;
    const baseline = new TurnBaseline(roots, (file) => this.turn?.knownBefore(file), this.repoPins);
    this.baseline = baseline;
    const since = Date.now();
    const seen = async (u: vscode.Uri, created: boolean) => {
      const file = u.fsPath;
      if (IGNORED.test(file)) return;
      let st: fs.Stats;
      try {
        st = fs.statSync(file);
      } catch {
        return;
      }
      // Directories, and what VS Code itself saved (the user, a Revert, our own writes) while the disk still holds it.
      if (!st.isFile()) return;
      const saved = editorSaves().get(file);
      if (saved !== undefined && st.mtimeMs <= saved + 50) return;
      await baseline.ready;
      if (this.baseline !== baseline) return;
      const back = this.reverted.get(file);
      if (back && Date.now() - back.at < 3000 && same(readDisk(file), back.bytes)) return;
      // Late events of changes made before the turn began — but a file that was not there
      // when it began is new, whatever its time says (a rename keeps the old file's).
      if (st.mtimeMs < since - MTIME_SLACK_MS && !(created && baseline.existed(file) === false)) return;
      // Not there when the turn began: this turn made it, whatever a diff claims (Copilot reports a new
      // file's diff after writing it, with oldText ""): "added", and Undo removes it.
      if (baseline.existed(file) === false) {
        this.proposed.delete(file);
        return this.record(file, null);
      }
      const p = this.proposed.get(file);
      if (p) {
        const now = readDisk(file);
        if (now !== UNREADABLE && !same(now, p.snapshot)) {
          this.proposed.delete(file);
          return this.record(file, p.snapshot);
        }
        // Unchanged since the diff was seen: the agent wrote before telling. A whole-file
        // diff (or a v2 diff's hunks) says what the file was; otherwise it is listed without a way back — and a
        // later change from the snapshot still makes it revertable.
        const was = p.before(now);
        if (was !== undefined) {
          this.proposed.delete(file);
          return this.record(file, was);
        }
        return this.record(file, undefined);
      }
      // No claim from the agent, and it was there (or may have been) when the turn began: whether it
      // existed comes from the turn's baseline, never from the event kind (a rewrite as a new inode arrives as "created").
      const existed = baseline.existed(file);
      this.record(file, undefined);
      if (existed) {
        const bytes = await baseline.bytesBefore(file);
        if (bytes && this.changes.get(file)?.before === undefined) this.record(file, bytes);
      }
    };
    // A file deleted (or renamed away) during the turn: its bytes from before, where they can be had.
    const gone = async (u: vscode.Uri) => {
      const file = u.fsPath;
      if (IGNORED.test(file)) return;
      await baseline.ready;
      // A folder removed at once: each file it held is gone.
      const inside = baseline.existed(file) ? [] : baseline.filesUnder(file);
      if (inside.length) {
        for (const f of inside.slice(0, 1000)) await gone(vscode.Uri.file(f));
        return;
      }
      // An editor still holding the file's text (unchanged since it was read) knows what it was.
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file && !d.isDirty && d.eol === vscode.EndOfLine.LF);
      const fromEditor = doc ? utf8(doc.getText()) : undefined;
      if (this.baseline !== baseline || fs.existsSync(file)) return;
      const existing = this.changes.get(file);
      if (existing?.before === null) {
        // Made and removed by the agent: nothing changed after all.
        this.turn?.touch(file, null);
        this.changes.delete(file);
        this.emitter.fire();
        return;
      }
      if (existing) return this.record(file, undefined);
      if (baseline.existed(file) === false) return;
      this.proposed.delete(file);
      this.record(file, (await baseline.bytesBefore(file)) ?? fromEditor);
    };
    this.seen = seen;
    for (const root of roots) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'));
      w.onDidCreate((u) => void seen(u, true));
      w.onDidChange((u) => void seen(u, false));
      w.onDidDelete((u) => void gone(u));
      this.watchers.push(w);
    }
  }

  unwatch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    this.seen = undefined;
  }

  /**
   * At a turn's end: files it created that no watcher event reported (a watcher
   * that went live late, a folder in files.watcherExclude) are found by listing
   * the folders again, and handled as if their event had come.
   */
  async sweep(): Promise<void> {
    const { baseline, seen } = this;
    if (!baseline || !seen) return;
    for (const file of await baseline.createdSince()) {
      if (this.baseline !== baseline) return;
      if (!this.changes.has(file)) await seen(vscode.Uri.file(file), true);
    }
  }

  list(): ChangeEntry[] {
    return [...this.changes.entries()].map(([file, c]) => {
      const glob = this.sensitive(file);
      const deleted = c.before !== null && !fs.existsSync(file);
      return { path: file, name: path.basename(file), added: c.before === null, ...(deleted ? { deleted } : {}), canRevert: c.before !== undefined, ...(glob !== undefined ? { sensitive: glob } : {}) };
    });
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

  private beforeText(c: Change): string | null {
    return c.before ? c.before.toString('utf8') : null;
  }

  async open(file: string): Promise<void> {
    const c = this.changes.get(file);
    if (!c) return;
    const title = vscode.l10n.t('{0} (changes by the agent)', path.basename(file));
    if (this.review && this.reviewBase(file) !== undefined && fs.existsSync(file)) return await this.review(file, title);
    await this.openDiff(file, this.beforeText(c), this.current(file), title);
  }

  has(file: string): boolean {
    return this.changes.has(file);
  }

  /** The text before the agent's change, for a review by hunks: plain UTF-8 text the agent modified (not added, not deleted). */
  reviewBase(file: string): string | undefined {
    const before = this.changes.get(file)?.before;
    return before && isPlainUtf8(before) ? before.toString('utf8') : undefined;
  }

  /** Part of a change kept: the "before" takes it; the file leaves the list once nothing differs. */
  accept(file: string, before: string): void {
    const c = this.changes.get(file);
    if (!c) return;
    if (before === this.current(file)) this.changes.delete(file);
    else c.before = utf8(before);
    this.emitter.fire();
  }

  /** After an edit (a hunk undone): a file back as it was leaves the list. */
  recheck(file: string): void {
    const base = this.reviewBase(file);
    if (base === undefined || base !== this.current(file)) return;
    this.changes.delete(file);
    this.emitter.fire();
  }

  /** Keep: the agent's change of a file is accepted (it leaves the list; the file stays as it is). */
  keep(file: string): void {
    if (!this.changes.delete(file)) return;
    this.proposed.delete(file);
    this.emitter.fire();
  }

  keepAll(): void {
    if (this.changes.size === 0) return;
    this.changes.clear();
    this.emitter.fire();
  }

  /** Undo All: every revertable file back as it was; returns how many were. */
  async revertAll(): Promise<number> {
    const files = [...this.changes].filter(([, c]) => c.before !== undefined).map(([file]) => file);
    // What each file holds as Undo is chosen: a file that changes after this (the user typing while a
    // question is open, or while an earlier file is written) is left as it is, never overwritten.
    const seen = new Map(files.map((f) => [f, seenNow(f)]));
    const allowed = await this.mayWrite(files);
    let n = 0;
    const skipped: string[] = [];
    for (const file of files) {
      if (!allowed.has(file)) continue;
      const done = await this.revertChecked(file, seen.get(file)!);
      if (done === 'changed') skipped.push(file);
      else if (done) n++;
    }
    this.warnChanged(skipped);
    return n;
  }

  /** Tells the user which files Undo left alone because they changed after it was chosen. */
  private warnChanged(files: readonly string[]): void {
    if (files.length === 0) return;
    const names = files.map((f) => forMessage(path.basename(f), 200)).join(', ');
    this.warn(
      files.length === 1
        ? vscode.l10n.t('{0} was left as it is: it changed after you chose Undo, and undoing now would overwrite that change.', names)
        : vscode.l10n.t('{0} files were left as they are: they changed after you chose Undo, and undoing now would overwrite those changes ({1}).', files.length, names),
    );
  }

  /**
   * The files Revert / Undo may write now: a file behind a symbolic link is refused,
   * one outside the folders or protected is asked about. The user is told, at once,
   * about the files left alone.
   */
  async mayWrite(files: readonly string[]): Promise<ReadonlySet<string>> {
    const allowed = new Set<string>();
    const refused: string[] = [];
    for (const file of files) {
      const why = await this.vetWrite(file);
      if (why === undefined) allowed.add(file);
      else refused.push(why);
    }
    if (refused.length) this.warn(refused.join(' '));
    return allowed;
  }

  /** A multi-file diff of every change (VS Code's multi-diff editor where available). */
  async reviewAll(): Promise<void> {
    const entries = [...this.changes.entries()];
    if (entries.length === 0) return;
    const resources = entries.map(([file, c]) => {
      const [left, right] = this.diffUris(file, this.beforeText(c), this.current(file));
      return [vscode.Uri.file(file), left, right];
    });
    try {
      await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Changes by the agent ({0})', entries.length), resources);
    } catch {
      // Older VS Code without the multi-diff editor: one diff after another.
      for (const [file] of entries) await this.open(file);
    }
  }

  /**
   * Puts the file back as it was before the agent's first change: an undoable edit
   * for plain UTF-8 text, the exact bytes otherwise (Latin-1, a BOM, binary).
   */
  async revert(file: string): Promise<boolean> {
    const c = this.changes.get(file);
    if (!c || c.before === undefined) return false;
    const seen = seenNow(file);
    if (!(await this.mayWrite([file])).has(file)) return false;
    const done = await this.revertChecked(file, seen);
    if (done === 'changed') this.warnChanged([file]);
    return done === true;
  }

  /**
   * Writes the file's old bytes back, unless it no longer holds what `seen` says: each write is
   * preceded, with no await in between, by reading the file again ('changed': left alone).
   */
  private async revertChecked(file: string, seen: Seen): Promise<boolean | 'changed'> {
    const c = this.changes.get(file);
    if (!c || c.before === undefined) return false;
    const uri = vscode.Uri.file(file);
    const before = c.before;
    const openDoc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    if (!stillAsSeen(file, seen)) return this.leftAlone(file);
    // Before writing: the disk events of this write may arrive while it is still being saved.
    for (const [f, r] of this.reverted) if (Date.now() - r.at > 3000) this.reverted.delete(f);
    if (before !== null) this.reverted.set(file, { at: Date.now(), bytes: before });
    if (before !== null && !fs.existsSync(file)) {
      // Deleted by the agent: made again, with its bytes.
      const edit = new vscode.WorkspaceEdit();
      edit.createFile(uri, { contents: before, ignoreIfExists: true });
      if (!stillAsSeen(file, seen)) return this.leftAlone(file);
      if (!(await vscode.workspace.applyEdit(edit))) return false;
    } else if (before !== null && isPlainUtf8(before) && openDoc && !openDoc.isDirty && isStale(openDoc, readDisk(file))) {
      // A document older than the file: VS Code would refuse to save the edit over it, and Undo would do nothing.
      if (!stillAsSeen(file, seen)) return this.leftAlone(file);
      await vscode.workspace.fs.writeFile(uri, before);
    } else if (before === null || isPlainUtf8(before)) {
      const edit = new vscode.WorkspaceEdit();
      if (before === null) edit.deleteFile(uri, { ignoreIfNotExists: true });
      else {
        const doc = await vscode.workspace.openTextDocument(uri);
        edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), before.toString('utf8'));
      }
      // Read again right before the write (the document just opened may have taken a while).
      if (!stillAsSeen(file, seen)) return this.leftAlone(file);
      if (!(await vscode.workspace.applyEdit(edit))) return false;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      // Not saved (VS Code refused): not undone, and not said to be.
      if (doc?.isDirty && !(await doc.save())) return false;
    } else {
      if (openDoc?.isDirty) {
        // Unsaved editor changes would fight the bytes on disk: drop them first.
        await vscode.window.showTextDocument(openDoc, { preview: true, preserveFocus: true });
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
      // The editor's unsaved text was just dropped on purpose: only the disk is compared again.
      if (!same(readDisk(file), seen.disk)) return this.leftAlone(file);
      await vscode.workspace.fs.writeFile(uri, before);
    }
    this.changes.delete(file);
    this.emitter.fire();
    return true;
  }

  /** A file Undo leaves alone because it changed since Undo was chosen; its "put back" marker goes too. */
  private leftAlone(file: string): 'changed' {
    this.reverted.delete(file);
    return 'changed';
  }

  dispose(): void {
    this.unwatch();
    this.emitter.dispose();
  }
}

/** Whether an open document is older than the file's bytes on disk (see staleAgainst). */
function isStale(doc: vscode.TextDocument, disk: Disk): boolean {
  return Buffer.isBuffer(disk) && staleAgainst(doc.getText(), disk);
}
