/**
 * An agent by URL whose connection went: the panel says so at once (the manager's
 * exit message, with the WebSocket close code), the agent is connected again (the
 * manager's restart of an agent in use), and the session goes on — reloaded from
 * the agent where it can load (`session/load` or `session/resume`: its replay is
 * the whole history, what it sent while the connection was down included), else in
 * a new session in the same panel. A connection that cannot be made is tried
 * again with growing waits (bounded; "Reconnect Now" ends a wait, or starts the
 * attempts again once they ran out). Meanwhile the composer stays open: what the
 * user sends waits in the queue, and goes once the session is open again. The
 * transcript says where the connection was lost and what the reconnect
 * recovered. A local agent's crash is not this part's: there the user chooses
 * Restart. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { errorText } from '../../acp/errors';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { SessionCore, SessionPart } from '../sessionCore';

/** Waits between attempts to connect again (then the user's Restart): 1 + 2 + 4 + 8 + 16 s. */
const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];

export interface ReconnectHost {
  /** The agent running again (joins the manager's restart). */
  ensureRunning(): Promise<AgentRuntime>;
  /** Opens `sessionId` again the best way the agent allows. */
  reopen(sessionId: string): Promise<boolean>;
  /** A new session in this panel (the transcript stays). */
  startNew(): Promise<boolean>;
  /** The session is open again: what waits in the queue is sent. */
  resumed(): void;
}

/** A session whose connection went, until it is open again. */
interface Lost {
  readonly sessionId: string;
  readonly reloads: boolean;
  /** When, in the user's words (the transcript's marker). */
  readonly at: string;
}

export class Reconnect implements SessionPart {
  private runtime: AgentRuntime | undefined;
  private sessionId: string | undefined;
  private pending: Lost | undefined;
  private disposed = false;
  /** Bumped by each loss, each attach and each "Reconnect Now" after the attempts ran out: attempts belong to one. */
  private generation = 0;
  /** Ends the wait before the next attempt ("Reconnect Now"); set only while one waits. */
  private wake: (() => void) | undefined;

  constructor(
    private readonly core: Pick<SessionCore, 'def' | 'transcript' | 'emit' | 'log' | 'setPhase'>,
    private readonly host: ReconnectHost,
  ) {}

  attached(runtime: AgentRuntime, sessionId: string): void {
    // Opened again (by this part, or the user's Restart): a reconnect still waiting stops.
    this.generation++;
    this.pending = undefined;
    this.wake = undefined;
    this.runtime = runtime;
    this.sessionId = sessionId;
  }

  detached(): void {
    // Detached because its connection closed (a turn saw it before the manager did): the exit that follows is still this session's loss.
    if (this.runtime?.connection.isClosed) return;
    this.runtime = undefined;
    this.sessionId = undefined;
  }

  /** Whether a lost session is being connected again (or waits for "Reconnect Now"). */
  get reconnecting(): boolean {
    return this.pending !== undefined;
  }

  /**
   * `runtime`'s connection (or process) went; `message` was shown. True when this part carries on (an
   * agent by URL the manager is connecting again, this session open on it), false to leave it to the user.
   */
  lost(runtime: AgentRuntime, message: string, willRestart: boolean): boolean {
    const rt = this.runtime;
    const sessionId = this.sessionId;
    this.runtime = undefined;
    this.sessionId = undefined;
    if (rt !== runtime || !rt.process.spec.remote || !willRestart || !sessionId) return false;
    const reloads = rt.capabilities.canLoad() || rt.capabilities.canResume();
    this.core.log(`connection lost (${message}); connecting again, then ${reloads ? `reopening ${sessionId}` : 'a new session'}`);
    this.pending = { sessionId, reloads, at: new Date().toLocaleTimeString() };
    this.core.setPhase({ kind: 'reconnecting', text: l10n.t('{0} Messages you send now wait, and go once the session is open again.', message) });
    void this.run(++this.generation);
    return true;
  }

  /**
   * "Reconnect Now": the wait before the next attempt ends at once; after the attempts ran out, they start
   * again. False when no session of this panel was lost.
   */
  now(): boolean {
    if (!this.pending) return false;
    if (this.wake) {
      this.core.log('reconnecting: now, as asked');
      this.wake();
    } else if (this.runs === 0) void this.run(++this.generation);
    return true;
  }

  /** Attempts under way (one, or a stale one about to return). */
  private runs = 0;

  private async run(gen: number): Promise<void> {
    const { core } = this;
    const current = () => !this.disposed && gen === this.generation;
    this.runs++;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.host.ensureRunning();
          break;
        } catch (err) {
          // Closed, or opened again by the user (Restart) meanwhile: this attempt is no longer wanted.
          if (!current()) return;
          const delay = RETRY_DELAYS_MS[attempt - 1];
          core.log(`reconnecting: attempt ${attempt} failed: ${errorText(err)}`);
          if (delay === undefined) {
            core.setPhase({ kind: 'failed', text: l10n.t('The connection to {0} was lost, and connecting again failed {1} times: {2}', core.def.name, attempt, errorText(err)), reconnect: true });
            return;
          }
          core.setPhase({ kind: 'reconnecting', text: l10n.t('The connection to {0} was lost; connecting again in {1} s (attempt {2} of {3}): {4}', core.def.name, Math.round(delay / 1000), attempt + 1, RETRY_DELAYS_MS.length + 1, errorText(err)) });
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, delay);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.wake = undefined;
          if (!current()) return;
        }
      }
      const lost = this.pending;
      if (!current() || !lost) return;
      await this.reopen(lost);
    } finally {
      this.runs--;
    }
  }

  private async reopen(lost: Lost): Promise<void> {
    const { core } = this;
    this.pending = undefined;
    try {
      const opened = lost.reloads ? await this.host.reopen(lost.sessionId) : await this.host.startNew();
      if (this.disposed || !opened) return;
      core.emit(
        core.transcript().addLocalNotice(
          'warning',
          l10n.t('The connection to {0} was lost at {1}', core.def.name, lost.at),
          lost.reloads
            ? l10n.t('Connected again, and the session was reloaded from the agent: its replay above is the whole history, with anything it sent while the connection was down.')
            : l10n.t('Connected again. {0} cannot reload sessions, so this continues in a new session: what it sent while the connection was down is lost, and it does not remember the conversation above.', core.def.name),
        ),
      );
      this.host.resumed();
    } catch (err) {
      if (this.disposed) return;
      core.log(`reopening after the reconnect failed: ${errorText(err)}`);
      core.setPhase({ kind: 'failed', text: l10n.t('The connection to {0} was lost, and reopening the session failed: {1}', core.def.name, errorText(err)) });
    }
  }

  dispose(): void {
    this.disposed = true;
    this.wake?.();
  }
}
