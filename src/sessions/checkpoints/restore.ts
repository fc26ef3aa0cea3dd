/**
 * "Restore files to here" on a user message: the panel first shows what would
 * change (and which files the user edited since the agent left them, with a
 * diff), then restores them all in one edit, and offers to undo that. The
 * checkpoints of the session are linked to its user messages, live and after a
 * reload. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import type { Checkpoints, RestoreEntry } from './checkpoints';
import type { Change, Transcript } from '../transcript';
import type { RestoreView } from '../../shared/transcriptTypes';

/** What a restore did: `ok` false when VS Code refused the edit; `refused`: files left alone (a link on the way, a question denied), with why. */
export interface RestoreOutcome {
  readonly ok: boolean;
  readonly refused: readonly { readonly path: string; readonly reason: string }[];
}

export interface RestoreHost {
  checkpoints(): Checkpoints;
  transcript(): Transcript;
  emit(changes: readonly Change[]): void;
  /** A turn runs: files are not restored under the agent's feet. */
  busy(): boolean;
  /** A file's bytes now (an editor's unsaved text included). */
  currentBytes(file: string): Buffer | null | undefined;
  /** Puts files in one undoable edit (null: remove the file); each is checked first, and refused ones are left alone. */
  restoreFiles(entries: readonly { path: string; bytes: Buffer | null }[], label: string): Promise<RestoreOutcome>;
  showDiff(file: string, left: string | null, right: string, title: string): Promise<void>;
  /** After a restore, the Changes list is checked again. */
  restored(): void;
  log(m: string): void;
}

const MAX_PROMPT_KEY = 200;
const norm = (s: string) => s.slice(0, MAX_PROMPT_KEY).trim();

export class CheckpointRestore {
  /** Checkpoint id → the user message it belongs to. */
  private readonly items = new Map<string, string>();
  /** What a restore replaced, for Undo. */
  private undo: { checkpoint: string; files: { path: string; bytes: Buffer | null }[] } | undefined;
  private plan: RestoreEntry[] = [];
  /** The message (its ordinal) an Edit or Retry rewinds to, while its card is shown. */
  private rewind: number | undefined;
  /** Hears how a previewed restore ended (a rewind waits for it). */
  settled: ((checkpoint: string, outcome: 'restored' | 'dismissed' | 'failed') => void) | undefined;

  constructor(private readonly host: RestoreHost) {}

  /** Forgets the links (a new transcript, another session). */
  reset(): void {
    this.items.clear();
    this.undo = undefined;
    this.plan = [];
    this.rewind = undefined;
  }

  /** Whether restoring to `checkpoint` would change (or name) any file: a rewind asks first only then. */
  needed(checkpoint: string): boolean {
    return (this.host.checkpoints().plan(checkpoint)?.length ?? 0) > 0;
  }

  /** The message just sent began this checkpoint. */
  /** The user message linked to a checkpoint. */
  messageOf(checkpoint: string): string | undefined {
    return this.items.get(checkpoint);
  }

  link(checkpoint: string, messageId: string): void {
    this.items.set(checkpoint, messageId);
    this.mark();
  }

  /** After history was shown (a load, the archive): checkpoints are found again by their prompts, in order. */
  linkHistory(): void {
    const users = this.host.transcript().items.filter((i) => i.kind === 'user' && i.parent === undefined) as { id: string; text: string }[];
    const taken = new Set(this.items.values());
    let from = 0;
    for (const cp of this.host.checkpoints().list()) {
      if (this.items.has(cp.id)) continue;
      for (let k = from; k < users.length; k++) {
        const u = users[k]!;
        if (taken.has(u.id) || norm(u.text) !== norm(cp.text)) continue;
        this.items.set(cp.id, u.id);
        from = k + 1;
        break;
      }
    }
    this.mark();
  }

  /** Messages whose checkpoint now has something to restore get their "Restore files to here". */
  mark(): void {
    const t = this.host.transcript();
    const cps = this.host.checkpoints();
    for (const [cp, id] of this.items) {
      const item = t.get(id);
      if (item?.kind !== 'user' || item.checkpoint === cp || !cps.restorable(cp)) continue;
      item.checkpoint = cp;
      this.host.emit(t.changed(item));
    }
  }

  private show(view: RestoreView | undefined): void {
    this.host.transcript().header.restore = view;
    this.host.emit([{ c: 'header' }]);
  }

  private view(checkpoint: string, state: RestoreView['state'], note?: string): RestoreView {
    return {
      checkpoint,
      messageId: this.items.get(checkpoint) ?? '',
      state,
      ...(this.rewind !== undefined ? { rewind: this.rewind } : {}),
      files: this.plan.map((e) => ({ path: e.path, name: path.basename(e.path), action: e.action, userEdited: e.userEdited !== undefined })),
      ...(note !== undefined ? { note } : {}),
    };
  }

  /** Restore files to here, first step: what would change. `rewind`: the message an Edit or Retry goes back to (the card says so). */
  preview(checkpoint: string, rewind?: number): void {
    const plan = this.host.checkpoints().plan(checkpoint);
    if (!plan) return;
    // Another message's confirmation that was still open is given up (a rewind waiting on it ends).
    const shown = this.host.transcript().header.restore;
    if (shown?.state === 'confirm' && shown.checkpoint !== checkpoint) this.settled?.(shown.checkpoint, 'dismissed');
    this.plan = plan;
    this.rewind = rewind;
    if (this.host.busy()) return this.show(this.view(checkpoint, 'failed', l10n.t('The agent is working: stop the turn first, then restore.')));
    if (plan.length === 0) return this.show(this.view(checkpoint, 'failed', l10n.t('Nothing to restore: the files are as they were before this message.')));
    const edited = plan.filter((e) => e.userEdited).length;
    const unknown = plan.filter((e) => e.action === 'unknown').length;
    const notes = [
      rewind !== undefined && edited
        ? edited === 1
          ? l10n.t('1 file was changed after the agent left it: it is left as it is, unless you choose to restore it too.')
          : l10n.t('{0} files were changed after the agent left them: they are left as they are, unless you choose to restore them too.', edited)
        : edited === 1
          ? l10n.t('1 file was changed after the agent left it: restoring discards those changes too.')
          : edited
            ? l10n.t('{0} files were changed after the agent left them: restoring discards those changes too.', edited)
            : '',
      unknown === 1 ? l10n.t('1 file cannot be restored (its content before the turn is not known).') : unknown ? l10n.t('{0} files cannot be restored (their content before the turn is not known).', unknown) : '',
    ].filter(Boolean);
    this.show(this.view(checkpoint, 'confirm', notes.join(' ') || undefined));
  }

  /**
   * Restore files to here: every file at once, in one edit — only once its preview was shown (the panel's Restore button).
   * `keepEdited`: the files the user changed since the agent left them are left as they are.
   */
  async restore(checkpoint: string, keepEdited = false): Promise<boolean> {
    const shown = this.host.transcript().header.restore;
    if (shown?.checkpoint !== checkpoint || shown.state !== 'confirm') {
      this.host.log(`restore: checkpoint ${checkpoint} was not previewed; nothing restored`);
      return false;
    }
    const plan = this.host.checkpoints().plan(checkpoint);
    if (!plan || this.host.busy()) {
      this.settled?.(checkpoint, 'failed');
      return false;
    }
    this.plan = plan;
    const todo = plan.filter((e): e is RestoreEntry & { target: Buffer | null } => e.target !== undefined && !(keepEdited && e.userEdited));
    const before = todo.map((e) => ({ path: e.path, bytes: this.host.currentBytes(e.path) }));
    this.show(this.view(checkpoint, 'restoring'));
    let outcome: RestoreOutcome = { ok: false, refused: [] };
    try {
      outcome = todo.length === 0 ? { ok: true, refused: [] } : await this.host.restoreFiles(
        todo.map((e) => ({ path: e.path, bytes: e.target })),
        l10n.t('Restore files to a checkpoint'),
      );
    } catch (err) {
      this.host.log(`restore: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!outcome.ok) {
      this.show(this.view(checkpoint, 'failed', l10n.t('The files could not be restored; nothing was changed.')));
      this.settled?.(checkpoint, 'failed');
      return false;
    }
    const left = new Set(outcome.refused.map((r) => r.path));
    for (const r of outcome.refused) this.host.log(`restore: ${r.path} left alone: ${r.reason}`);
    // Undo puts back what was there (files that could not be read, or were left alone, are not touched).
    this.undo = { checkpoint, files: before.filter((b): b is { path: string; bytes: Buffer | null } => b.bytes !== undefined && !left.has(b.path)) };
    const done = todo.length - left.size;
    this.host.log(`restore: ${done} file(s) restored to checkpoint ${checkpoint}`);
    this.host.restored();
    const note = done === 1 ? l10n.t('Restored 1 file.') : l10n.t('Restored {0} files.', done);
    const kept = keepEdited ? plan.filter((e) => e.userEdited).map((e) => path.basename(e.path)) : [];
    const keptNote = kept.length ? l10n.t('Left as you changed them: {0}.', kept.join(', ')) : '';
    this.show(this.view(checkpoint, 'done', [note, keptNote, ...outcome.refused.map((r) => r.reason)].filter(Boolean).join(' ')));
    this.settled?.(checkpoint, 'restored');
    return true;
  }

  /** Undoes the last restore, in one edit. */
  async undoRestore(): Promise<boolean> {
    const u = this.undo;
    if (!u) return false;
    this.undo = undefined;
    let outcome: RestoreOutcome = { ok: false, refused: [] };
    try {
      outcome = await this.host.restoreFiles(u.files, l10n.t('Undo restoring files'));
    } catch (err) {
      this.host.log(`restore: ${err instanceof Error ? err.message : String(err)}`);
    }
    const { ok, refused } = outcome;
    for (const r of refused) this.host.log(`restore: undo left ${r.path} alone: ${r.reason}`);
    this.host.restored();
    const note = ok ? l10n.t('The restore was undone.') : l10n.t('The restore could not be undone.');
    this.show(this.view(u.checkpoint, ok ? 'undone' : 'failed', [note, ...refused.map((r) => r.reason)].join(' ')));
    return ok;
  }

  dismiss(): void {
    const shown = this.host.transcript().header.restore;
    this.show(undefined);
    if (shown?.state === 'confirm') this.settled?.(shown.checkpoint, 'dismissed');
  }

  /** For a file the user edited since: what the agent left, next to what it holds now. */
  async diff(file: string): Promise<void> {
    const e = this.plan.find((x) => x.path === file);
    if (!e?.userEdited) return;
    const now = this.host.currentBytes(file);
    await this.host.showDiff(file, e.userEdited.agent?.toString('utf8') ?? null, now?.toString('utf8') ?? '', l10n.t('{0} (as the agent left it ↔ now)', path.basename(file)));
  }
}
