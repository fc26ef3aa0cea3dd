/**
 * A started agent: its process plus its ACP connection, through the handshake.
 * Start-up fails in words (not found, crashed, timed out, wrong protocol
 * version) and never leaves the process behind. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { Message } from 'vscode-jsonrpc/node';
import { AcpConnection, ProtocolVersionError, type AcpLogger, type TraceDirection } from '../acp/connection';
import { errorText } from '../acp/errors';
import { AgentCapabilityView, baseClientCapabilities } from '../acp/capabilities';
import type { DecodedInitialize } from '../acp/decode';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { AgentProcess, describeExit, type ExitInfo, type ShutdownTimings, type SpawnSpec } from './agentProcess';
import type { AgentLink } from './agentLink';
import { AgentSocket } from './agentSocket';
import { SessionRouter } from './sessionRouter';
import { DECLINED_METHODS, fillClientCapabilities, serveCall, type AnyClientMethod, type RequestScopedElicitation, type UnroutedCall } from './clientMethods';
import { PathMap } from './pathMap';

export interface CancelSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface RuntimeOptions {
  readonly name: string;
  readonly spec: SpawnSpec;
  readonly clientInfo: acp.Implementation;
  /** The base capabilities (default: acp/capabilities.ts), to which each method adds what it earns. */
  readonly clientCapabilities?: acp.ClientCapabilities;
  /** The agent → client methods served (sessions/clientMethods.ts); the declined ones are added. */
  readonly methods?: readonly AnyClientMethod[];
  /** Where elicitations not about a session are asked. */
  readonly elicitation?: RequestScopedElicitation;
  readonly logger: AcpLogger;
  readonly onStderr?: (line: string) => void;
  readonly trace?: (direction: TraceDirection, message: Message) => void;
  readonly initializeTimeoutMs: number;
  readonly shutdown?: ShutdownTimings;
  readonly maxLineBytes?: number;
  /** The ACP version offered in `initialize` (default 1; 2: the v2 Preview). */
  readonly protocolVersion?: 1 | 2;
}

/** Why an agent could not be started; `message` is for the user. */
export class AgentStartError extends Error {
  constructor(
    message: string,
    readonly reason: 'not-found' | 'exited' | 'timeout' | 'cancelled' | 'protocol-version' | 'unauthorized' | 'error',
    readonly stderrTail: readonly string[] = [],
  ) {
    super(message);
    this.name = 'AgentStartError';
  }
}

/** How long an agent that closed its output may take to exit before it is stopped. */
const OUTPUT_CLOSED_GRACE_MS = 2000;

const NEVER_CANCELLED = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

const delay = (ms: number) => new Promise<undefined>((r) => setTimeout(() => r(undefined), ms));

export class AgentRuntime {
  /** The agent's process, or its socket when it is an agent by URL. */
  readonly process: AgentLink;
  readonly connection: AcpConnection;
  /** Sessions of this agent: where its updates and requests go. */
  readonly sessions = new SessionRouter();
  private init: DecodedInitialize | undefined;
  private stopping = false;
  private lost: { inUse: boolean } | undefined;
  private outputClosedTimer: NodeJS.Timeout | undefined;
  /** The client capabilities offered to this agent in `initialize`. */
  readonly clientCapabilities: acp.ClientCapabilities;
  /** An agent by URL's folders and this machine's (its entry's pathMap); undefined: its paths are this machine's, or not served. */
  readonly paths: PathMap | undefined;
  /** Set when the agent closed its output but did not exit, and was stopped for it. */
  outputClosedWithoutExit = false;

  constructor(private readonly options: RuntimeOptions) {
    this.process = options.spec.remote
      ? new AgentSocket(options.spec, { maxFrameBytes: options.maxLineBytes, connectTimeoutMs: options.initializeTimeoutMs, onProblem: (m) => options.logger.warn(m) })
      : new AgentProcess(options.spec, options.onStderr, options.shutdown);
    this.paths = options.spec.remote?.pathMap ? new PathMap(options.spec.remote.pathMap) : undefined;
    this.clientCapabilities = fillClientCapabilities(options.clientCapabilities ?? baseClientCapabilities(), options.methods ?? []);
    this.connection = new AcpConnection({
      input: this.process.input,
      output: this.process.output,
      clientInfo: options.clientInfo,
      capabilities: this.clientCapabilities,
      logger: options.logger,
      trace: options.trace,
      maxLineBytes: options.maxLineBytes,
      protocolVersion: options.protocolVersion,
    });
    // Whether a session was open (or being loaded or resumed) on it is read when the connection
    // goes, before the failed calls let go of their sessions: that decides a restart (AgentManager).
    this.connection.onClose(() => this.lose());
    this.process.onExit(() => {
      this.lose();
      clearTimeout(this.outputClosedTimer);
      this.connection.dispose();
    });
    this.connection.onSessionUpdate((n) => this.sessions.update(n));
    this.connection.onSessionState((sessionId, state) => {
      if (!this.sessions.has(sessionId)) options.logger.warn(`state_update (${state.state}) for session ${sessionId}, which is not open here: ignored`);
    });
    // Every agent → client method, decoded once and routed to the session it is about (agents/clientMethods.ts).
    const logged = new Set<string>();
    const call: UnroutedCall = {
      agentName: options.name,
      from: this.sessions,
      elicitation: options.elicitation,
      logOnce: (key, message) => {
        if (!logged.has(key)) options.logger.info(message);
        logged.add(key);
      },
    };
    const log = (m: string) => options.logger.info(m);
    for (const m of [...(options.methods ?? []), ...DECLINED_METHODS]) {
      if (m.notification) this.connection.onClientNotification(m.method, (params) => void serveCall(m, params, NEVER_CANCELLED, this.sessions, call, log).catch((err) => log(`${m.method}: ${errorText(err)}`)));
      else this.connection.onClientRequest(m.method, (params, token) => serveCall(m, params, token, this.sessions, call, log));
    }
  }

  private lose(): void {
    if (this.lost) return;
    this.lost = { inUse: this.sessions.inUse };
    // An agent that closed its output is of no use any more, however long it takes to exit:
    // stopped (stdin EOF, then signals) after a grace, and its exit counts as a crash.
    if (!this.stopping && !this.process.hasExited) {
      this.outputClosedTimer = setTimeout(() => {
        if (this.stopping || this.process.hasExited) return;
        this.outputClosedWithoutExit = true;
        this.options.logger.warn(`${this.options.name} closed its output but did not exit within ${OUTPUT_CLOSED_GRACE_MS / 1000} s: stopping it.`);
        void this.process.stop(false);
      }, OUTPUT_CLOSED_GRACE_MS);
    }
  }

  /** Whether a session was open, or being loaded or resumed, on it when its connection went (undefined while it has not). */
  get inUseWhenLost(): boolean | undefined {
    return this.lost?.inUse;
  }

  get initializeResult(): DecodedInitialize | undefined {
    return this.init;
  }

  get capabilities(): AgentCapabilityView {
    return new AgentCapabilityView(this.init?.agentCapabilities);
  }

  /** The ACP version spoken with the agent (what its `initialize` answer settled). */
  get protocolVersion(): 1 | 2 {
    return this.connection.protocolVersion;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Runs `initialize`; on any failure the process is stopped before this rejects. */
  async start(cancel?: CancelSignal): Promise<DecodedInitialize> {
    const { name, initializeTimeoutMs } = this.options;
    let timer: NodeJS.Timeout | undefined;
    let cancelSub: { dispose(): void } | undefined;
    const failures = new Promise<never>((_, reject) => {
      this.process.onExit((info) => reject(this.exitError(info)));
      timer = setTimeout(
        () =>
          reject(
            new AgentStartError(
              l10n.t("Agent '{0}' did not answer the ACP handshake (initialize) within {1} s. Is the command an ACP agent, and are its arguments right?", name, Math.round(initializeTimeoutMs / 1000)),
              'timeout',
              this.process.stderrTail(),
            ),
          ),
        initializeTimeoutMs,
      );
      if (cancel) {
        const onCancel = () => reject(new AgentStartError(l10n.t("Starting agent '{0}' was cancelled.", name), 'cancelled'));
        if (cancel.isCancellationRequested) onCancel();
        else cancelSub = cancel.onCancellationRequested(onCancel);
      }
    });
    // A handshake given up on (timed out, cancelled) is withdrawn with $/cancel_request before the process is stopped.
    const abandon = new CancellationTokenSource();
    try {
      this.init = await Promise.race([this.connection.initialize(abandon.token), failures]);
      return this.init;
    } catch (err) {
      if (!this.connection.isClosed) {
        try {
          abandon.cancel();
        } catch {
          // the connection closed meanwhile
        }
      }
      // The process may be exiting at the same moment (its output closed first):
      // prefer that explanation, with its exit code and stderr.
      const known = err instanceof AgentStartError || err instanceof ProtocolVersionError;
      const exit = this.process.exit ?? (known ? undefined : await Promise.race([this.process.exited, delay(1000)]));
      await this.stop();
      if (err instanceof AgentStartError) throw err;
      if (err instanceof ProtocolVersionError) throw new AgentStartError(l10n.t("Agent '{0}': {1}", name, err.message), 'protocol-version');
      if (exit && !exit.requested) throw this.exitError(exit);
      throw new AgentStartError(l10n.t("Agent '{0}' failed during the ACP handshake: {1}", name, errorText(err)), 'error', this.process.stderrTail());
    } finally {
      clearTimeout(timer);
      cancelSub?.dispose();
      abandon.dispose();
    }
  }

  private exitError(info: ExitInfo): AgentStartError {
    const notFound = (info.spawnError as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    // An agent by URL that refused the upgrade for want of a token: a sign-in, not a crash.
    const status = info.unreachable?.status;
    const reason = notFound ? 'not-found' : status === 401 || status === 403 ? 'unauthorized' : 'exited';
    return new AgentStartError(describeExit(this.options.name, info, this.process.stderrTail()), reason, this.process.stderrTail());
  }

  /** Stops the agent for good (stdin EOF → SIGTERM → SIGKILL of the group). */
  async stop(): Promise<ExitInfo> {
    this.stopping = true;
    clearTimeout(this.outputClosedTimer);
    this.connection.dispose();
    return await this.process.stop();
  }

  get isStopping(): boolean {
    return this.stopping;
  }
}
