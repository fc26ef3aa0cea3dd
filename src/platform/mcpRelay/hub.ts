/**
 * The extension's end of the MCP relays: one local socket (a unix socket in a
 * private folder, or a named pipe on Windows), and per session a registration
 * with its own secret. A relay's first line must carry a registered secret
 * (compared in constant time) within `loginMs`; anything else ends the
 * connection. Connections not logged in yet, and each session's relays, are
 * capped (one session's agent cannot crowd out the others). What a relay says
 * is decoded as untrusted and handed to the session it belongs to.
 * No `vscode` import.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { LineSplitter } from '../../shared/lineSplitter';
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

export class McpRelayHub {
  private server: net.Server | undefined;
  private listening: Promise<string> | undefined;
  private dir: string | undefined;
  private readonly byHash = new Map<string, Registered>();
  private connections = 0;
  private pending = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly limits: Required<HubLimits>;

  constructor(
    private readonly log: (m: string) => void = () => undefined,
    limits: HubLimits = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** A registration for one session: relays started with its secret report to `listener`. */
  async register(listener: RelayListener): Promise<RelayRegistration> {
    const socket = await this.listen();
    const token = randomBytes(32).toString('hex');
    const hash = sha(token);
    this.byHash.set(hash, { token: Buffer.from(token), listener, live: new Set() });
    return {
      socket,
      token,
      dispose: () => {
        const reg = this.byHash.get(hash);
        this.byHash.delete(hash);
        for (const s of reg?.live ?? []) s.destroy();
      },
    };
  }

  private listen(): Promise<string> {
    this.listening ??= new Promise<string>((resolve, reject) => {
      const name = `acp-mcp-${randomBytes(8).toString('hex')}`;
      let where: string;
      if (process.platform === 'win32') where = `\\\\.\\pipe\\${name}`;
      else {
        this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-mcp-'));
        fs.chmodSync(this.dir, 0o700);
        where = path.join(this.dir, 'hub.sock');
      }
      const server = net.createServer((s) => this.accept(s));
      server.on('error', (err) => {
        this.log(`MCP relay hub: ${err.message}`);
        reject(err);
      });
      server.listen(where, () => resolve(where));
      server.unref();
      this.server = server;
    });
    return this.listening;
  }

  private accept(s: net.Socket): void {
    const id = ++this.connections;
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
    if (this.pending >= this.limits.pending) return void s.destroy();
    this.pending++;
    let waiting = true;
    const loggedIn = () => {
      if (!waiting) return;
      waiting = false;
      this.pending--;
      clearTimeout(login);
    };
    const login = setTimeout(() => s.destroy(), this.limits.loginMs);
    s.on('close', loggedIn);
    let owner: { listener: RelayListener; server: string } | undefined;
    let events = 0;
    const cut = () => {
      lines.close();
      s.destroy();
    };
    const lines = new LineSplitter(
      MAX_WIRE_LINE,
      (line) => {
        let v: unknown;
        try {
          v = JSON.parse(line);
        } catch {
          return cut();
        }
        if (!owner) {
          const reg = this.hello(v);
          loggedIn();
          if (!reg || reg.registered.live.size >= this.limits.perSession) return cut();
          const { live } = reg.registered;
          live.add(s);
          s.on('close', () => live.delete(s));
          owner = reg;
          return;
        }
        const e = decodeEvent(v);
        if (!e || ++events > MAX_EVENTS) return cut();
        try {
          owner.listener(owner.server, e, id);
        } catch (err) {
          this.log(`MCP relay hub: a listener failed: ${String(err)}`);
        }
      },
      undefined,
      { onTooLong: cut },
    );
    s.on('data', (chunk: Buffer) => lines.push(chunk));
  }

  /** The registration a hello names, when its secret is one of ours. */
  private hello(v: unknown): { listener: RelayListener; server: string; registered: Registered } | undefined {
    if (typeof v !== 'object' || v === null) return undefined;
    const { token, server } = v as Record<string, unknown>;
    if (typeof token !== 'string' || typeof server !== 'string' || server.length > 1000) return undefined;
    const reg = this.byHash.get(sha(token));
    const given = Buffer.from(token);
    if (!reg || reg.token.length !== given.length || !timingSafeEqual(reg.token, given)) return undefined;
    return { listener: reg.listener, server, registered: reg };
  }

  dispose(): void {
    for (const s of this.sockets) s.destroy();
    this.server?.close();
    this.byHash.clear();
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

interface Registered {
  readonly token: Buffer;
  readonly listener: RelayListener;
  /** Its relays' connections, open now. */
  readonly live: Set<net.Socket>;
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
