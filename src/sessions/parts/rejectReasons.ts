/**
 * Why the user rejected a permission request, or undid the agent's change to
 * a file (a whole file or one hunk). The reject answer goes to the agent at
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
import { oneLine } from '../../shared/nativeText';
import type { ContentPart } from '../../shared/transcriptTypes';
import type { SessionCore, SessionPart } from '../sessionCore';

export const MAX_REASON_CHARS = 500;
const MAX_TITLE_CHARS = 120;
/** Reasons kept until the next prompt (the oldest goes first). */
const MAX_KEPT = 5;

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

  constructor(private readonly core: SessionCore) {}

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

  /** A file as the agent knows it: relative to the session folder holding it, one bounded line. */
  private shown(file: string): string {
    const inside = [...this.core.roots(), this.core.workingFolder()].map((r) => path.relative(r, file)).find((r) => r && r !== '..' && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r));
    return oneLine(inside ?? file, MAX_TITLE_CHARS);
  }

  private keep(key: string, block: string, note: string): void {
    this.kept.delete(key);
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
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
