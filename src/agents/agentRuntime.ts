/**
 * A started agent: its process plus its ACP connection, through the handshake.
 * Start-up fails in words (not found, crashed, timed out, wrong protocol
 * version) and never leaves the process behind. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { Message } from 'vscode-jsonrpc/node';
import { AcpConnection, ProtocolVersionError, type AcpLogger, type TraceDirection } from '../acp/connection';
import { ErrorCodes, errorText } from '../acp/errors';
import { AgentCapabilityView } from '../acp/capabilities';
import type { DecodedInitialize } from '../acp/decode';
import { RequestPermissionRequest } from '../acp/protocol';
import { CLIENT_REQUEST_METHODS, decodeClientRequest, decodePermissionRequest } from '../acp/clientRequests';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import { AgentProcess, describeExit, type ExitInfo, type ShutdownTimings, type SpawnSpec } from './agentProcess';
import { SessionRouter, UnknownSessionError } from './sessionRouter';
import { DECLINED_CLIENT_METHODS, declinedMethodMessage } from './quirks';

export interface CancelSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface RuntimeOptions {
  readonly name: string;
  readonly spec: SpawnSpec;
  readonly clientInfo: acp.Implementation;
  readonly clientCapabilities?: acp.ClientCapabilities;
  readonly logger: AcpLogger;
  readonly onStderr?: (line: string) => void;
  readonly trace?: (direction: TraceDirection, message: Message) => void;
  readonly initializeTimeoutMs: number;
  readonly shutdown?: ShutdownTimings;
  readonly maxLineBytes?: number;
}

/** Why an agent could not be started; `message` is for the user. */
export class AgentStartError extends Error {
  constructor(
    message: string,
    readonly reason: 'not-found' | 'exited' | 'timeout' | 'cancelled' | 'protocol-version' | 'error',
    readonly stderrTail: readonly string[] = [],
  ) {
    super(message);
    this.name = 'AgentStartError';
  }
}

/** How long an agent that closed its output may take to exit before it is stopped. */
const OUTPUT_CLOSED_GRACE_MS = 2000;

const delay = (ms: number) => new Promise<undefined>((r) => setTimeout(() => r(undefined), ms));

export class AgentRuntime {
  readonly process: AgentProcess;
  readonly connection: AcpConnection;
  /** Sessions of this agent: where its updates and requests go. */
  readonly sessions = new SessionRouter();
  private init: DecodedInitialize | undefined;
  private stopping = false;
  private lost: { inUse: boolean } | undefined;
  private outputClosedTimer: NodeJS.Timeout | undefined;
  /** Set when the agent closed its output but did not exit, and was stopped for it. */
  outputClosedWithoutExit = false;

  constructor(private readonly options: RuntimeOptions) {
    this.process = new AgentProcess(options.spec, options.onStderr, options.shutdown);
    this.connection = new AcpConnection({
      input: this.process.child.stdout,
      output: this.process.child.stdin,
      clientInfo: options.clientInfo,
      capabilities: options.clientCapabilities,
      logger: options.logger,
      trace: options.trace,
      maxLineBytes: options.maxLineBytes,
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
    // Each request is decoded once here; what was dropped goes to the agent's log.
    const dropped = (method: string, what: readonly string[]) => {
      if (what.length) options.logger.info(`${method}: dropped ${what.join('; ')}`);
    };
    this.connection.onClientRequest(RequestPermissionRequest.method, (params, token) => {
      const { value, dropped: d } = decodePermissionRequest(params);
      dropped(RequestPermissionRequest.method, d);
      return this.sessions.permission(value, token);
    });
    for (const method of CLIENT_REQUEST_METHODS) {
      this.connection.onClientRequest(method, async (params, token) => {
        try {
          const { value, dropped: d } = decodeClientRequest(method, params);
          dropped(method, d);
          return await this.sessions.request(value, token);
        } catch (err) {
          if (err instanceof UnknownSessionError) throw new ResponseError(err.code, err.message);
          throw err;
        }
      });
    }
    // Methods some agents add that this client declines on purpose: a clear -32601, logged once.
    for (const method of Object.keys(DECLINED_CLIENT_METHODS)) {
      let logged = false;
      this.connection.onClientRequest(method, () => {
        const message = declinedMethodMessage(method)!;
        if (!logged) options.logger.info(`Declined ${message} (answered -32601; asked again, the same answer)`);
        logged = true;
        throw new ResponseError(ErrorCodes.MethodNotFound, message);
      });
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
    return new AgentStartError(describeExit(this.options.name, info, this.process.stderrTail()), notFound ? 'not-found' : 'exited', this.process.stderrTail());
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
