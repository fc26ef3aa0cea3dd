/**
 * The transcript of one session: `session/update`s in, a model and small
 * changes (deltas) out. Deterministic and free of I/O; no `vscode` import.
 * The host owns one per panel; the webview only renders what it is sent.
 */
import { mergeTerminalText } from '../shared/terminalText';
import type * as acp from '@agentclientprotocol/sdk';
import type { DecodedUpdate } from '../acp/decode';
import type {
  CompactionItem,
  ConfigOptionView,
  ContentPart,
  HeaderState,
  MessageItem,
  PermissionItem,
  ToolContent,
  ToolItem,
  TranscriptItem,
} from '../shared/transcriptTypes';

/** A change to report: the batcher turns these into deltas. */
export type Change =
  | { readonly c: 'add' | 'put'; readonly item: TranscriptItem }
  | { readonly c: 'text'; readonly item: MessageItem; readonly text: string }
  | { readonly c: 'term'; readonly terminalId: string; readonly text: string; readonly start: number; readonly truncated: boolean }
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

function toToolContent(c: acp.ToolCallContent, terminals?: Map<string, TerminalView>): ToolContent {
  switch (c.type) {
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

export class Transcript {
  readonly items: TranscriptItem[] = [];
  readonly header: HeaderState = { configOptions: [], commands: [] };
  private readonly byId = new Map<string, TranscriptItem>();
  private readonly tools = new Map<string, ToolItem>();
  private readonly messages = new Map<string, MessageItem>();
  private seq = 0;
  private readonly terminals = new Map<string, TerminalView>();
  /** The plan item of the current turn (replaced in place on each plan update). */
  private plan: TranscriptItem | undefined;
  /** What of the prompt just sent the agent may still echo back. */
  private pendingEcho: string | undefined;
  private readonly compactions = new Map<string, CompactionItem>();

  private nextId(prefix: string): string {
    return `${prefix}${++this.seq}`;
  }

  get(id: string): TranscriptItem | undefined {
    return this.byId.get(id);
  }

  private add(item: TranscriptItem, out: Change[]): void {
    this.items.push(item);
    this.byId.set(item.id, item);
    out.push({ c: 'add', item });
  }

  private last(): TranscriptItem | undefined {
    return this.items[this.items.length - 1];
  }

  /** Applies one decoded `session/update`; returns what changed. */
  apply(update: DecodedUpdate): Change[] {
    const out: Change[] = [];
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const kind = update.sessionUpdate === 'user_message_chunk' ? 'user' : update.sessionUpdate === 'agent_message_chunk' ? 'agent' : 'thought';
        this.chunk(kind, update.content, update.messageId ?? undefined, out);
        if (kind === 'user') this.plan = undefined;
        break;
      }
      case 'tool_call': {
        const existing = this.tools.get(update.toolCallId);
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
        item.title = update.title || item.title || 'Tool call';
        item.toolKind = update.kind ?? 'other';
        item.status = update.status ?? 'pending';
        if (update.name !== undefined) item.name = update.name;
        item.content = (update.content ?? []).map((c) => toToolContent(c, this.terminals));
        item.locations = (update.locations ?? []).map((l) => ({ path: l.path, ...(typeof l.line === 'number' ? { line: l.line } : {}) }));
        item.rawInput = json(update.rawInput);
        item.rawOutput = json(update.rawOutput);
        if (existing) out.push({ c: 'put', item });
        else {
          this.tools.set(update.toolCallId, item);
          this.add(item, out);
        }
        break;
      }
      case 'tool_call_update': {
        let item = this.tools.get(update.toolCallId);
        const created = !item;
        if (!item) {
          // An update for a call never announced: create it (agents do this).
          item = { kind: 'tool', id: this.nextId('t'), toolCallId: update.toolCallId, title: 'Tool call', toolKind: 'other', status: 'pending', content: [], locations: [] };
          this.tools.set(update.toolCallId, item);
        }
        const u = update as acp.ToolCallUpdate & { sessionUpdate: string };
        if (u.title !== undefined) item.title = u.title ?? 'Tool call';
        if (u.kind !== undefined) item.toolKind = u.kind ?? 'other';
        if (u.status !== undefined) item.status = u.status ?? 'pending';
        if (u.name !== undefined) item.name = u.name;
        if (u.content !== undefined) item.content = (u.content ?? []).map((c) => toToolContent(c, this.terminals));
        if (u.locations !== undefined) item.locations = (u.locations ?? []).map((l) => ({ path: l.path, ...(typeof l.line === 'number' ? { line: l.line } : {}) }));
        if (u.rawInput !== undefined) item.rawInput = json(u.rawInput);
        if (u.rawOutput !== undefined) item.rawOutput = json(u.rawOutput);
        if (created) this.add(item, out);
        else out.push({ c: 'put', item });
        break;
      }
      case 'plan': {
        const entries = update.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status }));
        if (this.plan && this.plan.kind === 'plan') {
          this.plan.entries = entries;
          out.push({ c: 'put', item: this.plan });
        } else {
          this.plan = { kind: 'plan', id: this.nextId('p'), entries };
          this.add(this.plan, out);
        }
        break;
      }
      case 'available_commands_update':
        this.header.commands = update.availableCommands.map((c) => ({ name: c.name, description: c.description, ...(c.input && 'hint' in c.input ? { hint: c.input.hint } : {}) }));
        out.push({ c: 'header' });
        break;
      case 'current_mode_update':
        if (this.header.modes) this.header.modes = { ...this.header.modes, currentModeId: update.currentModeId };
        else this.header.modes = { currentModeId: update.currentModeId, availableModes: [] };
        // Agents with config options report modes there too.
        this.header.configOptions = this.header.configOptions.map((o) => (o.category === 'mode' && o.type === 'select' ? { ...o, currentValue: update.currentModeId } : o));
        out.push({ c: 'header' });
        break;
      case 'config_option_update':
        this.header.configOptions = configOptionViews(update.configOptions);
        out.push({ c: 'header' });
        break;
      case 'session_info_update': {
        const u = update as { title?: string | null };
        if (u.title !== undefined) {
          this.header.title = u.title ?? undefined;
          out.push({ c: 'header' });
        }
        break;
      }
      case 'usage_update':
        this.header.usage = { used: update.used, size: update.size, cost: update.cost ?? null };
        out.push({ c: 'header' });
        break;
      case 'notice': {
        const n = update as { severity: string; title: string; description?: string | null };
        this.add({ kind: 'notice', id: this.nextId('n'), severity: n.severity, title: n.title, ...(n.description ? { description: n.description } : {}) }, out);
        break;
      }
      case 'compaction_update': {
        const c = update as { compactionId: string; status: string; summary?: acp.ContentBlock[]; error?: string };
        const item = this.compaction(c.compactionId, out);
        item.status = c.status;
        // A summary given whole replaces what the chunks built.
        if (c.summary) item.summary = c.summary.map((b) => (b.type === 'text' ? b.text : '')).join('');
        if (c.error) item.error = c.error;
        out.push({ c: 'put', item });
        break;
      }
      case 'compaction_summary_chunk': {
        const c = update as { compactionId: string; content: acp.ContentBlock };
        const item = this.compaction(c.compactionId, out);
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

  /** The item of a compaction, made at its place in the timeline on first sight (upserted by id). */
  private compaction(compactionId: string, out: Change[]): CompactionItem {
    let item = this.compactions.get(compactionId);
    if (!item) {
      item = { kind: 'compaction', id: this.nextId('c'), compactionId, status: 'in_progress', summary: '' };
      this.compactions.set(compactionId, item);
      this.add(item, out);
    }
    return item;
  }

  private chunk(kind: MessageItem['kind'], block: acp.ContentBlock, messageId: string | undefined, out: Change[]): void {
    let target: MessageItem | undefined;
    if (messageId !== undefined) target = this.messages.get(`${kind}:${messageId}`);
    if (!target) {
      const last = this.last();
      if (last && last.kind === kind && (messageId === undefined || last.messageId === undefined || last.messageId === messageId)) {
        target = last as MessageItem;
        if (messageId !== undefined && target.messageId === undefined) {
          target.messageId = messageId;
          this.messages.set(`${kind}:${messageId}`, target);
        }
      }
    }
    if (!target) {
      target = { kind, id: this.nextId('m'), text: '', parts: [], ...(messageId !== undefined ? { messageId } : {}) };
      if (messageId !== undefined) this.messages.set(`${kind}:${messageId}`, target);
      if (block.type === 'text') target.text = block.text;
      else target.parts.push(toPart(block));
      this.add(target, out);
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
    this.plan = undefined;
    this.pendingEcho = text === '' ? undefined : text;
    this.add({ kind: 'user', id: this.nextId('m'), text, parts }, out);
    return out;
  }

  endTurn(stopReason: string): Change[] {
    const out: Change[] = [];
    this.pendingEcho = undefined;
    if (stopReason === 'cancelled') out.push(...this.cancelUnfinishedTools());
    this.add({ kind: 'turn-end', id: this.nextId('e'), stopReason }, out);
    this.plan = undefined;
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
    for (const t of this.tools.values()) {
      if ((t.status === 'pending' || t.status === 'in_progress') && !t.cancelled) {
        t.cancelled = true;
        out.push({ c: 'put', item: t });
      }
    }
    return out;
  }

  addPermission(p: Omit<PermissionItem, 'kind' | 'id' | 'state'>): { item: PermissionItem; changes: Change[] } {
    const out: Change[] = [];
    const item: PermissionItem = { kind: 'permission', id: this.nextId('q'), state: 'pending', ...p };
    this.add(item, out);
    return { item, changes: out };
  }

  settlePermission(id: string, state: PermissionItem['state'], chosen?: string): Change[] {
    const item = this.byId.get(id);
    if (!item || item.kind !== 'permission' || item.state !== 'pending') return [];
    item.state = state;
    if (chosen !== undefined) item.chosen = chosen;
    return [{ c: 'put', item }];
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
    for (const t of this.tools.values()) {
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

  /** A toolCall by id, for permission requests that reference it. */
  tool(toolCallId: string): ToolItem | undefined {
    return this.tools.get(toolCallId);
  }
}
