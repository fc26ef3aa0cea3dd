/**
 * The entry model of a transcript: its items in order and by id, and its
 * timelines — the session's own and each subagent's — with the per-id indexes
 * of each. Every item comes in through `add` and goes through `remove`.
 */
import type { CompactionItem, MessageItem, PlanItem, SessionMessageItem, SubagentItem, ToolItem, TranscriptItem } from '../../shared/transcriptTypes';

/** A change to report: the batcher turns these into deltas. */
export type Change =
  | { readonly c: 'add' | 'put'; readonly item: TranscriptItem }
  | { readonly c: 'text'; readonly item: MessageItem | SessionMessageItem; readonly text: string }
  | { readonly c: 'term'; readonly terminalId: string; readonly text: string; readonly start: number; readonly truncated: boolean }
  | { readonly c: 'remove'; readonly id: string }
  | { readonly c: 'header' };

/**
 * One timeline: the session's own, or a subagent's (whose items go in its card).
 * Tool call, message, plan and compaction ids are only unique within one session.
 */
export class Scope {
  /** The last item added here: a chunk without a message id continues it. */
  last: TranscriptItem | undefined;
  readonly tools = new Map<string, ToolItem>();
  readonly messages = new Map<string, MessageItem>();
  /** The legacy \`plan\` of the current turn (replaced in place on each plan update). */
  plan: PlanItem | undefined;
  /** Plans sent with plan_update, by planId. */
  readonly plans = new Map<string, PlanItem>();
  readonly compactions = new Map<string, CompactionItem>();
  readonly sessionMessages = new Map<string, SessionMessageItem>();
  constructor(readonly card?: SubagentItem) {}
}

export class Timeline {
  readonly items: TranscriptItem[] = [];
  private readonly byId = new Map<string, TranscriptItem>();
  private seq = 0;
  readonly main = new Scope();
  /** Subagents (child sessions) by their session id. */
  private readonly children = new Map<string, Scope>();

  nextId(prefix: string): string {
    return `${prefix}${++this.seq}`;
  }

  get(id: string): TranscriptItem | undefined {
    return this.byId.get(id);
  }

  add(item: TranscriptItem, out: Change[], scope: Scope = this.main): void {
    if (scope.card) item.parent = scope.card.id;
    this.items.push(item);
    this.byId.set(item.id, item);
    scope.last = item;
    out.push({ c: 'add', item });
  }

  remove(item: TranscriptItem, out: Change[]): void {
    const i = this.items.lastIndexOf(item);
    if (i >= 0) this.items.splice(i, 1);
    this.byId.delete(item.id);
    out.push({ c: 'remove', id: item.id });
  }

  /** The timeline of a subagent (a child session announced with subagent_update), or the session's own. */
  scope(childSessionId: string | undefined): Scope {
    return (childSessionId !== undefined && this.children.get(childSessionId)) || this.main;
  }

  /** A subagent's timeline, if it was announced. */
  child(sessionId: string): Scope | undefined {
    return this.children.get(sessionId);
  }

  /** A subagent announced: its timeline, whose items go in `card`. */
  announce(sessionId: string, card: SubagentItem): Scope {
    const child = new Scope(card);
    this.children.set(sessionId, child);
    return child;
  }

  /** Every tool call, the subagents' included. */
  *allTools(): Iterable<ToolItem> {
    yield* this.main.tools.values();
    for (const c of this.children.values()) yield* c.tools.values();
  }
}
