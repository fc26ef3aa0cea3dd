import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ReadTextFile, WriteTextFile } from '../../acp/clientRequests';
import { clientError } from '../../acp/errors';
import type { AccessAction, AccessAnswer, AccessContext, AccessQuestion } from '../../sessions/policy/accessGate';
import { checkPath, isAbsolutePath, isUncPath, sliceLines } from '../../node/pathPolicy';
import { protectedMatcher, type ProtectedMatcher } from '../../node/protectedPaths';
import { forMessage } from '../../shared/nativeText';
import { checkUserWrite, kindOf, readVerified, writeTargetChanged } from '../../node/verifiedIo';
import { staleAgainst } from './diskBytes';

/** Largest file `fs/read_text_file` reads from disk. */
const MAX_READ_BYTES = 32 * 1024 * 1024;
/** Largest file `fs/write_text_file` replaces: its bytes before are kept for Revert and checkpoints. */
const MAX_BEFORE_BYTES = 256 * 1024 * 1024;

/** The settings the file service reads. */
export interface FileSettings {
  outsideRootsPolicy(): 'ask' | 'deny';
  protectedPaths(): readonly string[];
  saveAfterWrite(): boolean;
}

/** The question's first line: who wants to do what with which path, and why that is asked. */
export function accessMessage(q: AccessQuestion): string {
  // The agent's name and path (and a glob) are untrusted: no link or codicon syntax survives.
  const agentName = forMessage(q.agentName, 100);
  const path = forMessage(q.path, 500);
  if (q.reason === 'outside') {
    switch (q.action) {
      case 'read':
        return vscode.l10n.t("{0} wants to read {1}, which is outside the session's folders.", agentName, path);
      case 'write':
        return vscode.l10n.t("{0} wants to write {1}, which is outside the session's folders.", agentName, path);
      case 'run a command in':
        return vscode.l10n.t("{0} wants to run a command in {1}, which is outside the session's folders.", agentName, path);
      case 'open':
        return vscode.l10n.t("{0} wants to open {1}, which is outside the session's folders.", agentName, path);
    }
  }
  const glob = forMessage(q.glob ?? 'acpAgents.files.protectedPaths', 200);
  switch (q.action) {
    case 'read':
      return vscode.l10n.t('{0} wants to read {1}, a protected path ({2}).', agentName, path, glob);
    case 'write':
      return vscode.l10n.t('{0} wants to write {1}, a protected path ({2}).', agentName, path, glob);
    case 'run a command in':
      return vscode.l10n.t('{0} wants to run a command in {1}, a protected path ({2}).', agentName, path, glob);
    case 'open':
      return vscode.l10n.t('{0} wants to open {1}, a protected path ({2}).', agentName, path, glob);
  }
}

/** The native question: a modal naming the agent, the action and the path. Escape denies. */
async function askAccessNatively(q: AccessQuestion): Promise<AccessAnswer | undefined> {
  const once = vscode.l10n.t('Allow Once');
  const forPath = q.action === 'run a command in' ? vscode.l10n.t('Allow This Folder for the Session') : vscode.l10n.t('Allow This File for the Session');
  const forFolder = vscode.l10n.t('Allow Its Folder for the Session');
  const deny = vscode.l10n.t('Deny');
  const denyTurn = vscode.l10n.t('Deny All for This Turn');
  const message = accessMessage(q);
  const detail =
    q.reason === 'outside'
      ? vscode.l10n.t('Allow only if you expect the agent to need this.')
      : vscode.l10n.t('Files like this decide what VS Code, git, CI or your tools run. Allow only if you asked the agent to change it.');
  const items = [once, forPath, ...(q.folder !== undefined ? [forFolder] : []), deny, denyTurn];
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...items);
  return choice === once ? 'once' : choice === forPath ? 'session-path' : choice === forFolder ? 'session-folder' : choice === denyTurn ? 'deny-turn' : 'deny';
}

/**
 * `fs/read_text_file` and `fs/write_text_file` for agents: the open editor's
 * text (unsaved changes included), writes as undoable WorkspaceEdits, paths
 * outside the session's roots asked about (or refused) per the setting, and
 * writes to protected paths always asked about.
 */
export class FileService {
  /** Asks the user about one access (replaceable for tests). */
  askAccess: (q: AccessQuestion) => Promise<AccessAnswer | undefined> = askAccessNatively;

  constructor(
    private readonly config: FileSettings,
    private readonly log: (message: string) => void,
  ) {}

  /** Resolves an agent's path and holds it to the roots (asking or refusing outside them, and for protected writes). */
  async guard(ctx: AccessContext, action: AccessAction, p: unknown): Promise<string> {
    if (typeof p !== 'string' || p === '') throw clientError.invalidParams(`An absolute path is needed (got ${JSON.stringify(p)}).`);
    if (isUncPath(p)) throw clientError.invalidParams(`Network (UNC) paths are not allowed: ${p}`);
    if (!isAbsolutePath(p)) throw clientError.invalidParams(`An absolute path is needed (got ${JSON.stringify(p)}).`);
    const { resolved, inside } = checkPath(p, ctx.roots);
    if (!inside) {
      const policy = this.config.outsideRootsPolicy();
      const allowed = policy === 'ask' && (await ctx.gate.ask({ agentName: ctx.agentName, action, path: resolved, reason: 'outside', roots: ctx.roots }));
      if (policy === 'deny') this.log(`${action} ${resolved} outside the session's folders: refused (acpAgents.files.outsideRoots is "deny")`);
      if (!allowed) throw clientError.internal(`Access refused: ${resolved} is outside the session's folders${resolved !== p ? ` (${p} resolves there)` : ''}.`);
    }
    if (action === 'write') {
      const glob = this.protectedMatch()(resolved, ctx.roots);
      if (glob !== undefined && !(await ctx.gate.ask({ agentName: ctx.agentName, action, path: resolved, reason: 'protected', glob, roots: ctx.roots }))) {
        throw clientError.internal(`Access refused: ${resolved} is a protected path (${glob}) and the user did not allow the write.`);
      }
    }
    return resolved;
  }

  /** Test seam: runs between the guard's check of a path and the I/O on it (set only by the test hooks). */
  betweenCheckAndUse: ((file: string, action: 'read' | 'write' | 'revert') => Promise<void>) | undefined;

  /**
   * Reads from disk only the file the guard checked: opened without following a
   * final link (and never blocking on a FIFO), then the path is resolved again
   * and must still be that file (a folder swapped for a link in between is refused).
   * `missingAsEmpty`: an interop workaround (src/agents/quirks.ts) — a missing file reads as empty, and this is called.
   */
  async read(ctx: AccessContext, p: ReadTextFile, opts?: { missingAsEmpty?: () => void }): Promise<{ content: string }> {
    const file = await this.guard(ctx, 'read', p.path);
    await this.betweenCheckAndUse?.(file, 'read');
    const { line, limit } = p;
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && (d.uri.fsPath === file || d.uri.fsPath === p.path));
    if (open?.isDirty) return { content: sliceLines(open.getText(), line, limit) };
    const r = await readVerified(file, MAX_READ_BYTES);
    // An open document the user has not changed is the file as VS Code decoded it (its encoding), unless VS Code
    // has not read the file again since it changed on disk: then the disk is the truth.
    if (open && !(r.kind === 'ok' && staleAgainst(open.getText(), r.bytes))) return { content: sliceLines(open.getText(), line, limit) };
    switch (r.kind) {
      case 'ok':
        return { content: sliceLines(r.bytes.toString('utf8'), line, limit) };
      case 'missing':
        if (opts?.missingAsEmpty && r.code === 'ENOENT') return (opts.missingAsEmpty(), { content: '' });
        throw clientError.notFound(`Cannot read ${file}: ${r.code}`);
      case 'changed':
        throw this.changedSinceCheck('read', file, r.now);
      case 'not-file':
        // A FIFO, socket or device would block or never end: only regular files are read.
        throw clientError.invalidParams(`Cannot read ${file}: it is not a regular file (${r.what}).`);
      case 'too-large':
        throw clientError.invalidParams(`Cannot read ${file}: it is ${(r.size / 1024 / 1024).toFixed(1)} MB, over the ${MAX_READ_BYTES / 1024 / 1024} MB limit.`);
    }
  }

  /** The error (and the loud log line) for a path that led elsewhere at the moment of its use. */
  private changedSinceCheck(action: 'read' | 'write', file: string, now: string): Error {
    this.log(`REFUSED ${action} ${file}: the path changed after it was checked and now leads to ${now} (a link swapped in?)`);
    return clientError.internal(`Access refused: ${file} changed after it was checked and now leads to ${now}.`);
  }

  /** The checked path of a write must still resolve to itself (no link swapped in); else the write is refused, loudly. */
  private recheckWrite(file: string, when: string): void {
    const changed = writeTargetChanged(file);
    if (changed === undefined) return;
    this.log(`REFUSED write ${file} ${when}: ${changed} (a link swapped in after the check?)`);
    throw clientError.internal(`Access refused: ${file} changed after it was checked (${changed}).`);
  }

  /**
   * Replaces (or creates) the file as one WorkspaceEdit: open editors update, Undo restores.
   * `onBefore` gets the file's bytes before the write (null: it did not exist).
   */
  private matcher: { globs: string; match: ProtectedMatcher } | undefined;

  /** The protected-path matcher for the current setting, compiled once per value of it. */
  private protectedMatch(): ProtectedMatcher {
    const globs = this.config.protectedPaths();
    const key = JSON.stringify(globs);
    if (this.matcher?.globs !== key) this.matcher = { globs: key, match: protectedMatcher(globs) };
    return this.matcher.match;
  }

  async write(ctx: AccessContext, p: WriteTextFile, onBefore?: (file: string, before: Buffer | null) => void): Promise<Record<string, never>> {
    const file = await this.guard(ctx, 'write', p.path);
    await this.betweenCheckAndUse?.(file, 'write');
    this.recheckWrite(file, 'before reading it');
    let st: fs.Stats | undefined;
    try {
      st = await fs.promises.lstat(file);
    } catch {
      st = undefined;
    }
    if (st && !st.isFile()) throw clientError.invalidParams(`Cannot write ${file}: it is not a regular file (${kindOf(st)}).`);
    const uri = vscode.Uri.file(file);
    const edit = new vscode.WorkspaceEdit();
    const exists = st !== undefined;
    const openDoc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    let before: Buffer | null = null;
    if (exists && openDoc?.isDirty) before = Buffer.from(openDoc.getText(), 'utf8');
    else if (exists) {
      // The bytes before, for Revert and checkpoints: read only from the checked file, never through a link swapped in.
      const r = await readVerified(file, MAX_BEFORE_BYTES);
      switch (r.kind) {
        case 'ok':
          before = r.bytes;
          break;
        case 'missing':
          before = null; // deleted since the check: the write creates it
          break;
        case 'changed':
          throw this.changedSinceCheck('write', file, r.now);
        case 'not-file':
          throw clientError.invalidParams(`Cannot write ${file}: it is not a regular file (${r.what}).`);
        case 'too-large':
          throw clientError.invalidParams(`Cannot write ${file}: it is ${(r.size / 1024 / 1024).toFixed(1)} MB, over the ${MAX_BEFORE_BYTES / 1024 / 1024} MB that can be kept to undo the write.`);
      }
    }
    onBefore?.(file, before);
    const save = this.config.saveAfterWrite();
    /** Written to disk, not through the editor (a stale document, below). */
    let direct = false;
    if (!exists && save) {
      // The content comes with the creation, not as an insert after it: an agent that also writes the file itself
      // (opencode 1.18.33 does, next to fs/write_text_file) can write it between the creation and the insert, whose
      // document then loads the agent's text from disk and gets ours in front of it (seen once: the content doubled).
      // Overwrite: created meanwhile, it still ends with exactly this content. Undo removes the file.
      edit.createFile(uri, { overwrite: true, contents: Buffer.from(p.content, 'utf8') });
    } else if (!exists) {
      // Left unsaved (files.saveAfterWrite off): created empty, the text in the editor only (contents would put
      // it on disk). Overwrite, not ignoreIfExists. The race above remains here: an agent writing the file
      // between the two can still see its text doubled, in the editor, unsaved, for the user to review.
      edit.createFile(uri, { overwrite: true });
      edit.insert(uri, new vscode.Position(0, 0), p.content);
    } else {
      const doc = await vscode.workspace.openTextDocument(uri);
      // A document VS Code has not read again since the file changed on disk (no watcher event yet, or none
      // ever: files.watcherExclude) takes the edit, but VS Code refuses to save it over the newer file: the
      // write would never reach the disk. Written to disk directly instead; the bytes before are kept as for
      // any write (Undo in the Changes list), only the editor's own undo does not have it.
      direct = save && before !== null && !doc.isDirty && staleAgainst(doc.getText(), before);
      if (!direct) edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), p.content);
    }
    this.recheckWrite(file, 'before the edit');
    if (direct) await vscode.workspace.fs.writeFile(uri, Buffer.from(p.content, 'utf8'));
    else if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: false }))) throw clientError.internal(`VS Code could not apply the edit to ${file}.`);
    if (save && !direct) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      if (doc?.isDirty) {
        // The edit is in the editor only until this save: not saved through a link that appeared meanwhile.
        this.recheckWrite(file, 'before saving it');
        // Not saved (VS Code refused: the file changed on disk meanwhile, the disk is full…): the agent is told, never "written".
        if (!(await doc.save())) throw clientError.internal(`VS Code did not save ${file}: the new text is in its editor, unsaved, and the file on disk is unchanged.`);
      }
    }
    // After the fact: the file written must still be the one checked. Nothing is undone (the
    // bytes went wherever the path led); the agent gets an error and the log says so loudly.
    this.recheckWrite(file, 'AFTER it was written — the write may have landed elsewhere');
    const how = direct ? '; to disk directly: its document in VS Code was older than the file' : save ? '' : '; left unsaved (files.saveAfterWrite)';
    this.log(`wrote ${file} (${p.content.length} characters${exists ? '' : ', new file'}${how})`);
    return {};
  }

  /** The protected-path globs in force: a search's glob is checked against them as a glob. */
  protectedGlobs(): readonly string[] {
    return this.config.protectedPaths();
  }

  /** Whether a path is protected (for flagging changes and holding back automatic approvals). */
  protectedGlob(file: string, roots: readonly string[]): string | undefined {
    return this.protectedMatch()(file, roots);
  }

  /**
   * Before Restore, Revert or Undo writes (or removes) a file for the user: never
   * through a symbolic link (the file, or a folder between the session folder and
   * it); outside the session's folders or on a protected path, the session's gate
   * asks. Undefined: go ahead; else why the file is left alone, for the user.
   */
  async vetUserWrite(ctx: AccessContext, file: string): Promise<string | undefined> {
    const why = await this.vetUserWriteNow(ctx, file);
    await this.betweenCheckAndUse?.(file, 'revert');
    return why;
  }

  private async vetUserWriteNow(ctx: AccessContext, file: string): Promise<string | undefined> {
    const c = checkUserWrite(file, ctx.roots, (f) => this.protectedMatch()(f, ctx.roots));
    switch (c.kind) {
      case 'ok':
        return undefined;
      case 'link':
        this.log(`REFUSED user write ${file}: ${c.link} is a symbolic link (writing through it could change a file elsewhere)`);
        return c.link === file
          ? vscode.l10n.t('{0} was left alone: it is now a symbolic link, and writing it would change the file it points to.', forMessage(file))
          : vscode.l10n.t('{0} was left alone: its folder {1} is now a symbolic link, and writing through it would change a file elsewhere.', forMessage(file), forMessage(c.link));
      case 'outside': {
        const asked = this.config.outsideRootsPolicy() === 'ask' && (await ctx.gate.ask({ agentName: ctx.agentName, action: 'write', path: c.resolved, reason: 'outside', roots: ctx.roots }));
        if (asked) return undefined;
        this.log(`REFUSED user write ${file}: ${c.resolved} is outside the session's folders`);
        return vscode.l10n.t("{0} was left alone: it leads to {1}, which is outside the session's folders.", forMessage(file), forMessage(c.resolved));
      }
      case 'protected': {
        if (await ctx.gate.ask({ agentName: ctx.agentName, action: 'write', path: c.resolved, reason: 'protected', glob: c.glob, roots: ctx.roots })) return undefined;
        this.log(`REFUSED user write ${file}: protected by ${c.glob}, not allowed`);
        return vscode.l10n.t('{0} was left alone: it is a protected path ({1}) and writing it was not allowed.', forMessage(file), forMessage(c.glob));
      }
    }
  }
}
