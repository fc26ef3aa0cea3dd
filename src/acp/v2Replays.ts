/**
 * ACP v2 loads on one connection: v2's load is `session/resume` replaying the
 * whole history, which the agent ends with `replay_complete` before it answers.
 * A load answered without it may show a history that stops short: the session
 * is told once (`cut`). No `vscode` import.
 */
export class V2Replays {
  /** Loads in flight: whether each has seen its replay_complete. */
  private readonly inFlight = new Map<string, boolean>();
  /** Loads answered without it, not asked about yet. */
  private readonly cutShort = new Set<string>();

  /** A load of `sessionId` begins; the function returned marks its answer (or failure). */
  begin(sessionId: string): () => void {
    this.inFlight.set(sessionId, false);
    return () => {
      if (!this.inFlight.get(sessionId)) this.cutShort.add(sessionId);
      this.inFlight.delete(sessionId);
    };
  }

  /** The agent said the replay of `sessionId` is whole. */
  complete(sessionId: string): void {
    if (this.inFlight.has(sessionId)) this.inFlight.set(sessionId, true);
  }

  /** Whether the last load of `sessionId` was answered without `replay_complete` (asked once). */
  cut(sessionId: string): boolean {
    return this.cutShort.delete(sessionId);
  }
}
