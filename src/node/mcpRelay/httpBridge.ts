/**
 * Stdio MCP servers offered over loopback Streamable HTTP (MCP 2025-03-26 /
 * 2025-06-18 transport), for agents that take http MCP servers but refuse stdio
 * ones (Copilot CLI). One `node:http` server bound to 127.0.0.1 on a random
 * port; per session a registration with its own 256-bit bearer token (compared
 * in constant time; anything else is 401) and one path per server. Host and
 * Origin must name the loopback address (no DNS rebinding). Each MCP session
 * (an `initialize` POST) starts the server's process (the relay, which reports
 * its status as for stdio) and gets an `Mcp-Session-Id`; the client's JSON-RPC
 * goes to its stdin unchanged (one line), its stdout lines go back unchanged,
 * as a JSON body or as SSE events. No GET stream is served (405). Bodies,
 * lines, pending requests, sessions and buffered output are all bounded. The
 * token is never logged here. No `vscode` import.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LineSplitter } from '../../shared/lineSplitter';
import { oneLine } from '../../shared/nativeText';

export interface HttpBridgeLimits {
  /** A POST body larger than this is refused (413). */
  readonly maxBody?: number;
  /** A server's stdout line larger than this ends its MCP session. */
  readonly maxLine?: number;
  /** MCP sessions (server processes) of one server at once: the oldest goes when another starts. */
  readonly sessionsPerServer?: number;
  /** Requests of one MCP session awaiting their answer at once. */
  readonly pendingPerSession?: number;
  /** Bytes an SSE or JSON answer may hold unread by the client before its connection is cut. */
  readonly maxBuffered?: number;
}

const DEFAULTS: Required<HttpBridgeLimits> = { maxBody: 4 * 1024 * 1024, maxLine: 32 * 1024 * 1024, sessionsPerServer: 4, pendingPerSession: 512, maxBuffered: 64 * 1024 * 1024 };

/** One server a registration serves: `start()` runs its process (stdin/stdout pipes: newline-delimited JSON-RPC). */
export interface BridgedServer {
  readonly name: string;
  start(): ChildProcess;
}

export interface HttpRegistration {
  /** The session's bearer token: goes only into the agent's `headers` (and the redaction list). */
  readonly token: string;
  /** Each server's URL, in the order given. */
  readonly urls: readonly string[];
  dispose(): void;
}

const SESSION_HEADER = 'mcp-session-id';
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const idKey = (id: unknown): string | undefined => (typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${String(id)}` : undefined);
const sha = (s: string | Buffer): Buffer => createHash('sha256').update(s).digest();

/** What one HTTP answer waits for, and how it is written. */
interface Waiter {
  readonly res: http.ServerResponse;
  readonly sse: boolean;
  /** The requests' ids still unanswered, by key (their ids as sent). */
  readonly ids: Map<string, unknown>;
  readonly batch: boolean;
  readonly lines: string[];
  readonly headers: Record<string, string>;
  done: boolean;
}

class McpSession {
  readonly pending = new Map<string, Waiter>();
  /** SSE answers open now (server notifications and requests go to the newest). */
  readonly streams = new Set<Waiter>();
  private dropped = 0;
  closed = false;

  constructor(
    readonly id: string,
    private readonly child: ChildProcess,
    private readonly limits: Required<HttpBridgeLimits>,
    private readonly log: (m: string) => void,
    private readonly label: string,
    onGone: () => void,
  ) {
    const lines = new LineSplitter(
      limits.maxLine,
      (line) => {
        if (line !== '') this.fromServer(line);
      },
      undefined,
      { onTooLong: () => this.close('its answer was larger than the bridge passes on') },
    );
    child.stdout?.on('data', (c: Buffer) => lines.push(c));
    child.stderr?.resume();
    child.stdin?.on('error', () => undefined);
    child.on('error', (err) => this.close(`it could not be started: ${err.message}`));
    child.on('close', () => {
      this.close('the MCP server exited');
      onGone();
    });
  }

  /** The client's message(s), as one line, to the server. */
  write(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }

  private fromServer(line: string): void {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return; // not JSON-RPC: ignored, as stdio clients do
    }
    const batch = Array.isArray(v);
    const msgs = (batch ? (v as unknown[]) : [v]).filter(isObj);
    const isAnswer = (m: Record<string, unknown>) => !('method' in m) && ('result' in m || 'error' in m);
    if (msgs.length > 0 && msgs.every(isAnswer)) {
      // Each answer to the HTTP answer awaiting it: a single one unchanged; those of a batch one by one.
      for (const m of msgs) {
        const key = idKey(m.id);
        const w = key === undefined ? undefined : this.pending.get(key);
        if (!w || key === undefined) continue;
        this.pending.delete(key);
        w.ids.delete(key);
        this.deliver(w, batch ? JSON.stringify(m) : line);
        if (w.ids.size === 0) finish(w);
      }
      return;
    }
    // A notification or a request of the server's: on the newest open stream, if any.
    const stream = [...this.streams].at(-1);
    if (stream) return this.deliver(stream, line);
    this.dropped++;
    if (this.dropped === 1 || this.dropped % 100 === 0) this.log(`MCP HTTP bridge: "${this.label}": ${this.dropped} message(s) of the server dropped (no stream open)`);
    // A request nobody can answer is refused, so that the server does not wait for ever.
    for (const m of msgs) if (typeof m.method === 'string' && idKey(m.id) !== undefined) this.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'The client has no open stream for requests of the server' } }));
  }

  private deliver(w: Waiter, line: string): void {
    if (w.done) return;
    if (!w.sse) {
      w.lines.push(line);
      return;
    }
    if (!w.res.headersSent) w.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...w.headers });
    w.res.write(`event: message\ndata: ${line}\n\n`);
    if (w.res.writableLength > this.limits.maxBuffered) w.res.destroy();
  }

  /** An HTTP answer that waits for `ids`. */
  wait(w: Waiter): string | undefined {
    for (const id of w.ids.keys()) if (this.pending.has(id)) return 'a request with this id is already awaiting its answer';
    if (this.pending.size + w.ids.size > this.limits.pendingPerSession) return 'too many requests await their answers';
    for (const id of w.ids.keys()) this.pending.set(id, w);
    if (w.sse) this.streams.add(w);
    w.res.on('close', () => {
      // A client that goes away does not cancel its requests (MCP); their answers are dropped.
      for (const id of w.ids.keys()) if (this.pending.get(id) === w) this.pending.delete(id);
      this.streams.delete(w);
      w.done = true;
    });
    return undefined;
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const [key, w] of this.pending) {
      this.deliver(w, JSON.stringify({ jsonrpc: '2.0', id: w.ids.get(key), error: { code: -32000, message: `MCP server unavailable: ${oneLine(reason)}` } }));
      w.ids.delete(key);
    }
    for (const w of new Set(this.pending.values())) finish(w);
    this.pending.clear();
    for (const w of this.streams) finish(w);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }
}

function finish(w: Waiter): void {
  if (w.done) return;
  w.done = true;
  if (w.sse) {
    if (!w.res.headersSent) w.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...w.headers });
    w.res.end();
    return;
  }
  const body = w.batch ? `[${w.lines.join(',')}]` : (w.lines[0] ?? '');
  w.res.writeHead(200, { 'content-type': 'application/json', ...w.headers });
  w.res.end(body);
}

interface Registration {
  readonly tokenHash: Buffer;
  readonly servers: readonly BridgedServer[];
  /** MCP sessions by id, per server index. */
  readonly sessions: Map<string, McpSession>[];
}

export class McpHttpBridge {
  private server: http.Server | undefined;
  private listening: Promise<number> | undefined;
  private readonly regs = new Map<string, Registration>();
  private readonly limits: Required<HttpBridgeLimits>;

  constructor(
    private readonly log: (m: string) => void = () => undefined,
    limits: HttpBridgeLimits = {},
  ) {
    this.limits = { ...DEFAULTS, ...limits };
  }

  /** Serves `servers` for one session; `dispose()` ends their MCP sessions and their processes. */
  async register(servers: readonly BridgedServer[]): Promise<HttpRegistration> {
    const port = await this.listen();
    const token = randomBytes(32).toString('hex');
    const id = randomBytes(12).toString('hex');
    const reg: Registration = { tokenHash: sha(token), servers: [...servers], sessions: servers.map(() => new Map()) };
    this.regs.set(id, reg);
    return {
      token,
      urls: servers.map((_, i) => `http://127.0.0.1:${port}/mcp/${id}/${i}`),
      dispose: () => {
        this.regs.delete(id);
        for (const m of reg.sessions) for (const s of m.values()) s.close('the session ended');
      },
    };
  }

  private listen(): Promise<number> {
    this.listening ??= new Promise<number>((resolve, reject) => {
      const server = http.createServer((req, res) => this.handle(req, res));
      server.headersTimeout = 10_000;
      server.requestTimeout = 60_000;
      server.maxHeadersCount = 100;
      server.maxConnections = 512;
      server.on('error', (err) => {
        this.log(`MCP HTTP bridge: ${err.message}`);
        reject(err);
      });
      server.listen({ host: '127.0.0.1', port: 0 }, () => resolve((server.address() as AddressInfo).port));
      server.unref();
      this.server = server;
    });
    return this.listening;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.on('error', () => undefined);
    req.on('error', () => res.destroy());
    const port = (this.server?.address() as AddressInfo | null)?.port;
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    // DNS rebinding: a page of another site reaching this port names its own host (and origin).
    if (!hosts.includes((req.headers.host ?? '').toLowerCase())) return plain(res, 403, 'Forbidden host');
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) return plain(res, 403, 'Forbidden origin');
    const m = /^\/mcp\/([0-9a-f]{24})\/(\d{1,4})$/.exec((req.url ?? '').split('?')[0] ?? '');
    const reg = m ? this.regs.get(m[1]!) : undefined;
    if (!reg || !this.authorized(reg, req.headers.authorization)) {
      res.setHeader('www-authenticate', 'Bearer');
      return plain(res, 401, 'Unauthorized');
    }
    const index = Number(m![2]);
    const server = reg.servers[index];
    const sessions = reg.sessions[index];
    if (!server || !sessions) return plain(res, 404, 'Not found');
    const sid = req.headers[SESSION_HEADER];
    if (req.method === 'DELETE') {
      const s = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (!s) return plain(res, 404, 'Unknown session');
      s.close('the client ended the session');
      sessions.delete(s.id);
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST, DELETE');
      return plain(res, 405, 'Method not allowed');
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return plain(res, 415, 'Content-Type must be application/json');
    const accept = (req.headers.accept ?? '*/*').toLowerCase();
    const sseOk = accept.includes('text/event-stream');
    if (!sseOk && !accept.includes('application/json') && !accept.includes('*/*')) return plain(res, 406, 'Not acceptable');
    readBody(req, this.limits.maxBody, (body) => {
      if (body === undefined) {
        res.setHeader('connection', 'close');
        return plain(res, 413, 'Body too large');
      }
      this.post(server, sessions, typeof sid === 'string' ? sid : undefined, body, sseOk, res);
    });
  }

  private authorized(reg: Registration, header: string | undefined): boolean {
    const given = /^Bearer ([^\s]+)$/i.exec(header ?? '')?.[1];
    // Both hashed: equal lengths for the constant-time compare, whatever was sent.
    return given !== undefined && timingSafeEqual(sha(given), reg.tokenHash);
  }

  private post(server: BridgedServer, sessions: Map<string, McpSession>, sid: string | undefined, body: Buffer, sseOk: boolean, res: http.ServerResponse): void {
    const text = body.toString('utf8');
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return rpcError(res, 400, -32700, 'Parse error');
    }
    const batch = Array.isArray(v);
    const msgs = batch ? (v as unknown[]) : [v];
    if (msgs.length === 0 || !msgs.every(isObj)) return rpcError(res, 400, -32600, 'Invalid request');
    const requests = msgs.filter((x) => typeof x.method === 'string' && x.id !== undefined && x.id !== null);
    if (requests.some((x) => idKey(x.id) === undefined)) return rpcError(res, 400, -32600, 'Invalid request id');
    const init = requests.some((x) => x.method === 'initialize');
    let session: McpSession | undefined;
    const headers: Record<string, string> = {};
    if (init) {
      if (msgs.length !== 1) return rpcError(res, 400, -32600, 'initialize must be sent alone');
      session = this.start(server, sessions);
      headers[SESSION_HEADER] = session.id;
    } else if (sid === undefined) {
      return rpcError(res, 400, -32600, 'Mcp-Session-Id header required');
    } else {
      session = sessions.get(sid);
      if (!session || session.closed) return rpcError(res, 404, -32001, 'Session not found');
    }
    // Passed on unchanged; only a body spread over several lines is put on one (stdio frames are lines).
    const line = /[\r\n]/.test(text) ? JSON.stringify(v) : text;
    if (requests.length === 0) {
      session.write(line);
      res.writeHead(202).end();
      return;
    }
    const w: Waiter = { res, sse: sseOk, ids: new Map(requests.map((x) => [idKey(x.id)!, x.id])), batch, lines: [], headers, done: false };
    const refused = session.wait(w);
    if (refused) return rpcError(res, 400, -32600, refused);
    if (w.sse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
      res.flushHeaders();
    }
    session.write(line);
  }

  private start(server: BridgedServer, sessions: Map<string, McpSession>): McpSession {
    while (sessions.size >= this.limits.sessionsPerServer) {
      const [oldest, s] = sessions.entries().next().value as [string, McpSession];
      s.close('the client started too many sessions');
      sessions.delete(oldest);
    }
    const id = randomBytes(16).toString('hex');
    let child: ChildProcess;
    try {
      child = server.start();
    } catch (err) {
      child = failedChild(err);
    }
    const s = new McpSession(id, child, this.limits, this.log, oneLine(server.name, 100), () => {
      if (sessions.get(id) === s) sessions.delete(id);
    });
    sessions.set(id, s);
    return s;
  }

  dispose(): void {
    for (const reg of this.regs.values()) for (const m of reg.sessions) for (const s of m.values()) s.close('the extension stopped');
    this.regs.clear();
    this.server?.closeAllConnections();
    this.server?.close();
  }
}

function plain(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function rpcError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** The body, or undefined once it is over `max` bytes (the rest is not read). */
function readBody(req: http.IncomingMessage, max: number, done: (body: Buffer | undefined) => void): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) return done(undefined);
  const parts: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (c: Buffer) => {
    if (over) return;
    size += c.length;
    if (size > max) {
      over = true;
      parts.length = 0;
      done(undefined);
      return;
    }
    parts.push(c);
  });
  req.on('end', () => {
    if (!over) done(Buffer.concat(parts));
  });
}

/** A stand-in for a process that could not even be spawned: it fails at once. */
function failedChild(err: unknown): ChildProcess {
  const e = new EventEmitter() as unknown as ChildProcess;
  setImmediate(() => {
    e.emit('error', err instanceof Error ? err : new Error(String(err)));
    e.emit('close', null, null);
  });
  return e;
}
