/**
 * The agent diagnostics view: a read-only Markdown document
 * (`acp-diagnostics:/<agent id>.md`, or `…/all.md` for every agent started in
 * this window) that refreshes while it is visible, and the same text for
 * "ACP: Copy Diagnostics". The text is built by `agents/diagnosticsMarkdown.ts`
 * (redacted, bounded, agent text fenced).
 */
import * as vscode from 'vscode';
import { clientCapabilities } from '../sessions/clientMethods';
import type { AgentManager } from '../agents/agentManager';
import type { AgentRuntime } from '../agents/agentRuntime';
import { agentDiagnostics, type McpStatusReport } from '../agents/diagnostics';
import { diagnosticsMarkdown, REPORT_LIMITS } from '../agents/diagnosticsMarkdown';
import type { McpServerSources } from '../services/mcpServerSources';
import { withoutUntrusted } from '../sessions/mcp/mcpServers';
import type { McpServerStatus as LiveServerStatus } from '../sessions/mcp/mcpStatus';
import type { McpTrust } from '../sessions/mcp/mcpTrust';

const DIAGNOSTICS_SCHEME = 'acp-diagnostics';
const ALL = 'all';
const REFRESH_MS = 2000;

/**
 * The MCP section of an agent's diagnostics. The default (`selectionMcpStatus`)
 * says what a new session would be offered now; a live per-session status
 * (started, tools listed, never started) replaces it by passing another provider.
 */
export type McpStatusProvider = (agentId: string, runtime: AgentRuntime) => McpStatusReport | undefined;

export interface DiagnosticsDeps {
  readonly agents: AgentManager;
  /** The values every log redacts (run-time secrets, sign-in values). */
  readonly secrets: () => readonly string[];
  readonly extensionVersion: string;
  readonly mcpStatus: McpStatusProvider;
}

export class AgentDiagnosticsView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly deps: DiagnosticsDeps) {
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(DIAGNOSTICS_SCHEME, this),
      this.changed,
    ];
    const sub = deps.agents.onDidChangeStatus(() => this.refresh());
    this.disposables.push({ dispose: () => sub.dispose() });
  }

  /** The document for one agent, or for every agent started in this window. */
  uri(agentId?: string): vscode.Uri {
    return vscode.Uri.from({ scheme: DIAGNOSTICS_SCHEME, path: `/${encodeURIComponent(agentId ?? ALL)}.md` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const name = decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.md$/, ''));
    return this.markdown(name === ALL ? undefined : name);
  }

  /** The report as Markdown: one agent's, or every started agent's. */
  markdown(agentId?: string): string {
    const list = this.deps.agents.started().filter((a) => agentId === undefined || a.def.id === agentId);
    const mcp = (id: string, rt: AgentRuntime) => {
      try {
        return this.deps.mcpStatus(id, rt);
      } catch {
        return undefined;
      }
    };
    const agents = list.map((a) =>
      agentDiagnostics(a.def, a.status, a.runtime, { clientCapabilities: clientCapabilities(), mcp: mcp(a.def.id, a.runtime), stderrLines: REPORT_LIMITS.stderrLines }),
    );
    return diagnosticsMarkdown(agents, {
      secrets: this.deps.secrets(),
      extensionVersion: this.deps.extensionVersion,
      host: `${vscode.env.appName} ${vscode.version}`,
      platform: `${process.platform} ${process.arch}`,
      generated: new Date().toISOString(),
    });
  }

  /** Opens the document (read-only: a virtual document) beside the current editor, and keeps it current while it is visible. */
  async show(agentId?: string): Promise<vscode.TextEditor> {
    const uri = this.uri(agentId);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    const editor = await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    this.timer ??= setInterval(() => this.tick(), REFRESH_MS);
    return editor;
  }

  private visible(): vscode.Uri[] {
    return vscode.window.visibleTextEditors.map((e) => e.document.uri).filter((u) => u.scheme === DIAGNOSTICS_SCHEME);
  }

  private tick(): void {
    const open = vscode.workspace.textDocuments.some((d) => d.uri.scheme === DIAGNOSTICS_SCHEME && !d.isClosed);
    if (!open) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    this.refresh();
  }

  private refresh(): void {
    for (const uri of this.visible()) this.changed.fire(uri);
  }

  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/**
 * Today's MCP section: the servers a new session of this agent in `cwd` would be
 * handed (settings and mcp.json files, the workspace's only when trusted) and
 * those left out with why — computed without asking anything.
 */
export function selectionMcpStatus(sources: McpServerSources, trust: McpTrust, cwd: () => string | undefined): McpStatusProvider {
  return (_agentId, rt) => {
    const folder = cwd();
    if (!folder || rt.connection.isClosed) return undefined;
    const caps = rt.capabilities;
    const sel = withoutUntrusted(sources.select(folder, { canHttp: caps.supportsMcp('http'), canSse: caps.supportsMcp('sse') }), (h) => trust.isTrusted(h));
    return {
      source: 'selection',
      servers: [
        ...sel.servers.map((s) => ({ name: s.name, state: 'offered' as const, detail: 'type' in s && typeof s.type === 'string' ? s.type : 'stdio' })),
        ...sel.skipped.map((s) => ({ name: s.name, state: 'left-out' as const, detail: s.reason })),
      ],
    };
  };
}

/** What the diagnostics read of an open session's MCP status part. */
export interface LiveMcpSession {
  readonly id: string | undefined;
  readonly mcp: { statuses(): readonly LiveServerStatus[]; trustNote(): string | undefined };
}

const LIVE_STATE: Record<LiveServerStatus['state'], McpStatusReport['servers'][number]['state']> = {
  offered: 'offered',
  skipped: 'left-out',
  started: 'started',
  listed: 'started',
  exited: 'started',
  failed: 'never-started',
  notStarted: 'never-started',
  unused: 'offered',
};

/**
 * The MCP section from the sessions open on the agent (what the relay saw: started, tools
 * listed, crashed, never started); with none open, what a new session would be offered.
 */
export function liveMcpStatus(sessions: (agentId: string) => readonly LiveMcpSession[], fallback: McpStatusProvider): McpStatusProvider {
  return (agentId, rt) => {
    const open = sessions(agentId);
    if (open.length === 0) return fallback(agentId, rt);
    const servers = open.flatMap((s) =>
      s.mcp.statuses().map((m) => {
        const ended = m.state === 'exited' ? (m.signal ? `exited (${m.signal})` : `exited (code ${String(m.exitCode)})`) : undefined;
        const detail = [m.transport === 'unknown' ? undefined : m.transport, ended, m.reason].filter((x): x is string => typeof x === 'string' && x.length > 0).join('; ');
        return { name: m.name, state: LIVE_STATE[m.state], ...(m.tools !== undefined ? { tools: m.tools } : {}), ...(detail ? { detail } : {}), ...(s.id ? { session: s.id } : {}) };
      }),
    );
    const notice = open.map((s) => s.mcp.trustNote()).find((n) => n !== undefined);
    return { source: 'live', servers, ...(notice ? { notice } : {}) };
  };
}
