/** Commands about what the user trusts: workspace MCP servers. */
import * as vscode from 'vscode';
import { forLabel } from '../shared/nativeText';
import type { WorkspaceMcpServer } from '../sessions/mcpServers';
import type { CommandFactory } from './types';

const manageMcpTrust: CommandFactory = (ctx) => async () => {
  const defined = new Map<string, WorkspaceMcpServer>();
  for (const f of vscode.workspace.workspaceFolders ?? [undefined]) {
    const cwd = f?.uri.fsPath ?? ctx.storage;
    for (const w of ctx.mcp.select(cwd, { canHttp: true, canSse: true }).fromWorkspace) defined.set(w.hash, w);
  }
  const trusted = ctx.mcpTrust.trusted();
  if (defined.size === 0) {
    if (trusted.size === 0) return void (await ctx.messages.show('info', vscode.l10n.t('This workspace defines no MCP servers, and none is trusted.')));
    const forget = vscode.l10n.t('Forget Them');
    if ((await ctx.messages.show('info', vscode.l10n.t('This workspace defines no MCP servers now; {0} earlier definition(s) are still trusted.', trusted.size), forget)) === forget) await ctx.mcpTrust.forgetAll();
    return;
  }
  const picked = await vscode.window.showQuickPick(
    [...defined.values()].map((w) => ({ label: forLabel(w.name), description: forLabel(w.label), detail: forLabel(w.display, 500), picked: trusted.has(w.hash), hash: w.hash })),
    { title: vscode.l10n.t('ACP: Trusted Workspace MCP Servers'), placeHolder: vscode.l10n.t('Checked servers are handed to agents (which start them); uncheck to revoke'), canPickMany: true, ignoreFocusOut: true },
  );
  if (!picked) return;
  await ctx.mcpTrust.setTrusted(picked.map((p) => p.hash));
  ctx.log.info(`workspace MCP servers trusted: ${picked.map((p) => p.label).join(', ') || 'none'}`);
};

export const trustCommands = {
  'acpAgents.manageMcpTrust': manageMcpTrust,
} as const;
