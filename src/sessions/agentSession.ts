import * as vscode from 'vscode';
import { AgentError, ConnectionClosedError, errorText } from '../acp/connection';
import { decodeModes, decodeSessionUpdate, isObj, type DecodedNotification } from '../acp/decode';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentManager } from '../agents/agentManager';
import { describeExit } from '../agents/agentProcess';
import type { AgentRuntime } from '../agents/agentRuntime';
import type { AuthService } from '../agents/auth';
import type { CancelToken, SessionSink } from '../agents/sessionRouter';
import { Transcript, type Change } from '../chat/transcript';
import type { Config } from '../config';
import type { PermissionOptionView } from '../shared/transcriptTypes';
import type { PanelAction, PanelStatus } from '../shared/webviewProtocol';
import { allowOption, autoApproves, permissionKey } from './permissionPolicy';

const CANCEL_GRACE_MS = 10_000;

interface PendingPermission {
  readonly itemId: string;
  readonly options: readonly PermissionOptionView[];
  readonly key: string;
  readonly resolve: (outcome: acp.RequestPermissionResponse) => void;
  settled: boolean;
}

/**
 * One ACP session of one agent, as a chat panel sees it: starting the agent,
 * `session/new` or `session/load`, the transcript, prompts, permission
 * requests, Stop, and what to tell the user when the agent fails.
 */
export class AgentSession implements vscode.Disposable, SessionSink {
  private runtime: AgentRuntime | undefined;
  private sessionId: string | undefined;
  private registration: { dispose(): void } | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly statusEmitter = new vscode.EventEmitter<PanelStatus>();
  private readonly changeEmitter = new vscode.EventEmitter<readonly Change[]>();
  readonly onDidChangeStatus = this.statusEmitter.event;
  /** Transcript changes, in order; the panel batches them per frame. */
  readonly onDidChangeTranscript = this.changeEmitter.event;
  transcript = new Transcript();
  private current: PanelStatus = { text: 'Not started.', busy: false, inputEnabled: false, actions: [] };
  private turn: Promise<unknown> | undefined;
  private readonly pendingPermissions = new Map<string, PendingPermission>();
  private readonly alwaysAllowed = new Map<string, string>();
  private cancelWatchdog: NodeJS.Timeout | undefined;

  constructor(
    readonly def: AgentDefinition,
    private readonly manager: AgentManager,
    private readonly auth: AuthService,
    private readonly config: Config,
    readonly cwd: string | undefined,
  ) {
    this.disposables.push(
      manager.onDidExit((e) => {
        if (e.agentId !== def.id || !this.runtime) return;
        this.detach();
        this.settleAllPermissions();
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

  private emit(changes: readonly Change[]): void {
    if (changes.length) this.changeEmitter.fire(changes);
  }

  private log(message: string): void {
    this.manager.agentLog(this.def).info(`[session ${this.sessionId ?? '-'}] ${message}`);
  }

  private attach(rt: AgentRuntime, sessionId: string): void {
    this.registration?.dispose();
    this.runtime = rt;
    this.sessionId = sessionId;
    this.registration = rt.sessions.register(sessionId, this);
  }

  private detach(): void {
    this.registration?.dispose();
    this.registration = undefined;
    this.runtime = undefined;
    this.sessionId = undefined;
  }

  /** For a panel restored after a reload: the agent did not survive it. */
  markStopped(text: string): void {
    this.setStatus({ text, busy: false, inputEnabled: false, actions: ['restart'] });
  }

  // ---------------------------------------------------------------- SessionSink
  onUpdate(n: DecodedNotification): void {
    this.emit(this.transcript.apply(n.update));
  }

  async requestPermission(params: unknown, token: CancelToken): Promise<acp.RequestPermissionResponse> {
    const p = isObj(params) ? params : {};
    const call = isObj(p.toolCall) ? p.toolCall : {};
    const options: PermissionOptionView[] = Array.isArray(p.options)
      ? p.options.filter(isObj).filter((o) => typeof o.optionId === 'string').map((o) => ({ optionId: o.optionId as string, name: typeof o.name === 'string' ? o.name : String(o.optionId), kind: typeof o.kind === 'string' ? o.kind : 'allow_once' }))
      : [];
    const toolCallId = typeof call.toolCallId === 'string' ? call.toolCallId : '';
    // The request may carry details of the call: merge them into the transcript.
    if (toolCallId) {
      const merged = decodeSessionUpdate({ ...call, sessionUpdate: 'tool_call_update', toolCallId }, []);
      this.emit(this.transcript.apply(merged));
    }
    const tool = toolCallId ? this.transcript.tool(toolCallId) : undefined;
    const toolKind = tool?.toolKind ?? 'other';
    const title = tool?.title ?? (typeof call.title === 'string' ? call.title : 'The agent asks for permission');
    const key = permissionKey(toolKind, title);
    const describe = `"${title}" (${toolKind})`;

    const remembered = this.alwaysAllowed.get(key);
    const rememberedOption = remembered ? options.find((o) => o.optionId === remembered) : undefined;
    const auto = rememberedOption ?? (autoApproves(this.config.autoApprove(), toolKind) ? allowOption(options) : undefined);
    const { item, changes } = this.transcript.addPermission({ toolCallId, title, options, content: tool?.content ?? [], rawInput: tool?.rawInput });
    this.emit(changes);
    if (auto) {
      this.emit(this.transcript.settlePermission(item.id, 'auto', auto.optionId));
      this.log(`permission ${describe}: answered "${auto.optionId}" automatically (${rememberedOption ? 'allowed always earlier in this session' : `acpAgents.permissions.autoApprove`})`);
      return { outcome: { outcome: 'selected', optionId: auto.optionId } };
    }
    this.log(`permission ${describe}: asking the user (options ${options.map((o) => o.optionId).join(', ')})`);
    return await new Promise<acp.RequestPermissionResponse>((resolve) => {
      const pending: PendingPermission = { itemId: item.id, options, key, resolve, settled: false };
      this.pendingPermissions.set(item.id, pending);
      const sub = token.onCancellationRequested(() => {
        this.settlePermission(item.id, undefined, 'the agent withdrew the request');
        sub.dispose();
      });
    });
  }

  /** The user's answer; only the first answer to a request counts. */
  answerPermission(itemId: string, optionId: string): boolean {
    const pending = this.pendingPermissions.get(itemId);
    if (!pending || pending.settled) {
      this.log(`permission ${itemId}: ignored a second answer "${optionId}"`);
      return false;
    }
    if (!pending.options.some((o) => o.optionId === optionId)) {
      this.log(`permission ${itemId}: ignored an answer that is not one of the options ("${optionId}")`);
      return false;
    }
    return this.settlePermission(itemId, optionId, 'the user chose');
  }

  private settlePermission(itemId: string, optionId: string | undefined, why: string): boolean {
    const pending = this.pendingPermissions.get(itemId);
    if (!pending || pending.settled) return false;
    pending.settled = true;
    this.pendingPermissions.delete(itemId);
    if (optionId !== undefined) {
      const option = pending.options.find((o) => o.optionId === optionId);
      if (option?.kind === 'allow_always') this.alwaysAllowed.set(pending.key, optionId);
      this.emit(this.transcript.settlePermission(itemId, 'answered', optionId));
      this.log(`permission ${itemId}: "${optionId}" (${why})`);
      pending.resolve({ outcome: { outcome: 'selected', optionId } });
    } else {
      this.emit(this.transcript.settlePermission(itemId, 'cancelled'));
      this.log(`permission ${itemId}: cancelled (${why})`);
      pending.resolve({ outcome: { outcome: 'cancelled' } });
    }
    return true;
  }

  private settleAllPermissions(): void {
    for (const id of [...this.pendingPermissions.keys()]) this.settlePermission(id, undefined, 'the turn was stopped');
  }

  // ---------------------------------------------------------------- lifecycle
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

  private connectedStatus(rt: AgentRuntime): PanelStatus {
    const info = rt.initializeResult?.agentInfo;
    return {
      text: `Connected to ${info?.title ?? info?.name ?? this.def.name}${info?.version ? ` ${info.version}` : ''}.`,
      busy: false,
      inputEnabled: true,
      actions: [],
    };
  }

  private async failStart(err: unknown, attempted: AgentRuntime | undefined): Promise<false> {
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

  private applySessionState(r: { modes?: unknown; configOptions?: unknown } | null | undefined): void {
    const modes = decodeModes(r?.modes, [], 'modes');
    const config = Array.isArray(r?.configOptions) ? (decodeSessionUpdate({ sessionUpdate: 'config_option_update', configOptions: r.configOptions }, []) as { configOptions?: acp.SessionConfigOption[] }).configOptions : undefined;
    if (modes || config) this.emit(this.transcript.setModes(modes ? { currentModeId: modes.currentModeId, availableModes: modes.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description ?? null })) } : undefined, config));
  }

  /** Starts the agent (shared with its other sessions) and creates the session. */
  async start(): Promise<boolean> {
    this.setStatus({ text: `Starting ${this.def.name}…`, busy: true, inputEnabled: false, actions: [] });
    let attempted: AgentRuntime | undefined;
    try {
      const { rt, r } = await this.auth.withAuth(this.def, this.cwd, async (rt) => {
        attempted = rt;
        const r = await rt.connection.newSession({ cwd: this.cwd ?? process.cwd(), mcpServers: [] });
        return { rt, r };
      });
      this.attach(rt, r.sessionId);
      this.applySessionState(r);
      this.setStatus(this.connectedStatus(rt));
      return true;
    } catch (err) {
      return await this.failStart(err, attempted);
    }
  }

  /**
   * Opens a past session with `session/load` (only when the agent advertises
   * it): the replayed updates render as history before the response arrives.
   */
  async load(sessionId: string): Promise<boolean> {
    this.setStatus({ text: `Loading the session from ${this.def.name}…`, busy: true, inputEnabled: false, actions: [], loading: true });
    let attempted: AgentRuntime | undefined;
    try {
      const { rt } = await this.auth.withAuth(this.def, this.cwd, async (rt) => {
        attempted = rt;
        if (!rt.capabilities.canLoadSession) throw new Error(`${this.def.name} cannot load past sessions (it does not advertise loadSession).`);
        // Fresh transcript: nothing of an earlier load may leak into this one.
        this.transcript = new Transcript();
        this.attach(rt, sessionId);
        const r = await rt.connection.loadSession({ sessionId, cwd: this.cwd ?? process.cwd(), mcpServers: [] });
        await rt.connection.drainSession(sessionId);
        this.applySessionState(r);
        return { rt };
      });
      this.setStatus(this.connectedStatus(rt));
      return true;
    } catch (err) {
      this.detach();
      if (err instanceof AgentError && err.isNotFound) {
        this.setStatus({ text: 'This session no longer exists on the agent.', busy: false, inputEnabled: false, actions: ['showLog'], severity: 'error' });
        return false;
      }
      return await this.failStart(err, attempted);
    }
  }

  /** Sends a prompt (shown at once); resolves with the stop reason when the turn ends. */
  async prompt(text: string): Promise<string | undefined> {
    const rt = this.runtime;
    const sessionId = this.sessionId;
    if (!rt || !sessionId || this.turn) return undefined;
    this.emit(this.transcript.addUserPrompt(text));
    this.setStatus({ text: '', busy: true, inputEnabled: false, actions: ['stop'] });
    const turn = rt.connection.prompt({ sessionId, prompt: [{ type: 'text', text }] });
    this.turn = turn;
    try {
      const { stopReason } = await turn;
      this.settleAllPermissions();
      this.emit(this.transcript.endTurn(stopReason));
      this.setStatus({ text: '', busy: false, inputEnabled: true, actions: [] });
      return stopReason;
    } catch (err) {
      this.settleAllPermissions();
      if (err instanceof ConnectionClosedError) {
        // The agent is gone: say how it ended, once (the exit handler may already have).
        const words = await this.explain(err, rt);
        const exitAlreadyShown = this.runtime !== rt && this.current.severity === 'error';
        if (!exitAlreadyShown) {
          this.detach();
          this.setStatus({ text: words, busy: false, inputEnabled: false, actions: ['restart', 'showLog'], severity: 'error' });
        }
      } else if (this.runtime === rt) {
        this.emit(this.transcript.addError(`The turn failed: ${errorText(err)}`, text));
        this.setStatus({ text: '', busy: false, inputEnabled: true, actions: [] });
      }
      return undefined;
    } finally {
      if (this.turn === turn) this.turn = undefined;
      clearTimeout(this.cancelWatchdog);
      this.cancelWatchdog = undefined;
    }
  }

  /** Stop: `session/cancel`, pending permissions answered `cancelled`, unfinished tools marked cancelled. */
  async cancel(): Promise<void> {
    const rt = this.runtime;
    const sessionId = this.sessionId;
    if (!rt || !sessionId || !this.turn) return;
    this.log('stop requested: sending session/cancel');
    this.settleAllPermissions();
    this.emit(this.transcript.cancelUnfinishedTools());
    this.setStatus({ text: 'Stopping…', busy: true, inputEnabled: false, actions: [] });
    await rt.connection.cancel(sessionId);
    clearTimeout(this.cancelWatchdog);
    const turn = this.turn;
    this.cancelWatchdog = setTimeout(() => {
      if (this.turn === turn && this.runtime === rt) {
        this.setStatus({
          text: `${this.def.name} has not stopped ${CANCEL_GRACE_MS / 1000} s after Stop. Restart it?`,
          busy: true,
          inputEnabled: false,
          actions: ['restart', 'showLog'],
          severity: 'error',
        });
      }
    }, CANCEL_GRACE_MS);
  }

  get isBusy(): boolean {
    return this.turn !== undefined;
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const rt = this.runtime;
    if (!rt || !this.sessionId) return;
    try {
      const r = await rt.connection.setConfigOption(
        typeof value === 'boolean' ? ({ sessionId: this.sessionId, configId, type: 'boolean', value } as acp.SetSessionConfigOptionRequest) : { sessionId: this.sessionId, configId, value },
      );
      this.applySessionState({ configOptions: (r as { configOptions?: unknown })?.configOptions });
    } catch (err) {
      this.emit(this.transcript.addError(`Changing "${configId}" failed: ${errorText(err)}`));
      // Show the value the agent still has.
      this.emit([{ c: 'header' }]);
    }
  }

  async setMode(modeId: string): Promise<void> {
    const rt = this.runtime;
    if (!rt || !this.sessionId) return;
    try {
      await rt.connection.setMode(this.sessionId, modeId);
      this.emit(this.transcript.apply({ sessionUpdate: 'current_mode_update', currentModeId: modeId }));
    } catch (err) {
      this.emit(this.transcript.addError(`Changing the mode failed: ${errorText(err)}`));
      this.emit([{ c: 'header' }]);
    }
  }

  async runAction(action: PanelAction): Promise<void> {
    switch (action) {
      case 'restart':
        // Already restarted (automatically, or by another panel)? Then only a new session is needed.
        if (this.manager.status(this.def.id) !== 'running' || this.turn) await this.manager.restart(this.def.id, this.cwd).then(undefined, () => undefined);
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
    this.settleAllPermissions();
    clearTimeout(this.cancelWatchdog);
    this.registration?.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.statusEmitter.dispose();
    this.changeEmitter.dispose();
  }
}

