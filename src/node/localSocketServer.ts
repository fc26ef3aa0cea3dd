/**
 * The one local socket server with a secret handshake, for the MCP relays' hub
 * (`mcpRelay/hub.ts`) and the editor-context MCP server
 * (`services/editorContext/server.ts`): a unix socket in a private (0700)
 * temporary folder, or a named pipe on Windows — never a TCP port, so no web
 * page can reach it and no other user can open it.
 *
 * Each session `open`s with a secret of its own (32 random bytes, hex). A
 * connection's first line is its login: it must name a session's secret
 * (looked up by its sha256, then compared in constant time) within `loginMs`,
 * and be at most `maxLoginBytes` long; anything else ends the connection
 * without a byte written. Connections open at once (`maxConnections`), those
 * not logged in yet (`maxPending`) and each session's (`perSession`) are
 * capped, so one session's agent cannot crowd out the others. After the login
 * the session's `serve` frames the rest of the connection in lines (the one
 * bounded `LineSplitter`). No `vscode` import.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { LineSplitter } from '../shared/lineSplitter';

export interface LocalSocketOptions<L> {
  /** Names the pipe and the private folder (`acp-mcp`: `\\.\pipe\acp-mcp-<random>`, `<tmp>/acp-mcp-XXXXXX/s`). */
  readonly name: string;
  /** Starts its log lines (`MCP relay hub`, `editor context`). */
  readonly label: string;
  readonly log: (message: string) => void;
  /** A connection must log in (its first line) within this long. */
  readonly loginMs: number;
  /** The longest login line (bytes); a longer one ends the connection. */
  readonly maxLoginBytes: number;
  /** Connections of one session at once. */
  readonly perSession: number;
  /** Connections open at once, logged in or not (none: no cap). */
  readonly maxConnections?: number;
  /** Connections not logged in yet, at once (none: no cap). */
  readonly maxPending?: number;
  /** Reads a login line: the secret it presents and what else it says; undefined ends the connection. */
  readonly parseLogin: (line: string) => { readonly secret: string; readonly login: L } | undefined;
}

/** A logged-in connection. */
export interface LocalConnection {
  /** Counts every connection the server accepted, from 1. */
  readonly id: number;
  readonly socket: net.Socket;
  /** Ends it at once (what is buffered is dropped). */
  cut(): void;
}

/** What serves a logged-in connection, line by line. */
export interface LineHandler {
  /** The longest line (bytes) from now on. */
  readonly maxLineBytes: number;
  line(text: string): void;
  /** A line grew over `maxLineBytes` (it is dropped); without this, the connection is cut. */
  tooLong?(): void;
}

export interface LocalSession {
  /** The address to connect to (the socket's path, or the pipe's name). */
  readonly address: string;
  /** The secret its connections log in with: only for the clients' environment (and the redaction list). */
  readonly secret: string;
  /** No new login with its secret; its connections are ended. */
  dispose(): void;
}

interface Session<L> {
  readonly secret: Buffer;
  readonly serve: (conn: LocalConnection, login: L) => LineHandler;
  /** Its connections, open now. */
  readonly live: Set<net.Socket>;
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

export class LocalSocketServer<L> {
  private server: net.Server | undefined;
  private listening: Promise<string> | undefined;
  private dir: string | undefined;
  /** By sha256 of the secret. */
  private readonly sessions = new Map<string, Session<L>>();
  private readonly sockets = new Set<net.Socket>();
  private accepted = 0;
  private pending = 0;
  private disposed = false;

  constructor(private readonly opts: LocalSocketOptions<L>) {}

  /** A session: each connection that logs in with its secret is handed to `serve`. */
  async open(serve: (conn: LocalConnection, login: L) => LineHandler): Promise<LocalSession> {
    const address = await this.listen();
    const secret = randomBytes(32).toString('hex');
    const key = sha(secret);
    const session: Session<L> = { secret: Buffer.from(secret), serve, live: new Set() };
    this.sessions.set(key, session);
    return {
      address,
      secret,
      dispose: () => {
        if (this.sessions.get(key) === session) this.sessions.delete(key);
        for (const s of session.live) s.destroy();
      },
    };
  }

  /** Where it listens: started on the first call. */
  listen(): Promise<string> {
    if (this.disposed) return Promise.reject(new Error(`${this.opts.label}: closed`));
    this.listening ??= new Promise<string>((resolve, reject) => {
      const name = `${this.opts.name}-${randomBytes(12).toString('hex')}`;
      let address: string;
      if (process.platform === 'win32') address = `\\\\.\\pipe\\${name}`;
      else {
        // mkdtemp makes the folder 0700 (chmod again, whatever the umask): only this user reaches the socket.
        this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `${this.opts.name}-`));
        fs.chmodSync(this.dir, 0o700);
        address = path.join(this.dir, 's');
      }
      const server = net.createServer((s) => this.accept(s));
      if (this.opts.maxConnections !== undefined) server.maxConnections = this.opts.maxConnections;
      server.once('error', reject);
      server.listen(address, () => {
        server.off('error', reject);
        server.on('error', (err) => this.opts.log(`${this.opts.label}: ${err.message}`));
        resolve(address);
      });
      server.unref();
      this.server = server;
    });
    return this.listening;
  }

  private accept(s: net.Socket): void {
    const id = ++this.accepted;
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
    if (this.opts.maxPending !== undefined && this.pending >= this.opts.maxPending) return void s.destroy();
    this.pending++;
    let waiting = true;
    const loggedIn = () => {
      if (!waiting) return;
      waiting = false;
      this.pending--;
      clearTimeout(timer);
    };
    const timer = setTimeout(() => s.destroy(), this.opts.loginMs);
    s.on('close', loggedIn);
    const conn: LocalConnection = {
      id,
      socket: s,
      cut: () => {
        lines.close();
        s.destroy();
      },
    };
    let handler: LineHandler | undefined;
    const lines = new LineSplitter(
      this.opts.maxLoginBytes,
      (line) => {
        if (handler) return handler.line(line);
        loggedIn();
        const login = this.login(line);
        if (!login) return conn.cut();
        const { session } = login;
        if (session.live.size >= this.opts.perSession) {
          this.opts.log(`${this.opts.label}: a session already has ${this.opts.perSession} connections; another was refused`);
          return conn.cut();
        }
        session.live.add(s);
        s.on('close', () => session.live.delete(s));
        handler = session.serve(conn, login.login);
        lines.maxLineBytes = handler.maxLineBytes;
      },
      undefined,
      { onTooLong: () => (handler?.tooLong ? handler.tooLong() : conn.cut()) },
    );
    s.on('data', (chunk: Buffer) => lines.push(chunk));
  }

  /** The session a login line names, when its secret is one of ours. */
  private login(line: string): { session: Session<L>; login: L } | undefined {
    const parsed = this.opts.parseLogin(line);
    if (!parsed) return undefined;
    const session = this.sessions.get(sha(parsed.secret));
    const given = Buffer.from(parsed.secret);
    if (!session || session.secret.length !== given.length || !timingSafeEqual(session.secret, given)) return undefined;
    return { session, login: parsed.login };
  }

  /** Ends every connection, stops listening and removes the private folder. */
  dispose(): void {
    this.disposed = true;
    for (const s of this.sockets) s.destroy();
    this.sessions.clear();
    this.server?.close();
    this.server = undefined;
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
