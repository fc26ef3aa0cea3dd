/**
 * Why the user rejected a permission request, or undid the agent's change to
 * a file (a whole file or one hunk); and how the user edited an agent's change
 * before keeping it (keptChange: a bounded diff from what the agent left).
 * The reject answer goes to the agent at
 * once (parts/permissions.ts), and an Undo is done at once; then the panel
 * (or, for an Undo, VS Code's input box: services.askUndoReason) offers a
 * one-line reason, which is kept here and goes to the agent with the user's
 * next prompt, as a text block of its own before the user's text, once. Kept
 * in memory only: when the session ends or is reloaded (detached) before a
 * next prompt, the reason is dropped — it was about that moment of the
 * conversation. No `vscode` import.
 */
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import { isInside } from '../../node/pathPolicy';
import { lineDiff, withContext } from '../../shared/lineDiff';
import { oneLine } from '../../shared/nativeText';
import type { ContentPart } from '../../shared/transcriptTypes';
import type { SessionCore, SessionPart } from '../sessionCore';

export const MAX_REASON_CHARS = 500;
const MAX_TITLE_CHARS = 120;
/** Reasons kept until the next prompt (the oldest goes first). */
const MAX_KEPT = 5;
/** The user's edit of a kept change, as sent: at most this many diff lines, each at most this long. */
const MAX_EDIT_LINES = 40;
const MAX_EDIT_LINE_CHARS = 300;

/** What goes with the next prompt: blocks for the agent, and the notes shown on the user's message. */
export interface ReasonNotes {
  readonly blocks: acp.ContentBlock[];
  readonly parts: ContentPart[];
}

export class RejectReasons implements SessionPart {
  /** Permission item id (or an undo's own key) → the text for the agent and the note shown on the message. */
  private readonly kept = new Map<string, { readonly block: string; readonly note: string }>();
  /** Undos so far (each keeps a reason of its own) and detaches so far (an answer asked before one is dropped). */
  private undos = 0;
  private epoch = 0;

  /** `agentLeft`: what the agent's last turn that touched a file left in it (null: deleted; undefined: unknown). */
  constructor(
    private readonly core: SessionCore,
    private readonly agentLeft: (file: string) => Buffer | null | undefined = () => undefined,
  ) {}

  /**
   * The user's reason for rejecting permission item `itemId` — kept only for a request the user answered
   * with a reject option — or for undoing the agent's change to a file (`{ undone: file }`).
   */
  give(about: string | { readonly undone: string }, reason: string): boolean {
    const text = oneLine(reason, MAX_REASON_CHARS);
    if (typeof about !== 'string') {
      if (text === '') return false;
      const file = this.shown(about.undone);
      this.keep(`undo ${++this.undos}`, `The user undid your change to ${file} and said why: ${text}`, l10n.t('Sent with this message: you undid the change to {0}: {1}', file, text));
      this.core.log(`the user gave a reason for undoing a change (${text.length} characters), sent with the next prompt`);
      return true;
    }
    const item = this.core.transcript().get(about);
    const chosen = item?.kind === 'permission' && item.state === 'answered' ? item.options.find((o) => o.optionId === item.chosen) : undefined;
    if (!item || item.kind !== 'permission' || (chosen?.kind !== 'reject_once' && chosen?.kind !== 'reject_always') || text === '') {
      this.core.log(`permission ${about}: ignored a reason (not a request the user rejected, or empty)`);
      return false;
    }
    // The title is the agent's text: one line, bounded, and no double quote to end the quotation early.
    const title = oneLine(item.title, MAX_TITLE_CHARS).replaceAll('"', "'");
    this.keep(about, `The user rejected "${title}" and said why: ${text}`, l10n.t('Sent with this message: you rejected "{0}": {1}', title, text));
    this.core.log(`permission ${about}: the user gave a reason for rejecting it (${text.length} characters), sent with the next prompt`);
    return true;
  }

  /**
   * The user undid the agent's change to `file` (done already): asks why (services.askUndoReason:
   * off, Escape or empty is no reason), never holding anything up; an answer that comes after the
   * session left its agent is dropped.
   */
  undone(file: string): void {
    const epoch = this.epoch;
    void this.core.services.askUndoReason?.(this.shown(file)).then(
      (reason) => void (reason && epoch === this.epoch && this.give({ undone: file }, reason)),
      (err: unknown) => this.core.log(`asking why a change was undone failed: ${String(err)}`),
    );
  }

  /**
   * The user kept the agent's change to `file` (the whole file, or one hunk of it). When the file no
   * longer holds what the agent's last turn left in it, the user edited the change before keeping it:
   * a diff from what the agent left to what the file holds now (unsaved text included) goes with the
   * next prompt, once — the latest for each file. Nothing while a turn runs (the agent may still be
   * writing it), for a file either side does not have as text, or when what the agent left is unknown.
   */
  keptChange(file: string): void {
    if (this.core.busy()) return;
    const key = `kept ${file}`;
    const left = this.agentLeft(file);
    const now = this.core.services.currentBytes(file);
    if (!left || !now || left.includes(0) || now.includes(0)) return;
    if (left.equals(now)) {
      // Kept as the agent left it (an earlier Keep's edit was taken back): nothing to say.
      this.kept.delete(key);
      return;
    }
    const name = this.shown(file);
    if (this.secret(file)) {
      // A protected file (.env…) or one outside the folders: the agent reads it only after a yes, so its text is not sent.
      this.keep(key, `The user kept your change to ${name} after editing it (the file is protected or outside the session folders: its text is not sent).`, l10n.t('Sent with this message: you edited the change to {0} before keeping it (its text not sent: the file is protected)', name));
      this.core.log('the user kept a change to a protected file after editing it; said without its text');
      return;
    }
    const diff = withContext(lineDiff(left.toString('utf8'), now.toString('utf8')), 1);
    const changed = diff.filter((l) => l.op !== ' ').length;
    const shown = diff.slice(0, MAX_EDIT_LINES).map((l) => `${l.op}${[...l.text].length > MAX_EDIT_LINE_CHARS ? `${[...l.text].slice(0, MAX_EDIT_LINE_CHARS - 1).join('')}…` : l.text}`);
    if (diff.length > MAX_EDIT_LINES) shown.push(`… (${diff.length - MAX_EDIT_LINES} more lines)`);
    const body = shown.join('\n');
    // A fence longer than any run of backticks in the file's text, so that the text cannot end it.
    const fence = '`'.repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    this.keep(
      key,
      `The user kept your change to ${name} after editing it. What the file holds now, as a diff from what you left in it (- yours, + theirs):\n${fence}diff\n${body}\n${fence}`,
      l10n.t('Sent with this message: your edit of the change to {0} before keeping it ({1} lines)', name, changed),
    );
    this.core.log(`the user kept a change to a file after editing it (${changed} lines differ from what the agent left); the diff goes with the next prompt`);
  }

  /** A file as the agent knows it: relative to the session folder holding it, one bounded line. */
  private shown(file: string): string {
    const inside = [...this.core.roots(), this.core.workingFolder()].map((r) => path.relative(r, file)).find((r) => r && r !== '..' && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r));
    return oneLine(inside ?? file, MAX_TITLE_CHARS);
  }

  /** Whether `file` is one the agent may read only after the user's yes: protected, or outside the session folders. */
  private secret(file: string): boolean {
    const roots = this.core.roots();
    return !roots.some((r) => isInside(file, r)) || this.core.services.files.protectedGlob(file, roots) !== undefined;
  }

  /**
   * Keeps one note for the next prompt under `key` (a new one replaces it). At most MAX_KEPT of each
   * kind: kept edits (a Keep All of many files) never push out reasons the user typed, nor the reverse.
   */
  private keep(key: string, block: string, note: string): void {
    this.kept.delete(key);
    const kind = (k: string) => k.startsWith('kept ');
    const same = [...this.kept.keys()].filter((k) => kind(k) === kind(key));
    if (same.length >= MAX_KEPT) this.kept.delete(same[0]!);
    this.kept.set(key, { block, note });
  }

  /** The reasons kept, as blocks to send before the user's text and notes to show on the message; cleared (sent once). */
  take(): ReasonNotes {
    const kept = [...this.kept.values()];
    this.kept.clear();
    return {
      blocks: kept.map((k) => ({ type: 'text', text: k.block })),
      parts: kept.map((k) => ({ type: 'note', text: k.note })),
    };
  }

  /** The session left its agent (it ended, or is being reloaded): reasons not yet sent, or still being asked, are dropped. */
  detached(): void {
    this.epoch++;
    this.kept.clear();
  }

  dispose(): void {
    this.detached();
  }
}
