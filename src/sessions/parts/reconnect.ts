/**
 * An agent by URL whose connection went: the panel says so at once (the manager's
 * exit message, with the WebSocket close code), the agent is connected again (the
 * manager's restart of an agent in use), and the session goes on — reloaded from
 * the agent where it can load (`session/load` or `session/resume`: its replay is
 * the whole history, what it sent while the connection was down included), else in
 * a new session in the same panel. The transcript says where the connection was
 * lost and what the reconnect recovered. A local agent's crash is not this part's:
 * there the user chooses Restart. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { errorText } from '../../acp/errors';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { SessionCore, SessionPart } from '../sessionCore';

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

  constructor(
    private readonly core: Pick<SessionCore, 'def' | 'transcript' | 'emit' | 'log' | 'setPhase'>,
    private readonly host: ReconnectHost,
  ) {}

  attached(runtime: AgentRuntime, sessionId: string): void {
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
    void (async () => {
      try {
        await this.host.ensureRunning();
        if (this.disposed) return;
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
        core.log(`reconnecting failed: ${errorText(err)}`);
        core.setPhase({ kind: 'failed', text: l10n.t('The connection to {0} was lost, and connecting again failed: {1}', core.def.name, errorText(err)) });
      }
    })();
    return true;
  }

  dispose(): void {
    this.disposed = true;
  }
}
