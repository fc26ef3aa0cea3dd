/**
 * Routes what an agent sends to the session it is about: one agent process
 * serves several sessions. Updates for a session not registered yet (they can
 * arrive just before `session/new` answers) are held briefly. No `vscode` import.
 */
import type { DecodedNotification } from '../acp/decode';
import type { ClientRequest, PermissionRequest } from '../acp/clientRequests';
import { ErrorCodes } from '../acp/errors';

export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface SessionSink {
  onUpdate(n: DecodedNotification): void | Promise<void>;
  requestPermission(request: PermissionRequest, token: CancelToken): Promise<unknown>;
  /** Other requests the agent makes about this session (fs/*, terminal/*), decoded. */
  handleRequest?(request: ClientRequest, token: CancelToken): Promise<unknown>;
  /** elicitation/create about this session: asked in its panel. */
  elicit?(params: unknown, token: CancelToken): Promise<unknown>;
  /** elicitation/complete: true when the elicitation was this session's. */
  completeElicitation?(elicitationId: string): boolean;
}

/** Thrown for a request about a session this client does not know. */
export class UnknownSessionError extends Error {
  readonly code = ErrorCodes.ResourceNotFound;
}

const HOLD_LIMIT = 2000;

export class SessionRouter {
  private readonly sinks = new Map<string, SessionSink>();
  private readonly held = new Map<string, DecodedNotification[]>();

  /**
   * Sessions whose sink went away (a panel closed while its session/load was replaying): what the
   * agent still sends for them is dropped, not held for the next sink — a session opened again
   * would otherwise show the abandoned replay and then its own.
   */
  private readonly abandoned = new Set<string>();

  register(sessionId: string, sink: SessionSink): { dispose(): void } {
    this.sinks.set(sessionId, sink);
    this.abandoned.delete(sessionId);
    const early = this.held.get(sessionId);
    this.held.delete(sessionId);
    if (early) for (const n of early) void sink.onUpdate(n);
    return {
      dispose: () => {
        if (this.sinks.get(sessionId) !== sink) return;
        this.sinks.delete(sessionId);
        if (this.abandoned.size >= HOLD_LIMIT) this.abandoned.delete(this.abandoned.values().next().value as string);
        this.abandoned.add(sessionId);
      },
    };
  }

  /** Whether any session (open, or being loaded or resumed) is registered. */
  get inUse(): boolean {
    return this.sinks.size > 0;
  }

  /** Whether a session id is taken (by an open session or a subagent already announced). */
  has(sessionId: string): boolean {
    return this.sinks.has(sessionId);
  }

  update(n: DecodedNotification): void | Promise<void> {
    const sink = this.sinks.get(n.sessionId);
    if (sink) return sink.onUpdate(n);
    if (this.abandoned.has(n.sessionId)) return;
    let list = this.held.get(n.sessionId);
    if (!list) {
      if (this.held.size > 16) this.held.delete(this.held.keys().next().value as string);
      list = [];
      this.held.set(n.sessionId, list);
    }
    if (list.length < HOLD_LIMIT) list.push(n);
  }

  /** A request about a session (fs/*…), routed to it. */
  async request(request: ClientRequest, token: CancelToken): Promise<unknown> {
    const sink = this.sinks.get(request.sessionId);
    if (!sink?.handleRequest) throw new UnknownSessionError(`No open session ${JSON.stringify(request.sessionId)} in this client.`);
    return await sink.handleRequest(request, token);
  }

  /**
   * An elicitation about a session, asked in its panel; undefined when it is request-scoped (no
   * `sessionId`: asked outside any session). One about a session not open here (a subagent never
   * announced, a session closed) is asked nowhere: `cancel`, like a permission request for one.
   */
  elicit(params: unknown, token: CancelToken): Promise<unknown> | undefined {
    const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
    if (sessionId === undefined || sessionId === null) return undefined;
    const sink = typeof sessionId === 'string' ? this.sinks.get(sessionId) : undefined;
    return sink?.elicit ? sink.elicit(params, token) : Promise.resolve({ action: 'cancel' });
  }

  /** elicitation/complete, to the session whose elicitation it was. */
  completeElicitation(params: unknown): boolean {
    const id = (params as { elicitationId?: unknown } | null)?.elicitationId;
    if (typeof id !== 'string') return false;
    for (const sink of new Set(this.sinks.values())) if (sink.completeElicitation?.(id)) return true;
    return false;
  }

  /** A permission request for an unknown session is answered `cancelled`. */
  async permission(request: PermissionRequest, token: CancelToken): Promise<unknown> {
    const sink = this.sinks.get(request.sessionId);
    if (!sink) return { outcome: { outcome: 'cancelled' } };
    return await sink.requestPermission(request, token);
  }
}
