import * as vscode from 'vscode';
import { ConnectionClosedError, errorText } from '../acp/connection';
import { describeExit } from '../agents/agentProcess';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentManager } from '../agents/agentManager';
import type { AgentRuntime } from '../agents/agentRuntime';
import type { AuthService } from '../agents/auth';
import type { PanelAction, PanelStatus } from '../shared/webviewProtocol';

/**
 * One ACP session of one agent, as a chat panel sees it: starting the agent,
 * `session/new`, prompts, Stop, and what to tell the user when the agent fails.
 */
export class AgentSession implements vscode.Disposable {
  private runtime: AgentRuntime | undefined;
  private sessionId: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly statusEmitter = new vscode.EventEmitter<PanelStatus>();
  readonly onDidChangeStatus = this.statusEmitter.event;
  private current: PanelStatus = { text: 'Not started.', busy: false, inputEnabled: false, actions: [] };
  private turn: Promise<unknown> | undefined;

  constructor(
    readonly def: AgentDefinition,
    private readonly manager: AgentManager,
    private readonly auth: AuthService,
    readonly cwd: string | undefined,
  ) {
    this.disposables.push(
      manager.onDidExit((e) => {
        if (e.agentId !== def.id || !this.runtime) return;
        this.runtime = undefined;
        this.sessionId = undefined;
        this.setStatus({ text: e.message, busy: false, inputEnabled: false, actions: ['restart', 'showLog'], severity: 'error' });
      }),
    );
  }

  get status(): PanelStatus {
    return this.current;
  }

  get id(): string | undefined {
    return this.sessionId;
  }

  get agentPid(): number | undefined {
    return this.runtime?.pid;
  }

  private setStatus(s: PanelStatus): void {
    this.current = s;
    this.statusEmitter.fire(s);
  }

  /** For a panel restored after a reload: the agent did not survive it. */
  markStopped(text: string): void {
    this.setStatus({ text, busy: false, inputEnabled: false, actions: ['restart'] });
  }

  /**
   * Words for a failed call. When the agent closed its output, it is exiting:
   * wait for that and tell how it ended (code, signal, last stderr lines).
   */
  private async explain(err: unknown, rt: AgentRuntime | undefined): Promise<string> {
    if (err instanceof ConnectionClosedError && rt) {
      const exit = rt.process.exit ?? (await Promise.race([rt.process.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000))]));
      if (exit) return describeExit(this.def.name, exit, rt.process.stderrTail());
    }
    return errorText(err);
  }

  /** Starts the agent (shared with its other sessions) and creates the session. */
  async start(): Promise<boolean> {
    this.setStatus({ text: `Starting ${this.def.name}…`, busy: true, inputEnabled: false, actions: [] });
    let attempted: AgentRuntime | undefined;
    try {
      const result = await this.auth.withAuth(this.def, this.cwd, async (rt) => {
        attempted = rt;
        const r = await rt.connection.newSession({ cwd: this.cwd ?? process.cwd(), mcpServers: [] });
        return { rt, r };
      });
      this.runtime = result.rt;
      this.sessionId = result.r.sessionId;
      const info = result.rt.initializeResult?.agentInfo;
      this.setStatus({
        text: `Connected to ${info?.title ?? info?.name ?? this.def.name}${info?.version ? ` ${info.version}` : ''}.`,
        busy: false,
        inputEnabled: true,
        actions: [],
      });
      return true;
    } catch (err) {
      const needsAuth = this.manager.status(this.def.id) === 'needs-sign-in';
      this.setStatus({
        text: await this.explain(err, attempted),
        busy: false,
        inputEnabled: false,
        actions: needsAuth ? ['signIn', 'showLog'] : ['restart', 'showLog'],
        severity: 'error',
      });
      return false;
    }
  }

  /** Sends a prompt; resolves with the stop reason when the turn ends. */
  async prompt(text: string): Promise<string | undefined> {
    const rt = this.runtime;
    const sessionId = this.sessionId;
    if (!rt || !sessionId) return undefined;
    this.setStatus({ text: `${this.def.name} is working…`, busy: true, inputEnabled: false, actions: ['stop'] });
    const turn = rt.connection.prompt({ sessionId, prompt: [{ type: 'text', text }] });
    this.turn = turn;
    try {
      const { stopReason } = await turn;
      this.setStatus({ text: stopReason === 'end_turn' ? '' : `The turn ended: ${stopReason}.`, busy: false, inputEnabled: true, actions: [] });
      return stopReason;
    } catch (err) {
      if (err instanceof ConnectionClosedError) {
        // The agent is gone: say how it ended, once (the exit handler may already have).
        const text = await this.explain(err, rt);
        const exitAlreadyShown = this.runtime !== rt && this.current.severity === 'error';
        if (!exitAlreadyShown) {
          this.runtime = undefined;
          this.sessionId = undefined;
          this.setStatus({ text, busy: false, inputEnabled: false, actions: ['restart', 'showLog'], severity: 'error' });
        }
      } else if (this.runtime === rt) {
        this.setStatus({ text: `The prompt failed: ${errorText(err)}`, busy: false, inputEnabled: true, actions: ['showLog'], severity: 'error' });
      }
      return undefined;
    } finally {
      if (this.turn === turn) this.turn = undefined;
    }
  }

  async cancel(): Promise<void> {
    if (this.runtime && this.sessionId && this.turn) await this.runtime.connection.cancel(this.sessionId);
  }

  get isBusy(): boolean {
    return this.turn !== undefined;
  }

  async runAction(action: PanelAction): Promise<void> {
    switch (action) {
      case 'restart':
        // Already restarted (automatically, or by another panel)? Then only a new session is needed.
        if (this.manager.status(this.def.id) !== 'running') await this.manager.restart(this.def.id, this.cwd).then(undefined, () => undefined);
        await this.start();
        return;
      case 'showLog':
        this.manager.showLog(this.def.id);
        return;
      case 'signIn':
        if (await this.auth.signIn(this.def, this.cwd)) await this.start();
        return;
      case 'stop':
        await this.cancel();
        return;
    }
  }

  dispose(): void {
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.statusEmitter.dispose();
  }
}
