/**
 * The editor's MCP server, local only: one listener per extension host on a
 * Unix socket in a private (0700) temporary folder, or a named pipe on
 * Windows — never a TCP port, so no web page can reach it and no other user
 * can open it. Agents start the stdio shim (`shim.ts`) the extension ships; the
 * shim connects here and sends its session's secret as its first line. A
 * wrong or missing secret (or none within `AUTH_TIMEOUT_MS`) closes the
 * connection without a byte written. A secret names one session's grant: its
 * folders bound what the tools answer, and it holds at most `MAX_PER_GRANT`
 * of the server's connections. No `vscode` import.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EditorPort } from './editorPort';
import { McpDispatcher } from './mcpDispatcher';
import { EditorTools } from './tools';

const AUTH_TIMEOUT_MS = 5_000;
/** Connections open at once, over all sessions (each agent start of the server is one). */
const MAX_CONNECTIONS = 64;
/** Connections of one session (one grant) at once: one session's agent cannot take every connection. */
export const MAX_PER_GRANT = 8;
/** Answers waiting to be written to a slow reader before its input is paused. */
const HIGH_WATER_BYTES = 1024 * 1024;
const SOCKET_ENV = 'ACP_EDITOR_CONTEXT_SOCKET';
const TOKEN_ENV = 'ACP_EDITOR_CONTEXT_TOKEN';
export const SERVER_NAME = 'vscode-editor';

/** One session's access: the secret its agent's shim presents, and the folders it may see. */
export interface EditorContextGrant {
  readonly token: string;
  /** The stdio MCP server entry to hand the agent (ACP's `McpServer`, stdio form). */
  readonly entry: { name: string; command: string; args: string[]; env: { name: string; value: string }[] };
  dispose(): void;
}

export interface EditorContextServerOptions {
  readonly port: EditorPort;
  /** The shim's bundle, run by `node` (the extension host's, as Node). */
  readonly shim: string;
  readonly node: string;
  readonly version: string;
  readonly log: (message: string) => void;
}

interface GrantState {
  readonly roots: () => readonly string[];
  readonly sockets: Set<net.Socket>;
}

const digest = (token: string) => createHash('sha256').update(token).digest();

export class EditorContextServer {
  private server: net.Server | undefined;
  private dir: string | undefined;
  private listening: Promise<string> | undefined;
  /** By sha256 of the secret. */
  private readonly grants = new Map<string, GrantState>();
  private readonly sockets = new Set<net.Socket>();
  private disposed = false;

  constructor(private readonly opts: EditorContextServerOptions) {}

  /** A new grant for a session whose folders are `roots()` (read at every call). */
  async grant(roots: () => readonly string[]): Promise<EditorContextGrant> {
    const address = await this.listen();
    const token = randomBytes(32).toString('hex');
    const key = digest(token).toString('hex');
    const state: GrantState = { roots, sockets: new Set() };
    this.grants.set(key, state);
    return {
      token,
      entry: {
        name: SERVER_NAME,
        command: this.opts.node,
        args: [this.opts.shim],
        env: [
          { name: 'ELECTRON_RUN_AS_NODE', value: '1' },
          { name: SOCKET_ENV, value: address },
          { name: TOKEN_ENV, value: token },
        ],
      },
      dispose: () => {
        this.grants.delete(key);
        for (const s of state.sockets) s.destroy();
      },
    };
  }

  private listen(): Promise<string> {
    if (this.disposed) return Promise.reject(new Error('the editor context server is closed'));
    this.listening ??= new Promise<string>((resolve, reject) => {
      let address: string;
      if (process.platform === 'win32') address = `\\\\.\\pipe\\acp-editor-context-${randomBytes(12).toString('hex')}`;
      else {
        // mkdtemp makes the folder 0700: only this user can reach the socket.
        this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ec-'));
        address = path.join(this.dir, 's');
      }
      const server = net.createServer((socket) => this.accept(socket));
      server.maxConnections = MAX_CONNECTIONS;
      server.once('error', reject);
      server.listen(address, () => {
        server.off('error', reject);
        server.on('error', (err) => this.opts.log(`editor context: ${err.message}`));
        this.server = server;
        this.opts.log(`editor context: listening on ${address}`);
        resolve(address);
      });
    });
    return this.listening;
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), AUTH_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(10);
      if (nl === -1) {
        if (head.length > 200) socket.destroy();
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      const grant = this.authenticate(head.subarray(0, nl).toString('latin1').trim());
      if (!grant) {
        socket.destroy();
        return;
      }
      this.serve(socket, grant, head.subarray(nl + 1));
    };
    socket.on('data', onData);
  }

  private authenticate(token: string): GrantState | undefined {
    if (!/^[0-9a-f]{64}$/.test(token)) return undefined;
    const want = digest(token);
    for (const [key, grant] of this.grants) if (timingSafeEqual(Buffer.from(key, 'hex'), want)) return grant;
    return undefined;
  }

  private serve(socket: net.Socket, grant: GrantState, rest: Buffer): void {
    if (grant.sockets.size >= MAX_PER_GRANT) {
      this.opts.log(`editor context: a session already has ${MAX_PER_GRANT} connections; another was refused`);
      socket.destroy();
      return;
    }
    grant.sockets.add(socket);
    socket.on('close', () => grant.sockets.delete(socket));
    const dispatcher = new McpDispatcher({
      tools: new EditorTools(grant.roots, this.opts.port),
      version: this.opts.version,
      log: this.opts.log,
      write: (line) => {
        if (socket.destroyed) return;
        socket.write(`${line}\n`);
        // A client that sends without reading: stop reading it until it catches up.
        if (socket.writableLength > HIGH_WATER_BYTES && !socket.isPaused()) {
          socket.pause();
          socket.once('drain', () => socket.resume());
        }
      },
    });
    socket.on('close', () => dispatcher.close());
    socket.on('data', (chunk: Buffer) => dispatcher.receive(chunk));
    if (rest.length) dispatcher.receive(rest);
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.sockets) s.destroy();
    this.grants.clear();
    this.server?.close();
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.server = undefined;
  }
}
