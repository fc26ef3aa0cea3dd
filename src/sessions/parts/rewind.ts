/**
 * Edit and Retry an earlier user message (a "rewind"): the files go back to
 * that message's checkpoint — through the same confirmation as "Restore files
 * to here", where files the user changed since are left alone unless the user
 * says otherwise —, then the conversation goes on in a fork of the session
 * taken just before that message, in a new panel, with the new text. The
 * original session is left as it was. A fork that is not made puts the
 * restored files back. The fork's side (where the history is cut, the
 * marker in its transcript) is `PastSessions.forkFrom`. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type { Attachment } from '../../shared/attachments';
import type { MessageItem, TranscriptItem } from '../../shared/transcriptTypes';
import type { CheckpointRestore } from '../checkpoints/restore';
import type { RewindRequest } from '../ports';
import type { ArchivedLine, SessionCore, SessionPart } from '../sessionCore';

/** How the flow ended, for the panel that started it: `ok` false leaves the composer as it was, with `note`. */
export interface RewindOutcome {
  readonly ok: boolean;
  readonly note?: string;
}

/** The archive line of the marker in a fork's transcript ("Rewound from …"). */
export const REWOUND_LINE = '_rewound';
/** The start of the text block that tells an agent which forked the whole session that it was rewound. */
export const REWIND_NOTE_HEADER = '--- The conversation was rewound ---';

const QUOTE_MAX = 200;
const shorten = (s: string) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > QUOTE_MAX ? `${one.slice(0, QUOTE_MAX)}…` : one;
};

/** The ordinal (from 1) of user message `id` among the top-level user messages; undefined when it is none of them. */
export function userOrdinal(items: readonly TranscriptItem[], id: string): number | undefined {
  let n = 0;
  for (const i of items) {
    if (i.kind !== 'user' || i.parent !== undefined) continue;
    n++;
    if (i.id === id) return n;
  }
  return undefined;
}

/**
 * The archive's lines before the session's `n`th user message (counted as the
 * transcript counts them: a user chunk after anything but a user chunk, or with
 * another message id, begins a message). `anchor`: the message id of the
 * agent's last message before it (where an agent that forks at a message is
 * told to fork); `found` false when there are fewer than `n` user messages.
 */
export function linesBefore<T extends { readonly u: unknown }>(lines: readonly T[], n: number): { lines: T[]; anchor?: string; found: boolean } {
  let count = 0;
  let prevUser: { messageId: unknown } | undefined;
  let anchor: string | undefined;
  for (let k = 0; k < lines.length; k++) {
    const u = lines[k]!.u as ArchivedLine | null;
    const kind = u && typeof u === 'object' ? u.sessionUpdate : undefined;
    // A subagent's line, and the mark of a turn's beginning, add nothing to the session's own timeline.
    if (kind === '_child' || kind === '_turn_begin') continue;
    if (kind === 'user_message_chunk') {
      const messageId = u!.messageId;
      const starts = !prevUser || (messageId !== undefined && prevUser.messageId !== undefined && messageId !== prevUser.messageId);
      if (starts && ++count === n) return { lines: lines.slice(0, k), ...(anchor !== undefined ? { anchor } : {}), found: true };
      prevUser = { messageId: messageId ?? prevUser?.messageId };
      continue;
    }
    prevUser = undefined;
    if (kind === 'agent_message_chunk' && typeof u!.messageId === 'string') anchor = u!.messageId;
  }
  return { lines: lines.slice(), ...(anchor !== undefined ? { anchor } : {}), found: false };
}

/**
 * What Edit puts back in the composer beside the text: the files and images the
 * message carried. A selection or the Problems list kept only its name, not its
 * text: named in `leftOut`.
 */
export function attachmentsOf(item: MessageItem): { attachments: Attachment[]; leftOut: string[] } {
  const attachments: Attachment[] = [];
  const leftOut: string[] = [];
  for (const p of item.parts) {
    if (p.type === 'image' && p.data && p.mimeType && /^image\/(png|jpe?g|gif|webp)$/.test(p.mimeType)) attachments.push({ kind: 'image', name: p.name ?? 'image', mimeType: p.mimeType, data: p.data });
    else if (p.type === 'resource_link' && p.uri?.startsWith('file:') && !/:\d+-\d+$/.test(p.name ?? '')) attachments.push({ kind: 'file', uri: p.uri, name: p.name ?? p.uri });
    else if (p.type === 'resource_link' || (p.type === 'resource' && !p.uri?.startsWith('acp-transcript:'))) leftOut.push(p.name ?? p.uri ?? p.type);
  }
  return { attachments, leftOut };
}

/** What tells an agent that forked the whole session (it cannot fork at a message) where the conversation now goes on from. */
export function rewindNote(message: number, quote: string, restored = false): string {
  const files = restored
    ? 'the files it changed were restored to how they were before it (any the user changed since may have been kept as the user left them)'
    : 'the files were NOT restored: they are as the later messages left them';
  return `${REWIND_NOTE_HEADER}\n\nThe user rewound this conversation to just before their message ${message} ("${quote}"). Disregard that message and everything after it: it did not happen in this conversation; ${files}. The user's new message is the one above.`;
}

export class Rewind implements SessionPart {
  /** A rewind under way, from its start to the fork made or not (a second click waits its turn: refused). */
  private running = false;
  /** A rewind waiting for the user's answer on the restore card. */
  private waiting: { checkpoint: string; answer: (a: 'restored' | 'dismissed' | 'failed') => void } | undefined;

  constructor(
    private readonly core: SessionCore,
    private readonly restore: CheckpointRestore,
    /** Resolves once the last turn's file changes are final (FileCheckpoints.turnSettled): its checkpoint is complete then. */
    private readonly turnSettled: () => Promise<void> = () => Promise.resolve(),
  ) {
    restore.settled = (checkpoint, outcome) => {
      const w = this.waiting;
      if (!w || w.checkpoint !== checkpoint) return;
      this.waiting = undefined;
      w.answer(outcome);
    };
  }

  /** The marker of a fork made by a rewind, from its archive. */
  archivedLine(line: ArchivedLine): boolean {
    if (line.sessionUpdate !== REWOUND_LINE) return false;
    this.core.emit(this.core.transcript().addLocalNotice('info', String(line.title ?? ''), typeof line.detail === 'string' ? line.detail : undefined));
    return true;
  }

  /**
   * Edit (`text` and `attachments` from the composer) or Retry (the message's
   * own) of user message `messageId`: restore, fork, send. Resolves when the
   * flow ended: the fork made (and its prompt sent), or stopped, nothing changed.
   */
  async start(messageId: string, text: string, attachments: readonly Attachment[]): Promise<RewindOutcome> {
    const { core } = this;
    const t = core.transcript();
    const item = t.get(messageId);
    const sessionId = core.sessionId();
    const n = userOrdinal(t.items, messageId);
    const stop = (note: string): RewindOutcome => {
      core.log(`rewind: ${note}`);
      return { ok: false, note };
    };
    if (item?.kind !== 'user' || n === undefined) return stop(l10n.t('That message cannot be edited or retried: it is not one of your messages in this session.'));
    if (!sessionId) return stop(l10n.t('Not rewound: this panel has no session to fork.'));
    if (core.busy()) return stop(l10n.t('Not rewound: the agent is working. Stop the turn first, then edit or retry the message.'));
    if (this.waiting || this.running) return stop(l10n.t('Not rewound: another edit is waiting for your answer on the files to restore.'));
    this.running = true;
    try {
      return await this.run(item, n, sessionId, text, attachments, stop);
    } finally {
      this.running = false;
    }
  }

  private async run(item: MessageItem, n: number, sessionId: string, text: string, attachments: readonly Attachment[], stop: (note: string) => RewindOutcome): Promise<RewindOutcome> {
    const { core } = this;
    const t = core.transcript();
    if (text.trim() === '' && attachments.length === 0) return stop(l10n.t('Not rewound: the message is empty.'));
    // An Edit sent just after a turn: its files are in its checkpoint only once it settled (late events, the
    // folders listed again), and asking before that found nothing to restore and forked with the files unchanged.
    await this.turnSettled();
    if (core.busy()) return stop(l10n.t('Not rewound: the agent is working. Stop the turn first, then edit or retry the message.'));
    let restored = false;
    const checkpoint = item.checkpoint;
    if (checkpoint !== undefined && this.restore.needed(checkpoint)) {
      const answer = await new Promise<'restored' | 'dismissed' | 'failed'>((resolve) => {
        this.waiting = { checkpoint, answer: resolve };
        this.restore.preview(checkpoint, n);
      });
      if (answer === 'dismissed') return stop(l10n.t('Not rewound: you cancelled restoring the files. Nothing was changed.'));
      if (answer === 'failed') return stop(l10n.t('Not rewound: the files could not be restored. Nothing was changed.'));
      restored = true;
    }
    const request: RewindRequest = { message: n, quote: shorten(item.text), text, attachments, restored };
    let forked = false;
    try {
      forked = await core.services.forkSession(core.def, sessionId, request);
    } catch (err) {
      core.log(`rewind: the fork failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (forked) {
      core.log(`rewind: continued before message ${n} in a fork`);
      return { ok: true };
    }
    // The fork was not made: the files go back to what they held, and this session stays as it was.
    const undone = restored && (await this.restore.undoRestore());
    const note = !restored
      ? l10n.t('Not rewound: {0} did not make the fork (its panel says why). This session is unchanged.', core.def.name)
      : undone
        ? l10n.t('Not rewound: {0} did not make the fork (its panel says why). The restored files were put back as they were; this session is unchanged.', core.def.name)
        : l10n.t('Not rewound: {0} did not make the fork (its panel says why), and the restored files could not all be put back: see the card above.', core.def.name);
    core.emit(t.addLocalNotice('warning', l10n.t('Not rewound'), note));
    return stop(note);
  }

  dispose(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.answer('dismissed');
  }
}
