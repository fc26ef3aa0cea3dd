/**
 * The transcript of one session: `session/update`s in, a model and small
 * changes (deltas) out. Deterministic and free of I/O; no `vscode` import.
 * The host owns one per panel; the webview only renders what it is sent.
 */
import * as l10n from '@vscode/l10n';
import { mergeTerminalText } from '../shared/terminalText';
import type * as acp from '@agentclientprotocol/sdk';
import type { DecodedToolCallContent, DecodedUpdate, PlanContent, SubagentUpdate } from '../acp/decode';
import type {
  CompactionItem,
  ConfigOptionView,
  ElicitationItem,
  ContentPart,
  HeaderState,
  MessageItem,
  PermissionItem,
  PlanItem,
  SessionMessageItem,
  SubagentItem,
  ToolContent,
  ToolItem,
  TranscriptItem,
} from '../shared/transcriptTypes';

type HeaderUpdate = Extract<DecodedUpdate, { sessionUpdate: 'available_commands_update' | 'current_mode_update' | 'config_option_update' | 'session_info_update' | 'usage_update' }>;

/** A change to report: the batcher turns these into deltas. */
export type Change =
  | { readonly c: 'add' | 'put'; readonly item: TranscriptItem }
  | { readonly c: 'text'; readonly item: MessageItem | SessionMessageItem; readonly text: string }
  | { readonly c: 'term'; readonly terminalId: string; readonly text: string; readonly start: number; readonly truncated: boolean }
  | { readonly c: 'remove'; readonly id: string }
  | { readonly c: 'header' };

const json = (v: unknown): string | undefined => {
  if (v === undefined) return undefined;
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
};

function toPart(block: acp.ContentBlock): ContentPart {
  const b = block as unknown as Record<string, unknown>;
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mimeType: block.mimeType, uri: block.uri ?? undefined };
    case 'audio':
      return { type: 'audio', mimeType: block.mimeType };
    case 'resource_link':
      return { type: 'resource_link', uri: block.uri, name: block.title ?? block.name, mimeType: block.mimeType ?? undefined };
    case 'resource': {
      const r = block.resource as { uri: string; text?: string; mimeType?: string | null };
      return { type: 'resource', uri: r.uri, text: r.text, mimeType: r.mimeType ?? undefined };
    }
    default:
      return { type: String(b.type), text: json(block) };
  }
}

function toToolContent(c: DecodedToolCallContent, terminals?: Map<string, TerminalView>): ToolContent {
  switch (c.type) {
    case 'session':
      return { type: 'session', sessionId: c.sessionId };
    case 'content':
      return { type: 'content', content: toPart(c.content) };
    case 'diff':
      return { type: 'diff', path: c.path, oldText: c.oldText ?? null, newText: c.newText };
    case 'terminal':
      return { type: 'terminal', terminalId: c.terminalId, ...(terminals?.get(c.terminalId) ?? {}) };
  }
}

/** A client terminal's output, as shown inside tool calls (kept after release). */
export interface TerminalView {
  output: string;
  truncated: boolean;
  end: number;
  exitStatus?: { exitCode: number | null; signal: string | null };
}

function flattenOptions(o: acp.SessionConfigOption): ConfigOptionView['options'] {
  if (o.type !== 'select') return [];
  const out: { value: string; name: string; group?: string }[] = [];
  for (const x of o.options as (acp.SessionConfigSelectOption | acp.SessionConfigSelectGroup)[]) {
    if ('group' in x) for (const y of x.options) out.push({ value: y.value, name: y.name, group: x.name });
    else out.push({ value: x.value, name: x.name });
  }
  return out;
}

function configOptionViews(options: readonly acp.SessionConfigOption[]): ConfigOptionView[] {
  return options.map((o) => ({
    id: o.id,
    name: o.name,
    category: o.category ?? null,
    type: o.type === 'boolean' ? 'boolean' : 'select',
    currentValue: o.currentValue as string | boolean,
    options: flattenOptions(o),
  }));
}

/**
 * One timeline: the session's own, or a subagent's (whose items go in its card).
 * Tool call, message, plan and compaction ids are only unique within one session.
 */
class Scope {
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

export class Transcript {
  readonly items: TranscriptItem[] = [];
  readonly header: HeaderState = { configOptions: [], commands: [] };
  private readonly byId = new Map<string, TranscriptItem>();
  private seq = 0;
  private readonly terminals = new Map<string, TerminalView>();
  /** What of the prompt just sent the agent may still echo back. */
  private pendingEcho: string | undefined;
  private readonly main = new Scope();
  /** Subagents (child sessions) by their session id. */
  private readonly children = new Map<string, Scope>();

  private nextId(prefix: string): string {
    return `${prefix}${++this.seq}`;
  }

  get(id: string): TranscriptItem | undefined {
    return this.byId.get(id);
  }

  private add(item: TranscriptItem, out: Change[], scope: Scope = this.main): void {
    if (scope.card) item.parent = scope.card.id;
    this.items.push(item);
    this.byId.set(item.id, item);
    scope.last = item;
    out.push({ c: 'add', item });
  }

  /** The timeline of a subagent (a child session announced with subagent_update), or the session's own. */
  private scope(childSessionId: string | undefined): Scope {
    return (childSessionId !== undefined && this.children.get(childSessionId)) || this.main;
  }

  /** Whether a session id is a subagent announced in this transcript. */
  hasChild(sessionId: string): boolean {
    return this.children.has(sessionId);
  }

  /** A subagent's card. */
  child(sessionId: string): SubagentItem | undefined {
    return this.children.get(sessionId)?.card;
  }

  /**
   * Applies one decoded `session/update`; returns what changed. `childSessionId`:
   * the update is about a subagent of this session (it goes in its card).
   */
  apply(update: DecodedUpdate, childSessionId?: string): Change[] {
    const out: Change[] = [];
    const scope = this.scope(childSessionId);
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const kind = update.sessionUpdate === 'user_message_chunk' ? 'user' : update.sessionUpdate === 'agent_message_chunk' ? 'agent' : 'thought';
        this.chunk(kind, update.content, update.messageId ?? undefined, out, scope);
        if (kind === 'user') scope.plan = undefined;
        break;
      }
      case 'tool_call': {
        const existing = scope.tools.get(update.toolCallId);
        const item: ToolItem = existing ?? {
          kind: 'tool',
          id: this.nextId('t'),
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
        item.content = (update.content ?? []).map((c) => toToolContent(c, this.terminals));
        item.locations = (update.locations ?? []).map((l) => ({ path: l.path, ...(typeof l.line === 'number' ? { line: l.line } : {}) }));
        item.rawInput = json(update.rawInput);
        item.rawOutput = json(update.rawOutput);
        if (existing) out.push({ c: 'put', item });
        else {
          scope.tools.set(update.toolCallId, item);
          this.add(item, out, scope);
        }
        break;
      }
      case 'tool_call_update': {
        let item = scope.tools.get(update.toolCallId);
        const created = !item;
        if (!item) {
          // An update for a call never announced: create it (agents do this).
          item = { kind: 'tool', id: this.nextId('t'), toolCallId: update.toolCallId, title: l10n.t('Tool call'), toolKind: 'other', status: 'pending', content: [], locations: [] };
          scope.tools.set(update.toolCallId, item);
        }
        const u = update as acp.ToolCallUpdate & { sessionUpdate: string };
        if (u.title !== undefined) item.title = u.title ?? l10n.t('Tool call');
        if (u.kind !== undefined) item.toolKind = u.kind ?? 'other';
        if (u.status !== undefined) item.status = u.status ?? 'pending';
        if (u.name !== undefined) item.name = u.name;
        if (u.content !== undefined) item.content = (u.content ?? []).map((c) => toToolContent(c, this.terminals));
        if (u.locations !== undefined) item.locations = (u.locations ?? []).map((l) => ({ path: l.path, ...(typeof l.line === 'number' ? { line: l.line } : {}) }));
        if (u.rawInput !== undefined) item.rawInput = json(u.rawInput);
        if (u.rawOutput !== undefined) item.rawOutput = json(u.rawOutput);
        if (created) this.add(item, out, scope);
        else out.push({ c: 'put', item });
        break;
      }
      case 'plan': {
        // Legacy: one checklist per turn, replaced whole by each update.
        const entries = update.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status }));
        if (scope.plan) {
          scope.plan.entries = entries;
          out.push({ c: 'put', item: scope.plan });
        } else {
          scope.plan = { kind: 'plan', id: this.nextId('p'), format: 'items', entries };
          this.add(scope.plan, out, scope);
        }
        break;
      }
      case 'plan_update':
        this.planUpdate(update.plan, scope, out);
        break;
      case 'plan_removed': {
        const item = scope.plans.get(update.planId);
        if (item) {
          scope.plans.delete(update.planId);
          this.remove(item, out);
        }
        break;
      }
      case 'subagent_update':
        this.subagent(update, scope, out);
        break;
      case 'session_message':
      case 'session_message_chunk':
        this.sessionMessage(update, scope, out, childSessionId);
        break;
      // The session's own header: a subagent's commands, modes, options and usage are not the panel's (its title names its card).
      case 'available_commands_update':
      case 'current_mode_update':
      case 'config_option_update':
      case 'usage_update':
      case 'session_info_update':
        if (scope.card) {
          const title = update.sessionUpdate === 'session_info_update' ? (update as { title?: string | null }).title : undefined;
          if (title) {
            scope.card.title = title;
            out.push({ c: 'put', item: scope.card });
          }
          break;
        }
        this.applyHeader(update, out);
        break;
      case 'notice': {
        const n = update as { severity: string; title: string; description?: string | null };
        this.add({ kind: 'notice', id: this.nextId('n'), severity: n.severity, title: n.title, ...(n.description ? { description: n.description } : {}) }, out, scope);
        break;
      }
      case 'compaction_update': {
        const c = update as { compactionId: string; status: string; summary?: acp.ContentBlock[]; error?: string };
        const item = this.compaction(c.compactionId, out, scope);
        item.status = c.status;
        // A summary given whole replaces what the chunks built.
        if (c.summary) item.summary = c.summary.map((b) => (b.type === 'text' ? b.text : '')).join('');
        if (c.error) item.error = c.error;
        out.push({ c: 'put', item });
        break;
      }
      case 'compaction_summary_chunk': {
        const c = update as { compactionId: string; content: acp.ContentBlock };
        const item = this.compaction(c.compactionId, out, scope);
        if (c.content.type === 'text') item.summary += c.content.text;
        out.push({ c: 'put', item });
        break;
      }
      // What this client does not know (or could not decode) goes to the log, never into the transcript.
      case '_unsupported':
      default:
        break;
    }
    return out;
  }

  /** The session's own header state (commands, modes, options, title, usage). */
  private applyHeader(update: HeaderUpdate, out: Change[]): void {
    switch (update.sessionUpdate) {
      case 'available_commands_update':
        this.header.commands = update.availableCommands.map((c) => ({ name: c.name, description: c.description, ...(c.input && 'hint' in c.input ? { hint: c.input.hint } : {}) }));
        break;
      case 'current_mode_update':
        if (this.header.modes) this.header.modes = { ...this.header.modes, currentModeId: update.currentModeId };
        else this.header.modes = { currentModeId: update.currentModeId, availableModes: [] };
        // Agents with config options report modes there too.
        this.header.configOptions = this.header.configOptions.map((o) => (o.category === 'mode' && o.type === 'select' ? { ...o, currentValue: update.currentModeId } : o));
        break;
      case 'config_option_update':
        this.header.configOptions = configOptionViews(update.configOptions);
        break;
      case 'session_info_update': {
        const u = update as { title?: string | null };
        if (u.title === undefined) return;
        this.header.title = u.title ?? undefined;
        break;
      }
      case 'usage_update':
        this.header.usage = { used: update.used, size: update.size, cost: update.cost ?? null };
        break;
    }
    out.push({ c: 'header' });
  }

  /** The item of a compaction, made at its place in the timeline on first sight (upserted by id). */
  private compaction(compactionId: string, out: Change[], scope: Scope): CompactionItem {
    let item = scope.compactions.get(compactionId);
    if (!item) {
      item = { kind: 'compaction', id: this.nextId('c'), compactionId, status: 'in_progress', summary: '' };
      scope.compactions.set(compactionId, item);
      this.add(item, out, scope);
    }
    return item;
  }

  /** plan_update: a plan is upserted by its id, in place where it first appeared. */
  private planUpdate(plan: PlanContent, scope: Scope, out: Change[]): void {
    let item = scope.plans.get(plan.planId);
    const created = !item;
    item ??= { kind: 'plan', id: this.nextId('p'), planId: plan.planId, format: plan.type, entries: [] };
    item.format = plan.type;
    item.entries = plan.type === 'items' ? plan.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })) : [];
    item.markdown = plan.type === 'markdown' ? plan.content : undefined;
    item.path = plan.type === 'markdown' ? plan.path : plan.type === 'file' ? plan.uri : undefined;
    if (created) {
      scope.plans.set(plan.planId, item);
      this.add(item, out, scope);
    } else out.push({ c: 'put', item });
  }

  private remove(item: TranscriptItem, out: Change[]): void {
    const i = this.items.lastIndexOf(item);
    if (i >= 0) this.items.splice(i, 1);
    this.byId.delete(item.id);
    out.push({ c: 'remove', id: item.id });
  }

  /** subagent_update: the first one for a session id announces a child (a card here); later ones patch it. */
  private subagent(u: SubagentUpdate, scope: Scope, out: Change[]): void {
    let child = this.children.get(u.sessionId);
    if (!child) {
      const card: SubagentItem = { kind: 'subagent', id: this.nextId('s'), sessionId: u.sessionId, title: l10n.t('Subagent'), canCancel: false };
      child = new Scope(card);
      this.children.set(u.sessionId, child);
      this.add(card, out, scope);
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

  /** Who a session is, in words: a subagent's title, else the main agent. */
  private sessionLabel(sessionId: string | null | undefined): string {
    if (!sessionId) return l10n.t('Main agent');
    return this.children.get(sessionId)?.card?.title ?? l10n.t('Main agent');
  }

  /** session_message (upsert) and session_message_chunk (append): messages between a session and its subagents. */
  private sessionMessage(u: Extract<DecodedUpdate, { sessionUpdate: 'session_message' | 'session_message_chunk' }>, scope: Scope, out: Change[], self: string | undefined): void {
    let item = scope.sessionMessages.get(u.messageId);
    const created = !item;
    item ??= { kind: 'session-message', id: this.nextId('x'), messageId: u.messageId, from: '', to: '', text: '', parts: [] };
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
    item.from = meta.sender === self && self !== undefined ? this.sessionLabel(self) : this.sessionLabel(meta.sender);
    item.to = meta.recipient === self && self !== undefined ? this.sessionLabel(self) : this.sessionLabel(meta.recipient);
    const textOnly = !created && u.sessionUpdate === 'session_message_chunk' && u.content.type === 'text';
    for (const b of blocks) {
      if (b.type === 'text') item.text += b.text;
      else item.parts.push(toPart(b));
    }
    if (created) {
      scope.sessionMessages.set(u.messageId, item);
      this.add(item, out, scope);
    } else if (textOnly && u.content.type === 'text') out.push({ c: 'text', item, text: u.content.text });
    else out.push({ c: 'put', item });
  }

  private chunk(kind: MessageItem['kind'], block: acp.ContentBlock, messageId: string | undefined, out: Change[], scope: Scope): void {
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
      target = { kind, id: this.nextId('m'), text: '', parts: [], ...(messageId !== undefined ? { messageId } : {}) };
      if (messageId !== undefined) scope.messages.set(`${kind}:${messageId}`, target);
      if (block.type === 'text') target.text = block.text;
      else target.parts.push(toPart(block));
      this.add(target, out, scope);
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
   * Whether `update` is the agent echoing the prompt just sent (shown at once by
   * addUserPrompt): text chunks that spell it, from its start, before anything
   * else of the turn. Anything else ends the echo window.
   */
  consumeEcho(update: DecodedUpdate): boolean {
    if (this.pendingEcho === undefined) return false;
    if (update.sessionUpdate === 'user_message_chunk' && update.content.type === 'text' && update.content.text !== '' && this.pendingEcho.startsWith(update.content.text)) {
      this.pendingEcho = this.pendingEcho.slice(update.content.text.length);
      if (this.pendingEcho === '') this.pendingEcho = undefined;
      return true;
    }
    if (update.sessionUpdate === 'user_message_chunk' && update.content.type !== 'text') return true; // an echoed attachment
    this.pendingEcho = undefined;
    return false;
  }

  /** The prompt the user sent, shown at once (before the agent echoes anything). */
  addUserPrompt(text: string, parts: ContentPart[] = []): Change[] {
    const out: Change[] = [];
    this.main.plan = undefined;
    this.pendingEcho = text === '' ? undefined : text;
    this.add({ kind: 'user', id: this.nextId('m'), text, parts }, out);
    return out;
  }

  endTurn(stopReason: string): Change[] {
    const out: Change[] = [];
    this.pendingEcho = undefined;
    if (stopReason === 'cancelled' || stopReason === 'interrupted') out.push(...this.cancelUnfinishedTools());
    this.add({ kind: 'turn-end', id: this.nextId('e'), stopReason }, out);
    this.main.plan = undefined;
    return out;
  }

  /** A note from the client itself (not the agent), shown like a notice. */
  addLocalNotice(severity: 'info' | 'warning' | 'error', title: string, description?: string): Change[] {
    const out: Change[] = [];
    this.add({ kind: 'notice', id: this.nextId('n'), severity, title, ...(description ? { description } : {}) }, out);
    return out;
  }

  addError(message: string, retryPrompt?: string): Change[] {
    const out: Change[] = [];
    this.add({ kind: 'error', id: this.nextId('r'), message, ...(retryPrompt !== undefined ? { retryPrompt } : {}) }, out);
    return out;
  }

  /** After Stop: calls the agent did not finish are shown as cancelled. */
  cancelUnfinishedTools(): Change[] {
    const out: Change[] = [];
    for (const t of this.allTools()) {
      if ((t.status === 'pending' || t.status === 'in_progress') && !t.cancelled) {
        t.cancelled = true;
        out.push({ c: 'put', item: t });
      }
    }
    return out;
  }

  /** Every tool call, the subagents' included. */
  private *allTools(): Iterable<ToolItem> {
    yield* this.main.tools.values();
    for (const c of this.children.values()) yield* c.tools.values();
  }

  addElicitation(e: Omit<ElicitationItem, 'kind' | 'id' | 'state'>, childSessionId?: string): { item: ElicitationItem; changes: Change[] } {
    const out: Change[] = [];
    const item: ElicitationItem = { kind: 'elicitation', id: this.nextId('q'), state: 'pending', ...e };
    this.add(item, out, this.scope(childSessionId));
    return { item, changes: out };
  }

  /** An item changed in place (by its owner): the change to report. */
  changed(item: TranscriptItem): Change[] {
    return this.byId.get(item.id) === item ? [{ c: 'put', item }] : [];
  }

  addPermission(p: Omit<PermissionItem, 'kind' | 'id' | 'state'>, childSessionId?: string): { item: PermissionItem; changes: Change[] } {
    const out: Change[] = [];
    const scope = this.scope(childSessionId);
    // A permission request is a state of its tool call: shown on the call's card when there is one.
    const tool = scope.tools.get(p.toolCallId);
    const item: PermissionItem = { kind: 'permission', id: this.nextId('q'), state: 'pending', ...p, ...(tool ? { toolItemId: tool.id } : {}) };
    this.add(item, out, scope);
    return { item, changes: out };
  }

  settlePermission(id: string, state: PermissionItem['state'], chosen?: string): Change[] {
    const item = this.byId.get(id);
    if (!item || item.kind !== 'permission' || item.state !== 'pending') return [];
    item.state = state;
    if (chosen !== undefined) item.chosen = chosen;
    return [{ c: 'put', item }];
  }

  setModels(models: NonNullable<HeaderState['models']>): Change[] {
    this.header.models = { currentModelId: models.currentModelId, availableModels: models.availableModels.map((m) => ({ ...m })) };
    return [{ c: 'header' }];
  }

  setModes(modes: HeaderState['modes'] | undefined, configOptions: readonly acp.SessionConfigOption[] | undefined): Change[] {
    if (modes) this.header.modes = modes;
    if (configOptions) this.header.configOptions = configOptionViews(configOptions);
    return [{ c: 'header' }];
  }

  /**
   * New output of a client terminal: every tool call showing it holds the newest
   * part; the panel gets only the new text (a whole item when the terminal first
   * shows output or exits).
   */
  appendTerminal(d: { terminalId: string; text: string; start: number; truncated: boolean; exitStatus?: { exitCode: number | null; signal: string | null } }): Change[] {
    const old = this.terminals.get(d.terminalId);
    const view: TerminalView = { ...mergeTerminalText(old ?? {}, d.text, d.start, d.truncated), ...(d.exitStatus ?? old?.exitStatus ? { exitStatus: d.exitStatus ?? old?.exitStatus } : {}) };
    this.terminals.set(d.terminalId, view);
    const whole = !old || (view.exitStatus !== undefined && old.exitStatus === undefined);
    const out: Change[] = [];
    let shown = false;
    for (const t of this.allTools()) {
      let hit = false;
      t.content = t.content.map((c) => {
        if (c.type !== 'terminal' || c.terminalId !== d.terminalId) return c;
        hit = true;
        return { type: 'terminal', terminalId: d.terminalId, ...view };
      });
      shown ||= hit;
      if (hit && whole) out.push({ c: 'put', item: t });
    }
    if (!whole && shown && d.text !== '') {
      out.push({ c: 'term', terminalId: d.terminalId, text: d.text, start: d.start, truncated: d.truncated });
    }
    return out;
  }

  /** A toolCall by id (of the session, or of one of its subagents), for permission requests that reference it. */
  tool(toolCallId: string, childSessionId?: string): ToolItem | undefined {
    return this.scope(childSessionId).tools.get(toolCallId);
  }
}
