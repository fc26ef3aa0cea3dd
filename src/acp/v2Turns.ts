/**
 * ACP v2 turns on one connection: `session/prompt` only acknowledges a prompt
 * (`{messageId}`); the turn ends with the session's idle `state_update`. The
 * connection tells it what it writes and reads (in wire order) and each state;
 * a turn's promise settles with its stop reason, or fails. No `vscode` import.
 */
import type { Message } from 'vscode-jsonrpc/node';
import { decodeStopReason } from './decode';
import type { V2State } from './decodeV2';
import { AgentError, ConnectionClosedError } from './errors';
import * as P from './protocol';
import { isObj, str } from './tolerant';

interface V2Turn {
  acked: boolean;
  running: boolean;
  end(stopReason: string): void;
  fail(err: Error): void;
}

interface Logger {
  warn(message: string): void;
}

export class V2Turns {
  /** Turns waiting for their idle `state_update`, by session. */
  private readonly turns = new Map<string, V2Turn>();
  /** `session/prompt` requests not answered yet: request id → its session and turn. */
  private readonly promptIds = new Map<string | number, { sessionId: string; turn: V2Turn }>();

  constructor(private readonly logger: Logger) {}

  /**
   * A prompt's turn: `send` writes the request (its answer is only the acknowledgement, marked as it is
   * read: `read`). A refused prompt fails the turn; a turn that ends unacknowledged is logged.
   */
  begin(sessionId: string, send: () => Promise<unknown>): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const turn: V2Turn = { acked: false, running: false, end: resolve, fail: reject };
      const earlier = this.turns.get(sessionId);
      if (earlier) {
        this.logger.warn(`session/prompt (${sessionId}): a new prompt while the last turn had not ended; that turn is taken as cancelled`);
        earlier.end('cancelled');
      }
      this.turns.set(sessionId, turn);
      send().then(
        () => undefined,
        (err: unknown) => {
          if (this.turns.get(sessionId) === turn) this.turns.delete(sessionId);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** A message written: a `session/prompt` of a turn is remembered by its id. */
  written(m: Message): void {
    const sent = m as { method?: unknown; id?: unknown; params?: { sessionId?: unknown } };
    if (sent.method !== P.PromptRequest.method || (typeof sent.id !== 'string' && typeof sent.id !== 'number') || typeof sent.params?.sessionId !== 'string') return;
    const turn = this.turns.get(sent.params.sessionId);
    if (turn) this.promptIds.set(sent.id, { sessionId: sent.params.sessionId, turn });
  }

  /** A response read: a prompt's acknowledgement is marked as it is read, before any update read after it. */
  read(m: Message): void {
    if (this.promptIds.size === 0) return;
    const { id, result } = m as { id?: unknown; result?: unknown };
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const sent = this.promptIds.get(id);
    if (sent === undefined) return;
    this.promptIds.delete(id);
    const { sessionId, turn } = sent;
    if (result === undefined) return;
    turn.acked = true;
    if (!isObj(result) || str(result.messageId) === undefined) this.logger.warn(`session/prompt (${sessionId}): the v2 acknowledgement has no messageId`);
  }

  /** A session's `state_update`, after every update received before it: an idle one ends its turn. */
  state(sessionId: string, state: V2State): void {
    const turn = this.turns.get(sessionId);
    if (!turn) return;
    if (state.state !== 'idle') {
      turn.running = true;
      return;
    }
    // An idle snapshot sent before the agent took the prompt up is not this turn's end.
    if (!turn.acked && !turn.running && state.stopReason === undefined) return;
    this.turns.delete(sessionId);
    if (!turn.acked) this.logger.warn(`session/prompt (${sessionId}): the turn ended (state_update idle) before the agent acknowledged the prompt`);
    if (state.stopReason === 'error') {
      turn.fail(new AgentError(P.PromptRequest.method, 0, state.error ?? 'the agent ended the turn with an error'));
      return;
    }
    const problems: string[] = [];
    const stopReason = decodeStopReason(state.stopReason === undefined ? {} : { stopReason: state.stopReason }, problems);
    for (const p of problems) this.logger.warn(`state_update (${sessionId}): ${p.replace(/^session\/prompt: the response/, 'the idle state')}`);
    turn.end(stopReason);
  }

  /** The connection closed: every turn fails. */
  closed(): void {
    for (const t of this.turns.values()) t.fail(new ConnectionClosedError(P.PromptRequest.method));
    this.turns.clear();
    this.promptIds.clear();
  }
}
