/**
 * What the MCP relay (`main.ts`, shipped as dist/mcpRelay.js) and the extension's
 * hub (`hub.ts`) say to each other over a local socket, one JSON line each: the
 * relay's hello (its session's secret and the server's name), then what became
 * of the server. Every line is decoded as untrusted (any local process could
 * connect). No `vscode` import.
 */

/** The relay's settings, in this one environment variable (JSON): never logged, never passed on to the server. */
export const RELAY_ENV = 'ACP_MCP_RELAY';

export interface RelayConfig {
  /** The hub's unix socket or named pipe. */
  readonly socket: string;
  /** The session's secret. */
  readonly token: string;
  /** The server's name, as the session offered it. */
  readonly server: string;
  /**
   * The server's own env (the user's definition): applied to the server's process
   * only, never to the relay's (NODE_OPTIONS or LD_PRELOAD there would run in the relay).
   */
  readonly env?: readonly { readonly name: string; readonly value: string }[];
}

export type RelayEvent =
  | { readonly e: 'spawned' }
  | { readonly e: 'spawnFailed'; readonly message: string }
  | { readonly e: 'initialized'; readonly serverName?: string }
  | { readonly e: 'initFailed'; readonly message: string }
  | { readonly e: 'tools'; readonly count: number; readonly names: readonly string[] }
  | { readonly e: 'exit'; readonly code: number | null; readonly signal: string | null };

/** At most this many tool names are reported (and each at most this long). */
export const MAX_NAMES = 50;
export const MAX_TEXT = 200;
/** A line longer than this from a relay ends its connection. */
export const MAX_WIRE_LINE = 64 * 1024;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v.slice(0, MAX_TEXT) : undefined);

export function parseConfig(raw: string | undefined): RelayConfig | undefined {
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    if (!isObj(v) || typeof v.socket !== 'string' || typeof v.token !== 'string' || typeof v.server !== 'string') return undefined;
    const env = Array.isArray(v.env) ? v.env.filter((e): e is { name: string; value: string } => isObj(e) && typeof e.name === 'string' && e.name !== '' && !e.name.includes('=') && typeof e.value === 'string') : [];
    return { socket: v.socket, token: v.token, server: v.server, env: env.map(({ name, value }) => ({ name, value })) };
  } catch {
    return undefined;
  }
}


/** One event line from a relay, checked; undefined when it is not one. */
export function decodeEvent(v: unknown): RelayEvent | undefined {
  if (!isObj(v)) return undefined;
  switch (v.e) {
    case 'spawned':
      return { e: 'spawned' };
    case 'spawnFailed':
    case 'initFailed':
      return { e: v.e, message: text(v.message) ?? '' };
    case 'initialized': {
      const serverName = text(v.serverName);
      return serverName === undefined ? { e: 'initialized' } : { e: 'initialized', serverName };
    }
    case 'tools': {
      if (typeof v.count !== 'number' || !Number.isSafeInteger(v.count) || v.count < 0) return undefined;
      const names = Array.isArray(v.names) ? v.names.filter((n): n is string => typeof n === 'string').slice(0, MAX_NAMES).map((n) => n.slice(0, MAX_TEXT)) : [];
      return { e: 'tools', count: v.count, names };
    }
    case 'exit': {
      const code = typeof v.code === 'number' && Number.isSafeInteger(v.code) ? v.code : null;
      return { e: 'exit', code, signal: text(v.signal) ?? null };
    }
    default:
      return undefined;
  }
}
