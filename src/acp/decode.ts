/**
 * Tolerant decoding of what an agent sends. The schema marks most fields
 * "default on error" and arrays "skip invalid items"; we do the same: a bad
 * optional field becomes its default, a bad array item is skipped, an unknown
 * `session/update` variant or enum value is kept and reported — never a crash.
 * Every deviation is described in `problems` so it can be logged. The sign-in
 * methods are decoded in `authMethods.ts`, steering in `steering.ts`, content
 * blocks and tool call content in `decodeContent.ts`, the shared
 * pieces are `tolerant.ts`. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { decodeAuthMethod, type AuthMethodInfo } from './authMethods';
import { decodeContentBlock, decodeLocation, decodeToolCallContent, type DecodedToolCallContent } from './decodeContent';
import { decodeSteeringSupport } from './steering';
import { arrayOf, bool, enumWithDefault, isObj, nullable, num, oneOf, optional, str, type Obj, type Problems } from './tolerant';

// ---------------------------------------------------------------- enums
const TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const;
const TOOL_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
const PLAN_PRIORITIES = ['high', 'medium', 'low'] as const;
const PLAN_STATUSES = ['pending', 'in_progress', 'completed'] as const;
const STOP_REASONS = ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'] as const;


function decodePlanEntry(v: unknown, problems: Problems, where: string): acp.PlanEntry | undefined {
  if (!isObj(v) || typeof v.content !== 'string') return undefined;
  return {
    content: v.content,
    priority: enumWithDefault(v, 'priority', PLAN_PRIORITIES, 'medium', problems, where),
    status: enumWithDefault(v, 'status', PLAN_STATUSES, 'pending', problems, where),
  };
}

function decodeCommand(v: unknown): acp.AvailableCommand | undefined {
  if (!isObj(v) || typeof v.name !== 'string' || v.name === '') return undefined;
  const hint = isObj(v.input) ? str(v.input.hint) : undefined;
  return { name: v.name, description: str(v.description) ?? '', ...(hint !== undefined ? { input: { hint } } : {}) };
}

function decodeSelectOption(v: unknown, problems: Problems, where: string): acp.SessionConfigSelectOption | acp.SessionConfigSelectGroup | undefined {
  if (!isObj(v)) return undefined;
  if (Array.isArray(v.options) && typeof v.group === 'string') {
    const options = arrayOf(v.options, (o) => decodePlainOption(o), problems, `${where}.options`) ?? [];
    return { group: v.group, name: str(v.name) ?? v.group, options };
  }
  return decodePlainOption(v);
}
function decodePlainOption(v: unknown): acp.SessionConfigSelectOption | undefined {
  if (!isObj(v) || typeof v.value !== 'string') return undefined;
  return { value: v.value, name: str(v.name) ?? v.value, description: str(v.description) ?? null };
}

function decodeConfigOption(v: unknown, problems: Problems, where: string): acp.SessionConfigOption | undefined {
  if (!isObj(v) || typeof v.id !== 'string' || typeof v.name !== 'string') return undefined;
  const base = { id: v.id, name: v.name, description: str(v.description) ?? null, category: str(v.category) ?? null };
  if (v.type === 'boolean') {
    const currentValue = bool(v.currentValue);
    if (currentValue === undefined) return undefined;
    return { ...base, type: 'boolean', currentValue } as acp.SessionConfigOption;
  }
  if (v.type === 'select' || v.type === undefined) {
    const currentValue = str(v.currentValue);
    const options = arrayOf(v.options, decodeSelectOption, problems, `${where}.options`);
    if (currentValue === undefined || options === undefined) return undefined;
    return { ...base, type: 'select', currentValue, options } as acp.SessionConfigOption;
  }
  problems.push(`${where}: ignored config option "${v.id}" of unknown type ${JSON.stringify(v.type)}`);
  return undefined;
}

export function decodeModes(v: unknown, problems: Problems, where: string): acp.SessionModeState | undefined {
  if (!isObj(v) || typeof v.currentModeId !== 'string') return undefined;
  const availableModes =
    arrayOf(
      v.availableModes,
      (m) => (isObj(m) && typeof m.id === 'string' ? { id: m.id, name: str(m.name) ?? m.id, description: str(m.description) ?? null } : undefined),
      problems,
      `${where}.availableModes`,
    ) ?? [];
  return { currentModeId: v.currentModeId, availableModes };
}

/** Legacy \`models\` of new/load/resume answers (SessionModelState, removed from the schema but still sent). */
export interface ModelsState {
  readonly currentModelId: string;
  readonly availableModels: { modelId: string; name: string; description?: string | null }[];
}

export function decodeModels(v: unknown, problems: Problems, where: string): ModelsState | undefined {
  if (!isObj(v) || typeof v.currentModelId !== 'string') return undefined;
  const availableModels =
    arrayOf(
      v.availableModels,
      (m) => (isObj(m) && typeof m.modelId === 'string' ? { modelId: m.modelId, name: str(m.name) ?? m.modelId, description: str(m.description) ?? null } : undefined),
      problems,
      `${where}.availableModels`,
    ) ?? [];
  return { currentModelId: v.currentModelId, availableModels };
}

// ---------------------------------------------------------------- session/update
interface UnsupportedUpdate {
  readonly sessionUpdate: '_unsupported';
  /** The variant name the agent sent (or a description when it had none). */
  readonly variant: string;
  readonly reason: string;
  readonly raw: unknown;
}

/** A subagent's state (StateUpdate): running, idle (with why it stopped), requires_action, unknown, or newer. */
export interface SubagentState {
  readonly state: string;
  readonly stopReason?: string;
  /** The error's message when idle with stopReason "error". */
  readonly error?: string;
}

/** \`subagent_update\` (stable in 1.34): announces a child session, then patches it (omitted = keep, null = clear). */
export interface SubagentUpdate {
  readonly sessionUpdate: 'subagent_update';
  readonly sessionId: string;
  readonly title?: string | null;
  readonly description?: string | null;
  /** From \`capabilities.cancel\`; null when the capabilities were cleared. */
  readonly canCancel?: boolean | null;
  readonly state?: SubagentState | null;
  readonly cwd?: string | null;
}

/** \`session_message\`: an upsert of a message between sessions (omitted = keep, null = clear). */
export interface SessionMessageUpdate {
  readonly sessionUpdate: 'session_message';
  readonly messageId: string;
  readonly senderSessionId?: string | null;
  readonly recipientSessionId?: string | null;
  readonly content?: acp.ContentBlock[] | null;
}

export interface SessionMessageChunkUpdate {
  readonly sessionUpdate: 'session_message_chunk';
  readonly messageId: string;
  readonly content: acp.ContentBlock;
}

export type PlanContent =
  | { readonly type: 'items'; readonly planId: string; readonly entries: acp.PlanEntry[] }
  | { readonly type: 'markdown'; readonly planId: string; readonly content: string; readonly path?: string }
  | { readonly type: 'file'; readonly planId: string; readonly uri: string };

/** \`plan_update\` (stable in 1.34): upserts one of several plans by id. */
export interface PlanUpdate {
  readonly sessionUpdate: 'plan_update';
  readonly plan: PlanContent;
}

export interface PlanRemoved {
  readonly sessionUpdate: 'plan_removed';
  readonly planId: string;
}

/** `_message`: a whole message upserted by id (ACP v2; content omitted = unchanged, null = cleared, a value = replaced). */
export interface MessageUpsert {
  readonly sessionUpdate: '_message';
  readonly role: 'user' | 'agent' | 'thought';
  readonly messageId: string;
  readonly content?: acp.ContentBlock[] | null;
}

/** `_tool_content_chunk`: content appended to a tool call (ACP v2 `tool_call_content_chunk`). */
export interface ToolContentChunk {
  readonly sessionUpdate: '_tool_content_chunk';
  readonly toolCallId: string;
  /** One item of v2 content; more than one when it was a diff of several files (one `_patch` each). */
  readonly contents: readonly DecodedToolCallContent[];
}

/**
 * `_terminal`: an agent-owned terminal (ACP v2 `terminal_update`, `terminal_output_chunk`), display-only: its output
 * bytes appended (`data`, base64 as sent: a chunk may end inside a character), or its exit.
 */
export interface AgentTerminal {
  readonly sessionUpdate: '_terminal';
  readonly terminalId: string;
  readonly data?: string;
  readonly exitStatus?: { readonly exitCode: number | null; readonly signal: string | null };
}

/** An agent terminal's update from its v2 (or archived) shape, or undefined without a terminal id. */
export function decodeAgentTerminal(u: Obj, problems: Problems, where: string): AgentTerminal | undefined {
  const terminalId = str(u.terminalId);
  if (!terminalId) return undefined;
  const out: { -readonly [K in keyof AgentTerminal]: AgentTerminal[K] } = { sessionUpdate: '_terminal', terminalId };
  if (u.data !== undefined) {
    if (typeof u.data === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(u.data)) out.data = u.data;
    else problems.push(`${where}.data: not base64, skipped`);
  }
  if (isObj(u.exitStatus)) {
    const code = u.exitStatus.exitCode;
    out.exitStatus = { exitCode: typeof code === 'number' && Number.isSafeInteger(code) ? code : null, signal: str(u.exitStatus.signal) ?? null };
  }
  return out;
}

/** A whole message by id (`role` is the v2 kind's, or the archived `_message`'s). */
export function decodeMessageUpsert(u: Obj, role: MessageUpsert['role'], problems: Problems, where: string): MessageUpsert | undefined {
  const messageId = str(u.messageId);
  if (!messageId) return undefined;
  const out: { -readonly [K in keyof MessageUpsert]: MessageUpsert[K] } = { sessionUpdate: '_message', role, messageId };
  if (u.content === null) out.content = null;
  else if (u.content !== undefined) out.content = arrayOf(u.content, decodeContentBlock, problems, `${where}.content`) ?? [];
  return out;
}

/** `_message`, `_tool_content_chunk` and `_terminal` are what ACP v2 adds to the model (decodeV2.ts). */
export type DecodedUpdate =
  | acp.SessionUpdate
  | SubagentUpdate
  | SessionMessageUpdate
  | SessionMessageChunkUpdate
  | PlanUpdate
  | PlanRemoved
  | MessageUpsert
  | ToolContentChunk
  | AgentTerminal
  | UnsupportedUpdate;

export interface DecodedNotification {
  readonly sessionId: string;
  readonly update: DecodedUpdate;
  readonly problems: Problems;
}

const unsupported = (variant: string, reason: string, raw: unknown): UnsupportedUpdate => ({
  sessionUpdate: '_unsupported',
  variant,
  reason,
  raw,
});

/** Decodes `session/update` params. Returns undefined only when no session id can be found. */
export function decodeSessionNotification(params: unknown): DecodedNotification | undefined {
  if (!isObj(params) || typeof params.sessionId !== 'string') return undefined;
  const problems: Problems = [];
  return { sessionId: params.sessionId, update: decodeSessionUpdate(params.update, problems), problems };
}

export function decodeSessionUpdate(u: unknown, problems: Problems): DecodedUpdate {
  if (!isObj(u) || typeof u.sessionUpdate !== 'string') return unsupported('(malformed)', 'the update has no "sessionUpdate" field', u);
  const kind = u.sessionUpdate;
  const where = kind;
  switch (kind) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const content = decodeContentBlock(u.content, problems, `${where}.content`);
      if (!content) return unsupported(kind, 'its content is missing or invalid', u);
      const messageId = optional(u, 'messageId', str, problems, where);
      return { sessionUpdate: kind, content, ...(messageId !== undefined ? { messageId } : {}) };
    }
    case 'tool_call': {
      const toolCallId = str(u.toolCallId);
      if (toolCallId === undefined) return unsupported(kind, 'it has no toolCallId', u);
      const content = arrayOf(u.content, decodeToolCallContent, problems, `${where}.content`);
      const locations = arrayOf(u.locations, (l) => decodeLocation(l), problems, `${where}.locations`);
      return {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: str(u.title) ?? '',
        kind: enumWithDefault(u, 'kind', TOOL_KINDS, 'other', problems, where),
        status: enumWithDefault(u, 'status', TOOL_STATUSES, 'pending', problems, where),
        ...(str(u.name) !== undefined ? { name: str(u.name) } : {}),
        // May hold \`session\` content too (DecodedToolCallContent), which the stable SDK types do not know.
        ...(content ? { content: content as acp.ToolCallContent[] } : {}),
        ...(locations ? { locations } : {}),
        ...(u.rawInput !== undefined ? { rawInput: u.rawInput } : {}),
        ...(u.rawOutput !== undefined ? { rawOutput: u.rawOutput } : {}),
      };
    }
    case 'tool_call_update': {
      const toolCallId = str(u.toolCallId);
      if (toolCallId === undefined) return unsupported(kind, 'it has no toolCallId', u);
      const out: Record<string, unknown> = { sessionUpdate: 'tool_call_update', toolCallId };
      const title = nullable(u, 'title', str, problems, where);
      if (title !== undefined) out.title = title;
      const name = nullable(u, 'name', str, problems, where);
      if (name !== undefined) out.name = name;
      if (u.kind !== undefined) out.kind = u.kind === null ? null : enumWithDefault(u, 'kind', TOOL_KINDS, 'other', problems, where);
      if (u.status !== undefined && u.status !== null) {
        const status = oneOf(TOOL_STATUSES)(u.status);
        if (status) out.status = status;
        else problems.push(`${where}.status: unknown value ${JSON.stringify(u.status)}, ignored`);
      } else if (u.status === null) out.status = null;
      if (u.content === null) out.content = null;
      else if (u.content !== undefined) out.content = arrayOf(u.content, decodeToolCallContent, problems, `${where}.content`) ?? [];
      if (u.locations === null) out.locations = null;
      else if (u.locations !== undefined) out.locations = arrayOf(u.locations, (l) => decodeLocation(l), problems, `${where}.locations`) ?? [];
      if (u.rawInput !== undefined) out.rawInput = u.rawInput;
      if (u.rawOutput !== undefined) out.rawOutput = u.rawOutput;
      return out as unknown as acp.SessionUpdate;
    }
    case 'plan': {
      const entries = arrayOf(u.entries, decodePlanEntry, problems, `${where}.entries`);
      if (!entries) return unsupported(kind, 'its entries are missing', u);
      return { sessionUpdate: 'plan', entries };
    }
    case 'available_commands_update': {
      const availableCommands = arrayOf(u.availableCommands, (c) => decodeCommand(c), problems, `${where}.availableCommands`);
      if (!availableCommands) return unsupported(kind, 'its availableCommands are missing', u);
      return { sessionUpdate: 'available_commands_update', availableCommands };
    }
    case 'current_mode_update': {
      // The v1 docs once showed `modeId`; the schema says `currentModeId`. Accept both.
      const currentModeId = str(u.currentModeId) ?? str(u.modeId);
      if (currentModeId === undefined) return unsupported(kind, 'it has no currentModeId', u);
      return { sessionUpdate: 'current_mode_update', currentModeId };
    }
    case 'config_option_update': {
      const configOptions = arrayOf(u.configOptions, decodeConfigOption, problems, `${where}.configOptions`);
      if (!configOptions) return unsupported(kind, 'its configOptions are missing', u);
      return { sessionUpdate: 'config_option_update', configOptions };
    }
    case 'session_info_update': {
      const out: Record<string, unknown> = { sessionUpdate: 'session_info_update' };
      const title = nullable(u, 'title', str, problems, where);
      if (title !== undefined) out.title = title;
      const updatedAt = nullable(u, 'updatedAt', str, problems, where);
      if (updatedAt !== undefined) out.updatedAt = updatedAt;
      return out as unknown as acp.SessionUpdate;
    }
    case 'usage_update': {
      const used = num(u.used);
      const size = num(u.size);
      if (used === undefined || size === undefined) return unsupported(kind, 'used/size are missing', u);
      let cost: acp.Cost | null = null;
      if (isObj(u.cost) && num(u.cost.amount) !== undefined && typeof u.cost.currency === 'string') {
        cost = { amount: u.cost.amount as number, currency: u.cost.currency };
      } else if (u.cost !== undefined && u.cost !== null) problems.push(`${where}.cost: ignored an invalid value`);
      return { sessionUpdate: 'usage_update', used, size, cost };
    }
    case 'notice': {
      const title = str(u.title);
      if (!title) return unsupported(kind, 'it has no title', u);
      const severity = str(u.severity) ?? 'info';
      if (!['info', 'warning', 'error'].includes(severity)) problems.push(`${where}.severity: unknown value "${severity}", shown as info`);
      return {
        sessionUpdate: 'notice',
        severity: (['info', 'warning', 'error'].includes(severity) ? severity : 'info') as acp.NoticeSeverity,
        title,
        description: optional(u, 'description', str, problems, where) ?? null,
      } as acp.SessionUpdate;
    }
    case 'compaction_update': {
      const compactionId = str(u.compactionId);
      if (!compactionId) return unsupported(kind, 'it has no compactionId', u);
      const status = str(u.status) ?? 'in_progress';
      const summary = u.summary === undefined || u.summary === null ? undefined : arrayOf(u.summary, decodeContentBlock, problems, `${where}.summary`);
      const error = optional(u, 'error', str, problems, where);
      return { sessionUpdate: 'compaction_update', compactionId, status, ...(summary ? { summary } : {}), ...(error ? { error } : {}) } as acp.SessionUpdate;
    }
    case 'compaction_summary_chunk': {
      const compactionId = str(u.compactionId);
      const content = decodeContentBlock(u.content, problems, `${where}.content`);
      if (!compactionId || !content) return unsupported(kind, 'it has no compactionId or content', u);
      return { sessionUpdate: 'compaction_summary_chunk', compactionId, content } as acp.SessionUpdate;
    }
    case 'subagent_update':
      return decodeSubagentUpdate(u, problems) ?? unsupported(kind, 'it has no sessionId', u);
    case 'session_message': {
      const messageId = str(u.messageId);
      if (!messageId) return unsupported(kind, 'it has no messageId', u);
      const out: { -readonly [K in keyof SessionMessageUpdate]: SessionMessageUpdate[K] } = { sessionUpdate: 'session_message', messageId };
      const sender = nullable(u, 'senderSessionId', str, problems, where);
      if (sender !== undefined) out.senderSessionId = sender;
      const recipient = nullable(u, 'recipientSessionId', str, problems, where);
      if (recipient !== undefined) out.recipientSessionId = recipient;
      if (u.content === null) out.content = null;
      else if (u.content !== undefined) out.content = arrayOf(u.content, decodeContentBlock, problems, `${where}.content`) ?? [];
      return out;
    }
    case 'session_message_chunk': {
      const messageId = str(u.messageId);
      const content = decodeContentBlock(u.content, problems, `${where}.content`);
      if (!messageId || !content) return unsupported(kind, 'it has no messageId or content', u);
      return { sessionUpdate: 'session_message_chunk', messageId, content };
    }
    case 'plan_update': {
      const plan = decodePlanContent(u.plan, problems, `${where}.plan`);
      return plan ? { sessionUpdate: 'plan_update', plan } : unsupported(kind, 'its plan is missing or invalid', u);
    }
    case 'plan_removed': {
      const planId = str(u.planId);
      return planId ? { sessionUpdate: 'plan_removed', planId } : unsupported(kind, 'it has no planId', u);
    }
    // What ACP v2 adds to the model (decodeV2.ts), as the session archive keeps it.
    case '_message': {
      const role = oneOf(['user', 'agent', 'thought'] as const)(u.role);
      const m = role && decodeMessageUpsert(u, role, problems, where);
      return m || unsupported(kind, 'it has no role or messageId', u);
    }
    case '_tool_content_chunk': {
      const toolCallId = str(u.toolCallId);
      // `content`: one item, as archived before a v2 diff of several files could be one chunk.
      const raw = Array.isArray(u.contents) ? u.contents : [u.content];
      const contents = raw.flatMap((c, i) => decodeToolCallContent(c, problems, `${where}.contents[${i}]`) ?? []);
      return toolCallId && contents.length ? { sessionUpdate: '_tool_content_chunk', toolCallId, contents } : unsupported(kind, 'it has no toolCallId or content', u);
    }
    case '_terminal':
      return decodeAgentTerminal(u, problems, where) ?? unsupported(kind, 'it has no terminalId', u);
    default:
      return unsupported(kind, `this client does not know the "${kind}" update`, u);
  }
}

function decodeSubagentState(v: unknown, problems: Problems, where: string): SubagentState | undefined {
  if (!isObj(v) || typeof v.state !== 'string') return undefined;
  if (v.state !== 'idle') return { state: v.state };
  // An omitted, null or malformed stopReason means "not reported".
  const stopReason = str(v.stopReason);
  if (v.stopReason !== undefined && v.stopReason !== null && stopReason === undefined) problems.push(`${where}.stopReason: ignored an invalid value`);
  const error = isObj(v.error) ? str(v.error.message) : undefined;
  return { state: 'idle', ...(stopReason ? { stopReason } : {}), ...(error ? { error } : {}) };
}

function decodeSubagentUpdate(u: Obj, problems: Problems): SubagentUpdate | undefined {
  const where = 'subagent_update';
  const sessionId = str(u.sessionId);
  if (!sessionId) return undefined;
  const out: { -readonly [K in keyof SubagentUpdate]: SubagentUpdate[K] } = { sessionUpdate: 'subagent_update', sessionId };
  const title = nullable(u, 'title', str, problems, where);
  if (title !== undefined) out.title = title;
  const description = nullable(u, 'description', str, problems, where);
  if (description !== undefined) out.description = description;
  if (u.capabilities === null) out.canCancel = null;
  else if (isObj(u.capabilities)) out.canCancel = isObj(u.capabilities.cancel);
  else if (u.capabilities !== undefined) problems.push(`${where}.capabilities: ignored an invalid value`);
  const state = nullable(u, 'state', (v) => decodeSubagentState(v, problems, `${where}.state`), problems, where);
  if (state !== undefined) out.state = state;
  const cwd = nullable(u, 'cwd', str, problems, where);
  if (cwd !== undefined) out.cwd = cwd;
  return out;
}

/** PlanUpdateContent: items or markdown (stable 1.34), and the \`file\` variant an earlier draft had. */
function decodePlanContent(v: unknown, problems: Problems, where: string): PlanContent | undefined {
  if (!isObj(v) || typeof v.planId !== 'string' || v.planId === '') return undefined;
  const planId = v.planId;
  switch (v.type) {
    case 'items': {
      const entries = arrayOf(v.entries, decodePlanEntry, problems, `${where}.entries`);
      return entries ? { type: 'items', planId, entries } : undefined;
    }
    case 'markdown': {
      const content = str(v.content);
      if (content === undefined) return undefined;
      const path = optional(v, 'path', str, problems, where);
      return { type: 'markdown', planId, content, ...(path ? { path } : {}) };
    }
    case 'file': {
      const uri = str(v.uri);
      return uri ? { type: 'file', planId, uri } : undefined;
    }
    default:
      problems.push(`${where}: unknown plan type ${JSON.stringify(v.type)}`);
      return undefined;
  }
}

// ---------------------------------------------------------------- initialize
export interface DecodedInitialize {
  readonly protocolVersion: number | undefined;
  readonly agentCapabilities: acp.AgentCapabilities;
  readonly authMethods: AuthMethodInfo[];
  readonly agentInfo?: acp.Implementation;
  /** The top-level `_meta.steering.supported` is exactly `true`: the agent serves `_session/steering`. */
  readonly steering?: boolean;
  /** The keys of the top-level `_meta` (its extensions), at most 20, each cut to 60 characters. */
  readonly metaKeys?: readonly string[];
}

export function decodeInitializeResponse(v: unknown, problems: Problems): DecodedInitialize {
  const r = isObj(v) ? v : {};
  if (!isObj(v)) problems.push('initialize: the response is not an object');
  const caps = isObj(r.agentCapabilities) ? (r.agentCapabilities as acp.AgentCapabilities) : {};
  const authMethods = arrayOf(r.authMethods, decodeAuthMethod, problems, 'authMethods') ?? [];
  let agentInfo: acp.Implementation | undefined;
  if (isObj(r.agentInfo) && typeof r.agentInfo.name === 'string') {
    agentInfo = { name: r.agentInfo.name, title: str(r.agentInfo.title) ?? null, version: str(r.agentInfo.version) ?? '' };
  }
  const meta = isObj(r._meta) ? r._meta : undefined;
  const steering = decodeSteeringSupport(meta);
  const metaKeys = meta ? Object.keys(meta).slice(0, 20).map((k) => k.slice(0, 60)) : [];
  return { protocolVersion: num(r.protocolVersion), agentCapabilities: caps, authMethods, agentInfo, ...(steering ? { steering } : {}), ...(metaKeys.length ? { metaKeys } : {}) };
}
export function decodeStopReason(v: unknown, problems: Problems): acp.StopReason | string {
  const r = isObj(v) ? v.stopReason : undefined;
  if (typeof r !== 'string') {
    problems.push('session/prompt: the response has no stopReason; treated as end_turn');
    return 'end_turn';
  }
  if (!(STOP_REASONS as readonly string[]).includes(r)) problems.push(`session/prompt: unknown stopReason "${r}"`);
  return r;
}
