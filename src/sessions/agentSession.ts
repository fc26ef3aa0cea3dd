/**
 * One ACP session of one agent, as a chat panel sees it: a facade over the
 * session's parts. It holds what every part shares (the SessionCore: runtime,
 * session id, transcript, phase, roots), the list of parts, attach/detach,
 * and the fan-out of what happens to them (updates, turns, withdrawn
 * questions, archive lines); plus sign-in and dispose. Each feature lives in
 * its own part (parts/*.ts, see sessionCore.ts). No `vscode` import: the
 * editor comes in through SessionServices.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { DecodedNotification } from '../acp/decode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentManager } from '../agents/agentManager';
import type { AgentRuntime } from '../agents/agentRuntime';
import type { AuthService } from '../agents/auth';
import type { CancelToken, SessionSink } from '../agents/sessionRouter';
import type { Attachment } from '../shared/attachments';
import { Emitter, type Disposable } from '../shared/events';
import type { PanelAction, PanelStatus } from '../shared/webviewProtocol';
import { connectedText, explainFailure, openSession, replayCutNotice, type OpenHost } from './openSession';
import { AgentRequests } from './parts/agentRequests';
import { AgentFaults } from './parts/agentFaults';
import { Elicitations } from './parts/elicitations';
import { FileCheckpoints } from './parts/fileCheckpoints';
import { McpStatus } from './parts/mcpStatus';
import { MessageQueue } from './parts/messageQueue';
import { PastSessions, rootRefused } from './parts/pastSessions';
import { RejectReasons } from './parts/rejectReasons';
import { Reconnect } from './parts/reconnect';
import { Rewind } from './parts/rewind';
import { Permissions, permissionHost } from './parts/permissions';
import { Pins } from './parts/pins';
import { SessionFolders } from './parts/sessionFolders';
import { SessionSettings } from './parts/sessionSettings';
import { Subagents } from './parts/subagents';
import { PromptTurns } from './promptTurn';
import type { SessionCore, SessionPart } from './sessionCore';
import type { SessionServices } from './ports';
import { SessionState } from './sessionState';
import { Transcript, type Change } from './transcript';

export class AgentSession implements Disposable, SessionSink {
  private runtime: AgentRuntime | undefined;
  private sessionId: string | undefined;
  private registration: Disposable | undefined;
  /** Update kinds already noted as not shown. */
  private readonly unknownKinds = new Set<string>();
  private readonly changeEmitter = new Emitter<readonly Change[]>();
  private readonly resetEmitter = new Emitter<void>();
  private readonly disposeEmitter = new Emitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  /** Transcript changes, in order; the panel batches them per frame. */
  readonly onDidChangeTranscript = this.changeEmitter.event;
  /** The transcript was replaced as a whole (the panel sends a fresh snapshot). */
  readonly onDidResetTranscript = this.resetEmitter.event;
  transcript = new Transcript();
  private readonly state: SessionState;
  readonly onDidChangeStatus: SessionState['onDidChange'];
  private readonly turns: PromptTurns;
  // The parts: each feature's state and behaviour (sessionCore.ts).
  readonly permissions: Permissions;
  readonly folders: SessionFolders;
  readonly requests: AgentRequests;
  readonly checkpoints: FileCheckpoints;
  readonly past: PastSessions;
  readonly subagents: Subagents;
  readonly queue: MessageQueue;
  readonly settings: SessionSettings;
  readonly elicitations: Elicitations;
  readonly pins: Pins;
  readonly rejectReasons: RejectReasons;
  readonly rewind: Rewind;
  private readonly reconnect: Reconnect;
  /** The MCP servers handed to the agent and what became of them (`session.mcp.statuses()`). */
  readonly mcp: McpStatus;
  /** In this order they hear of updates, turns and withdrawals, and are offered archive lines. */
  private readonly parts: readonly SessionPart[];
  /** The session this panel was opened for (before it is attached). */
  targetSessionId: string | undefined;
  private disposed = false;
  private readonly opener: OpenHost;
  /** Cancelled when the panel closes: a new/load/resume still in flight is withdrawn. */
  private readonly abandon = new CancellationTokenSource();
  private readonly subscriptions: Disposable[];

  constructor(
    readonly def: AgentDefinition,
    private readonly manager: AgentManager,
    private readonly auth: AuthService,
    readonly cwd: string | undefined,
    private readonly services: SessionServices,
  ) {
    this.state = new SessionState(def.name, (m) => this.log(m));
    this.onDidChangeStatus = this.state.onDidChange;
    const core: SessionCore = {
      def,
      services,
      runtime: () => this.runtime,
      sessionId: () => this.sessionId,
      transcript: () => this.transcript,
      emit: (c) => this.emit(c),
      phase: () => this.state.phase,
      setPhase: (p) => this.state.set(p),
      busy: () => this.turns.busy,
      roots: () => this.folders.roots(),
      workingFolder: () => this.folders.workingFolder,
      log: (m) => this.log(m),
    };
    this.mcp = new McpStatus(core);
    this.folders = new SessionFolders(core, cwd, (sel, rt, at) => this.mcp.offer(sel, rt, at), (req) => this.requests.handle({ ...req, sessionId: core.sessionId() ?? '' }));
    // A diff in a request: the file it names is snapshotted before the agent, once allowed, writes it.
    this.permissions = new Permissions(permissionHost(core, (u, child) => child === undefined && this.checkpoints.update(u)));
    this.turns = new PromptTurns({
      ...core,
      agentName: def.name,
      cancelPermissions: (all) => this.withdraw(all ? 'the turn was stopped' : 'the turn ended', !all),
      explain: (err, rt) => explainFailure(err, rt, def.name),
      detach: () => this.detach(),
      signInToAnswer: (reason, prompt) => {
        this.manager.setStatus(def.id, 'needs-sign-in');
        void this.signInAndReconnect(reason, prompt);
      },
    });
    this.checkpoints = new FileCheckpoints(core, () => this.requests.access);
    this.requests = new AgentRequests(core, manager, this.checkpoints.changes);
    this.queue = new MessageQueue(core, this.turns, this.checkpoints, (this.rejectReasons = new RejectReasons(core, (f) => this.checkpoints.agentLeft(f))));
    this.past = new PastSessions(core, {
      ensureRunning: () => manager.ensureRunning(def, cwd),
      rootAllowed: () => this.folders.rootAllowed(),
      open: (mode) => openSession(this.opener, mode),
      prompt: (text, attachments, extra) => this.queue.prompt(text, attachments, extra),
      relink: (sessionId) => this.checkpoints.relink(sessionId),
      newTranscript: () => (this.transcript = new Transcript()),
      shown: () => this.resetEmitter.fire(),
      claim: (line) => this.parts.some((p) => p.archivedLine?.(line) === true),
      inheritFolders: (sourceSessionId) => this.folders.inherit(sourceSessionId),
    });
    this.subagents = new Subagents(core, this);
    this.settings = new SessionSettings(core);
    this.elicitations = new Elicitations(core);
    this.reconnect = new Reconnect(core, { ensureRunning: () => manager.ensureRunning(def, cwd), reopen: (id) => this.openPast(id), startNew: () => this.start(), resumed: () => this.queue.resume() });
    this.parts = [this.reconnect, this.permissions, this.folders, this.requests, this.checkpoints, this.past, this.subagents, this.queue, this.settings, this.elicitations, (this.pins = new Pins(core, this)), this.mcp, this.rejectReasons, (this.rewind = new Rewind(core, this.checkpoints.restore, () => this.checkpoints.turnSettled())), new AgentFaults(core)];
    this.opener = this.makeOpener();
    this.subscriptions = [
      this.turns.onDidBegin(() => this.parts.forEach((p) => p.turnBegan?.())),
      this.turns.onDidEnd((e) => this.parts.forEach((p) => p.turnEnded?.(e.sessionId, e.stopReason))),
      manager.onDidExit((e) => {
        if (e.agentId !== def.id) return;
        const open = this.runtime !== undefined;
        if (open) this.withdraw('the agent exited', false);
        if (open) this.state.set({ kind: 'failed', text: e.message });
        // An agent by URL is connected again and the session goes on (parts/reconnect.ts), even when a turn saw the connection close first; a crash waits for Restart.
        this.reconnect.lost(e.runtime, e.message, e.willRestart);
        if (open) this.detach();
      }),
    ];
  }

  get status(): PanelStatus {
    return this.state.status;
  }

  get id(): string | undefined {
    return this.sessionId;
  }

  /** Whether this session is open on that process of its agent. */
  isOpenOn(runtime: AgentRuntime): boolean {
    return this.runtime === runtime;
  }

  get agentPid(): number | undefined {
    return this.runtime?.pid;
  }

  get isBusy(): boolean {
    return this.turns.busy;
  }

  /** Permission requests and questions waiting for the user's answer (subagents' too). */
  get waitingForUser(): number {
    return this.permissions.waiting + this.elicitations.waiting;
  }

  /** Whether updates now are live (not a load's replay of history). */
  get live(): boolean {
    return this.state.phase.kind !== 'loading';
  }

  /** The session's folder: the one it was opened for, or (no folder open) an empty scratch folder — never the host's cwd. */
  get workingFolder(): string {
    return this.folders.workingFolder;
  }

  private emit(changes: readonly Change[]): void {
    if (changes.length) this.changeEmitter.fire(changes);
  }

  private log(message: string): void {
    this.manager.agentLog(this.def).info(`[session ${this.sessionId ?? '-'}] ${message}`);
  }

  /** Questions to the user withdrawn: each part's own (permissions first). */
  private withdraw(reason: string, ownOnly: boolean): void {
    for (const p of this.parts) p.withdraw?.(reason, ownOnly);
  }

  private attach(rt: AgentRuntime, sessionId: string): void {
    // The panel closed while the agent was still opening the session: it is not kept.
    if (this.disposed) {
      if (rt.capabilities.canClose() && !rt.connection.isClosed) void rt.connection.closeSession(sessionId).then(undefined, () => undefined);
      return;
    }
    this.registration?.dispose();
    // Whatever was attached before is left first (its subagents are not this session's).
    for (const p of this.parts) p.detached?.();
    this.runtime = rt;
    this.sessionId = sessionId;
    this.registration = rt.sessions.register(sessionId, this);
    for (const p of this.parts) p.attached?.(rt, sessionId);
  }

  private detach(): void {
    this.registration?.dispose();
    this.registration = undefined;
    for (const p of this.parts) p.detached?.();
    this.runtime = undefined;
    this.sessionId = undefined;
  }

  /** For a panel restored after a reload: the agent did not survive it. */
  markStopped(text: string): void {
    this.state.set({ kind: 'idle', text });
  }

  // ---------------------------------------------------------------- what the agent sends
  onUpdate(n: DecodedNotification): void {
    const u = n.update;
    // A subagent's own traffic goes in its card; a child this transcript does not know is not shown anywhere.
    const child = n.sessionId !== this.sessionId ? n.sessionId : undefined;
    if (child && !this.transcript.hasChild(child)) {
      this.log(`subagent ${child}: an update for a child not announced here was dropped`);
      return;
    }
    // The agent echoing the prompt the panel already shows: neither shown nor archived again.
    if (!child && this.transcript.consumeEcho(u)) return;
    // What this client cannot show is not a box in the transcript: one line in the agent's log per kind (the trace has it whole).
    if (u.sessionUpdate === '_unsupported' && !this.unknownKinds.has(u.variant)) {
      this.unknownKinds.add(u.variant);
      this.log(`session/update "${u.variant}" is not shown: ${u.reason}`);
    }
    this.emit(this.transcript.apply(u, child));
    const live = this.live;
    for (const p of this.parts) p.update?.(u, child, live);
  }

  /** An agent → client method: served by the part whose table has it (agents/clientMethods.ts). */
  serves(method: string): ((value: unknown, token: CancelToken) => unknown) | undefined {
    return this.parts.find((p) => p.methods?.has(method))?.methods?.get(method);
  }

  // ---------------------------------------------------------------- opening
  private makeOpener(): OpenHost {
    return {
      agentName: this.def.name,
      abandon: this.abandon.token,
      setPhase: (p) => this.state.set(p),
      withAuth: (fn) => this.auth.withAuth(this.def, this.cwd, fn),
      sessionParams: (rt) => this.folders.params(rt),
      resetTranscript: () => {
        this.subagents.release();
        this.transcript = new Transcript();
        this.resetEmitter.fire();
      },
      attach: (rt, id) => this.attach(rt, id),
      detach: () => this.detach(),
      opened: (rt, r) => {
        this.services.index.touch(this.def.id, r.sessionId, this.workingFolder);
        this.transcript.header.accepts = { image: rt.capabilities.supportsPrompt('image'), embeddedContext: rt.capabilities.supportsPrompt('embeddedContext') };
        this.settings.opened(r);
        this.emit([{ c: 'header' }, ...(r.replayCut ? this.transcript.addLocalNotice(...replayCutNotice(this.def.name)) : [])]);
      },
      explain: (err, rt) => explainFailure(err, rt, this.def.name),
      needsSignIn: () => this.manager.status(this.def.id) === 'needs-sign-in',
    };
  }

  /** Starts the agent (shared with its other sessions) and creates a new session. */
  async start(): Promise<boolean> {
    if (!(await this.folders.rootAllowed())) {
      this.state.set({ kind: 'readOnly', text: rootRefused(this.def.name, this.workingFolder), error: true });
      return false;
    }
    return (await openSession(this.opener, { kind: 'new' })) === 'opened';
  }

  /** Opens a past session the best way the agent allows (past sessions: load, resume, or the archive). */
  async openPast(sessionId: string): Promise<boolean> {
    this.targetSessionId = sessionId;
    return await this.past.openPast(sessionId);
  }

  // ---------------------------------------------------------------- what the user does
  /** Sends a prompt (shown at once, or queued behind a running turn); resolves with the stop reason when its turn ends. */
  async prompt(text: string, attachments: readonly Attachment[] = [], extra: readonly acp.ContentBlock[] = []): Promise<string | undefined> {
    return await this.queue.prompt(text, attachments, extra);
  }

  /** Stop: `session/cancel`, pending permissions answered `cancelled`, unfinished tools marked cancelled. */
  async cancel(): Promise<void> {
    await this.turns.cancel();
  }

  /** Sign-in, then carry on: a session still on the same process goes on; one the agent's restart (to sign in) ended, or none, continues in a new one (the transcript stays). One at a time. */
  private signingIn: Promise<void> | undefined;
  private signInAndReconnect(reason?: string, retryPrompt?: string): Promise<void> {
    this.signingIn ??= (async () => {
      const before = this.runtime;
      const sessionId = this.sessionId;
      const signedIn = await this.auth.signIn(this.def, this.cwd, reason);
      if (!signedIn || this.disposed) return;
      if (sessionId && before && this.runtime === before && !before.connection.isClosed) {
        this.state.set({ kind: 'ready', text: connectedText(before, this.def.name) });
        return;
      }
      if (sessionId) this.emit(this.transcript.addLocalNotice('info', l10n.t('Signed in. {0} restarted to sign in, so this continues in a new session.', this.def.name)));
      if ((await this.start()) && retryPrompt !== undefined) this.emit(this.transcript.addError(l10n.t('Send again the prompt that needed the sign-in?'), retryPrompt));
    })().finally(() => (this.signingIn = undefined));
    return this.signingIn;
  }

  async runAction(action: PanelAction): Promise<void> {
    switch (action) {
      case 'reconnect':
      case 'restart':
        // Reconnect Now: the lost session of an agent by URL again (a wait cut short, or the attempts from the first).
        if ((action === 'reconnect' && this.reconnect.now()) || !(await this.folders.rootAllowed())) return;
        // Already restarted (automatically, or by another panel)? Then only the session is needed: a past one (its load cut by a crash) again, else a new one.
        if (this.manager.status(this.def.id) !== 'running' || this.turns.busy) await this.manager.restart(this.def.id, this.cwd).then(undefined, () => undefined);
        await (this.targetSessionId && !this.sessionId ? this.openPast(this.targetSessionId) : this.start());
        return;
      case 'retry':
        if (!(await this.folders.rootAllowed())) return;
        // The agent failed to open a past session (its archive is shown): ask it again, restarted if it is not running.
        if (this.manager.status(this.def.id) !== 'running') await this.manager.restart(this.def.id, this.cwd).then(undefined, () => undefined);
        if (this.targetSessionId && !this.sessionId) await this.openPast(this.targetSessionId);
        return;
      case 'showLog':
        this.manager.showLog(this.def.id);
        return;
      case 'signIn':
        await this.signInAndReconnect();
        return;
      case 'stop':
        await this.cancel();
        return;
      case 'newSession':
        this.services.newSession(this.def);
        return;
      case 'fork':
        if (this.sessionId) void this.services.forkSession(this.def, this.sessionId);
        return;
      case 'export':
      case 'trustSetting':
      case 'agentSettings':
        // The panel does these (an editor document, the settings); nothing for the session to do.
        return;
    }
  }

  dispose(): void {
    this.disposed = true;
    // A load or new session still in flight: withdrawn ($/cancel_request), the agent may stop replaying.
    try {
      this.abandon.cancel();
    } catch {
      // the connection closed meanwhile
    }
    this.abandon.dispose();
    // Closing the panel closes the session on the agent, where supported (unless kept alive).
    const rt = this.runtime;
    const sid = this.sessionId;
    if (rt && sid && rt.capabilities.canClose() && !this.services.settings.keepSessionsAlive() && !rt.connection.isClosed) {
      void rt.connection.closeSession(sid).then(undefined, () => undefined);
    }
    void this.services.archive.flush();
    this.resetEmitter.dispose();
    for (const p of this.parts) p.dispose();
    this.turns.dispose();
    this.registration?.dispose();
    while (this.subscriptions.length) this.subscriptions.pop()?.dispose();
    this.state.dispose();
    this.changeEmitter.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}
