/**
 * Subagents: child sessions an agent announces (`subagent_update`). What the
 * agent sends with a child's session id — its messages, tool calls, permission
 * and fs/terminal requests — is this session's too, shown in the child's card.
 * Stop on a card sends `session/cancel` for the child, the only request ever
 * sent to one. No `vscode` import.
 */
import { decodeSessionUpdate, type DecodedUpdate } from '../../acp/decode';
import type { SessionSink } from '../../agents/sessionRouter';
import type { Disposable } from '../../shared/events';
import type { ArchivedLine, SessionCore, SessionPart } from '../sessionCore';

export class Subagents implements SessionPart {
  private readonly registrations = new Map<string, Disposable>();

  /** `sink`: where a child's traffic goes (the session itself). */
  constructor(
    private readonly core: SessionCore,
    private readonly sink: SessionSink,
  ) {}

  /** Subagents of whatever was attached before are not this session's (a load announces its own again). */
  detached(): void {
    this.release();
  }

  /** After the announcement is archived (parts before this one): the child's held updates, replayed on adoption, come after it. */
  update(u: DecodedUpdate): void {
    if (u.sessionUpdate === 'subagent_update') this.adopt(u.sessionId);
  }

  /** A child's archived update goes in its card. */
  archivedLine(line: ArchivedLine): boolean {
    if (line.sessionUpdate !== '_child') return false;
    if (typeof line.sessionId === 'string') this.core.emit(this.core.transcript().apply(decodeSessionUpdate(line.update, []), line.sessionId));
    return true;
  }

  private adopt(childId: string): void {
    const rt = this.core.runtime();
    if (!rt || childId === this.core.sessionId() || this.registrations.has(childId)) return;
    // An id already taken (another open session of this agent) is not handed over to this one.
    if (rt.sessions.has(childId)) {
      this.core.log(`subagent ${childId}: not adopted, that session id is already open here`);
      return;
    }
    const s = this.sink;
    this.registrations.set(
      childId,
      rt.sessions.register(childId, {
        onUpdate: (n) => s.onUpdate(n),
        serves: (method) => s.serves(method),
      }),
    );
    this.core.log(`subagent ${childId} announced`);
  }

  /** Stop on a subagent's card: `session/cancel` for it — only when it advertised `cancel`. */
  async cancel(childId: string): Promise<boolean> {
    const rt = this.core.runtime();
    const card = this.core.transcript().child(childId);
    if (!rt || !card?.canCancel || !this.registrations.has(childId)) {
      this.core.log(`subagent ${childId}: not stopped (${card ? 'it does not advertise cancel' : 'unknown'})`);
      return false;
    }
    await rt.connection.cancel(childId);
    this.core.log(`subagent ${childId}: session/cancel sent`);
    return true;
  }

  /** The children are let go (another session attached, a fresh transcript). */
  release(): void {
    for (const r of this.registrations.values()) r.dispose();
    this.registrations.clear();
  }

  dispose(): void {
    this.release();
  }
}
