/**
 * An agent by URL: ACP over a WebSocket (the transport RFD's shape: one JSON-RPC
 * message per text frame), through the `ws` library. The runtime reads it as it
 * reads a process: frames become lines of `input`, each message written to
 * `output` is one frame, and the socket's close is the "exit". A TLS certificate
 * Node does not trust is refused, never ignored. `ws` is loaded on the first
 * connection (dist/wsClient.js, as the registry's archive code is): activation
 * does not pay for it. No `vscode` import.
 */
import { EventEmitter } from 'node:events';
import * as l10n from '@vscode/l10n';
import type WebSocket from 'ws';
import type { ByteSink, ByteSource } from '../acp/transport';
import type { AgentDefinition } from './agentDefinition';
import type { AgentLink } from './agentLink';
import type { ExitInfo, SpawnSpec } from './agentProcess';
import { expandPathMap, PathMap } from './pathMap';

export interface SocketOptions {
  /** Frames larger than this are refused (the socket closes with 1009), as lines longer than it are from a process. */
  readonly maxFrameBytes?: number;
  /** How long the connection (TCP, TLS and the upgrade) may take. */
  readonly connectTimeoutMs?: number;
  /** A frame that cannot be a message (binary), in words. */
  readonly onProblem?: (line: string) => void;
  /** How long a requested close may take before the socket is dropped. */
  readonly closeTimeoutMs?: number;
}

const DEFAULT_MAX_FRAME = 64 * 1024 * 1024;
/** WebSocket ready states (ws's, which is loaded later). */
const CONNECTING = 0;
const OPEN = 1;

/** Node's codes for a certificate it does not trust, and for one that names another host. */
const CERT_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ALTNAME/;

/** Why a connection failed, in words (the error's own text kept, bounded). */
function unreachableWhy(url: string, err: Error & { code?: string }): string {
  const text = String(err.message ?? err).slice(0, 300);
  if (typeof err.code === 'string' && CERT_CODES.test(err.code)) {
    return l10n.t('the TLS certificate of {0} was refused ({1}). The connection was not made; a certificate this machine does not trust is never accepted (add its authority to NODE_EXTRA_CA_CERTS if you trust it).', url, text);
  }
  if (err.code === 'ECONNREFUSED') return l10n.t('nothing accepts connections at {0} ({1}).', url, text);
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return l10n.t('the host of {0} was not found ({1}).', url, text);
  return l10n.t('connecting to {0} failed: {1}', url, text);
}

export class AgentSocket implements AgentLink {
  readonly input: ByteSource;
  readonly output: ByteSink;
  readonly exited: Promise<ExitInfo>;
  private socket: WebSocket | undefined;
  private readonly events = new EventEmitter();
  private readonly queued: { data: string; cb?: (err?: Error | null) => void }[] = [];
  private readonly exitListeners: ((info: ExitInfo) => void)[] = [];
  private exitInfo: ExitInfo | undefined;
  private stopRequested = false;
  private opened = false;
  /** What ended an open connection from this side (ws's error), when the close itself gives no reason. */
  private failure: string | undefined;

  constructor(
    readonly spec: SpawnSpec,
    private readonly options: SocketOptions = {},
  ) {
    const remote = spec.remote;
    if (!remote) throw new Error('AgentSocket needs spec.remote');
    this.exited = new Promise((resolve) => this.exitListeners.push(resolve));
    // Many listeners are normal here (the reader's four, the writer's two).
    this.events.setMaxListeners(50);
    void this.connect(remote).catch((err: Error) => this.finish({ code: null, signal: null, requested: this.stopRequested, unreachable: { why: unreachableWhy(remote.url, err) } }));
    const events = this.events;
    this.input = {
      on: (event: string, listener: (...args: any[]) => void) => events.on(event, listener),
      removeListener: (event, listener) => events.removeListener(event, listener),
    } as ByteSource;
    const output = {
      write: (data: string, cb?: (err?: Error | null) => void) => {
        if (this.opened) this.send(data, cb);
        else if (this.exitInfo) cb?.(new Error(l10n.t('The agent is not connected.')));
        else this.queued.push({ data, cb });
        return true;
      },
      end: () => void this.stop(),
      on: (event: string, listener: (...args: any[]) => void) => events.on(event, listener),
      once: (event: string, listener: () => void) => events.once(event, listener),
    };
    this.output = Object.defineProperty(output, 'writable', { get: () => this.exitInfo === undefined && (this.socket?.readyState ?? OPEN) <= OPEN }) as ByteSink;
  }

  private async connect(remote: NonNullable<SpawnSpec['remote']>): Promise<void> {
    const { default: WebSocketClass } = await import('ws');
    // Stopped while ws was loading: never connected.
    if (this.exitInfo || this.stopRequested) return;
    const socket = new WebSocketClass(remote.url, {
      headers: { ...remote.headers },
      maxPayload: this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME,
      handshakeTimeout: this.options.connectTimeoutMs ?? 30_000,
      followRedirects: false,
      perMessageDeflate: false,
    });
    this.socket = socket;
    socket.on('open', () => {
      this.opened = true;
      for (const q of this.queued.splice(0)) this.send(q.data, q.cb);
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        this.options.onProblem?.('a binary frame (ACP over WebSocket uses text frames): skipped');
        return;
      }
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      // Raw CR/LF in JSON can only be whitespace between tokens (in strings they are escaped), so a
      // pretty-printed frame becomes one line without changing its meaning.
      this.events.emit('data', Buffer.from(`${text.replace(/[\r\n]/g, ' ')}\n`, 'utf8'));
    });
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      const why =
        status === 401 || status === 403
          ? l10n.t('{0} answered HTTP {1}: it needs a token (Sign In gives it one).', remote.url, status)
          : l10n.t('{0} answered HTTP {1} instead of accepting a WebSocket.', remote.url, status);
      res.resume();
      this.finish({ code: null, signal: null, requested: this.stopRequested, unreachable: { why, status } });
      socket.terminate();
    });
    socket.on('error', (err: Error & { code?: string }) => {
      if (!this.opened) this.finish({ code: null, signal: null, requested: this.stopRequested, unreachable: { why: unreachableWhy(remote.url, err) } });
      else {
        // ws closes the socket after such an error (a frame over maxPayload: 1009 to the peer, 1006 here): its words are the reason.
        this.failure = String(err.message ?? err).slice(0, 200);
        this.events.emit('error', err);
      }
    });
    socket.on('close', (code, reason) => {
      this.events.emit('end');
      this.events.emit('close');
      if (this.opened) this.finish({ code: null, signal: null, requested: this.stopRequested, closed: { code, reason: reason.toString('utf8').slice(0, 200) || (this.failure ?? '') } });
      else this.finish({ code: null, signal: null, requested: this.stopRequested, unreachable: { why: l10n.t('{0} closed the connection before it opened (code {1}).', remote.url, code) } });
    });
  }

  private send(data: string, cb?: (err?: Error | null) => void): void {
    // One message per frame: the writer's line without its newline.
    const frame = data.endsWith('\n') ? data.slice(0, -1) : data;
    try {
      if (!this.socket) throw new Error(l10n.t('The agent is not connected.'));
      this.socket.send(frame, { binary: false }, (err) => cb?.(err ?? null));
    } catch (err) {
      cb?.(err as Error);
    }
  }

  get pid(): undefined {
    return undefined;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  stderrTail(): string[] {
    return [];
  }

  onExit(listener: (info: ExitInfo) => void): void {
    if (this.exitInfo) listener(this.exitInfo);
    else this.exitListeners.push(listener);
  }

  private finish(info: ExitInfo): void {
    if (this.exitInfo) return;
    this.exitInfo = info;
    for (const q of this.queued.splice(0)) q.cb?.(new Error(l10n.t('The agent is not connected.')));
    for (const l of this.exitListeners.splice(0)) l(info);
  }

  async stop(requested = true): Promise<ExitInfo> {
    this.stopRequested = requested;
    if (this.exitInfo) return this.exitInfo;
    const socket = this.socket;
    if (!socket) {
      // Still loading ws: it will not connect.
      this.finish({ code: null, signal: null, requested, closed: { code: 1000, reason: '' } });
      return this.exitInfo!;
    }
    if (socket.readyState === CONNECTING) socket.terminate();
    else socket.close(1000, 'client closing');
    const done = await Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), this.options.closeTimeoutMs ?? 2000))]);
    if (!done) socket.terminate();
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 1000))]);
    return this.exitInfo ?? { code: null, signal: null, requested, closed: { code: 1006, reason: '' } };
  }

  killNow(): void {
    this.stopRequested = true;
    this.socket?.terminate();
  }
}

/** The stored sign-in value (agents/signInStore.ts) that is an agent by URL's bearer token. */
export const REMOTE_TOKEN = 'ACP_REMOTE_TOKEN';

/** Client methods about this machine's files and processes: not declared to an agent by URL. */
export const LOCAL_ONLY_METHODS = /^(fs|terminal)\//;

/** For the log and the diagnostics. */
export const REMOTE_NOTE =
  "an agent by URL: its paths are not this machine's, so no client file system (fs/*) or terminal (terminal/*) is declared to it, and only MCP servers it can reach (http/sse, not on this machine's loopback) are offered";

/** The same, for an agent by URL with a pathMap. */
const mappedNote = (map: string) =>
  `an agent by URL with a pathMap (${map}): the client file system (fs/*) and terminal (terminal/*) are declared to it, each path it names is mapped to this machine and held to the session's folders, and only MCP servers it can reach (http/sse, not on this machine's loopback) are offered`;

/**
 * An agent by URL's spec: nothing is spawned and no environment is passed; the token Sign In stored (if any)
 * goes with the upgrade, and is made known to the log redaction first. Its pathMap is expanded for `folder`.
 */
export function remoteSpec(def: Pick<AgentDefinition, 'url' | 'pathMap'>, folder: string, token: string | undefined, secrets: { add(value: string): void }): SpawnSpec {
  if (token) secrets.add(token);
  const url = def.url!;
  const pathMap = def.pathMap ? expandPathMap(def.pathMap, folder) : undefined;
  return {
    command: url,
    args: [],
    cwd: folder,
    env: {},
    remote: { url, headers: token ? { Authorization: `Bearer ${token}` } : {}, ...(pathMap ? { pathMap } : {}) },
    launchNotes: [pathMap ? mappedNote(new PathMap(pathMap).describe()) : REMOTE_NOTE],
  };
}
