/**
 * The one way an agent → client call comes in. Each method is declared once, in
 * a table beside the part that serves it (sessions/parts/*.ts, listed in
 * sessions/clientMethods.ts): the method, the client capability serving it
 * earns, how it is decoded, the part's handler, and the answer when no open
 * session takes it. The model is vscode-languageserver-node's features, where
 * `fillClientCapabilities` and the handler sit in one file per capability.
 * The runtime registers every entry on the connection (`serveCall`); the
 * methods declined on purpose (agents/quirks.ts) are entries too. No `vscode` import.
 */
import type * as acpNext from '@agentclientprotocol/sdk/unstable';
import { ResponseError } from 'vscode-jsonrpc/node';
import type { Problems } from '../acp/tolerant';
import { ErrorCodes } from '../acp/errors';
import { DECLINED_CLIENT_METHODS, declinedMethodMessage } from './quirks';
import type { CancelToken, SessionRouter } from './sessionRouter';

export type ClientCapabilities = acpNext.ClientCapabilities;

/** Elicitations not about a session (request-scoped): asked outside any panel (services/elicitation.ts). */
export interface RequestScopedElicitation {
  /** `from`: the agent process asking (the same object for all of its calls). */
  create(agentName: string, params: unknown, token: CancelToken, from: object): Promise<unknown>;
  complete(params: unknown): void;
}

/** What a call no open session serves may use. */
export interface UnroutedCall {
  readonly agentName: string;
  /** The agent process asking (the same object for all of its calls). */
  readonly from: object;
  readonly elicitation?: RequestScopedElicitation;
  /** Logs to the agent's log once per agent process and `key`. */
  logOnce(key: string, message: string): void;
}

/** A call decoded once: its value, the session it is about (as sent), and what was dropped (for the agent's log). */
export interface DecodedCall<T> {
  readonly value: T;
  readonly sessionId: unknown;
  readonly dropped?: Problems;
}

/**
 * One agent → client method. `Part`: the session part serving it; `T`: the decoded call.
 * Method syntax on purpose: tables of different parts share one list.
 */
export interface ClientMethod<Part, T> {
  readonly method: string;
  /** A notification (no answer): offered to each open session until one takes it (`serve` returns true). */
  readonly notification?: boolean;
  /** Sets the capability serving it earns in what `initialize` sends (LSP: `fillClientCapabilities`). */
  fill?(caps: ClientCapabilities): void;
  /** Throws InvalidParams when the call cannot be served. */
  decode(params: unknown): DecodedCall<T>;
  /** Served by the part of the session it is about (or of the parent of the subagent it is about). */
  serve(part: Part, value: T, token: CancelToken): unknown;
  /** No open session here takes it (none named, or not open): the answer. */
  unrouted(value: T, token: CancelToken, call: UnroutedCall): unknown;
}

/** Any entry, of any part (the list the runtime registers). */
export type AnyClientMethod = ClientMethod<never, unknown>;

/** A part's entries bound to it: method → handler. */
export type PartMethods = ReadonlyMap<string, (value: unknown, token: CancelToken) => unknown>;

/** Binds a part's table to the part (its `methods`, which the session looks up by method). */
export function bindMethods<Part>(part: Part, table: readonly ClientMethod<Part, unknown>[]): PartMethods {
  return new Map(table.map((m) => [m.method, (value: unknown, token: CancelToken) => m.serve(part, value, token)]));
}

/** The capabilities sent in `initialize`: the base (what updates the client shows) and what each method earns. */
export function fillClientCapabilities(base: ClientCapabilities, methods: readonly AnyClientMethod[]): ClientCapabilities {
  const caps = structuredClone(base);
  for (const m of methods) m.fill?.(caps);
  return caps;
}

/** One call, decoded once and routed: to the session it names, else (none named, none open) its `unrouted` answer. */
export async function serveCall(m: AnyClientMethod, params: unknown, token: CancelToken, sessions: SessionRouter, call: UnroutedCall, log: (m: string) => void): Promise<unknown> {
  const { value, sessionId, dropped } = m.decode(params);
  if (dropped?.length) log(`${m.method}: dropped ${dropped.join('; ')}`);
  if (m.notification) {
    for (const sink of sessions.all()) if (sink.serves(m.method)?.(value, token) === true) return undefined;
  } else {
    const serve = typeof sessionId === 'string' ? sessions.sink(sessionId)?.serves(m.method) : undefined;
    if (serve) return await serve(value, token);
  }
  return await m.unrouted(value, token, call);
}

/** Methods some agents add that this client declines on purpose (agents/quirks.ts): a clear -32601, logged once. */
export const DECLINED_METHODS: readonly AnyClientMethod[] = Object.keys(DECLINED_CLIENT_METHODS).map((method) => ({
  method,
  decode: (params) => ({ value: params, sessionId: undefined }),
  serve: () => undefined,
  unrouted: (_value, _token, call) => {
    const message = declinedMethodMessage(method)!;
    call.logOnce(method, `Declined ${message} (answered -32601; asked again, the same answer)`);
    throw new ResponseError(ErrorCodes.MethodNotFound, message);
  },
}));
