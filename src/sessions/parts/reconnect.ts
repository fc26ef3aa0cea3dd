/**
 * An agent by URL whose connection went: the panel says so at once (the manager's
 * exit message, with the WebSocket close code), the agent is connected again (the
 * manager's restart of an agent in use), and the session goes on — reloaded from
 * the agent where it can load (`session/load` or `session/resume`: its replay is
 * the whole history, what it sent while the connection was down included), else in
 * a new session in the same panel. A connection that cannot be made is tried
 * again with growing waits (bounded; Restart at any time is "reconnect now").
 * The transcript says where the connection was
 * lost and what the reconnect recovered. A local agent's crash is not this part's:
 * there the user chooses Restart. No `vscode` import.
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
}

export class Reconnect implements SessionPart {
  private runtime: AgentRuntime | undefined;
  private sessionId: string | undefined;
  private disposed = false;
  /** Bumped by each loss and each attach: a reconnect still trying belongs to one loss. */
  private generation = 0;

  constructor(
    private readonly core: Pick<SessionCore, 'def' | 'transcript' | 'emit' | 'log' | 'setPhase'>,
    private readonly host: ReconnectHost,
  ) {}

  attached(runtime: AgentRuntime, sessionId: string): void {
    // Opened again (by this part, or the user's Restart): a reconnect still waiting stops.
    this.generation++;
    this.runtime = runtime;
    this.sessionId = sessionId;
  }

  detached(): void {
    this.runtime = undefined;
    this.sessionId = undefined;
  }

  /**
   * The agent's connection (or process) went with this session open on it; `message` was shown. True when
   * this part carries on (an agent by URL the manager is connecting again), false to leave it to the user.
   */
  lost(message: string, willRestart: boolean): boolean {
    const rt = this.runtime;
    const sessionId = this.sessionId;
    this.runtime = undefined;
    this.sessionId = undefined;
    if (!rt?.process.spec.remote || !willRestart || !sessionId) return false;
    const { core } = this;
    const at = new Date().toLocaleTimeString();
    const reloads = rt.capabilities.canLoad() || rt.capabilities.canResume();
    core.log(`connection lost (${message}); connecting again, then ${reloads ? `reopening ${sessionId}` : 'a new session'}`);
    const gen = ++this.generation;
    void (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.host.ensureRunning();
          break;
        } catch (err) {
          // Closed, or opened again by the user (Restart) meanwhile: this attempt is no longer wanted.
          if (this.disposed || gen !== this.generation) return;
          const delay = RETRY_DELAYS_MS[attempt - 1];
          core.log(`reconnecting: attempt ${attempt} failed: ${errorText(err)}`);
          if (delay === undefined) {
            core.setPhase({ kind: 'failed', text: l10n.t('The connection to {0} was lost, and connecting again failed {1} times: {2}', core.def.name, attempt, errorText(err)) });
            return;
          }
          core.setPhase({ kind: 'failed', text: l10n.t('The connection to {0} was lost; connecting again in {1} s (attempt {2} of {3}): {4}', core.def.name, Math.round(delay / 1000), attempt + 1, RETRY_DELAYS_MS.length + 1, errorText(err)) });
          await new Promise((r) => setTimeout(r, delay));
          if (this.disposed || gen !== this.generation) return;
        }
      }
      if (this.disposed || gen !== this.generation) return;
      try {
        const opened = reloads ? await this.host.reopen(sessionId) : await this.host.startNew();
        if (this.disposed || !opened) return;
        core.emit(
          core.transcript().addLocalNotice(
            'warning',
            l10n.t('The connection to {0} was lost at {1}', core.def.name, at),
            reloads
              ? l10n.t('Connected again, and the session was reloaded from the agent: its replay above is the whole history, with anything it sent while the connection was down.')
              : l10n.t('Connected again. {0} cannot reload sessions, so this continues in a new session: what it sent while the connection was down is lost, and it does not remember the conversation above.', core.def.name),
          ),
        );
      } catch (err) {
        if (this.disposed) return;
        core.log(`reopening after the reconnect failed: ${errorText(err)}`);
        core.setPhase({ kind: 'failed', text: l10n.t('The connection to {0} was lost, and reopening the session failed: {1}', core.def.name, errorText(err)) });
      }
    })();
    return true;
  }

  dispose(): void {
    this.disposed = true;
  }
}
