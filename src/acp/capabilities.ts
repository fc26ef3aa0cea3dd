/**
 * What the client advertises, and what the agent supports — in one place.
 * ACP rule: anything omitted (or null) is unsupported; capability markers are
 * objects (`{}` = supported) except a few legacy booleans. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
// Subagents and plan operations are stable since schema 1.34; SDK 2.4.0 still has them in /unstable only.
import type * as acpNext from '@agentclientprotocol/sdk/unstable';
import { isObj } from './tolerant';

/**
 * The client capabilities sent in `initialize` that no agent → client method
 * earns (what the client shows of updates, sign-in). Each method's own bit is
 * set beside the part that serves it (agents/clientMethods.ts `fill`); the
 * whole object is `clientCapabilities()` in sessions/clientMethods.ts. Each
 * entry is advertised only once the extension implements it (see the tests
 * that pin that object).
 */
export function baseClientCapabilities(): acpNext.ClientCapabilities {
  return {
    // Terminal-type auth methods: run the agent's own login command in a VS Code terminal.
    auth: { terminal: true },
    // The chat panel renders notices, boolean config options, and compaction (a divider with its summary).
    session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
    // subagent_update, session_message(_chunk) and the child sessions' own traffic: cards nested under the parent turn.
    subagents: {},
    // plan_update / plan_removed: several plans per session by planId, checklists and Markdown.
    plan: {},
    // Legacy (Zed-era) opt-in for `_meta["terminal-auth"]` on agent-type methods.
    _meta: { 'terminal-auth': true },
  };
}

const marker = (v: unknown): boolean => isObj(v);
const flag = (v: unknown): boolean => v === true;

function section(caps: acp.AgentCapabilities | undefined, key: string): Record<string, unknown> {
  const v = isObj(caps) ? (caps as Record<string, unknown>)[key] : undefined;
  return isObj(v) ? v : {};
}

export type McpTransport = 'stdio' | 'http' | 'sse';
export type PromptContent = 'image' | 'audio' | 'embeddedContext';

/**
 * What the agent supports: one accessor per feature, so that no call site
 * reads the raw capability object. Omitted (or null) means unsupported.
 */
export class AgentCapabilityView {
  constructor(private readonly caps: acp.AgentCapabilities | undefined) {}

  private session(key: string): boolean {
    return marker(section(this.caps, 'sessionCapabilities')[key]);
  }

  /** `session/load`: the agent replays a past session. */
  canLoad(): boolean {
    return flag(isObj(this.caps) ? this.caps.loadSession : undefined);
  }
  /** `session/list`. */
  canList(): boolean {
    return this.session('list');
  }
  /** `session/resume`: continue a past session without a replay. */
  canResume(): boolean {
    return this.session('resume');
  }
  /** `session/close`. */
  canClose(): boolean {
    return this.session('close');
  }
  /** `session/delete`. */
  canDelete(): boolean {
    return this.session('delete');
  }
  /** `session/fork` (UNSTABLE in v1 but implemented by several agents). */
  canFork(): boolean {
    return this.session('fork');
  }
  /**
   * `session/fork` at an earlier message: claude-agent-acp's unstable `_meta.claudeCode.rewindTo` (the
   * agent's message id to fork after), advertised as `agentCapabilities._meta.claudeCode.rewind: true`
   * (agentclientprotocol/claude-agent-acp#872). Only with `canFork()`.
   */
  canForkAtMessage(): boolean {
    const meta = isObj(this.caps) ? (this.caps as { _meta?: unknown })._meta : undefined;
    const claude = isObj(meta) ? (meta as Record<string, unknown>).claudeCode : undefined;
    return this.canFork() && isObj(claude) && (claude as Record<string, unknown>).rewind === true;
  }
  /** A client-provided system prompt (`systemPrompt`, mode append) on new/load/resume (stable since 1.30). */
  supportsSystemPrompt(): boolean {
    return this.session('systemPrompt');
  }
  /** `additionalDirectories` on new/load/resume. */
  supportsAdditionalDirectories(): boolean {
    return this.session('additionalDirectories');
  }
  /** MCP servers over a transport: stdio always, http and sse when advertised. */
  supportsMcp(transport: McpTransport): boolean {
    return transport === 'stdio' || flag(section(this.caps, 'mcpCapabilities')[transport]);
  }
  /** The agent says outright that it takes no stdio MCP servers (`mcpCapabilities.stdio: false`), although ACP makes them the baseline. */
  declinesMcpStdio(): boolean {
    return section(this.caps, 'mcpCapabilities').stdio === false;
  }
  /** Prompt content beyond text and resource links. */
  supportsPrompt(content: PromptContent): boolean {
    return flag(section(this.caps, 'promptCapabilities')[content]);
  }
  /** `logout`. */
  canLogout(): boolean {
    return marker(section(this.caps, 'auth').logout);
  }
}
