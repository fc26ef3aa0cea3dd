/**
 * The ACP connection: typed calls to the agent, tolerant decoding of what it
 * sends, ACP's `$/cancel_request` in both directions, and per-session ordering
 * of `session/update`. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import {
  CancellationToken,
  CancellationTokenSource,
  createMessageConnection,
  type CancellationStrategy,
  type Message,
  type MessageConnection,
  type RequestType,
  ResponseError,
} from 'vscode-jsonrpc/node';
import { baseClientCapabilities } from './capabilities';
import { decodeInitializeResponse, decodeSessionNotification, decodeStopReason, type DecodedInitialize, type DecodedNotification } from './decode';
import { decodeV2InitializeResponse, decodeV2Notification, PROTOCOL_V2, v2ClientCapabilities, v2Opened, v2ToolCall, type V2State } from './decodeV2';
import { decodeSteerOutcome, type SteerOutcome } from './steering';
import { isObj } from './tolerant';
import { MethodStats } from './methodStats';
import { V2Replays } from './v2Replays';
import { V2Turns } from './v2Turns';
import { OrderedQueue } from './orderedQueue';
import * as P from './protocol';
import { AgentError, ConnectionClosedError, errorText } from './errors';
import { NdjsonMessageReader, NdjsonMessageWriter, type ByteSink, type ByteSource } from './transport';

export interface AcpLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type TraceDirection = 'send' | 'receive';

export interface AcpConnectionOptions {
  /** The agent's stdout. */
  readonly input: ByteSource;
  /** The agent's stdin. */
  readonly output: ByteSink;
  readonly clientInfo: acp.Implementation;
  readonly logger: AcpLogger;
  readonly maxLineBytes?: number;
  /** Sees every message in both directions (for the trace channel; redaction is the caller's job). */
  readonly trace?: (direction: TraceDirection, message: Message) => void;
  /** The client capabilities to advertise (defaults to `baseClientCapabilities()`). */
  readonly capabilities?: acp.ClientCapabilities;
  /** The ACP version offered in `initialize` and spoken on this connection (default 1; 2 is the Preview). */
  readonly protocolVersion?: 1 | 2;
}

/** The agent answered `initialize` with a protocol version this client does not speak. */
export class ProtocolVersionError extends Error {
  constructor(
    readonly agentVersion: unknown,
    readonly offered: number = P.PROTOCOL_VERSION,
  ) {
    super(
      l10n.t('The agent speaks ACP protocol version {0}, but this extension speaks version {1}. Update the agent or the extension.', String(JSON.stringify(agentVersion)), offered),
    );
    this.name = 'ProtocolVersionError';
  }
}

type ClientRequestHandler = (params: unknown, token: CancellationToken) => unknown;

/** ACP's cancellation: `$/cancel_request {requestId}` (not LSP's `$/cancelRequest {id}`). */
class AcpCancellation implements CancellationStrategy {
  readonly incoming = new Map<string | number, CancellationTokenSource>();
  readonly receiver = {
    kind: 'id' as const,
    createCancellationTokenSource: (id: string | number) => {
      const source = new CancellationTokenSource();
      this.incoming.set(id, source);
      return source;
    },
  };
  readonly sender = {
    sendCancellation: (conn: MessageConnection, id: string | number) =>
      conn.sendNotification(P.CancelRequestNotification.type, { requestId: id }),
    cleanup: () => {},
  };
  release(token: CancellationToken): void {
    for (const [id, source] of this.incoming) {
      if (source.token === token) {
        this.incoming.delete(id);
        source.dispose();
        return;
      }
    }
  }
}

/** Text joined into one update at most (then a new one starts). */
const MAX_JOINED_TEXT = 1 << 20;

export class AcpConnection {
  private readonly rpc: MessageConnection;
  private readonly cancellation = new AcpCancellation();
  private readonly updates: OrderedQueue;
  private updateHandler: ((n: DecodedNotification) => void | Promise<void>) | undefined;
  private stateHandler: ((sessionId: string, state: V2State) => void) | undefined;
  /** ACP v2's loads: whether each replay said it was whole (acp/v2Replays.ts). */
  private readonly replays = new V2Replays();
  /** ACP v2's turns (acp/v2Turns.ts); unused over v1. */
  private readonly v2Turns: V2Turns;
  private readonly closeListeners: (() => void)[] = [];
  private closed = false;
  private disposed = false;
  private readonly pendingCalls = new Set<{ method: string; reject: (e: Error) => void }>();
  initializeResult: DecodedInitialize | undefined;
  /** What crossed this connection, per method (for the diagnostics). */
  readonly stats = new MethodStats();

  constructor(private readonly options: AcpConnectionOptions) {
    const { logger } = options;
    this.v2Turns = new V2Turns(logger);
    const reader = new NdjsonMessageReader(options.input, {
      maxLineBytes: options.maxLineBytes,
      onInvalidLine: (problem, line) => {
        this.stats.invalidLine();
        logger.warn(`Skipped a line from the agent: ${problem}: ${preview(line)}`);
      },
    });
    const writer = new NdjsonMessageWriter(options.output);
    const trace = options.trace;
    const stats = this.stats;
    // session/update notifications are the bulk of the traffic: handle them as
    // they are read (in order, before any later response) instead of one per
    // event-loop turn in vscode-jsonrpc's queue.
    const listen = reader.listen.bind(reader);
    reader.listen = (cb) =>
      listen((m) => {
        trace?.('receive', m);
        const method = (m as { method?: unknown }).method;
        if (method === P.SessionUpdateNotification.method && !('id' in m)) {
          stats.notification('in', method);
          const params = (m as { params?: unknown }).params;
          if (!this.closed && !this.coalesce(params)) {
            this.flushText();
            this.onUpdateNotification(params);
          }
          return;
        }
        if (typeof method === 'string') {
          const id = (m as { id?: unknown }).id;
          if (typeof id === 'string' || typeof id === 'number') stats.request('in', method, id);
          else stats.notification('in', method);
        }
        // Anything else comes after the text read before it.
        this.flushText();
        if (typeof method !== 'string') this.v2Turns.read(m);
        cb(m);
      });
    const write = writer.write.bind(writer);
    writer.write = (m) => {
      trace?.('send', m);
      if (this.protocolVersion === PROTOCOL_V2) this.v2Turns.written(m);
      countSent(stats, m);
      return write(m);
    };
    this.updates = new OrderedQueue((key, err) => logger.error(`session ${key}: handling an update failed: ${errorText(err)}`));
    this.rpc = createMessageConnection(reader, writer, {
      error: (m) => logger.error(m),
      warn: (m) => logger.warn(m),
      info: (m) => logger.info(m),
      log: () => {},
    }, { cancellationStrategy: this.cancellation });

    this.rpc.onError(([err]) => logger.warn(`Connection problem: ${err.message}`));
    this.rpc.onClose(() => this.markClosed());
    this.rpc.onNotification(P.CancelRequestNotification.method, (params: unknown) => {
      const id = (params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.cancellation.incoming.get(id)?.cancel();
    });
    this.rpc.onUnhandledNotification((n) => logger.info(`Ignored notification ${n.method} (not handled by this client)`));
    this.rpc.listen();
  }

  /**
   * Consecutive plain text chunks of one message (the bulk of a streamed answer:
   * thousands of lines of a few words) are joined before they are decoded and
   * dispatched — once per read from the agent, or before anything else arrives.
   * Only chunks with nothing but their text are joined (no annotations, no _meta);
   * the order of everything is kept.
   */
  private pendingText: { sessionId: string; kind: string; messageId: string | undefined; parts: string[]; size: number } | undefined;

  private coalesce(params: unknown): boolean {
    const p = params as { sessionId?: unknown; update?: { sessionUpdate?: unknown; messageId?: unknown; content?: { type?: unknown; text?: unknown } } } | null;
    const u = p?.update;
    const c = u?.content;
    if (!p || typeof p.sessionId !== 'string' || !u || (u.sessionUpdate !== 'agent_message_chunk' && u.sessionUpdate !== 'agent_thought_chunk')) return false;
    if (!c || c.type !== 'text' || typeof c.text !== 'string' || (u.messageId !== undefined && typeof u.messageId !== 'string')) return false;
    if (Object.keys(p).length !== 2 || Object.keys(u).length !== (u.messageId === undefined ? 2 : 3) || Object.keys(c).length !== 2) return false;
    const messageId = u.messageId as string | undefined;
    const open = this.pendingText;
    if (open && open.sessionId === p.sessionId && open.kind === u.sessionUpdate && open.messageId === messageId && open.size < MAX_JOINED_TEXT) {
      open.parts.push(c.text);
      open.size += c.text.length;
      return true;
    }
    this.flushText();
    this.pendingText = { sessionId: p.sessionId, kind: u.sessionUpdate, messageId, parts: [c.text], size: c.text.length };
    queueMicrotask(() => this.flushText());
    return true;
  }

  private flushText(): void {
    const open = this.pendingText;
    if (!open) return;
    this.pendingText = undefined;
    const update = { sessionUpdate: open.kind, ...(open.messageId !== undefined ? { messageId: open.messageId } : {}), content: { type: 'text', text: open.parts.join('') } };
    this.onUpdateNotification({ sessionId: open.sessionId, update });
  }

  /** The ACP version spoken on this connection. */
  get protocolVersion(): 1 | 2 {
    return this.options.protocolVersion ?? 1;
  }

  private onUpdateNotification(params: unknown): void {
    if (this.protocolVersion === PROTOCOL_V2) {
      this.onV2Notification(params);
      return;
    }
    const decoded = decodeSessionNotification(params);
    // The kinds ACP v2's upserts become (decodeV2.ts) are the archive's and v2's, never a v1 agent's to send.
    const kind = decoded?.update.sessionUpdate;
    if (kind === '_message' || kind === '_tool_content_chunk') {
      this.options.logger.warn(`Ignored a session/update of kind ${kind} from an ACP v1 agent: it is not a v1 update`);
      return;
    }
    this.dispatchUpdate(decoded, params);
  }

  private onV2Notification(params: unknown): void {
    const { logger } = this.options;
    const n = decodeV2Notification(params);
    if (n?.kind === 'update' || !n) {
      this.dispatchUpdate(n, params);
      return;
    }
    for (const p of n.problems) logger.warn(`session/update (${n.sessionId}): ${p}`);
    // After every update received before it (a turn's last text first).
    if (n.kind === 'state') void this.updates.enqueue(n.sessionId, () => this.onState(n.sessionId, n.state));
    else {
      logger.info(`session/update (${n.sessionId}): replay_complete`);
      this.replays.complete(n.sessionId);
    }
  }

  private onState(sessionId: string, state: V2State): void {
    this.stateHandler?.(sessionId, state);
    this.v2Turns.state(sessionId, state);
  }

  private dispatchUpdate(decoded: DecodedNotification | undefined, params: unknown): void {
    const { logger } = this.options;
    if (!decoded) {
      logger.warn(`Ignored a session/update without a sessionId: ${preview(JSON.stringify(params))}`);
      return;
    }
    for (const p of decoded.problems) logger.warn(`session/update (${decoded.sessionId}): ${p}`);
    if (decoded.update.sessionUpdate === '_unsupported') {
      logger.warn(`session/update (${decoded.sessionId}): unsupported update "${decoded.update.variant}": ${decoded.update.reason}`);
    }
    const handler = this.updateHandler;
    if (handler) void this.updates.enqueue(decoded.sessionId, () => handler(decoded));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Updates are delivered in arrival order per session; an async handler is awaited before the next. */
  onSessionUpdate(handler: (n: DecodedNotification) => void | Promise<void>): void {
    this.updateHandler = handler;
  }

  /** ACP v2: each `state_update`, after the updates received before it (the runtime logs one for a session not open here). */
  onSessionState(handler: (sessionId: string, state: V2State) => void): void {
    this.stateHandler = handler;
  }

  /** Resolves once every update received so far for the session has been handled. */
  drainSession(sessionId: string): Promise<void> {
    return this.updates.drain(sessionId);
  }

  /**
   * Serves a method the agent calls on the client. Errors thrown as `ResponseError`
   * go back as-is; other errors become -32603 with their message.
   */
  onClientRequest(method: string, handler: ClientRequestHandler): void {
    this.rpc.onRequest(method, async (params: unknown, token: CancellationToken) => {
      try {
        return await handler(this.protocolVersion === PROTOCOL_V2 ? fromV2Request(method, params) : params, token);
      } finally {
        this.cancellation.release(token);
      }
    });
  }

  onClientNotification(method: string, handler: (params: unknown) => void): void {
    this.rpc.onNotification(method, handler);
  }

  // ---------------------------------------------------------------- calls
  private async call<P, R>(type: RequestType<P, R, acp.Error>, params: P, token?: CancellationToken): Promise<R> {
    if (this.closed) throw new ConnectionClosedError(type.method);
    const entry = { method: type.method, reject: (_e: Error) => {} };
    const closed = new Promise<never>((_, reject) => {
      entry.reject = reject;
    });
    this.pendingCalls.add(entry);
    try {
      const result = (await Promise.race([this.rpc.sendRequest(type.method, params, token ?? CancellationToken.None), closed])) as R;
      this.stats.outcome(type.method);
      return result;
    } catch (err) {
      if (err instanceof ResponseError) {
        this.stats.outcome(type.method, err.code);
        throw new AgentError(type.method, err.code, err.message, err.data);
      }
      throw err;
    } finally {
      this.pendingCalls.delete(entry);
    }
  }

  /**
   * `initialize` with this connection's protocol version (v1's shapes, or v2's: one `capabilities` object and
   * the required `info`); a different version back is an error and closes the connection.
   */
  async initialize(token?: CancellationToken): Promise<DecodedInitialize> {
    const version = this.protocolVersion;
    const capabilities = this.options.capabilities ?? baseClientCapabilities();
    const params =
      version === PROTOCOL_V2
        ? { protocolVersion: PROTOCOL_V2, info: this.options.clientInfo, capabilities: v2ClientCapabilities(capabilities) }
        : { protocolVersion: P.PROTOCOL_VERSION, clientCapabilities: capabilities, clientInfo: this.options.clientInfo };
    const raw = await this.call(P.InitializeRequest.type, params as acp.InitializeRequest, token);
    const problems: string[] = [];
    const decoded = version === PROTOCOL_V2 ? decodeV2InitializeResponse(raw, problems) : decodeInitializeResponse(raw, problems);
    for (const p of problems) this.options.logger.warn(p);
    if (decoded.protocolVersion !== version) {
      this.dispose();
      throw new ProtocolVersionError((raw as { protocolVersion?: unknown } | null)?.protocolVersion, version);
    }
    this.initializeResult = decoded;
    return decoded;
  }

  /** `meta`: the method's `_meta` answer (an `api-key` method's `{ "api-key": { apiKey } }`), kept out of the logs by the redaction. */
  authenticate(methodId: string, token?: CancellationToken, meta?: Record<string, unknown>) {
    const v2 = this.protocolVersion === PROTOCOL_V2;
    return this.call(v2 ? P.LoginV2Request.type : P.AuthenticateRequest.type, meta ? { methodId, _meta: meta } : { methodId }, token);
  }
  logout(token?: CancellationToken) {
    return this.call(this.protocolVersion === PROTOCOL_V2 ? P.LogoutV2Request.type : P.LogoutRequest.type, {}, token);
  }
  async newSession(params: acp.NewSessionRequest, token?: CancellationToken) {
    return this.fromV2(await this.call(P.NewSessionRequest.type, this.v2Servers(params), token));
  }
  /** A v2 answer that opened a session (or changed its options): its config options named as v1 names them (`configId` → `id`). */
  private fromV2<T>(r: T): T {
    return this.protocolVersion === PROTOCOL_V2 ? v2Opened(r) : r;
  }
  /** v2 names every MCP server's transport (`type: "stdio"`, which v1 left implicit). */
  private v2Servers<T extends { mcpServers?: acp.McpServer[] }>(params: T): T {
    if (this.protocolVersion !== PROTOCOL_V2 || !params.mcpServers) return params;
    return { ...params, mcpServers: params.mcpServers.map((m) => ('type' in m ? m : { type: 'stdio', ...m })) };
  }
  /**
   * v1's `session/load`. v2 has none: its load is `session/resume` replaying the whole history
   * (`replayFrom: {type: "start"}`; the replay ends with `replay_complete`, then the current state, then the answer).
   */
  async loadSession(params: acp.LoadSessionRequest, token?: CancellationToken) {
    if (this.protocolVersion !== PROTOCOL_V2) return this.call(P.LoadSessionRequest.type, params, token);
    // Whether the replay said it was whole (replay_complete) before the answer: see replayCut.
    const answered = this.replays.begin(params.sessionId);
    try {
      return this.fromV2(await this.call(P.ResumeSessionRequest.type, this.v2Servers({ ...params, replayFrom: { type: 'start' } } as acp.ResumeSessionRequest), token));
    } finally {
      answered();
    }
  }
  /**
   * v2: the last load (resume replaying from the start) of `sessionId` was answered without `replay_complete`: the
   * history shown may stop short of the session's end. Asked once, after the load's updates were handled.
   */
  replayCut(sessionId: string): boolean {
    return this.replays.cut(sessionId);
  }
  async resumeSession(params: acp.ResumeSessionRequest, token?: CancellationToken) {
    return this.fromV2(await this.call(P.ResumeSessionRequest.type, this.v2Servers(params), token));
  }
  closeSession(sessionId: string, token?: CancellationToken) {
    return this.call(P.CloseSessionRequest.type, { sessionId }, token);
  }
  listSessions(params: acp.ListSessionsRequest, token?: CancellationToken) {
    return this.call(P.ListSessionsRequest.type, params, token);
  }
  deleteSession(sessionId: string, token?: CancellationToken) {
    return this.call(P.DeleteSessionRequest.type, { sessionId }, token);
  }
  setMode(sessionId: string, modeId: string, token?: CancellationToken) {
    return this.call(P.SetSessionModeRequest.type, { sessionId, modeId }, token);
  }
  async forkSession(params: P.ForkSessionParams, token?: CancellationToken) {
    return this.fromV2(await this.call(P.ForkSessionRequest.type, params, token));
  }
  /** Legacy \`session/set_model\`, for agents that report \`models\` but no model config option. */
  setModel(sessionId: string, modelId: string, token?: CancellationToken) {
    return this.call(P.SetSessionModelRequest.type, { sessionId, modelId }, token);
  }
  /** v2 tags every value (`type: "id"` for a select's, which v1 left implicit; `boolean` as v1). */
  async setConfigOption(params: acp.SetSessionConfigOptionRequest, token?: CancellationToken) {
    const tagged = this.protocolVersion === PROTOCOL_V2 && !('type' in params) ? { ...(params as object), type: 'id' } : params;
    return this.fromV2(await this.call(P.SetSessionConfigOptionRequest.type, tagged as acp.SetSessionConfigOptionRequest, token));
  }
  async prompt(params: acp.PromptRequest, token?: CancellationToken): Promise<{ stopReason: string }> {
    // v2: the answer only acknowledges the prompt; the idle state_update ends the turn (acp/v2Turns.ts).
    if (this.protocolVersion === PROTOCOL_V2) return { stopReason: await this.v2Turns.begin(params.sessionId, () => this.call(P.PromptRequest.type, params, token)) };
    const raw = await this.call(P.PromptRequest.type, params, token);
    const problems: string[] = [];
    const stopReason = decodeStopReason(raw, problems);
    for (const p of problems) this.options.logger.warn(p);
    // Updates sent before the response belong to this turn: let them be handled first.
    await this.drainSession(params.sessionId);
    return { stopReason };
  }

  /**
   * `_session/steering` with the `promptRequired` opt-in (only to an agent whose initialize advertised it).
   * Throws an AgentError when refused, and one of code 0 when the answer is no known outcome.
   */
  async steer(sessionId: string, prompt: acp.ContentBlock[]): Promise<SteerOutcome> {
    const raw = await this.call(P.SteeringRequest.type, { sessionId, prompt, _meta: { steering: { idleBehavior: 'promptRequired' } } });
    const outcome = decodeSteerOutcome(raw);
    if (!outcome) throw new AgentError(P.SteeringRequest.method, 0, `unknown answer ${preview(JSON.stringify(raw) ?? String(raw))}`);
    return outcome;
  }
  /** `session/cancel` (a notification): the prompt still gets its response, with `cancelled`. */
  async cancel(sessionId: string): Promise<void> {
    if (this.closed) return;
    await this.rpc.sendNotification(P.CancelNotification.type, { sessionId });
  }

  private markClosed(): void {
    if (this.closed) return;
    this.flushText();
    this.closed = true;
    for (const p of this.pendingCalls) p.reject(new ConnectionClosedError(p.method));
    this.pendingCalls.clear();
    this.v2Turns.closed();
    for (const l of this.closeListeners.splice(0)) {
      try {
        l();
      } catch (err) {
        this.options.logger.error(`close listener failed: ${errorText(err)}`);
      }
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.markClosed();
    try {
      this.rpc.dispose();
    } catch {
      // already disposed
    }
  }
}

/** Counts a message the client writes: a request or notification by method, an answer to the agent's request by its id. */
function countSent(stats: MethodStats, m: Message): void {
  const { method, id, error } = m as { method?: unknown; id?: unknown; error?: { code?: unknown } };
  if (typeof method === 'string') {
    if (id === undefined) stats.notification('out', method);
    else stats.request('out', method);
  } else if (typeof id === 'string' || typeof id === 'number') {
    stats.answered(id, error === undefined ? undefined : typeof error?.code === 'number' ? error.code : 0);
  }
}

function preview(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** Ids for v2 permissions about no tool call: one each (two with the same title are two questions). */
let subjectless = 0;

/** ACP v2's agent → client requests in the shapes the v1 decoders read: a permission's tool call is its `subject`. */
function fromV2Request(method: string, params: unknown): unknown {
  if (method !== P.RequestPermissionRequest.method || !isObj(params) || params.toolCall !== undefined) return params;
  const subject = isObj(params.subject) ? params.subject : undefined;
  // Its diffs as v2 shapes them (one `_patch` per file): their paths are checked like a v1 diff's.
  const toolCall = subject?.type === 'tool_call' && isObj(subject.toolCall) ? v2ToolCall(subject.toolCall, []) : { toolCallId: `permission-${++subjectless}`, title: params.title };
  return { ...params, toolCall };
}
