/**
 * ACP v2 (Preview) on the wire, mapped onto the one internal model the v1
 * decoder (`decode.ts`) produces: the parts and the transcript never see which
 * wire a session speaks. What v2 changes for a client, in one place:
 *
 * - `initialize`: one `capabilities` object and a required `info` on both
 *   sides, session groups under `capabilities.session`, object markers. The
 *   answer is mapped to v1's `agentCapabilities` so `AgentCapabilityView`
 *   serves both (the v2 baseline: list, resume and close; and load, which is
 *   `session/resume` with `replayFrom` over v2).
 * - `session/update`: messages, tool calls and plans are upserts by id
 *   (omitted = unchanged, null = cleared, value = replaced, chunks append).
 *   v1's `tool_call_update` already has those semantics; whole messages and
 *   tool call content chunks become the internal `_message` and
 *   `_tool_content_chunk`.
 * - `state_update` (the turn's progress and end, with its stop reason) and
 *   `replay_complete` are the connection's (connection.ts ends a turn with
 *   them); they never reach a session as updates.
 *
 * Tolerant like the v1 decoder: a v1 shape on a v2 connection is decoded all
 * the same and named in `problems`. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { decodeAuthMethod } from './authMethods';
import { decodeToolCallContent } from './decodeContent';
import { decodeAgentTerminal, decodeMessageUpsert, decodeSessionUpdate, type DecodedInitialize, type DecodedUpdate } from './decode';
import { decodeSteeringSupport } from './steering';
import { decodeV2Diff } from './v2Diff';
import { arrayOf, isObj, num, str, type Obj, type Problems } from './tolerant';

export const PROTOCOL_V2 = 2;

/** The client capabilities of a v2 `initialize`: v2 has no `fs`/`terminal` (their tools are the `vscode-editor` MCP server's) and no modes. */
export function v2ClientCapabilities(v1: acp.ClientCapabilities): Record<string, unknown> {
  const c = v1 as Record<string, unknown>;
  const out: Record<string, unknown> = { auth: { terminal: {} } };
  if (isObj(c.elicitation)) out.elicitation = c.elicitation;
  if (isObj(c._meta)) out._meta = c._meta;
  return out;
}

const marker = (v: unknown): boolean => isObj(v);

/** A v2 `initialize` answer, as the v1 shape the rest of the client reads. */
export function decodeV2InitializeResponse(v: unknown, problems: Problems): DecodedInitialize {
  const r = isObj(v) ? v : {};
  if (!isObj(v)) problems.push('initialize: the response is not an object');
  if (isObj(r.agentCapabilities) || isObj(r.agentInfo)) problems.push('initialize: v1 fields (agentCapabilities/agentInfo) in a v2 answer, ignored');
  const caps = isObj(r.capabilities) ? r.capabilities : {};
  const session = isObj(caps.session) ? caps.session : undefined;
  const agentCapabilities: Record<string, unknown> = {};
  if (session) {
    // The v2 baseline (session/new, list, resume, close, prompt, cancel) comes with `session: {}`.
    const sessionCapabilities: Record<string, unknown> = { list: {}, resume: {}, close: {} };
    for (const k of ['delete', 'fork', 'additionalDirectories', 'systemPrompt']) if (marker(session[k])) sessionCapabilities[k] = {};
    agentCapabilities.sessionCapabilities = sessionCapabilities;
    // v2's resume replays the whole history on request (`replayFrom`, baseline): that is v1's load (connection.ts).
    agentCapabilities.loadSession = true;
    const prompt = isObj(session.prompt) ? session.prompt : {};
    agentCapabilities.promptCapabilities = { image: marker(prompt.image), audio: marker(prompt.audio), embeddedContext: marker(prompt.embeddedContext) };
    const mcp = isObj(session.mcp) ? session.mcp : undefined;
    // stdio is offered unless the agent lists its MCP transports without it.
    agentCapabilities.mcpCapabilities = { http: marker(mcp?.http), sse: false, ...(mcp && !marker(mcp.stdio) ? { stdio: false } : {}) };
  } else problems.push('initialize: the v2 answer has no capabilities.session; the agent serves no sessions');
  // v2 names a method's id `methodId` (v1: `id`); the rest is v1's shape.
  const v2AuthMethod = (v: unknown, problems: Problems, where: string) => decodeAuthMethod(isObj(v) && v.id === undefined ? { ...v, id: v.methodId } : v, problems, where);
  const authMethods = arrayOf(r.authMethods, v2AuthMethod, problems, 'authMethods') ?? [];
  // v2: sign-in methods advertise auth/logout as well (v1 has a capability for it).
  if (authMethods.length > 0) agentCapabilities.auth = { logout: {} };
  let agentInfo: acp.Implementation | undefined;
  if (isObj(r.info) && typeof r.info.name === 'string') {
    agentInfo = { name: r.info.name, title: str(r.info.title) ?? null, version: str(r.info.version) ?? '' };
  } else problems.push('initialize: the v2 answer has no info (required)');
  const meta = isObj(r._meta) ? r._meta : undefined;
  const steering = decodeSteeringSupport(meta);
  const metaKeys = meta ? Object.keys(meta).slice(0, 20).map((k) => k.slice(0, 60)) : [];
  return {
    protocolVersion: num(r.protocolVersion),
    agentCapabilities: agentCapabilities as acp.AgentCapabilities,
    authMethods,
    agentInfo,
    ...(steering ? { steering } : {}),
    ...(metaKeys.length ? { metaKeys } : {}),
  };
}

// ---------------------------------------------------------------- session/update
/** What a v2 `session/update` is to the connection: an update for the session, its state, or the end of a replay. */
export type V2Notification =
  | { readonly kind: 'update'; readonly sessionId: string; readonly update: DecodedUpdate; readonly problems: Problems }
  | { readonly kind: 'state'; readonly sessionId: string; readonly state: V2State; readonly problems: Problems }
  | { readonly kind: 'replay_complete'; readonly sessionId: string; readonly problems: Problems };

/** A `state_update`: running, idle (with why it stopped, when the agent says), requires_action, or a state this client does not know. */
export interface V2State {
  readonly state: string;
  readonly stopReason?: string;
  /** The error's message when idle with stopReason "error". */
  readonly error?: string;
}

/** Kinds only v1 has: decoded all the same on a v2 connection, and named. */
const V1_ONLY = new Set(['tool_call', 'plan', 'current_mode_update']);

export function decodeV2Notification(params: unknown): V2Notification | undefined {
  if (!isObj(params) || typeof params.sessionId !== 'string') return undefined;
  const sessionId = params.sessionId;
  const problems: Problems = [];
  const u = params.update;
  if (isObj(u) && u.sessionUpdate === 'state_update') return { kind: 'state', sessionId, state: decodeState(u, problems), problems };
  if (isObj(u) && u.sessionUpdate === 'replay_complete') return { kind: 'replay_complete', sessionId, problems };
  return { kind: 'update', sessionId, update: decodeV2Update(u, problems), problems };
}

function decodeState(u: Obj, problems: Problems): V2State {
  const state = str(u.state);
  if (state === undefined) {
    // The schema: an unknown state is never taken for idle.
    problems.push('state_update: no state; shown as busy');
    return { state: '(missing)' };
  }
  if (state !== 'idle') return { state };
  const stopReason = str(u.stopReason);
  if (u.stopReason !== undefined && u.stopReason !== null && stopReason === undefined) problems.push('state_update.stopReason: ignored an invalid value');
  const error = isObj(u.error) ? str(u.error.message) : undefined;
  return { state, ...(stopReason !== undefined ? { stopReason } : {}), ...(error !== undefined ? { error } : {}) };
}

const MESSAGE_KINDS = { user_message: 'user', agent_message: 'agent', agent_thought: 'thought' } as const;

function decodeV2Update(u: unknown, problems: Problems): DecodedUpdate {
  if (!isObj(u) || typeof u.sessionUpdate !== 'string') return decodeSessionUpdate(u, problems);
  const kind = u.sessionUpdate;
  switch (kind) {
    case 'user_message':
    case 'agent_message':
    case 'agent_thought': {
      return decodeMessageUpsert(u, MESSAGE_KINDS[kind], problems, kind) ?? { sessionUpdate: '_unsupported', variant: kind, reason: 'it has no messageId', raw: u };
    }
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
      if (typeof u.messageId !== 'string') problems.push(`${kind}: no messageId (required in v2); appended to the last message`);
      return decodeSessionUpdate(u, problems);
    case 'tool_call_update':
      return decodeSessionUpdate(v2ToolCall(u, problems), problems);
    case 'tool_call_content_chunk': {
      const toolCallId = str(u.toolCallId);
      const contents = v2ToolContent(u.content, problems).flatMap((c) => decodeToolCallContent(c, problems, `${kind}.content`) ?? []);
      if (!toolCallId || !contents.length) return { sessionUpdate: '_unsupported', variant: kind, reason: 'it has no toolCallId or content', raw: u };
      return { sessionUpdate: '_tool_content_chunk', toolCallId, contents };
    }
    case 'config_option_update':
      // v2 names an option's id `configId`.
      return decodeSessionUpdate(Array.isArray(u.configOptions) ? { ...u, configOptions: u.configOptions.map(v2ConfigOption) } : u, problems);
    case 'terminal_update':
    case 'terminal_output_chunk':
      // An agent-owned terminal: shown in the tool calls that reference it, like a client terminal of v1.
      return decodeAgentTerminal(kind === 'terminal_update' ? { terminalId: u.terminalId, exitStatus: u.exitStatus } : { terminalId: u.terminalId, data: u.data }, problems, kind) ?? { sessionUpdate: '_unsupported', variant: kind, reason: 'it has no terminalId', raw: u };
    default:
      if (V1_ONLY.has(kind)) problems.push(`${kind}: a v1 update on a v2 connection; shown all the same`);
      return decodeSessionUpdate(u, problems);
  }
}

/** A v2 answer that opened a session or set an option: its `configOptions` as v1 names them (the rest is v1's shape). */
export function v2Opened<T>(r: T): T {
  return isObj(r) && Array.isArray(r.configOptions) ? ({ ...r, configOptions: r.configOptions.map(v2ConfigOption) } as T) : r;
}

function v2ConfigOption(v: unknown): unknown {
  return isObj(v) && v.id === undefined && typeof v.configId === 'string' ? { ...v, id: v.configId } : v;
}

/** A v2 tool call (an update, or a permission's subject) with its content in the shapes the v1 decoder reads. */
export function v2ToolCall(u: Obj, problems: Problems): Obj {
  return Array.isArray(u.content) ? { ...u, content: u.content.flatMap((c) => v2ToolContent(c, problems)) } : u;
}

/**
 * v2's diff is `{changes, patch}` (the changed files and their operations, and a git patch when the agent has
 * one), where v1's was one file's old and new text: one `_patch` per file (v2Diff.ts). Other content is v1's.
 */
function v2ToolContent(c: unknown, problems: Problems): unknown[] {
  if (!isObj(c) || c.type !== 'diff' || typeof c.newText === 'string') return [c];
  const files = decodeV2Diff(c, problems);
  if (!files.length) problems.push('tool_call content: a diff with no changes, skipped');
  return files;
}
