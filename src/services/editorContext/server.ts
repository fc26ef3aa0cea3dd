/**
 * The editor's MCP server, local only: one listener per extension host
 * (`node/localSocketServer.ts`: a Unix socket in a private (0700)
 * temporary folder, or a named pipe on Windows — never a TCP port, so no web
 * page can reach it and no other user can open it). Agents start the stdio
 * shim (`shim.ts`) the extension ships; the shim connects here and sends its
 * session's secret as its first line. A wrong or missing secret (or none
 * within `AUTH_TIMEOUT_MS`) closes the connection without a byte written. A
 * secret names one session's grant: its folders bound what the tools answer,
 * and it holds at most `MAX_PER_GRANT` of the server's connections. No
 * `vscode` import.
 */
import { LocalSocketServer, type LineHandler, type LocalConnection } from '../../node/localSocketServer';
import type { EditorPort } from './editorPort';
import { MAX_LINE_BYTES, MAX_TOOLS_LINE_BYTES, McpDispatcher } from './mcpDispatcher';
import type { ClientRequestHandler } from '../../acp/clientRequests';
import { EditorTools } from './tools';

const AUTH_TIMEOUT_MS = 5_000;
/** The login line: the secret (64 hex digits); a longer one ends the connection. */
const MAX_LOGIN_BYTES = 200;
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

/** The shim's login: the secret alone, 64 hex digits. */
function parseLogin(line: string): { secret: string; login: undefined } | undefined {
  const secret = line.trim();
  return /^[0-9a-f]{64}$/.test(secret) ? { secret, login: undefined } : undefined;
}

export class EditorContextServer {
  private readonly server: LocalSocketServer<undefined>;
  private listening: Promise<string> | undefined;

  constructor(private readonly opts: EditorContextServerOptions) {
    this.server = new LocalSocketServer({ name: 'acp-ec', label: 'editor context', log: opts.log, loginMs: AUTH_TIMEOUT_MS, maxLoginBytes: MAX_LOGIN_BYTES, maxConnections: MAX_CONNECTIONS, perSession: MAX_PER_GRANT, parseLogin });
  }

  /** A new grant for a session whose folders are `roots()` (read at every call); `client`: its file and terminal services, while on. */
  async grant(roots: () => readonly string[], client: () => ClientRequestHandler | undefined = () => undefined): Promise<EditorContextGrant> {
    this.listening ??= this.server.listen().then((address) => {
      this.opts.log(`editor context: listening on ${address}`);
      return address;
    });
    await this.listening;
    const session = await this.server.open((conn) => this.serve(conn, roots, client));
    return {
      token: session.secret,
      entry: {
        name: SERVER_NAME,
        command: this.opts.node,
        args: [this.opts.shim],
        env: [
          { name: 'ELECTRON_RUN_AS_NODE', value: '1' },
          { name: SOCKET_ENV, value: session.address },
          { name: TOKEN_ENV, value: session.secret },
        ],
      },
      dispose: () => session.dispose(),
    };
  }

  /** One shim's MCP conversation, bounded by its session's folders. */
  private serve({ socket }: LocalConnection, roots: () => readonly string[], client: () => ClientRequestHandler | undefined): LineHandler {
    // With the file tools on at connection time, write_file's content fits in one line.
    const maxLineBytes = client() ? MAX_TOOLS_LINE_BYTES : MAX_LINE_BYTES;
    const tools = new EditorTools(roots, this.opts.port, client);
    const dispatcher = new McpDispatcher({
      maxLineBytes,
      tools,
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
    socket.on('close', () => {
      dispatcher.close();
      tools.close();
    });
    return { maxLineBytes, line: (line) => dispatcher.line(line), tooLong: () => dispatcher.tooLong() };
  }

  dispose(): void {
    this.server.dispose();
  }
}
