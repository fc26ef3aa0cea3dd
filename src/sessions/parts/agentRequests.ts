/**
 * What the agent asks the client to do for a session: `fs/*` and `terminal/*`,
 * served by the editor's services and held to the session's folders (paths
 * outside them, or protected ones, are asked about through the AccessGate,
 * one question at a time and remembered for the session). Also the paths the
 * panel wants to open, and the session's terminals, which do not outlive the
 * agent that made them. The methods it serves, and the capabilities they earn,
 * are its table (AGENT_REQUEST_METHODS). No `vscode` import.
 */
import { ResponseError } from 'vscode-jsonrpc/node';
import { decodeClientRequest, type ClientRequest, type ClientRequestMethod } from '../../acp/clientRequests';
import { CreateTerminalRequest, KillTerminalRequest, ReadTextFileRequest, ReleaseTerminalRequest, TerminalOutputRequest, WaitForTerminalExitRequest, WriteTextFileRequest } from '../../acp/protocol';
import type { DecodedUpdate } from '../../acp/decode';
import { clientError, ErrorCodes, errorText } from '../../acp/errors';
import type { AgentManager } from '../../agents/agentManager';
import { bindMethods, type ClientCapabilities, type ClientMethod } from '../../agents/clientMethods';
import { SessionQuirks } from '../../agents/quirks';
import type { CancelToken } from '../../agents/sessionRouter';
import type { Disposable } from '../../shared/events';
import { checkPath, isAbsolutePath } from '../../node/pathPolicy';
import { AccessGate, type AccessContext } from '../policy/accessGate';
import type { SessionCore, SessionPart } from '../sessionCore';
import type { ChangeTracking } from '../ports';

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

/** A method of the table: decoded once (acp/clientRequests.ts), served by `handle`, refused for a session not open here. */
function method(name: ClientRequestMethod, fill: (caps: ClientCapabilities) => void): ClientMethod<AgentRequests, ClientRequest> {
  return {
    method: name,
    fill,
    decode: (params) => {
      const { value, dropped } = decodeClientRequest(name, params);
      return { value, sessionId: value.sessionId, dropped };
    },
    serve: (part, req, token) => part.handle(req, token),
    unrouted: (req) => {
      throw new ResponseError(ErrorCodes.ResourceNotFound, `No open session ${JSON.stringify(req.sessionId)} in this client.`);
    },
  };
}
// terminal/create|output|wait_for_exit|kill|release, mirrored into VS Code terminals.
const terminal = (caps: ClientCapabilities) => void (caps.terminal = true);

/** The agent → client methods this part serves, and what each earns in `initialize`. */
export const AGENT_REQUEST_METHODS: readonly ClientMethod<AgentRequests, ClientRequest>[] = [
  // fs/read_text_file (open editors' unsaved text) and fs/write_text_file (undoable edits).
  method(ReadTextFileRequest.method, (caps) => void (caps.fs = { ...caps.fs, readTextFile: true })),
  method(WriteTextFileRequest.method, (caps) => void (caps.fs = { ...caps.fs, writeTextFile: true })),
  method(CreateTerminalRequest.method, terminal),
  method(TerminalOutputRequest.method, terminal),
  method(WaitForTerminalExitRequest.method, terminal),
  method(KillTerminalRequest.method, terminal),
  method(ReleaseTerminalRequest.method, terminal),
];

export class AgentRequests implements SessionPart {
  readonly methods = bindMethods<AgentRequests>(this, AGENT_REQUEST_METHODS);
  /** Questions about paths outside the folders or protected ones: one at a time, remembered for the session. */
  private readonly gate: AccessGate;
  private readonly terminals = new Set<string>();
  private readonly subscriptions: Disposable[];
  /** Workarounds for the running agent's known bugs (see agents/quirks.ts). */
  private readonly quirks: SessionQuirks;

  /** `changes`: where the files the agent writes are recorded. */
  constructor(
    private readonly core: SessionCore,
    manager: Pick<AgentManager, 'onDidChangeStatus' | 'status'>,
    private readonly changes: Pick<ChangeTracking, 'record'>,
  ) {
    const { services, def } = core;
    this.gate = new AccessGate((q) => services.files.askAccess(q), (m) => core.log(`access: ${m}`));
    this.quirks = new SessionQuirks(() => core.runtime()?.initializeResult?.agentInfo, (m) => core.log(m));
    this.subscriptions = [
      services.terminals.onDidChange((d) => {
        if (this.terminals.has(d.terminalId)) core.emit(core.transcript().appendTerminal(d));
      }),
      // Terminals do not outlive the agent that made them (an exit, a crash, a restart).
      manager.onDidChangeStatus((id) => {
        if (id === def.id && core.runtime() && ['stopped', 'failed'].includes(manager.status(id))) this.killTerminals();
      }),
    ];
  }

  /** Who asks, the folders it may use, and the session's access gate (also for the user's writes: Revert, Restore). */
  get access(): AccessContext {
    return { agentName: this.core.def.name, roots: this.core.roots(), gate: this.gate };
  }

  private get owner(): string {
    return `${this.core.def.id}\u0000${this.core.sessionId() ?? ''}`;
  }

  /** A turn began: access questions are asked again. */
  turnBegan(): void {
    this.gate.newTurn();
  }

  /** The VS Code terminals a tool call shows are named after it. */
  update(u: DecodedUpdate, child: string | undefined): void {
    if ((u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') || !this.terminals.size) return;
    const tool = this.core.transcript().tool(u.toolCallId, child);
    if (!tool) return;
    for (const c of tool.content) if (c.type === 'terminal' && this.terminals.has(c.terminalId)) this.core.services.terminals.nameAfterToolCall(c.terminalId, tool.title);
  }

  async handle(raw: ClientRequest, token?: CancelToken): Promise<unknown> {
    const { access, owner } = this;
    const req = this.mapped(raw);
    const { files, terminals } = this.core.services;
    switch (req.method) {
      case 'fs/read_text_file':
        return await files.read(access, req, { missingAsEmpty: this.quirks.use('missing-file-read-as-empty') });
      case 'fs/write_text_file':
        return await files.write(access, req, (file, before) => this.changes.record(file, before));
      case 'terminal/create': {
        const cwd = await files.guard(access, 'run a command in', req.cwd ?? access.roots[0]);
        const r = await terminals.create(owner, this.core.def.name, cwd, req);
        this.terminals.add(r.terminalId);
        this.core.log(`terminal ${r.terminalId}: ${JSON.stringify(req.command)} in ${cwd}`);
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
   * An agent by URL with a pathMap names its own machine's paths: each is mapped to this machine first (then
   * held to the folders like any agent's), and one that maps nowhere is refused with the mappings it missed.
   */
  private mapped(req: ClientRequest): ClientRequest {
    const paths = this.core.runtime()?.paths;
    if (!paths) return req;
    const here = (p: string) => {
      const local = paths.toLocal(p);
      if (local === undefined) throw clientError.invalidParams(`${JSON.stringify(p.slice(0, 300))} is in no folder the pathMap of ${this.core.def.name} maps to this machine (${paths.describe()}).`);
      return local;
    };
    if (req.method === 'fs/read_text_file' || req.method === 'fs/write_text_file') return { ...req, path: here(req.path) };
    if (req.method === 'terminal/create' && req.cwd !== undefined && req.cwd !== null) return { ...req, cwd: here(req.cwd) };
    return req;
  }

  /** A path an agent by URL with a pathMap names, on this machine (as it is when it maps nowhere: the checks then refuse or ask). */
  private local(p: string): string {
    return this.core.runtime()?.paths?.toLocal(p) ?? p;
  }

  /**
   * A path the panel wants to open (a tool call's location, a file link): `..` and
   * symlinks resolved, inside the session's folders, or else only when the user says so.
   */
  async pathToOpen(p: string): Promise<string | undefined> {
    try {
      return await this.core.services.files.guard(this.access, 'open', this.local(p));
    } catch (err) {
      this.core.log(`refused to open ${JSON.stringify(p.slice(0, 300))}: ${errorText(err)}`);
      return undefined;
    }
  }

  /** A path inside the session's folders (symlinks resolved), or undefined — never asks (for Follow). */
  pathInside(p: string): string | undefined {
    if (!isAbsolutePath(p)) return undefined;
    const { resolved, inside } = checkPath(p, this.core.roots());
    return inside ? resolved : undefined;
  }

  /** A path the agent named (mapped where its pathMap says), inside the session's folders, or undefined. */
  agentPathInside(p: string): string | undefined {
    return this.pathInside(this.local(p));
  }

  private killTerminals(): void {
    if (this.terminals.size === 0) return;
    this.core.services.terminals.killAll(this.owner);
    this.terminals.clear();
  }

  /** The panel closed: the session's terminals go with it. */
  dispose(): void {
    this.core.services.terminals.killAll(this.owner);
    while (this.subscriptions.length) this.subscriptions.pop()?.dispose();
  }
}
