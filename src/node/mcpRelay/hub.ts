/**
 * The extension's end of the MCP relays: one local socket
 * (`node/localSocketServer.ts`: a unix socket in a private folder, or a
 * named pipe on Windows), and per session a registration with its own secret.
 * A relay's first line (its hello, `wire.ts`) must carry a registered secret
 * within `loginMs`; anything else ends the connection. Connections not logged
 * in yet, and each session's relays, are capped (one session's agent cannot
 * crowd out the others). What a relay says is decoded as untrusted and handed
 * to the session it belongs to. No `vscode` import.
 */
import { LocalSocketServer, type LineHandler, type LocalConnection } from '../localSocketServer';
import { decodeEvent, MAX_WIRE_LINE, type RelayEvent } from './wire';

export interface RelayRegistration {
  readonly socket: string;
  /** The session's secret: goes only into the relays' environment (and the redaction list). */
  readonly token: string;
  dispose(): void;
}

/** A relay's connection: the server it speaks for, and each event in order. */
export type RelayListener = (server: string, event: RelayEvent, connection: number) => void;

/** Events one relay may send at most (a relay that floods is cut off). */
const MAX_EVENTS = 10_000;

export interface HubLimits {
  /** A connection must log in (its first line) within this long. */
  readonly loginMs?: number;
  /** Connections of one session (one registration) open at once: each stdio server of it is one. */
  readonly perSession?: number;
  /** Connections not logged in yet, at once. */
  readonly pending?: number;
}

const DEFAULT_LIMITS: Required<HubLimits> = { loginMs: 5_000, perSession: 128, pending: 64 };

/** A relay's hello: `{ token, server }`, the server's name at most 1000 characters. */
function parseHello(line: string): { secret: string; login: string } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const { token, server } = v as Record<string, unknown>;
  if (typeof token !== 'string' || typeof server !== 'string' || server.length > 1000) return undefined;
  return { secret: token, login: server };
}

export class McpRelayHub {
  private readonly server: LocalSocketServer<string>;

  constructor(
    private readonly log: (m: string) => void = () => undefined,
    limits: HubLimits = {},
  ) {
    const { loginMs, perSession, pending } = { ...DEFAULT_LIMITS, ...limits };
    this.server = new LocalSocketServer({ name: 'acp-mcp', label: 'MCP relay hub', log, loginMs, perSession, maxPending: pending, maxLoginBytes: MAX_WIRE_LINE, parseLogin: parseHello });
  }

  /** A registration for one session: relays started with its secret report to `listener`. */
  async register(listener: RelayListener): Promise<RelayRegistration> {
    const session = await this.server.open((conn, server) => this.relay(conn, server, listener));
    return { socket: session.address, token: session.secret, dispose: () => session.dispose() };
  }

  /** One relay's events after its hello: each checked, at most `MAX_EVENTS`; garbage cuts it off. */
  private relay(conn: LocalConnection, server: string, listener: RelayListener): LineHandler {
    let events = 0;
    return {
      maxLineBytes: MAX_WIRE_LINE,
      line: (line) => {
        let v: unknown;
        try {
          v = JSON.parse(line);
        } catch {
          return conn.cut();
        }
        const e = decodeEvent(v);
        if (!e || ++events > MAX_EVENTS) return conn.cut();
        try {
          listener(server, e, conn.id);
        } catch (err) {
          this.log(`MCP relay hub: a listener failed: ${String(err)}`);
        }
      },
    };
  }

  dispose(): void {
    this.server.dispose();
  }
}
