import * as vscode from 'vscode';
import type { WorkspaceMcpServer } from '../sessions/mcp/mcpServers';
import { trustListText } from '../sessions/mcp/mcpTrust';
import { forMessage } from '../shared/nativeText';

/** The native trust question: the exact command lines and URLs, and the env each sets, in a modal. Escape trusts nothing. */
export async function askMcpTrust(agentName: string, servers: readonly WorkspaceMcpServer[]): Promise<readonly string[]> {
  const one = servers.length === 1;
  const trust = one ? vscode.l10n.t('Trust and Start It') : vscode.l10n.t('Trust and Start Them');
  // Names, commands, URLs and env come from a workspace file: no link or codicon syntax survives (trustListText).
  const list = trustListText(servers);
  const choice = await vscode.window.showWarningMessage(
    one ? vscode.l10n.t('This workspace defines an MCP server that {0} would start. Trust it?', forMessage(agentName, 100)) : vscode.l10n.t('This workspace defines {0} MCP servers that {1} would start. Trust them?', servers.length, forMessage(agentName, 100)),
    {
      modal: true,
      detail: `${list}\n\n${vscode.l10n.t('They run as you, with your files and network. Trust them only if you trust this repository; {0} values are not filled in for servers a workspace defines. Change this later with "ACP: Manage Trusted Workspace MCP Servers…".', '${env:…}')}`,
    },
    trust,
  );
  return choice === trust ? servers.map((s) => s.hash) : [];
}
