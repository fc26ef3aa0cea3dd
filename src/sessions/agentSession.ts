/**
 * One ACP session of one agent, as a chat panel sees it. It composes the
 * session's parts — its state (sessionState.ts), opening it (openSession.ts),
 * prompt turns (promptTurn.ts), permissions (permissions.ts) — and serves what
 * the agent sends about it: one handler per update, one per client request.
 * No `vscode` import: the editor comes in through SessionServices.
 */
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { ClientRequest, PermissionRequest } from '../acp/clientRequests';
import { decodeModels, decodeModes, decodeSessionUpdate, type DecodedNotification } from '../acp/decode';
import { clientError, ConnectionClosedError, errorText } from '../acp/errors';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentManager } from '../agents/agentManager';
import { describeExit } from '../agents/agentProcess';
import type { AgentRuntime } from '../agents/agentRuntime';
import type { AuthService } from '../agents/auth';
import type { CancelToken, SessionSink } from '../agents/sessionRouter';
import type { Attachment } from '../shared/attachments';
import { Emitter, type Disposable } from '../shared/events';
import type { ContentPart } from '../shared/transcriptTypes';
import type { PanelAction, PanelStatus } from '../shared/webviewProtocol';
import { checkPath, isAbsolutePath } from '../platform/pathPolicy';
import { AccessGate, type AccessContext } from './accessGate';
import { Checkpoints } from './checkpoints';
import { connectedText, openSession, pastSessionMode, type OpenHost, type OpenMode, type SessionParams } from './openSession';
import { Elicitations } from './elicitations';
import { transcriptMarkdown } from './forkTranscript';
import { Permissions } from './permissions';
import { buildPrompt } from './promptBuilder';
import { PromptTurns } from './promptTurn';
import { CheckpointRestore } from './restore';
import type { ChangeTracking, SessionServices } from './services';
import { SessionState, type SessionPhase } from './sessionState';
import { Transcript, type Change } from './transcript';

/** A wait the agent can cancel: it then fails with -32800. */
async function untilCancelled<T>(work: Promise<T>, token: CancelToken | undefined): Promise<T> {
  if (!token) return await work;
  let sub: Disposable | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    const fail = () => reject(clientError.cancelled('The agent cancelled the wait.'));
    if (token.isCancellationRequested) fail();
    else sub = token.onCancellationRequested(fail);
  });
  try {
    return await Promise.race([work, cancelled]);
  } finally {
    sub?.dispose();
  }
}

/** A message typed while a turn ran, waiting for its own turn. */
interface Queued {
  readonly id: string;
  readonly text: string;
  readonly attachments: readonly Attachment[];
  readonly resolve: (stopReason: string | undefined) => void;
}

export class AgentSession implements Disposable, SessionSink {
  private runtime: AgentRuntime | undefined;
  private sessionId: string | undefined;
  private registration: Disposable | undefined;
  /** Subagents (child sessions) of this session: their traffic comes here too. */
  private readonly childRegistrations = new Map<string, Disposable>();
  /** Set while a load replays a session whose archive already has it. */
  private replayArchived = false;
  /** Update kinds already noted as not shown. */
  private readonly unknownKinds = new Set<string>();
  private readonly disposables: Disposable[] = [];
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
  private readonly permissions: Permissions;
  private readonly elicitations: Elicitations;
  private readonly turns: PromptTurns;
  private mcpNoticeShown = false;
  private readonly myTerminals = new Set<string>();
  /** Questions about paths outside the folders or protected ones: one at a time, remembered for the session. */
  private readonly gate: AccessGate;
  /** Files the agent changed in this session. */
  readonly changes: ChangeTracking;
  /** What each turn changed (for "Restore files to here"), kept next to the archive. */
  private checkpoints: Checkpoints;
  private checkpointsOf: string | undefined;
  readonly restore: CheckpointRestore;
  /** The session this panel was opened for (before it is attached). */
  targetSessionId: string | undefined;
  /** The folders this session may touch: its cwd and the additional directories sent. */
  private roots: string[] = [];
  private scratch: string | undefined;
  private disposed = false;
  private readonly opener: OpenHost;
  /** Messages typed during a turn: one is sent per turn when the previous one ends. */
  private readonly queue: Queued[] = [];
  private queueSeq = 0;
  /** Send now stopped the turn: the queue goes on when it ends (after a plain Stop it waits). */
  private sendNowPending = false;
  /** Cancelled when the panel closes: a new/load/resume still in flight is withdrawn. */
  private readonly abandon = new CancellationTokenSource();

  constructor(
    readonly def: AgentDefinition,
    private readonly manager: AgentManager,
    private readonly auth: AuthService,
    readonly cwd: string | undefined,
    private readonly services: SessionServices,
  ) {
    this.state = new SessionState(def.name, (m) => this.log(m));
    this.onDidChangeStatus = this.state.onDidChange;
    this.opener = this.makeOpener();
    this.gate = new AccessGate((q) => services.files.askAccess(q), (m) => this.log(`access: ${m}`));
    this.changes = services.changeTracker((file) => services.files.protectedGlob(file, this.effectiveRoots));
    this.checkpoints = this.makeCheckpoints(undefined);
    this.restore = new CheckpointRestore({
      checkpoints: () => this.checkpoints,
      transcript: () => this.transcript,
      emit: (c) => this.emit(c),
      busy: () => this.turns.busy,
      currentBytes: (f) => services.currentBytes(f),
      restoreFiles: (e, label) => services.restoreFiles(e, label),
      showDiff: (f, l, r, t) => services.showDiff(f, l, r, t),
      restored: () => this.changes.settle(),
      log: (m) => this.log(m),
    });
    this.permissions = new Permissions({
      agentId: def.id,
      sessionId: () => this.sessionId ?? '',
      transcript: () => this.transcript,
      emit: (c) => this.emit(c),
      autoApprove: () => services.settings.autoApprove(),
      protectedGlob: (f) => services.files.protectedGlob(f, this.effectiveRoots),
      roots: () => this.effectiveRoots,
      cwd: () => this.workingFolder,
      log: (m) => this.log(m),
    });
    this.elicitations = new Elicitations({ transcript: () => this.transcript, emit: (c) => this.emit(c), log: (m) => this.log(m) });
    this.turns = new PromptTurns({
      agentName: def.name,
      runtime: () => this.runtime,
      sessionId: () => this.sessionId,
      transcript: () => this.transcript,
      emit: (c) => this.emit(c),
      phase: () => this.state.phase,
      setPhase: (p) => this.setPhase(p),
      began: () => {
        this.gate.newTurn();
        // Agents that write files themselves: notice changes on disk during the turn.
        this.changes.watch(this.effectiveRoots);
      },
      ended: (sessionId, stopReason) => {
        if (stopReason !== undefined) services.archive.append(def.id, sessionId, { sessionUpdate: '_turn_end', stopReason });
        // The next queued message gets its turn — not after a failed turn, nor after a plain Stop.
        const goOn = stopReason !== undefined && (stopReason !== 'cancelled' || this.sendNowPending);
        this.sendNowPending = false;
        if (goOn) setTimeout(() => this.drainQueue(), 0);
        else if (this.queue.length) this.log(`queue: ${this.queue.length} message(s) wait (${stopReason === undefined ? 'the turn failed' : 'stopped'})`);
        this.changes.settle();
        // Late file events of the turn still count for a moment.
        setTimeout(() => {
          if (this.turns.busy) return;
          this.changes.settle(true);
          this.changes.unwatch();
          // The turn's checkpoint is complete: what its files hold now is kept with it.
          this.checkpoints.end();
          this.restore.mark();
        }, 1000);
      },
      cancelPermissions: (all) => {
        // The turn's end withdraws the session's own questions; subagents may still be working on theirs (Stop ends all).
        this.permissions.cancelAll(all ? 'the turn was stopped' : 'the turn ended', !all);
        this.elicitations.cancelAll(all ? 'the turn was stopped' : 'the turn ended', !all);
      },
      explain: (err, rt) => this.explain(err, rt),
      detach: () => this.detach(),
      signInToAnswer: (reason, prompt) => {
        this.manager.setStatus(def.id, 'needs-sign-in');
        void this.signInAndReconnect(reason, prompt);
      },
      log: (m) => this.log(m),
    });
    this.disposables.push(
      this.changes,
      this.changes.onDidChange(() => {
        this.transcript.header.changes = this.changes.list();
        this.emit([{ c: 'header' }]);
      }),
      services.terminals.onDidChange((d) => {
        if (this.myTerminals.has(d.terminalId)) this.emit(this.transcript.appendTerminal(d));
      }),
      // Terminals do not outlive the agent that made them (an exit, a crash, a restart).
      manager.onDidChangeStatus((id) => {
        if (id === def.id && this.runtime && ['stopped', 'failed'].includes(manager.status(id))) this.killTerminals();
      }),
      manager.onDidExit((e) => {
        if (e.agentId !== def.id || !this.runtime) return;
        this.detach();
        this.permissions.cancelAll('the agent exited');
        this.elicitations.cancelAll('the agent exited');
        this.setPhase({ kind: 'failed', text: e.message });
      }),
    );
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

  /** The session's folder: the one it was opened for, or (no folder open) an empty scratch folder — never the host's cwd. */
  get workingFolder(): string {
    return this.cwd ?? (this.scratch ??= this.services.scratchRoot());
  }

  /** The roots, or the cwd before any were sent: the boundary for fs/terminal requests and for change tracking. */
  private get effectiveRoots(): readonly string[] {
    return this.roots.length ? this.roots : [this.workingFolder];
  }

  private get terminalOwner(): string {
    return `${this.def.id}\u0000${this.sessionId ?? ''}`;
  }

  private setPhase(p: SessionPhase): void {
    this.state.set(p);
  }

  private emit(changes: readonly Change[]): void {
    if (changes.length) this.changeEmitter.fire(changes);
  }

  private log(message: string): void {
    this.manager.agentLog(this.def).info(`[session ${this.sessionId ?? '-'}] ${message}`);
  }

  /** Checkpoints of a session (none yet: kept nowhere until the session has an id). */
  private makeCheckpoints(sessionId: string | undefined): Checkpoints {
    const cp = new Checkpoints(
      () => (sessionId ? this.services.archive.checkpointsOf(this.def.id, sessionId) : undefined),
      (f) => this.services.currentBytes(f),
      (m) => this.log(m),
    );
    this.changes.observe(cp);
    return cp;
  }

  /** The checkpoints kept for a session id (read once; the same id keeps what it has). */
  private useCheckpoints(sessionId: string): Promise<void> {
    if (this.checkpointsOf === sessionId) return Promise.resolve();
    this.checkpointsOf = sessionId;
    this.checkpoints.end();
    this.checkpoints = this.makeCheckpoints(sessionId);
    this.restore.reset();
    return this.checkpoints.load();
  }

  /** After history was shown: its user messages get their checkpoints back. */
  private async relinkCheckpoints(sessionId: string): Promise<void> {
    await this.useCheckpoints(sessionId);
    this.restore.linkHistory();
  }

  private attach(rt: AgentRuntime, sessionId: string): void {
    // The panel closed while the agent was still opening the session: it is not kept.
    if (this.disposed) {
      if (rt.capabilities.canClose() && !rt.connection.isClosed) void rt.connection.closeSession(sessionId).then(undefined, () => undefined);
      return;
    }
    // A load replays history the archive already holds: it is shown, not archived twice.
    this.replayArchived = this.state.phase.kind === 'loading' && this.services.archive.has(this.def.id, sessionId);
    this.registration?.dispose();
    // Subagents of whatever was attached before are not this session's (a load announces its own again).
    this.releaseChildren();
    this.runtime = rt;
    this.sessionId = sessionId;
    this.registration = rt.sessions.register(sessionId, this);
    void this.useCheckpoints(sessionId);
  }

  private detach(): void {
    this.registration?.dispose();
    this.registration = undefined;
    this.releaseChildren();
    this.runtime = undefined;
    this.sessionId = undefined;
  }

  private releaseChildren(): void {
    for (const r of this.childRegistrations.values()) r.dispose();
    this.childRegistrations.clear();
  }

  /**
   * A subagent announced itself: what the agent sends with its session id (its
   * messages, tool calls, permission and fs/terminal requests) is this session's too.
   */
  private adoptChild(childId: string): void {
    const rt = this.runtime;
    if (!rt || childId === this.sessionId || this.childRegistrations.has(childId)) return;
    // An id already taken (another open session of this agent) is not handed over to this one.
    if (rt.sessions.has(childId)) {
      this.log(`subagent ${childId}: not adopted, that session id is already open here`);
      return;
    }
    this.childRegistrations.set(
      childId,
      rt.sessions.register(childId, {
        onUpdate: (n) => this.onUpdate(n),
        requestPermission: (r, t) => this.requestPermission(r, t),
        handleRequest: (r, t) => this.handleRequest(r, t),
        elicit: (p, t) => this.elicit(p, t),
      }),
    );
    this.log(`subagent ${childId} announced`);
  }

  /** Stop on a subagent's card: \`session/cancel\` for it — the only request ever sent to a child, and only when it advertised \`cancel\`. */
  async cancelSubagent(childId: string): Promise<boolean> {
    const rt = this.runtime;
    const card = this.transcript.child(childId);
    if (!rt || !card?.canCancel || !this.childRegistrations.has(childId)) {
      this.log(`subagent ${childId}: not stopped (${card ? 'it does not advertise cancel' : 'unknown'})`);
      return false;
    }
    await rt.connection.cancel(childId);
    this.log(`subagent ${childId}: session/cancel sent`);
    return true;
  }

  /** For a panel restored after a reload: the agent did not survive it. */
  markStopped(text: string): void {
    this.setPhase({ kind: 'idle', text });
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
    if ((u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && this.myTerminals.size) this.nameTerminals(u.toolCallId, child);
    // A tool call's diff (in a live turn, not in replayed history) names a file the agent changes.
    if (this.turns.busy && (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update')) {
      for (const c of u.content ?? []) {
        if (c.type === 'diff' && path.isAbsolute(c.path)) this.changes.noteDiff(c.path, c.oldText ?? null, c.newText, this.effectiveRoots);
      }
      if (u.status === 'completed' || u.status === 'failed') this.changes.settle();
    }
    // A subagent's updates are archived with the session's, marked with the child's id.
    const sid = this.sessionId ?? n.sessionId;
    if (!(this.replayArchived && this.state.phase.kind === 'loading')) this.services.archive.append(this.def.id, sid, child ? { sessionUpdate: '_child', sessionId: child, update: u } : u);
    if (!child && u.sessionUpdate === 'session_info_update' && u.title !== undefined) this.services.index.setTitle(this.def.id, n.sessionId, u.title ?? undefined, true);
    // After the announcement is archived: the child's held updates (replayed on adoption) come after it.
    if (u.sessionUpdate === 'subagent_update') this.adoptChild(u.sessionId);
  }

  async requestPermission(request: PermissionRequest, token: CancelToken): Promise<acp.RequestPermissionResponse> {
    const child = request.sessionId !== this.sessionId ? request.sessionId : undefined;
    // A child this transcript does not know: nothing to show it on, so nothing is approved.
    if (child && !this.transcript.hasChild(child)) return { outcome: { outcome: 'cancelled' } };
    return await this.permissions.request(request, token, child);
  }

  /** elicitation/create about this session (or one of its subagents): asked in the panel. */
  async elicit(params: unknown, token: CancelToken): Promise<unknown> {
    const sid = (params as { sessionId?: unknown } | null)?.sessionId;
    const child = typeof sid === 'string' && sid !== this.sessionId ? sid : undefined;
    if (child && !this.transcript.hasChild(child)) return { action: 'cancel' };
    return await this.elicitations.request(params, token, child);
  }

  /** The user's answer to an elicitation; false while a form value is not accepted (the reasons are shown). */
  async answerElicitation(itemId: string, action: 'accept' | 'decline' | 'cancel', values?: Readonly<Record<string, string | string[]>>): Promise<boolean> {
    return await this.elicitations.answer(itemId, action, values);
  }

  completeElicitation(elicitationId: string): boolean {
    return this.elicitations.complete(elicitationId);
  }

  /** The user's answer to a permission request; only the first answer counts. */
  answerPermission(itemId: string, optionId: string): boolean {
    return this.permissions.answer(itemId, optionId);
  }

  async handleRequest(req: ClientRequest, token?: CancelToken): Promise<unknown> {
    const access: AccessContext = { agentName: this.def.name, roots: this.effectiveRoots, gate: this.gate };
    const owner = this.terminalOwner;
    const { files, terminals } = this.services;
    switch (req.method) {
      case 'fs/read_text_file':
        return await files.read(access, req);
      case 'fs/write_text_file':
        return await files.write(access, req, (file, before) => this.changes.record(file, before));
      case 'terminal/create': {
        const cwd = await files.guard(access, 'run a command in', req.cwd ?? access.roots[0]);
        const r = await terminals.create(owner, this.def.name, cwd, req);
        this.myTerminals.add(r.terminalId);
        this.log(`terminal ${r.terminalId}: ${JSON.stringify(req.command)} in ${cwd}`);
        return r;
      }
      case 'terminal/output':
        return terminals.output(owner, req.terminalId);
      case 'terminal/wait_for_exit':
        // The agent may stop waiting ($/cancel_request): answered -32800, the command runs on.
        return await untilCancelled(terminals.waitForExit(owner, req.terminalId), token);
      case 'terminal/kill':
        return terminals.kill(owner, req.terminalId);
      case 'terminal/release':
        return terminals.release(owner, req.terminalId);
    }
  }

  /**
   * A path the panel wants to open (a tool call's location, a file link): `..` and
   * symlinks resolved, inside the session's folders, or else only when the user says so.
   */
  async pathToOpen(p: string): Promise<string | undefined> {
    try {
      return await this.services.files.guard({ agentName: this.def.name, roots: this.effectiveRoots, gate: this.gate }, 'open', p);
    } catch (err) {
      this.log(`refused to open ${JSON.stringify(p.slice(0, 300))}: ${errorText(err)}`);
      return undefined;
    }
  }

  /** A path inside the session's folders (symlinks resolved), or undefined — never asks (for Follow). */
  pathInside(p: string): string | undefined {
    if (!isAbsolutePath(p)) return undefined;
    const { resolved, inside } = checkPath(p, this.effectiveRoots);
    return inside ? resolved : undefined;
  }

  /** Whether updates now are live (not a load's replay of history). */
  get live(): boolean {
    return this.state.phase.kind !== 'loading';
  }

  private killTerminals(): void {
    if (this.myTerminals.size === 0) return;
    this.services.terminals.killAll(this.terminalOwner);
    this.myTerminals.clear();
  }

  /** The VS Code terminals a tool call shows are named after it. */
  private nameTerminals(toolCallId: string, child?: string): void {
    const tool = this.transcript.tool(toolCallId, child);
    if (!tool) return;
    for (const c of tool.content) if (c.type === 'terminal' && this.myTerminals.has(c.terminalId)) this.services.terminals.nameAfterToolCall(c.terminalId, tool.title);
  }

  // ---------------------------------------------------------------- opening
  /** The session parameters every new/load/resume carries. */
  private async sessionParams(rt: AgentRuntime): Promise<SessionParams> {
    const cwd = this.workingFolder;
    const mcp = await this.services.mcpServers(rt, cwd, this.def.name);
    if (mcp.skipped.length > 0 && !this.mcpNoticeShown) {
      this.mcpNoticeShown = true;
      this.emit(this.transcript.addLocalNotice('info', l10n.t('Some MCP servers were not handed to {0}', this.def.name), mcp.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n')));
    }
    if (mcp.servers.length) this.log(`MCP servers sent: ${mcp.servers.map((s) => s.name).join(', ')}`);
    const extra = rt.capabilities.supportsAdditionalDirectories() && this.cwd !== undefined ? this.services.additionalDirectories(cwd) : [];
    this.roots = [cwd, ...extra];
    // The user's instructions, re-sent on every new/load/resume (agents need not keep them).
    const instructions = rt.capabilities.supportsSystemPrompt() ? this.services.settings.instructions() : '';
    return {
      cwd,
      mcpServers: mcp.servers,
      ...(extra.length ? { additionalDirectories: extra } : {}),
      ...(instructions ? { systemPrompt: { mode: 'append' as const, content: [{ type: 'text' as const, text: instructions }] } } : {}),
    };
  }

  private makeOpener(): OpenHost {
    return {
      agentName: this.def.name,
      abandon: this.abandon.token,
      setPhase: (p) => this.setPhase(p),
      withAuth: (fn) => this.auth.withAuth(this.def, this.cwd, fn),
      sessionParams: (rt) => this.sessionParams(rt),
      resetTranscript: () => {
        this.releaseChildren();
        this.transcript = new Transcript();
        this.resetEmitter.fire();
      },
      attach: (rt, id) => this.attach(rt, id),
      detach: () => this.detach(),
      opened: (rt, r) => {
        this.services.index.touch(this.def.id, r.sessionId, this.workingFolder);
        this.transcript.header.accepts = { image: rt.capabilities.supportsPrompt('image'), embeddedContext: rt.capabilities.supportsPrompt('embeddedContext') };
        this.applySessionState(r);
        this.emit([{ c: 'header' }]);
      },
      explain: (err, rt) => this.explain(err, rt),
      needsSignIn: () => this.manager.status(this.def.id) === 'needs-sign-in',
    };
  }

  private async open(mode: OpenMode): Promise<boolean> {
    return (await openSession(this.opener, mode)) === 'opened';
  }

  /** Starts the agent (shared with its other sessions) and creates a new session. */
  async start(): Promise<boolean> {
    return await this.open({ kind: 'new' });
  }

  /** Opens a past session with `session/load` (the replay renders as history before the answer). */
  async load(sessionId: string): Promise<boolean> {
    const opened = await this.open({ kind: 'load', sessionId });
    if (opened) await this.relinkCheckpoints(sessionId);
    return opened;
  }

  /**
   * Opens a past session the best way the agent allows: `session/load` (the agent
   * replays it), else `session/resume` (no replay: the local archive is shown,
   * marked as such), else the archive alone, read-only.
   */
  async openPast(sessionId: string): Promise<boolean> {
    this.targetSessionId = sessionId;
    let rt: AgentRuntime;
    try {
      rt = await this.manager.ensureRunning(this.def, this.cwd);
    } catch (err) {
      await this.showArchive(sessionId, l10n.t('{0} could not be started ({1}). This is the local archive of the session.', this.def.name, errorText(err)));
      return false;
    }
    switch (pastSessionMode(rt.capabilities)) {
      case 'load': {
        const result = await openSession(this.opener, { kind: 'load', sessionId });
        if (result === 'not-found') await this.showArchive(sessionId, l10n.t('This session no longer exists on the agent. This is the local archive of it.'), true);
        else await this.relinkCheckpoints(sessionId);
        return result === 'opened';
      }
      case 'resume': {
        await this.showArchive(sessionId, l10n.t('{0} does not replay past sessions: this is the local archive (read-only history). New prompts continue the session.', this.def.name), false, false);
        const opened = await this.open({ kind: 'resume', sessionId });
        await this.relinkCheckpoints(sessionId);
        return opened;
      }
      case 'archive':
        await this.showArchive(sessionId, l10n.t('{0} can neither load nor resume past sessions. This is the local archive of the session (read-only).', this.def.name));
        return false;
    }
  }

  /** Shows the archived transcript of a session; read-only unless the session goes on. */
  private async showArchive(sessionId: string, note: string, error = false, readOnly = true): Promise<void> {
    this.transcript = new Transcript();
    this.emit(this.transcript.addLocalNotice(error ? 'warning' : 'info', l10n.t('Archived history'), note));
    // Read and applied a batch at a time: a long archive never sits in memory whole, nor blocks the host.
    let count = 0;
    for await (const batch of this.services.archive.lines(this.def.id, sessionId)) {
      this.replayLines(batch);
      count += batch.length;
    }
    if (count === 0) this.emit(this.transcript.addLocalNotice('info', l10n.t('Nothing was archived for this session.')));
    this.resetEmitter.fire();
    await this.relinkCheckpoints(sessionId);
    if (readOnly) this.setPhase({ kind: 'readOnly', text: l10n.t('Read-only: this is the local archive.') });
  }

  /** Archived updates into the transcript, in order. */
  private replayLines(lines: readonly { u: unknown }[]): void {
    for (const line of lines) {
      const u = line.u as { sessionUpdate?: string; stopReason?: string };
      if (u?.sessionUpdate === '_turn_end') this.emit(this.transcript.endTurn(String(u.stopReason ?? 'end_turn')));
      else if (u?.sessionUpdate === '_child') {
        const c = u as { sessionId?: unknown; update?: unknown };
        if (typeof c.sessionId === 'string') this.emit(this.transcript.apply(decodeSessionUpdate(c.update, []), c.sessionId));
      }
      else if (u?.sessionUpdate === '_archive_full') this.emit(this.transcript.addLocalNotice('warning', l10n.t('The archive of this session reached its size limit; later updates were not kept.')));
      else this.emit(this.transcript.apply(decodeSessionUpdate(u, [])));
    }
  }

  /**
   * Fork: a new session with the history of `source`. Agents that fork
   * (`session/fork`) keep the history themselves; the panel shows the archived
   * one, which is copied to the new session. Agents that cannot get a new session
   * whose first prompt carries the conversation so far, labelled as such.
   */
  async forkFrom(source: { sessionId: string; title: string }): Promise<boolean> {
    const lines = await this.services.archive.read(this.def.id, source.sessionId);
    this.transcript = new Transcript();
    this.replayLines(lines);
    const history = this.transcript.items.slice();
    let rt: AgentRuntime;
    try {
      rt = await this.manager.ensureRunning(this.def, this.cwd);
    } catch (err) {
      this.resetEmitter.fire();
      this.setPhase({ kind: 'failed', text: l10n.t('{0} could not be started ({1}).', this.def.name, errorText(err)) });
      return false;
    }
    const forkTitle = l10n.t('{0} (fork)', source.title);
    const native = rt.capabilities.canFork();
    // Without session/fork the transcript goes in the first prompt: embedded where the agent takes it, else as text.
    const embedded = rt.capabilities.supportsPrompt('embeddedContext');
    this.emit(
      this.transcript.addLocalNotice(
        'info',
        l10n.t('Forked from "{0}"', source.title),
        native
          ? l10n.t('{0} continues from here in a new session; the history above stays as it was.', this.def.name)
          : embedded
            ? l10n.t('{0} cannot fork sessions: a new session starts, and its first prompt carries the conversation above as an attachment.', this.def.name)
            : l10n.t('{0} cannot fork sessions: a new session starts, and its first prompt carries the conversation above as text.', this.def.name),
      ),
    );
    this.resetEmitter.fire();
    const ok = native ? await this.open({ kind: 'fork', fromSessionId: source.sessionId }) : await this.start();
    const sid = this.sessionId;
    if (!ok || !sid) return false;
    if (native) for (const line of lines) this.services.archive.append(this.def.id, sid, line.u);
    this.services.index.setTitle(this.def.id, sid, forkTitle, true);
    this.log(`forked from ${source.sessionId} (${native ? 'session/fork' : 'new session with the transcript'})`);
    if (native) return true;
    const markdown = transcriptMarkdown(history, source.title);
    const uri = `acp-transcript:/${encodeURIComponent(source.sessionId)}.md`;
    const block: acp.ContentBlock = embedded
      ? { type: 'resource', resource: { uri, mimeType: 'text/markdown', text: markdown } }
      : { type: 'text', text: `--- Transcript of the earlier conversation (forked) ---\n\n${markdown}` };
    await this.prompt(`This session is a fork of "${source.title}". The conversation so far is ${embedded ? 'attached' : 'below'}; continue from where it left off.`, [], [block]);
    return true;
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

  private applySessionState(r: { modes?: unknown; configOptions?: unknown; models?: unknown } | null | undefined): void {
    const models = decodeModels(r?.models, [], 'models');
    if (models) this.emit(this.transcript.setModels(models));
    const modes = decodeModes(r?.modes, [], 'modes');
    const config = Array.isArray(r?.configOptions) ? (decodeSessionUpdate({ sessionUpdate: 'config_option_update', configOptions: r.configOptions }, []) as { configOptions?: acp.SessionConfigOption[] }).configOptions : undefined;
    if (modes || config) this.emit(this.transcript.setModes(modes ? { currentModeId: modes.currentModeId, availableModes: modes.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description ?? null })) } : undefined, config));
  }

  // ---------------------------------------------------------------- what the user does
  /** Sends a prompt (shown at once); resolves with the stop reason when the turn ends. */
  async prompt(text: string, attachments: readonly Attachment[] = [], extra: readonly acp.ContentBlock[] = []): Promise<string | undefined> {
    const rt = this.runtime;
    const sessionId = this.sessionId;
    if (!rt || !sessionId || this.disposed) return undefined;
    // A turn is running (never a second session/prompt at once), or queued messages wait (after Stop
    // or a failed turn): the message goes behind them, and sending resumes the queue in order.
    if (this.turns.busy || this.queue.length) {
      const queued = this.enqueue(text, attachments);
      this.drainQueue();
      return await queued;
    }
    return await this.claimAndSend(rt, sessionId, text, attachments, extra);
  }

  /** The turn is claimed before the first await (building the prompt reads files): a send arriving meanwhile is queued. */
  private async claimAndSend(rt: AgentRuntime, sessionId: string, text: string, attachments: readonly Attachment[], extra: readonly acp.ContentBlock[] = []): Promise<string | undefined> {
    const claim = this.turns.claim();
    if (!claim) return await this.enqueue(text, attachments);
    try {
      return await this.startTurn(rt, sessionId, text, attachments, extra);
    } finally {
      // Only when the turn never started (building it failed); `send` took the claim over otherwise.
      this.turns.release(claim);
    }
  }

  private async startTurn(rt: AgentRuntime, sessionId: string, text: string, attachments: readonly Attachment[], extra: readonly acp.ContentBlock[]): Promise<string | undefined> {
    const caps = rt.capabilities;
    const built = await buildPrompt(text, attachments, { image: caps.supportsPrompt('image'), embeddedContext: caps.supportsPrompt('embeddedContext') }, (uri) => this.services.readText(uri));
    const parts: ContentPart[] = attachments.map((a) =>
      a.kind === 'image'
        ? { type: 'image', mimeType: a.mimeType, data: a.data, name: a.name }
        : a.kind === 'problems'
          ? { type: 'resource', uri: 'vscode-problems:/workspace', name: a.name }
          : { type: 'resource_link', uri: a.uri, name: a.kind === 'selection' ? `${a.name}:${a.startLine}-${a.endLine}` : a.name },
    );
    // Blocks the client adds itself (a fork's transcript): sent, and shown as one labelled attachment each.
    built.blocks.push(...extra);
    for (const b of extra) parts.push({ type: 'resource', uri: b.type === 'resource' ? b.resource.uri : 'acp-transcript:', name: b.type === 'resource' ? l10n.t('Conversation so far (attached)') : l10n.t('Conversation so far (sent as text)') });
    // A checkpoint: what the files the turn touches held before it (Restore files to here).
    const checkpoint = this.checkpoints.begin(text);
    const shown = this.transcript.addUserPrompt(text, parts);
    this.emit(shown);
    const userItem = shown.find((c) => c.c === 'add');
    if (userItem && 'item' in userItem) this.restore.link(checkpoint, userItem.item.id);
    if (built.dropped.length) this.emit(this.transcript.addLocalNotice('warning', l10n.t('Not sent to {0}', this.def.name), built.dropped.join('\n')));
    const { archive, index } = this.services;
    archive.append(this.def.id, sessionId, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
    index.touch(this.def.id, sessionId, this.workingFolder);
    index.setTitle(this.def.id, sessionId, text, false);
    return await this.turns.send(rt, sessionId, text, built.blocks);
  }

  /** Stop: `session/cancel`, pending permissions answered `cancelled`, unfinished tools marked cancelled. */
  async cancel(): Promise<void> {
    await this.turns.cancel();
  }

  /** Queued messages, in the order they will be sent. */
  get queued(): readonly { id: string; text: string }[] {
    return this.queue.map((q) => ({ id: q.id, text: q.text }));
  }

  private enqueue(text: string, attachments: readonly Attachment[]): Promise<string | undefined> {
    return new Promise((resolve) => {
      this.queue.push({ id: `queued-${++this.queueSeq}`, text, attachments, resolve });
      this.log(`queue: a message waits for the running turn (${this.queue.length} queued)`);
      this.publishQueue();
    });
  }

  /** A queued message's attachments, whole (the header carries images without their bytes). */
  queuedAttachments(id: string): readonly Attachment[] | undefined {
    return this.queue.find((q) => q.id === id)?.attachments;
  }

  private publishQueue(): void {
    // The header goes to the panel on every change: a pasted image's bytes are not in it (Edit gets them from queuedAttachments).
    this.transcript.header.queue = this.queue.map((q) => ({ id: q.id, text: q.text, attachments: q.attachments.map((a) => (a.kind === 'image' ? { ...a, data: '' } : a)) }));
    this.emit([{ c: 'header' }]);
  }

  /** The next queued message, when no turn runs and the session is ready for one. */
  private drainQueue(): void {
    const rt = this.runtime;
    const sessionId = this.sessionId;
    if (this.disposed || this.turns.busy || this.state.phase.kind !== 'ready' || !rt || !sessionId) return;
    const next = this.queue.shift();
    if (!next) return;
    this.publishQueue();
    void this.claimAndSend(rt, sessionId, next.text, next.attachments).then(next.resolve, () => next.resolve(undefined));
  }

  /** A queued message removed, taken back to edit (the panel puts its text in the composer), or sent now. */
  async queueAction(action: 'remove' | 'edit' | 'sendNow', id: string): Promise<boolean> {
    const i = this.queue.findIndex((q) => q.id === id);
    if (i < 0) return false;
    const [item] = this.queue.splice(i, 1);
    if (action !== 'sendNow') {
      item!.resolve(undefined);
      this.publishQueue();
      return true;
    }
    // Send now: first in line, and the running turn (if any) is stopped for it.
    this.queue.unshift(item!);
    this.publishQueue();
    if (this.turns.busy) {
      this.sendNowPending = true;
      await this.turns.cancel();
    } else this.drainQueue();
    return true;
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
      this.emit(this.transcript.addError(l10n.t('Changing "{0}" failed: {1}', configId, errorText(err))));
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
      this.emit(this.transcript.addError(l10n.t('Changing the mode failed: {0}', errorText(err))));
      this.emit([{ c: 'header' }]);
    }
  }

  /** The legacy model picker (no model config option): \`session/set_model\`. */
  async setModel(modelId: string): Promise<void> {
    const rt = this.runtime;
    if (!rt || !this.sessionId) return;
    try {
      await rt.connection.setModel(this.sessionId, modelId);
      const m = this.transcript.header.models;
      if (m) this.emit(this.transcript.setModels({ ...m, currentModelId: modelId }));
    } catch (err) {
      this.emit(this.transcript.addError(l10n.t('Changing the model failed: {0}', errorText(err))));
      this.emit([{ c: 'header' }]);
    }
  }

  /**
   * Sign-in, then carry on: a session still attached to the same agent process
   * goes on as it was; if the agent restarted to sign in (env or terminal
   * methods), its sessions went with it and a new one starts (the transcript
   * stays); without a session, a new one starts. One sign-in at a time.
   */
  private signingIn: Promise<void> | undefined;
  private signInAndReconnect(reason?: string, retryPrompt?: string): Promise<void> {
    this.signingIn ??= (async () => {
      const before = this.runtime;
      const sessionId = this.sessionId;
      const signedIn = await this.auth.signIn(this.def, this.cwd, reason);
      if (!signedIn || this.disposed) return;
      if (sessionId && before && this.runtime === before && !before.connection.isClosed) {
        this.setPhase({ kind: 'ready', text: connectedText(before, this.def.name) });
        return;
      }
      if (sessionId) this.emit(this.transcript.addLocalNotice('info', l10n.t('Signed in. {0} restarted to sign in, so this continues in a new session.', this.def.name)));
      if ((await this.start()) && retryPrompt !== undefined) this.emit(this.transcript.addError(l10n.t('Send again the prompt that needed the sign-in?'), retryPrompt));
    })().finally(() => (this.signingIn = undefined));
    return this.signingIn;
  }

  async runAction(action: PanelAction): Promise<void> {
    switch (action) {
      case 'restart':
        // Already restarted (automatically, or by another panel)? Then only a new session is needed.
        if (this.manager.status(this.def.id) !== 'running' || this.turns.busy) await this.manager.restart(this.def.id, this.cwd).then(undefined, () => undefined);
        await this.start();
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
        if (this.sessionId) this.services.forkSession(this.def, this.sessionId);
        return;
      case 'export':
        // The panel exports (an editor document); nothing for the session to do.
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
    this.services.terminals.killAll(this.terminalOwner);
    void this.services.archive.flush();
    this.checkpoints.end();
    this.resetEmitter.dispose();
    this.permissions.cancelAll('the panel closed');
    this.elicitations.cancelAll('the panel closed');
    for (const q of this.queue.splice(0)) q.resolve(undefined);
    this.turns.dispose();
    this.registration?.dispose();
    this.releaseChildren();
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.state.dispose();
    this.changeEmitter.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}
