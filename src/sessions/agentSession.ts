import * as vscode from 'vscode';
import * as path from 'node:path';
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
import type { McpSelection } from './mcpServers';
import type { SessionIndex } from './sessionIndex';
import type { TranscriptArchive } from './transcriptArchive';
import type { Attachment } from '../shared/attachments';
import type { ContentPart, PermissionOptionView } from '../shared/transcriptTypes';
import { buildPrompt } from './promptBuilder';
import type { FileService } from '../host/fileService';
import type { TerminalService } from '../host/terminals';
import { ChangeTracker } from '../host/changeTracker';
import type { DiffDocuments } from '../chat/diffDocuments';
import type { PanelAction, PanelStatus } from '../shared/webviewProtocol';
import { allowOption, autoApproves, OPTION_KINDS, permissionKey } from './permissionPolicy';
import { AccessGate } from '../host/accessGate';
import type { AccessContext } from '../host/fileService';

const CANCEL_GRACE_MS = 10_000;

/** Where sessions are remembered, and what else a session needs from the extension. */
export interface SessionStores {
  readonly index: SessionIndex;
  readonly archive: TranscriptArchive;
  /** The MCP servers to hand this agent (filtered by its capabilities; workspace ones only once trusted). */
  mcpServers(rt: AgentRuntime, cwd: string, agentName: string): Promise<McpSelection>;
  /** An empty folder in global storage: the root of a session when no folder is open. */
  scratchRoot(): string;
  /** Other workspace folders, sent as additionalDirectories where supported. */
  additionalDirectories(cwd: string): string[];
  /** Opens a new session of the same agent (from an archive-only panel). */
  newSession(def: AgentDefinition): void;
  /** A file's text: an open editor's (unsaved changes included), else the disk's. */
  readText(uri: string): Promise<string | undefined>;
  readonly files: FileService;
  readonly terminals: TerminalService;
  readonly diffs: DiffDocuments;
}

interface PendingPermission {
  readonly itemId: string;
  readonly options: readonly PermissionOptionView[];
  readonly key: string;
  /** Whether "allow always" may be remembered: not for a nameless execute/other/fetch call (one "always" on `ls` must not cover `curl … | sh`). */
  readonly rememberable: boolean;
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
  private mcpNoticeShown = false;
  private readonly myTerminals = new Set<string>();
  /** Questions about paths outside the folders or protected ones: one at a time, remembered for the session. */
  private readonly gate: AccessGate;
  /** Files the agent changed in this session. */
  readonly changes: ChangeTracker;
  /** Set for panels showing an archived transcript that cannot continue. */
  readOnly = false;
  /** The session this panel was opened for (before it is attached). */
  targetSessionId: string | undefined;

  constructor(
    readonly def: AgentDefinition,
    private readonly manager: AgentManager,
    private readonly auth: AuthService,
    private readonly config: Config,
    readonly cwd: string | undefined,
    private readonly store: SessionStores,
  ) {
    this.gate = new AccessGate((q) => store.files.askAccess(q), (m) => this.log(`access: ${m}`));
    this.changes = new ChangeTracker(
      (file, before, after, title) => store.diffs.open(file, before, after, title),
      (file, before, after) => store.diffs.uris(file, before, after),
      (file) => store.files.protectedGlob(file, this.effectiveRoots),
    );
    this.disposables.push(
      this.changes,
      this.changes.onDidChange(() => {
        this.transcript.header.changes = this.changes.list();
        this.emit([{ c: 'header' }]);
      }),
      store.terminals.onDidChange((d) => {
        if (this.myTerminals.has(d.terminalId)) this.emit(this.transcript.appendTerminal(d));
      }),
      // Terminals do not outlive the agent that made them (an exit, a crash, a restart).
      manager.onDidChangeStatus((id) => {
        if (id === def.id && this.runtime && ['stopped', 'failed'].includes(manager.status(id))) this.killTerminals();
      }),
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
    if ((n.update.sessionUpdate === 'tool_call' || n.update.sessionUpdate === 'tool_call_update') && this.myTerminals.size) this.nameTerminals(n.update.toolCallId);
    // A tool call's diff (in a live turn, not in replayed history) names a file the agent changes.
    if (this.turn) {
      const u = n.update as { content?: unknown; status?: unknown };
      if (Array.isArray(u.content)) {
        for (const c of u.content) {
          if (c?.type === 'diff' && typeof c.path === 'string' && path.isAbsolute(c.path) && typeof c.newText === 'string') {
            this.changes.noteDiff(c.path, typeof c.oldText === 'string' ? c.oldText : null, c.newText, this.effectiveRoots);
          }
        }
      }
      if (u.status === 'completed' || u.status === 'failed') this.changes.settle();
    }
    this.store.archive.append(this.def.id, n.sessionId, n.update);
    if (n.update.sessionUpdate === 'session_info_update') {
      const title = (n.update as { title?: string | null }).title;
      if (title !== undefined) this.store.index.setTitle(this.def.id, n.sessionId, title ?? undefined, true);
    }
  }

  /** The folders this session may touch: its cwd and the additional directories sent. */
  private roots: string[] = [];

  /** The roots, or the cwd before any were sent: the boundary for fs/terminal requests and for change tracking. */
  private get effectiveRoots(): readonly string[] {
    return this.roots.length ? this.roots : [this.workingFolder];
  }

  /** The session's folder: the one it was opened for, or (no folder open) an empty scratch folder — never the host's cwd. */
  get workingFolder(): string {
    return this.cwd ?? (this.scratch ??= this.store.scratchRoot());
  }
  private scratch: string | undefined;

  /**
   * A path the panel wants to open (a tool call's location, a file link): `..` and
   * symlinks resolved, inside the session's folders, or else only when the user says so.
   */
  async pathToOpen(p: string): Promise<string | undefined> {
    try {
      return await this.store.files.guard({ agentName: this.def.name, roots: this.effectiveRoots, gate: this.gate }, 'open', p);
    } catch (err) {
      this.log(`refused to open ${JSON.stringify(p.slice(0, 300))}: ${errorText(err)}`);
      return undefined;
    }
  }

  private killTerminals(): void {
    if (this.myTerminals.size === 0) return;
    this.store.terminals.killAll(this.terminalOwner);
    this.myTerminals.clear();
  }

  /** The VS Code terminals a tool call shows are named after it. */
  private nameTerminals(toolCallId: unknown): void {
    const tool = typeof toolCallId === 'string' ? this.transcript.tool(toolCallId) : undefined;
    if (!tool) return;
    for (const c of tool.content) if (c.type === 'terminal' && this.myTerminals.has(c.terminalId)) this.store.terminals.nameAfterToolCall(c.terminalId, tool.title);
  }

  private get terminalOwner(): string {
    return `${this.def.id}\u0000${this.sessionId ?? ''}`;
  }

  async handleRequest(method: string, params: unknown): Promise<unknown> {
    const roots = this.effectiveRoots;
    const access: AccessContext = { agentName: this.def.name, roots, gate: this.gate };
    const owner = this.terminalOwner;
    const t = this.store.terminals;
    switch (method) {
      case 'terminal/create': {
        const requested = (params as { cwd?: unknown } | null)?.cwd;
        const cwd = await this.store.files.guard(access, 'run a command in', requested ?? roots[0]);
        const r = await t.create(owner, this.def.name, cwd, params);
        this.myTerminals.add(r.terminalId);
        this.log(`terminal ${r.terminalId}: ${JSON.stringify((params as { command?: unknown }).command)} in ${cwd}`);
        return r;
      }
      case 'terminal/output':
        return t.output(owner, params);
      case 'terminal/wait_for_exit':
        return await t.waitForExit(owner, params);
      case 'terminal/kill':
        return t.kill(owner, params);
      case 'terminal/release':
        return t.release(owner, params);
      case 'fs/read_text_file':
        return await this.store.files.read(access, params);
      case 'fs/write_text_file':
        return await this.store.files.write(access, params, (file, before) => this.changes.record(file, before));
      default:
        throw new Error(`Unhandled method ${method}`);
    }
  }

  /** The session parameters every new/load/resume carries. */
  private async sessionParams(rt: AgentRuntime): Promise<{ cwd: string; mcpServers: acp.McpServer[]; additionalDirectories?: string[] }> {
    const cwd = this.workingFolder;
    const mcp = await this.store.mcpServers(rt, cwd, this.def.name);
    if (mcp.skipped.length > 0 && !this.mcpNoticeShown) {
      this.mcpNoticeShown = true;
      this.emit(this.transcript.addLocalNotice('info', `Some MCP servers were not handed to ${this.def.name}`, mcp.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n')));
    }
    if (mcp.servers.length) this.log(`MCP servers sent: ${mcp.servers.map((s) => s.name).join(', ')}`);
    const extra = rt.capabilities.supportsAdditionalDirectories && this.cwd !== undefined ? this.store.additionalDirectories(cwd) : [];
    this.roots = [cwd, ...extra];
    return { cwd, mcpServers: mcp.servers, ...(extra.length ? { additionalDirectories: extra } : {}) };
  }

  async requestPermission(params: unknown, token: CancelToken): Promise<acp.RequestPermissionResponse> {
    const p = isObj(params) ? params : {};
    const call = isObj(p.toolCall) ? p.toolCall : {};
    const options: PermissionOptionView[] = Array.isArray(p.options)
      ? p.options
          .filter(isObj)
          .filter((o) => typeof o.optionId === 'string')
          // An option without a known kind is shown, but never taken for an allow.
          .map((o) => ({ optionId: o.optionId as string, name: typeof o.name === 'string' ? o.name : String(o.optionId), kind: typeof o.kind === 'string' && OPTION_KINDS.has(o.kind) ? o.kind : 'unknown' }))
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
    const toolName = tool?.name ?? (typeof call.name === 'string' ? call.name : undefined);
    const key = permissionKey(this.def.id, this.sessionId ?? '', toolKind, toolName);
    const describe = `"${title}" (${toolKind}${toolName ? `, tool ${toolName}` : ''})`;
    // A call that touches a protected path (.vscode/, .git/, .env…) is always asked about.
    const touched = tool ? [...tool.locations.map((l) => l.path), ...tool.content.flatMap((c) => (c.type === 'diff' ? [c.path] : []))] : [];
    const protectedHit = touched.map((f) => (path.isAbsolute(f) ? this.store.files.protectedGlob(f, this.effectiveRoots) : undefined)).find((g) => g !== undefined);

    const remembered = protectedHit === undefined ? this.alwaysAllowed.get(key) : undefined;
    const rememberedOption = remembered ? options.find((o) => o.optionId === remembered) : undefined;
    const auto = rememberedOption ?? (protectedHit === undefined && autoApproves(this.config.autoApprove(), toolKind) ? allowOption(options) : undefined);
    const { item, changes } = this.transcript.addPermission({ toolCallId, title, options, content: tool?.content ?? [], rawInput: tool?.rawInput });
    this.emit(changes);
    if (auto) {
      this.emit(this.transcript.settlePermission(item.id, 'auto', auto.optionId));
      this.log(`permission ${describe}: answered "${auto.optionId}" automatically (${rememberedOption ? 'allowed always earlier in this session' : `acpAgents.permissions.autoApprove`})`);
      return { outcome: { outcome: 'selected', optionId: auto.optionId } };
    }
    this.log(`permission ${describe}: asking the user (options ${options.map((o) => o.optionId).join(', ')})${protectedHit ? `; it touches a protected path (${protectedHit})` : ''}`);
    return await new Promise<acp.RequestPermissionResponse>((resolve) => {
      const rememberable = typeof toolName === 'string' || !['execute', 'other', 'fetch'].includes(toolKind);
      const pending: PendingPermission = { itemId: item.id, options, key, rememberable, resolve, settled: false };
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
      if (option?.kind === 'allow_always' && pending.rememberable) this.alwaysAllowed.set(pending.key, optionId);
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
        const r = await rt.connection.newSession(await this.sessionParams(rt));
        return { rt, r };
      });
      this.attach(rt, r.sessionId);
      this.store.index.touch(this.def.id, r.sessionId, this.workingFolder);
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
        this.emitReset();
        this.attach(rt, sessionId);
        const r = await rt.connection.loadSession({ sessionId, ...(await this.sessionParams(rt)) });
        await rt.connection.drainSession(sessionId);
        this.applySessionState(r);
        this.store.index.touch(this.def.id, sessionId, this.workingFolder);
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

  /**
   * Opens a past session the best way the agent allows: `session/load` (the agent
   * replays it), else `session/resume` (no replay: the local archive is shown,
   * marked as such), else the archive alone, read-only.
   */
  async openPast(sessionId: string): Promise<boolean> {
    this.targetSessionId = sessionId;
    let rt: AgentRuntime | undefined;
    try {
      rt = await this.manager.ensureRunning(this.def, this.cwd);
    } catch (err) {
      await this.showArchive(sessionId, `${this.def.name} could not be started (${errorText(err)}). This is the local archive of the session.`);
      return false;
    }
    const caps = rt.capabilities;
    if (caps.canLoadSession) {
      const ok = await this.load(sessionId);
      if (!ok && this.current.text.startsWith('This session no longer exists')) await this.showArchive(sessionId, 'This session no longer exists on the agent. This is the local archive of it.', true);
      return ok;
    }
    if (caps.canResumeSession) {
      await this.showArchive(sessionId, `${this.def.name} does not replay past sessions: this is the local archive (read-only history). New prompts continue the session.`, false, false);
      this.setStatus({ text: `Resuming the session with ${this.def.name}…`, busy: true, inputEnabled: false, actions: [] });
      try {
        const r = await this.auth.withAuth(this.def, this.cwd, async (x) => {
          this.attach(x, sessionId);
          return await x.connection.resumeSession({ sessionId, ...(await this.sessionParams(x)) });
        });
        this.applySessionState(r);
        this.store.index.touch(this.def.id, sessionId, this.workingFolder);
        this.setStatus(this.connectedStatus(rt));
        return true;
      } catch (err) {
        this.detach();
        if (err instanceof AgentError && err.isNotFound) {
          this.readOnly = true;
          this.setStatus({ text: 'This session no longer exists on the agent. The archive above is read-only.', busy: false, inputEnabled: false, actions: ['newSession'], severity: 'error' });
          return false;
        }
        return await this.failStart(err, rt);
      }
    }
    await this.showArchive(sessionId, `${this.def.name} can neither load nor resume past sessions. This is the local archive of the session (read-only).`);
    return false;
  }

  /** Shows the archived transcript of a session; read-only unless the session goes on. */
  private async showArchive(sessionId: string, note: string, error = false, readOnly = true): Promise<void> {
    const lines = await this.store.archive.read(this.def.id, sessionId);
    this.transcript = new Transcript();
    this.emit(this.transcript.addLocalNotice(error ? 'warning' : 'info', 'Archived history', note));
    for (const line of lines) {
      const u = line.u as { sessionUpdate?: string; stopReason?: string };
      if (u?.sessionUpdate === '_turn_end') this.emit(this.transcript.endTurn(String(u.stopReason ?? 'end_turn')));
      else if (u?.sessionUpdate === '_archive_full') this.emit(this.transcript.addLocalNotice('warning', 'The archive of this session reached its size limit; later updates were not kept.'));
      else this.emit(this.transcript.apply(decodeSessionUpdate(u, [])));
    }
    if (lines.length === 0) this.emit(this.transcript.addLocalNotice('info', 'Nothing was archived for this session.'));
    this.emitReset();
    if (readOnly) {
      this.readOnly = true;
      this.setStatus({ text: 'Read-only: this is the local archive.', busy: false, inputEnabled: false, actions: ['newSession'] });
    }
  }

  private readonly resetEmitter = new vscode.EventEmitter<void>();
  /** The transcript was replaced as a whole (the panel sends a fresh snapshot). */
  readonly onDidResetTranscript = this.resetEmitter.event;
  private emitReset(): void {
    this.resetEmitter.fire();
  }

  /** Sends a prompt (shown at once); resolves with the stop reason when the turn ends. */
  async prompt(text: string, attachments: readonly Attachment[] = []): Promise<string | undefined> {
    const rt = this.runtime;
    const sessionId = this.sessionId;
    if (!rt || !sessionId || this.turn) return undefined;
    const caps = rt.capabilities;
    const built = await buildPrompt(text, attachments, { image: caps.promptImage, embeddedContext: caps.promptEmbeddedContext }, (uri) => this.store.readText(uri));
    const parts: ContentPart[] = attachments.map((a) =>
      a.kind === 'image' ? { type: 'image', mimeType: a.mimeType, data: a.data, name: a.name } : { type: 'resource_link', uri: a.uri, name: a.kind === 'selection' ? `${a.name}:${a.startLine}-${a.endLine}` : a.name },
    );
    this.emit(this.transcript.addUserPrompt(text, parts));
    if (built.dropped.length) this.emit(this.transcript.addLocalNotice('warning', `Not sent to ${this.def.name}`, built.dropped.join('\n')));
    this.store.archive.append(this.def.id, sessionId, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
    this.store.index.touch(this.def.id, sessionId, this.workingFolder);
    this.store.index.setTitle(this.def.id, sessionId, text, false);
    this.setStatus({ text: '', busy: true, inputEnabled: false, actions: ['stop'] });
    this.gate.newTurn();
    const turn = rt.connection.prompt({ sessionId, prompt: built.blocks });
    this.turn = turn;
    // Agents that write files themselves: notice changes on disk during the turn.
    this.changes.watch(this.effectiveRoots);
    try {
      const { stopReason } = await turn;
      this.settleAllPermissions();
      this.emit(this.transcript.endTurn(stopReason));
      this.store.archive.append(this.def.id, sessionId, { sessionUpdate: '_turn_end', stopReason });
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
      } else if (this.runtime === rt && err instanceof AgentError && err.isAuthRequired) {
        // The agent wants a sign-in before it answers: offer it; the prompt can be retried after.
        this.manager.setStatus(this.def.id, 'needs-sign-in');
        this.emit(this.transcript.addError(`${this.def.name} needs you to sign in before it answers (${errorText(err)}). Sign in, then retry.`, text));
        this.setStatus({ text: `${this.def.name} needs you to sign in.`, busy: false, inputEnabled: true, actions: ['signIn', 'showLog'], severity: 'info' });
        void this.signInAndReconnect(`${this.def.name} needs you to sign in to answer (${errorText(err)}).`, text);
      } else if (this.runtime === rt) {
        this.emit(this.transcript.addError(`The turn failed: ${errorText(err)}`, text));
        this.setStatus({ text: '', busy: false, inputEnabled: true, actions: [] });
      }
      return undefined;
    } finally {
      if (this.turn === turn) this.turn = undefined;
      this.changes.settle();
      // Late file events of the turn still count for a moment.
      setTimeout(() => {
        if (this.turn) return;
        this.changes.settle(true);
        this.changes.unwatch();
      }, 1000);
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
        this.setStatus(this.connectedStatus(before));
        return;
      }
      if (sessionId) this.emit(this.transcript.addLocalNotice('info', `Signed in. ${this.def.name} restarted to sign in, so this continues in a new session.`));
      if ((await this.start()) && retryPrompt !== undefined) this.emit(this.transcript.addError('Send again the prompt that needed the sign-in?', retryPrompt));
    })().finally(() => (this.signingIn = undefined));
    return this.signingIn;
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
        await this.signInAndReconnect();
        return;
      case 'stop':
        await this.cancel();
        return;
      case 'newSession':
        this.store.newSession(this.def);
        return;
    }
  }

  private disposed = false;

  dispose(): void {
    this.disposed = true;
    // Closing the panel closes the session on the agent, where supported (unless kept alive).
    const rt = this.runtime;
    const sid = this.sessionId;
    if (rt && sid && rt.capabilities.canCloseSession && !this.config.keepSessionsAlive() && !rt.connection.isClosed) {
      void rt.connection.closeSession(sid).then(undefined, () => undefined);
    }
    this.store.terminals.killAll(this.terminalOwner);
    void this.store.archive.flush();
    this.resetEmitter.dispose();
    this.settleAllPermissions();
    clearTimeout(this.cancelWatchdog);
    this.registration?.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.statusEmitter.dispose();
    this.changeEmitter.dispose();
  }
}

