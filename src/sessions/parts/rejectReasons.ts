/**
 * Why the user rejected a permission request. The reject answer goes to the
 * agent at once (parts/permissions.ts); then the panel offers a one-line
 * reason, which is kept here and goes to the agent with the user's next
 * prompt, as a text block of its own before the user's text, once. Kept in
 * memory only: when the session ends or is reloaded (detached) before a next
 * prompt, the reason is dropped — it was about that moment of the
 * conversation. No `vscode` import.
 */
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
  /** Permission item id → what was rejected (the agent's title, made one bounded line) and why. */
  private readonly kept = new Map<string, { readonly title: string; readonly reason: string }>();

  constructor(private readonly core: SessionCore) {}

  /** The user's reason for rejecting permission item `itemId`: kept only for a request the user answered with a reject option. */
  give(itemId: string, reason: string): boolean {
    const item = this.core.transcript().get(itemId);
    const chosen = item?.kind === 'permission' && item.state === 'answered' ? item.options.find((o) => o.optionId === item.chosen) : undefined;
    const text = oneLine(reason, MAX_REASON_CHARS);
    if (!item || item.kind !== 'permission' || (chosen?.kind !== 'reject_once' && chosen?.kind !== 'reject_always') || text === '') {
      this.core.log(`permission ${itemId}: ignored a reason (not a request the user rejected, or empty)`);
      return false;
    }
    this.kept.delete(itemId);
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    // The title is the agent's text: one line, bounded, and no double quote to end the quotation early.
    this.kept.set(itemId, { title: oneLine(item.title, MAX_TITLE_CHARS).replaceAll('"', "'"), reason: text });
    this.core.log(`permission ${itemId}: the user gave a reason for rejecting it (${text.length} characters), sent with the next prompt`);
    return true;
  }

  /** The reasons kept, as blocks to send before the user's text and notes to show on the message; cleared (sent once). */
  take(): ReasonNotes {
    const kept = [...this.kept.values()];
    this.kept.clear();
    return {
      blocks: kept.map((k) => ({ type: 'text', text: `The user rejected "${k.title}" and said why: ${k.reason}` })),
      parts: kept.map((k) => ({ type: 'note', text: l10n.t('Sent with this message: you rejected "{0}": {1}', k.title, k.reason) })),
    };
  }

  /** The session left its agent (it ended, or is being reloaded): reasons not yet sent are dropped. */
  detached(): void {
    this.kept.clear();
  }

  dispose(): void {
    this.kept.clear();
  }
}
