/**
 * One agent's diagnostics, gathered from its runtime: who it says it is, what
 * it declared, what was exercised over the connection in this window, the
 * compatibility entries that apply to it, and the end of its stderr. A plain
 * snapshot (no `vscode` import); `diagnosticsMarkdown.ts` writes it for a bug
 * report, redacted and bounded.
 */
import { AgentCapabilityView } from '../acp/capabilities';
import type { MethodStatsSnapshot } from '../acp/methodStats';
import type { AgentDefinition } from './agentDefinition';
import type { AgentRuntime } from './agentRuntime';
import { mcpServersIgnored, quirksFor, type AppliedQuirk } from './quirks';

/**
 * What became of one MCP server handed (or not) to the agent. Today the
 * diagnostics know only the selection (`offered`, `left-out`); a live status
 * (started with N tools, never started) plugs in through `McpStatusProvider`.
 */
export interface McpServerStatus {
  readonly name: string;
  readonly state: 'offered' | 'left-out' | 'started' | 'never-started' | 'unknown';
  /** Why it was left out or never started, or what else is known (in words). */
  readonly detail?: string;
  /** Tools it listed, once known. */
  readonly tools?: number;
  /** The session it was offered to, when the status is per session. */
  readonly session?: string;
}

export interface McpStatusReport {
  /** `selection`: computed from the settings and mcp.json files now; `live`: what each session saw. */
  readonly source: 'selection' | 'live';
  readonly servers: readonly McpServerStatus[];
  /** A known reason the agent does not start MCP servers at all. */
  readonly notice?: string;
}

export interface AgentDiagnostics {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly pid?: number;
  /** The command line it was started with (redacted when written). */
  readonly commandLine: readonly string[];
  readonly agentInfo?: { readonly name?: unknown; readonly title?: unknown; readonly version?: unknown };
  readonly protocolVersion?: number;
  /** As the agent sent them (untrusted: any shape). */
  readonly agentCapabilities: unknown;
  readonly clientCapabilities: unknown;
  /** Each capability that enables methods: declared or not, and the methods it is about. */
  readonly capabilityUse: readonly CapabilityUse[];
  readonly authMethods: readonly string[];
  readonly methods: MethodStatsSnapshot;
  readonly quirks: readonly AppliedQuirk[];
  /** The extensions the agent named in its initialize result's `_meta`, and whether this client uses each. */
  readonly extensions?: readonly { readonly key: string; readonly used: boolean }[];
  /** Launch-time compatibility notes (the environment set because of who the agent is). */
  readonly launchNotes: readonly string[];
  readonly mcp?: McpStatusReport;
  /** The last lines of stderr, newest last (raw: redacted and cut when written). */
  readonly stderr: readonly string[];
  /** How it exited, when it has. */
  readonly exit?: string;
}

export interface CapabilityUse {
  /** `agent`: the agent declared it (the client may call these methods); `client`: the client advertised it (the agent may call them). */
  readonly side: 'agent' | 'client';
  readonly capability: string;
  readonly declared: boolean;
  readonly methods: readonly string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), v);

/** The capabilities that govern methods, next to those methods. */
export function capabilityUse(agent: AgentCapabilityView, client: unknown): CapabilityUse[] {
  const a = (capability: string, declared: boolean, ...methods: string[]): CapabilityUse => ({ side: 'agent', capability, declared, methods });
  const c = (capability: string, ...methods: string[]): CapabilityUse => {
    const v = at(client, ...capability.split('.'));
    return { side: 'client', capability, declared: v === true || isObj(v), methods };
  };
  return [
    a('loadSession', agent.canLoad(), 'session/load'),
    a('sessionCapabilities.list', agent.canList(), 'session/list'),
    a('sessionCapabilities.resume', agent.canResume(), 'session/resume'),
    a('sessionCapabilities.close', agent.canClose(), 'session/close'),
    a('sessionCapabilities.delete', agent.canDelete(), 'session/delete'),
    a('sessionCapabilities.fork', agent.canFork(), 'session/fork'),
    a('auth.logout', agent.canLogout(), 'logout'),
    a('mcpCapabilities.http', agent.supportsMcp('http')),
    a('mcpCapabilities.sse', agent.supportsMcp('sse')),
    a('promptCapabilities.image', agent.supportsPrompt('image')),
    a('promptCapabilities.audio', agent.supportsPrompt('audio')),
    a('promptCapabilities.embeddedContext', agent.supportsPrompt('embeddedContext')),
    c('fs.readTextFile', 'fs/read_text_file'),
    c('fs.writeTextFile', 'fs/write_text_file'),
    c('terminal', 'terminal/create', 'terminal/output', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release'),
    c('elicitation', 'elicitation/create'),
  ];
}

/** Gathers an agent's diagnostics from its (running or last) runtime. */
export function agentDiagnostics(
  def: AgentDefinition,
  status: string,
  rt: AgentRuntime | undefined,
  opts: { readonly clientCapabilities: unknown; readonly mcp?: McpStatusReport; readonly stderrLines: number },
): AgentDiagnostics {
  const init = rt?.initializeResult;
  const spec = rt?.process.spec;
  const launch = { notes: spec?.launchNotes ?? [] };
  const exit = rt?.process.exit;
  const notice = init && spec ? mcpServersIgnored(init.agentInfo, spec.env, true, spec.trustWithheld === true) : undefined;
  const mcp = opts.mcp && notice && !opts.mcp.notice ? { ...opts.mcp, notice: notice.reason } : opts.mcp;
  return {
    id: def.id,
    name: def.name,
    status,
    pid: rt && !exit ? rt.pid : undefined,
    commandLine: spec ? [spec.command, ...spec.args] : [def.command, ...def.args],
    agentInfo: init?.agentInfo,
    protocolVersion: init?.protocolVersion,
    agentCapabilities: init?.agentCapabilities,
    clientCapabilities: rt?.clientCapabilities ?? opts.clientCapabilities,
    capabilityUse: capabilityUse(new AgentCapabilityView(init?.agentCapabilities), rt?.clientCapabilities ?? opts.clientCapabilities),
    authMethods: init?.authMethods.map((m) => `${m.id} (${m.type})`) ?? [],
    methods: rt ? rt.connection.stats.snapshot() : { out: [], in: [], overflow: { out: 0, in: 0 }, invalidLines: 0 },
    quirks: quirksFor(init?.agentInfo),
    extensions: (init?.metaKeys ?? []).map((key) => ({ key, used: key === 'steering' && init?.steering === true })),
    launchNotes: launch.notes,
    mcp,
    stderr: rt ? rt.process.stderrTail(opts.stderrLines) : [],
    exit: exit ? (exit.unreachable ? `unreachable: ${exit.unreachable.why}` : exit.closed ? `connection closed (code ${exit.closed.code})` : exit.spawnError ? `spawn error: ${exit.spawnError.message}` : exit.signal ? `signal ${exit.signal}` : `code ${String(exit.code)}`) + (exit.requested ? ' (stopped by the client)' : '') : undefined,
  };
}

