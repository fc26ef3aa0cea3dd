/**
 * How each kind of `session/update` merges into a timeline: one function a kind
 * (or a pair that upsert and append the same item), each given the entry model
 * through `Entries` and the timeline the update is about. `Transcript.apply`
 * dispatches to them.
 */
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { DecodedUpdate, PlanContent, SubagentUpdate } from '../../acp/decode';
import type { CompactionItem, MessageItem, SessionMessageItem, SubagentItem, ToolItem } from '../../shared/transcriptTypes';
import { json, toPart, toToolContent, type TerminalView } from './content';
import type { Change, Scope, Timeline } from './timeline';

/** What the handlers need of the entry model: ids, adding and removing items, the subagents' timelines. */
export type Entries = Pick<Timeline, 'nextId' | 'add' | 'remove' | 'child' | 'announce'>;

type Update<K extends DecodedUpdate['sessionUpdate']> = Extract<DecodedUpdate, { sessionUpdate: K }>;

/** A message chunk: appended to the message it names, or the last one of its kind, else a new message. */
export function chunk(t: Entries, kind: MessageItem['kind'], block: acp.ContentBlock, messageId: string | undefined, out: Change[], scope: Scope): void {
  let target: MessageItem | undefined;
  if (messageId !== undefined) target = scope.messages.get(`${kind}:${messageId}`);
  if (!target) {
    const last = scope.last;
    if (last && last.kind === kind && (messageId === undefined || last.messageId === undefined || last.messageId === messageId)) {
      target = last as MessageItem;
      if (messageId !== undefined && target.messageId === undefined) {
        target.messageId = messageId;
        scope.messages.set(`${kind}:${messageId}`, target);
      }
    }
  }
  if (!target) {
    target = { kind, id: t.nextId('m'), text: '', parts: [], ...(messageId !== undefined ? { messageId } : {}) };
    if (messageId !== undefined) scope.messages.set(`${kind}:${messageId}`, target);
    if (block.type === 'text') target.text = block.text;
    else target.parts.push(toPart(block));
    t.add(target, out, scope);
    return;
  }
  if (block.type === 'text') {
    target.text += block.text;
    out.push({ c: 'text', item: target, text: block.text });
  } else {
    target.parts.push(toPart(block));
    out.push({ c: 'put', item: target });
  }
}

/**
 * A whole message upserted by id (ACP v2 `user_message`, `agent_message`, `agent_thought`): content
 * omitted keeps it, null clears it, a value replaces it. A new id is a new message (chunks then append to it).
 */
export function messageUpsert(t: Entries, update: Update<'_message'>, scope: Scope, out: Change[]): void {
  const key = `${update.role}:${update.messageId}`;
  let target = scope.messages.get(key);
  if (update.content === undefined && target) return;
  const blocks = update.content ?? [];
  const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  const parts = blocks.filter((b) => b.type !== 'text').map(toPart);
  if (!target) {
    target = { kind: update.role, id: t.nextId('m'), text, parts, messageId: update.messageId };
    scope.messages.set(key, target);
    t.add(target, out, scope);
    return;
  }
  target.text = text;
  target.parts = parts;
  out.push({ c: 'put', item: target });
}

/** ACP v2 `tool_call_content_chunk`: content appended to its tool call (a call not seen yet is made for it). */
export function toolContentChunk(t: Entries, update: Update<'_tool_content_chunk'>, scope: Scope, out: Change[], terminals: ReadonlyMap<string, TerminalView>): void {
  const item = scope.tools.get(update.toolCallId);
  if (!item) {
    toolCallUpdate(t, { sessionUpdate: 'tool_call_update', toolCallId: update.toolCallId, content: update.contents as acp.ToolCallContent[] }, scope, out, terminals);
    return;
  }
  item.content = [...item.content, ...update.contents.map((c) => toToolContent(c, terminals))];
  out.push({ c: 'put', item });
}

/** tool_call: the call whole (a second one for the same id replaces it). */
export function toolCall(t: Entries, update: Update<'tool_call'>, scope: Scope, out: Change[], terminals: ReadonlyMap<string, TerminalView>): void {
  const existing = scope.tools.get(update.toolCallId);
  const item: ToolItem = existing ?? {
    kind: 'tool',
    id: t.nextId('t'),
    toolCallId: update.toolCallId,
    title: '',
    toolKind: 'other',
    status: 'pending',
    content: [],
    locations: [],
  };
  item.title = update.title || item.title || l10n.t('Tool call');
  item.toolKind = update.kind ?? 'other';
  item.status = update.status ?? 'pending';
  if (update.name !== undefined) item.name = update.name;
  item.content = (update.content ?? []).map((c) => toToolContent(c, terminals));
  item.locations = (update.locations ?? []).map((l) => ({ path: l.path, ...(typeof l.line === 'number' ? { line: l.line } : {}) }));
  item.rawInput = json(update.rawInput);
  item.rawOutput = json(update.rawOutput);
  if (existing) out.push({ c: 'put', item });
  else {
    scope.tools.set(update.toolCallId, item);
    t.add(item, out, scope);
  }
}

/** tool_call_update: the fields it has, patched in (a call never announced is made: agents do this). */
export function toolCallUpdate(t: Entries, update: Update<'tool_call_update'>, scope: Scope, out: Change[], terminals: ReadonlyMap<string, TerminalView>): void {
  let item = scope.tools.get(update.toolCallId);
  const created = !item;
  if (!item) {
    item = { kind: 'tool', id: t.nextId('t'), toolCallId: update.toolCallId, title: l10n.t('Tool call'), toolKind: 'other', status: 'pending', content: [], locations: [] };
    scope.tools.set(update.toolCallId, item);
  }
  const u = update as acp.ToolCallUpdate & { sessionUpdate: string };
  if (u.title !== undefined) item.title = u.title ?? l10n.t('Tool call');
  if (u.kind !== undefined) item.toolKind = u.kind ?? 'other';
  if (u.status !== undefined) item.status = u.status ?? 'pending';
  if (u.name !== undefined) item.name = u.name;
  if (u.content !== undefined) item.content = (u.content ?? []).map((c) => toToolContent(c, terminals));
  if (u.locations !== undefined) item.locations = (u.locations ?? []).map((l) => ({ path: l.path, ...(typeof l.line === 'number' ? { line: l.line } : {}) }));
  if (u.rawInput !== undefined) item.rawInput = json(u.rawInput);
  if (u.rawOutput !== undefined) item.rawOutput = json(u.rawOutput);
  if (created) t.add(item, out, scope);
  else out.push({ c: 'put', item });
}

/** Legacy `plan`: one checklist per turn, replaced whole by each update. */
export function legacyPlan(t: Entries, update: Update<'plan'>, scope: Scope, out: Change[]): void {
  const entries = update.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status }));
  if (scope.plan) {
    scope.plan.entries = entries;
    out.push({ c: 'put', item: scope.plan });
  } else {
    scope.plan = { kind: 'plan', id: t.nextId('p'), format: 'items', entries };
    t.add(scope.plan, out, scope);
  }
}

/** plan_update: a plan is upserted by its id, in place where it first appeared. */
export function planUpdate(t: Entries, plan: PlanContent, scope: Scope, out: Change[]): void {
  let item = scope.plans.get(plan.planId);
  const created = !item;
  item ??= { kind: 'plan', id: t.nextId('p'), planId: plan.planId, format: plan.type, entries: [] };
  item.format = plan.type;
  item.entries = plan.type === 'items' ? plan.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })) : [];
  item.markdown = plan.type === 'markdown' ? plan.content : undefined;
  item.path = plan.type === 'markdown' ? plan.path : plan.type === 'file' ? plan.uri : undefined;
  if (created) {
    scope.plans.set(plan.planId, item);
    t.add(item, out, scope);
  } else out.push({ c: 'put', item });
}

export function planRemoved(t: Entries, planId: string, scope: Scope, out: Change[]): void {
  const item = scope.plans.get(planId);
  if (item) {
    scope.plans.delete(planId);
    t.remove(item, out);
  }
}

/** The item of a compaction, made at its place in the timeline on first sight (upserted by id). */
function compaction(t: Entries, compactionId: string, out: Change[], scope: Scope): CompactionItem {
  let item = scope.compactions.get(compactionId);
  if (!item) {
    item = { kind: 'compaction', id: t.nextId('c'), compactionId, status: 'in_progress', summary: '' };
    scope.compactions.set(compactionId, item);
    t.add(item, out, scope);
  }
  return item;
}

export function compactionUpdate(t: Entries, update: Update<'compaction_update'>, scope: Scope, out: Change[]): void {
  const c = update as { compactionId: string; status: string; summary?: acp.ContentBlock[]; error?: string };
  const item = compaction(t, c.compactionId, out, scope);
  item.status = c.status;
  // A summary given whole replaces what the chunks built.
  if (c.summary) item.summary = c.summary.map((b) => (b.type === 'text' ? b.text : '')).join('');
  if (c.error) item.error = c.error;
  out.push({ c: 'put', item });
}

export function compactionChunk(t: Entries, update: Update<'compaction_summary_chunk'>, scope: Scope, out: Change[]): void {
  const c = update as { compactionId: string; content: acp.ContentBlock };
  const item = compaction(t, c.compactionId, out, scope);
  if (c.content.type === 'text') item.summary += c.content.text;
  out.push({ c: 'put', item });
}

export function notice(t: Entries, update: Update<'notice'>, scope: Scope, out: Change[]): void {
  const n = update as { severity: string; title: string; description?: string | null };
  t.add({ kind: 'notice', id: t.nextId('n'), severity: n.severity, title: n.title, ...(n.description ? { description: n.description } : {}) }, out, scope);
}

/** subagent_update: the first one for a session id announces a child (a card here); later ones patch it. */
export function subagent(t: Entries, u: SubagentUpdate, scope: Scope, out: Change[]): void {
  let child = t.child(u.sessionId);
  if (!child) {
    const card: SubagentItem = { kind: 'subagent', id: t.nextId('s'), sessionId: u.sessionId, title: l10n.t('Subagent'), canCancel: false };
    child = t.announce(u.sessionId, card);
    t.add(card, out, scope);
  } else out.push({ c: 'put', item: child.card! });
  const card = child.card!;
  if (u.title !== undefined) card.title = u.title || l10n.t('Subagent');
  if (u.description !== undefined) card.description = u.description ?? undefined;
  if (u.canCancel !== undefined) card.canCancel = u.canCancel === true;
  if (u.cwd !== undefined) card.cwd = u.cwd ?? undefined;
  if (u.state !== undefined) {
    card.state = u.state?.state;
    card.stopReason = u.state?.stopReason;
    card.error = u.state?.error;
  }
}

/** A subagent's session_info_update: its title names its card (its commands, modes, options and usage are not the panel's). */
export function cardInfo(update: Update<'session_info_update' | 'available_commands_update' | 'current_mode_update' | 'config_option_update' | 'usage_update'>, card: SubagentItem, out: Change[]): void {
  const title = update.sessionUpdate === 'session_info_update' ? (update as { title?: string | null }).title : undefined;
  if (title) {
    card.title = title;
    out.push({ c: 'put', item: card });
  }
}

/** Who a session is, in words: a subagent's title, else the main agent. */
function sessionLabel(t: Entries, sessionId: string | null | undefined): string {
  if (!sessionId) return l10n.t('Main agent');
  return t.child(sessionId)?.card?.title ?? l10n.t('Main agent');
}

/** session_message (upsert) and session_message_chunk (append): messages between a session and its subagents. */
export function sessionMessage(t: Entries, u: Update<'session_message' | 'session_message_chunk'>, scope: Scope, out: Change[], self: string | undefined): void {
  let item = scope.sessionMessages.get(u.messageId);
  const created = !item;
  item ??= { kind: 'session-message', id: t.nextId('x'), messageId: u.messageId, from: '', to: '', text: '', parts: [] };
  const meta = item as SessionMessageItem & { sender?: string | null; recipient?: string | null };
  const blocks: acp.ContentBlock[] = [];
  if (u.sessionUpdate === 'session_message') {
    if (u.senderSessionId !== undefined) meta.sender = u.senderSessionId;
    if (u.recipientSessionId !== undefined) meta.recipient = u.recipientSessionId;
    if (u.content !== undefined) {
      item.text = '';
      item.parts = [];
      blocks.push(...(u.content ?? []));
    }
  } else blocks.push(u.content);
  // Labels from the ids, the one of this timeline's own session (none: the main agent) included.
  item.from = meta.sender === self && self !== undefined ? sessionLabel(t, self) : sessionLabel(t, meta.sender);
  item.to = meta.recipient === self && self !== undefined ? sessionLabel(t, self) : sessionLabel(t, meta.recipient);
  const textOnly = !created && u.sessionUpdate === 'session_message_chunk' && u.content.type === 'text';
  for (const b of blocks) {
    if (b.type === 'text') item.text += b.text;
    else item.parts.push(toPart(b));
  }
  if (created) {
    scope.sessionMessages.set(u.messageId, item);
    t.add(item, out, scope);
  } else if (textOnly && u.content.type === 'text') out.push({ c: 'text', item, text: u.content.text });
  else out.push({ c: 'put', item });
}
