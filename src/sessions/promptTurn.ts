/**
 * A prompt turn: sending it (shown at once, archived), its end (stop reason,
 * or how it failed), Stop (`session/cancel`, then a watchdog), and a sign-in
 * when the agent asks for one mid-turn (the prompt offered again after). One
 * turn at a time. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import { AgentError, ConnectionClosedError, errorText } from '../acp/errors';
import type { AgentRuntime } from '../agents/agentRuntime';
import { quirksFor } from '../agents/quirks';
import { Emitter } from '../shared/events';
import type { SessionCore } from './sessionCore';

/** How long Stop waits for the agent to end the turn before offering Restart. */
const CANCEL_GRACE_MS = 10_000;

/** What turns need of the session: part of its core, and the facade's answers to a turn's failures. */
export interface TurnHost extends Pick<SessionCore, 'runtime' | 'sessionId' | 'transcript' | 'emit' | 'phase' | 'setPhase' | 'log'> {
  readonly agentName: string;
  /** Pending permission requests answered `cancelled`: all of them (Stop), or only the session's own (the turn ended). */
  cancelPermissions(all: boolean): void;
  explain(err: unknown, rt: AgentRuntime): Promise<string>;
  detach(): void;
  /** The agent asked for a sign-in to answer `prompt`: offer it, and the prompt after. */
  signInToAnswer(reason: string, prompt: string): void;
}

/** The next turn, claimed before its prompt is built (see `PromptTurns.claim`). */
export interface TurnClaim {
  /** Stop came while the prompt was being built: the turn is stopped as soon as it is sent. */
  cancelled: boolean;
}

/** A turn's end, either way: `stopReason` is undefined when it failed. */
export interface TurnEnd {
  readonly sessionId: string;
  readonly stopReason: string | undefined;
}

export class PromptTurns {
  private readonly beginEmitter = new Emitter<void>();
  private readonly endEmitter = new Emitter<TurnEnd>();
  /** A turn began (its prompt was sent). */
  readonly onDidBegin = this.beginEmitter.event;
  /** A turn ended (either way): the archive marks it, the queue goes on, change tracking settles. */
  readonly onDidEnd = this.endEmitter.event;
  private current: Promise<unknown> | undefined;
  private claimed: TurnClaim | undefined;
  /** How the last turn ended (for 'late-answer-after-cancel'). */
  private lastStopReason: string | undefined;
  private watchdog: NodeJS.Timeout | undefined;

  constructor(
    private readonly host: TurnHost,
    private readonly graceMs = CANCEL_GRACE_MS,
  ) {}

  /** A turn runs, or one is claimed and its prompt is being built. */
  get busy(): boolean {
    return this.current !== undefined || this.claimed !== undefined;
  }

  /**
   * Claims the next turn synchronously, before the prompt is built (file reads):
   * until `send` takes it over or `release` gives it back, `busy` is true, so a
   * second prompt waits instead of overlapping. Undefined when one is busy.
   */
  claim(): TurnClaim | undefined {
    if (this.busy) return undefined;
    this.claimed = { cancelled: false };
    return this.claimed;
  }

  /** Gives back a claim that did not become a turn (building the prompt failed); nothing once `send` took it over. */
  release(claim: TurnClaim): void {
    if (this.claimed === claim) this.claimed = undefined;
  }

  /**
   * Sends `blocks` (the user's `text`, already shown) and waits for the turn to
   * end; resolves with the stop reason, or undefined when it failed.
   */
  async send(rt: AgentRuntime, sessionId: string, text: string, blocks: acp.ContentBlock[]): Promise<string | undefined> {
    const h = this.host;
    h.setPhase({ kind: 'working' });
    const turn = rt.connection.prompt({ sessionId, prompt: blocks });
    this.current = turn;
    const stopAtOnce = this.claimed?.cancelled === true;
    this.claimed = undefined;
    this.beginEmitter.fire();
    if (stopAtOnce) void this.cancel().then(undefined, (err: unknown) => h.log(`stop failed: ${errorText(err)}`));
    const afterCancel = this.lastStopReason === 'cancelled';
    this.lastStopReason = undefined;
    const itemsBefore = h.transcript().items.length;
    let stopReason: string | undefined;
    try {
      ({ stopReason } = await turn);
      this.lastStopReason = stopReason;
      h.cancelPermissions(false);
      if (afterCancel && stopReason === 'end_turn' && h.transcript().items.length === itemsBefore) this.lateAnswer(rt);
      h.emit(h.transcript().endTurn(stopReason));
      h.setPhase({ kind: 'ready', text: '' });
      return stopReason;
    } catch (err) {
      h.cancelPermissions(false);
      await this.failed(err, rt, text);
      return undefined;
    } finally {
      if (this.current === turn) this.current = undefined;
      clearTimeout(this.watchdog);
      this.watchdog = undefined;
      this.endEmitter.fire({ sessionId, stopReason });
    }
  }

  /** The turn after a Stop ended at once with nothing in it: for an agent known to answer one prompt late then, say so. */
  private lateAnswer(rt: AgentRuntime): void {
    const h = this.host;
    const q = quirksFor(rt.initializeResult?.agentInfo).find((x) => x.id === 'late-answer-after-cancel');
    if (!q) return;
    h.log(`compatibility: ${q.match.name} ${String(rt.initializeResult?.agentInfo?.version)}: ${q.does} (${q.issue})`);
    h.emit(
      h.transcript().addLocalNotice(
        'warning',
        l10n.t('{0} ended this turn at once, without an answer.', h.agentName),
        l10n.t('After a Stop, this agent answers one prompt late: your prompt was received, and its answer comes with your next prompt. This is a known issue of the agent ({0}).', q.issue),
      ),
    );
  }

  private async failed(err: unknown, rt: AgentRuntime, text: string): Promise<void> {
    const h = this.host;
    if (err instanceof ConnectionClosedError) {
      // The agent is gone: say how it ended, once (the exit handler may already have).
      const words = await h.explain(err, rt);
      const exitAlreadyShown = h.runtime() !== rt && (h.phase().kind === 'failed' || h.phase().kind === 'reconnecting');
      if (!exitAlreadyShown) {
        h.detach();
        h.setPhase({ kind: 'failed', text: words });
      }
    } else if (h.runtime() === rt && err instanceof AgentError && err.isAuthRequired) {
      // The agent wants a sign-in before it answers: offer it; the prompt can be retried after.
      h.emit(h.transcript().addError(l10n.t('{0} needs you to sign in before it answers ({1}). Sign in, then retry.', h.agentName, errorText(err)), text));
      h.setPhase({ kind: 'needsSignIn' });
      h.signInToAnswer(l10n.t('{0} needs you to sign in to answer ({1}).', h.agentName, errorText(err)), text);
    } else if (h.runtime() === rt) {
      h.emit(h.transcript().addError(l10n.t('The turn failed: {0}', errorText(err)), text));
      h.setPhase({ kind: 'ready', text: '' });
    }
  }

  /** Stop: `session/cancel`, pending permissions answered `cancelled`, unfinished tools marked cancelled. */
  async cancel(): Promise<void> {
    const h = this.host;
    const rt = h.runtime();
    const sessionId = h.sessionId();
    const turn = this.current;
    if (!turn && this.claimed) {
      h.log('stop requested while the prompt is being built: the turn is stopped once sent');
      this.claimed.cancelled = true;
      return;
    }
    if (!rt || !sessionId || !turn) return;
    h.log('stop requested: sending session/cancel');
    h.cancelPermissions(true);
    h.emit(h.transcript().cancelUnfinishedTools());
    h.setPhase({ kind: 'stopping' });
    await rt.connection.cancel(sessionId);
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (this.current === turn && h.runtime() === rt) h.setPhase({ kind: 'stuck', seconds: this.graceMs / 1000 });
    }, this.graceMs);
  }

  dispose(): void {
    clearTimeout(this.watchdog);
    this.beginEmitter.dispose();
    this.endEmitter.dispose();
  }
}
