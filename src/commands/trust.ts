/** Commands about what the user trusts: workspace MCP servers, and the workspace's Gemini CLI settings. */
import * as vscode from 'vscode';
import { forLabel } from '../shared/nativeText';
import type { WorkspaceMcpServer } from '../sessions/mcp/mcpServers';
import { GEMINI_SETTINGS_KEY, trustChoices, trustOutcome } from '../sessions/mcp/trustChoices';
import type { CommandFactory } from './types';

const manageMcpTrust: CommandFactory = (ctx) => async () => {
  const defined = new Map<string, WorkspaceMcpServer>();
  for (const f of vscode.workspace.workspaceFolders ?? [undefined]) {
    const cwd = f?.uri.fsPath ?? ctx.storage;
    for (const w of ctx.mcp.select(cwd, { canHttp: true, canSse: true }).fromWorkspace) defined.set(w.hash, w);
  }
  const trusted = ctx.mcpTrust.trusted();
  const gemini = ctx.geminiTrust.trustedCount();
  if (defined.size === 0 && gemini === 0) {
    if (trusted.size === 0) return void (await ctx.messages.show('info', vscode.l10n.t('This workspace defines no MCP servers, and none is trusted.')));
    const forget = vscode.l10n.t('Forget Them');
    if ((await ctx.messages.show('info', vscode.l10n.t('This workspace defines no MCP servers now; {0} earlier definition(s) are still trusted.', trusted.size), forget)) === forget) await ctx.mcpTrust.forgetAll();
    return;
  }
  const choices = trustChoices([...defined.keys()], trusted, gemini);
  const picked = await ctx.trustPicker(
    choices.map((c) => {
      const w = defined.get(c.key);
      if (w) return { label: forLabel(w.name), description: forLabel(w.label), detail: forLabel(w.display, 500), picked: c.picked, key: c.key };
      return {
        label: vscode.l10n.t('Gemini CLI settings of this workspace (.gemini/)'),
        description: vscode.l10n.t('{0} folder(s) trusted', gemini),
        detail: vscode.l10n.t('Uncheck to revoke: gemini-cli is then not told to trust the folder, and you are asked again before it loads them.'),
        picked: c.picked,
        key: GEMINI_SETTINGS_KEY,
      };
    }),
    { title: vscode.l10n.t('ACP: Trusted Workspace MCP Servers'), placeHolder: vscode.l10n.t('Checked servers are handed to agents (which start them); uncheck to revoke'), canPickMany: true, ignoreFocusOut: true },
  );
  if (!picked) return;
  const outcome = trustOutcome(choices, picked.map((p) => p.key));
  if (outcome.mcpTrusted) {
    await ctx.mcpTrust.setTrusted(outcome.mcpTrusted);
    ctx.log.info(`workspace MCP servers trusted: ${picked.filter((p) => p.key !== GEMINI_SETTINGS_KEY).map((p) => p.label).join(', ') || 'none'}`);
  }
  if (outcome.forgetGemini) {
    await ctx.geminiTrust.forgetAll();
    ctx.log.info('Gemini settings trust of this workspace revoked: gemini-cli is asked about them again');
  }
};

export const trustCommands = {
  'acpAgents.manageMcpTrust': manageMcpTrust,
} as const;
