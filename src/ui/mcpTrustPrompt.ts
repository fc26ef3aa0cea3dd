import * as vscode from 'vscode';
import type { WorkspaceMcpServer } from '../sessions/mcpServers';

/** The native trust question: the exact command lines and URLs, in a modal. Escape trusts nothing. */
export async function askMcpTrust(agentName: string, servers: readonly WorkspaceMcpServer[]): Promise<readonly string[]> {
  const trust = servers.length === 1 ? 'Trust and Start It' : 'Trust and Start Them';
  const choice = await vscode.window.showWarningMessage(
    `This workspace defines ${servers.length === 1 ? 'an MCP server' : `${servers.length} MCP servers`} that ${agentName} would start. Trust ${servers.length === 1 ? 'it' : 'them'}?`,
    {
      modal: true,
      detail: `${servers.map((s) => `• ${s.name} (${s.label}):\n    ${s.display}`).join('\n')}\n\nThey run as you, with your files and network. Trust them only if you trust this repository; \${env:…} values are not filled in for servers a workspace defines. Change this later with "ACP: Manage Trusted Workspace MCP Servers…".`,
    },
    trust,
  );
  return choice === trust ? servers.map((s) => s.hash) : [];
}
