/**
 * Where a session's MCP servers come from: the mcp.json files and settings
 * that define them (read here, on VS Code), the selection the agent can run
 * (`sessions/mcp/mcpServers.ts`), their secrets noted for redaction, and the
 * user's trust in the workspace's (`sessions/mcp/mcpTrust.ts`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRuntime } from '../agents/agentRuntime';
import { looksSecret, type SecretValues } from '../agents/redact';
import { mcpJsonProblem, parseMcpJson, selectMcpServers, withoutUntrusted, type McpSelection, type McpSource } from '../sessions/mcp/mcpServers';
import type { McpTrust } from '../sessions/mcp/mcpTrust';

/** The settings that define MCP servers (Config's). */
export interface McpSettings {
  /** The user's acpAgents.mcpServers. */
  mcpServers(): Record<string, unknown>;
  /** A workspace's acpAgents.mcpServers (offered for trust). */
  workspaceMcpServers(): { label: string; servers: Record<string, unknown> }[];
}

export class McpServerSources {
  constructor(
    private readonly settings: McpSettings,
    /** The extension's global storage: the user's mcp.json is two folders up. */
    private readonly globalStorage: string,
    private readonly secrets: SecretValues,
    private readonly trust: McpTrust,
    /** An empty folder of the extension's own (created when asked): npx servers take npm's project config from it. */
    private readonly runnerPrefix: () => string,
  ) {}

  /** The MCP servers for a session in `cwd`, their secrets noted for redaction. */
  select(cwd: string, caps: { canHttp: boolean; canSse: boolean }): McpSelection {
    const sel = selectMcpServers(this.sources(), caps, {
      env: process.env,
      workspaceFolder: cwd,
      cwd,
      pathEnv: process.env.PATH,
      runnerPrefix: this.runnerPrefix(),
      onEnv: (n, v) => (looksSecret(n, v) ? this.secrets.add(v) : undefined),
    });
    for (const server of sel.servers) {
      for (const pair of [...('env' in server ? server.env : []), ...('headers' in server ? server.headers : [])]) if (looksSecret(pair.name, pair.value)) this.secrets.add(pair.value);
      const userinfo = 'url' in server ? /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]+)@/i.exec(server.url)?.[1] : undefined;
      // user:password → the password; a lone token → the token.
      if (userinfo) this.secrets.add(userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : userinfo);
    }
    return sel;
  }

  /** What a session on `rt` gets: the servers it can run, the workspace's only once the user trusts them (asked here). */
  async forSession(rt: AgentRuntime, cwd: string, agentName: string): Promise<McpSelection> {
    const sel = this.select(cwd, { canHttp: rt.capabilities.supportsMcp('http'), canSse: rt.capabilities.supportsMcp('sse') });
    if (sel.fromWorkspace.length) await this.trust.resolve(agentName, sel.fromWorkspace);
    return withoutUntrusted(sel, (h) => this.trust.isTrusted(h));
  }

  /**
   * MCP servers in increasing priority: the user's mcp.json, the workspace's
   * .vscode/mcp.json and workspace-level acpAgents.mcpServers (both handed over
   * only once the user trusts each definition), then the user's acpAgents.mcpServers.
   */
  private sources(): McpSource[] {
    const sources: McpSource[] = [];
    const read = (file: string, label: string, origin: 'user' | 'workspace') => {
      let text: string;
      try {
        if (!fs.existsSync(file)) return;
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        sources.push({ label, servers: {}, origin, problem: vscode.l10n.t('could not be read: {0}', (err as Error).message) });
        return;
      }
      sources.push({ label, servers: parseMcpJson(text), origin, problem: mcpJsonProblem(text) });
    };
    // globalStorage is <user data>/User/globalStorage/<extension>: mcp.json sits in User/.
    read(path.join(this.globalStorage, '..', '..', 'mcp.json'), vscode.l10n.t('user mcp.json'), 'user');
    if (vscode.workspace.isTrusted) {
      for (const f of vscode.workspace.workspaceFolders ?? []) read(path.join(f.uri.fsPath, '.vscode', 'mcp.json'), `${f.name}/.vscode/mcp.json`, 'workspace');
      for (const w of this.settings.workspaceMcpServers()) sources.push({ label: w.label, servers: w.servers, origin: 'workspace' });
    }
    sources.push({ label: 'acpAgents.mcpServers', servers: this.settings.mcpServers(), origin: 'user' });
    return sources;
  }
}
