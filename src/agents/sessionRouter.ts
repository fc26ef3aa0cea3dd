/**
 * Routes what an agent sends to the session it is about: one agent process
 * serves several sessions. Updates for a session not registered yet (they can
 * arrive just before `session/new` answers) are held briefly. No `vscode` import.
 */
import type { DecodedNotification } from '../acp/decode';

export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface SessionSink {
  onUpdate(n: DecodedNotification): void | Promise<void>;
  /** The handler of one agent → client method, when one of the session's parts serves it (agents/clientMethods.ts). */
  serves(method: string): ((value: unknown, token: CancelToken) => unknown) | undefined;
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

  /** The sink of a session (or of the parent of a subagent) open here. */
  sink(sessionId: string): SessionSink | undefined {
    return this.sinks.get(sessionId);
  }

  /** Every sink, once each. */
  all(): SessionSink[] {
    return [...new Set(this.sinks.values())];
  }
}
