/** Agent diagnostics: shown as a read-only Markdown document, or copied for a bug report (ui/agentDiagnostics.ts). */
import * as vscode from 'vscode';
import { activeAgent, agentFromArg } from './helpers';
import type { CommandFactory } from './types';

/** The agent an argument (a tree item, an id) or the active panel names; none means every agent started in this window. */
const agentOf = (ctx: Parameters<CommandFactory>[0], arg: unknown): string | undefined => (agentFromArg(ctx, arg) ?? activeAgent(ctx))?.id;

const showDiagnostics: CommandFactory = (ctx) => async (arg?: unknown) => {
  await ctx.diagnostics.show(agentOf(ctx, arg));
};

const copyDiagnostics: CommandFactory = (ctx) => async (arg?: unknown) => {
  await vscode.env.clipboard.writeText(ctx.diagnostics.markdown(agentOf(ctx, arg)));
  void ctx.messages.show('info', vscode.l10n.t('The agent diagnostics were copied to the clipboard as Markdown. Secrets are redacted; read it through before you share it.'));
};

export const diagnosticsCommands = {
  'acpAgents.showDiagnostics': showDiagnostics,
  'acpAgents.copyDiagnostics': copyDiagnostics,
} as const;
