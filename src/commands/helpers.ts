/** What several commands share: the agent an argument names, the folder to work in, an error with Show Log. */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { Ctx } from '../ctx';
import { forMessage } from '../shared/nativeText';

/** The agent a command argument names (an id, or a tree node), if any. */
export function agentFromArg(ctx: Ctx, arg: unknown): AgentDefinition | undefined {
  if (typeof arg === 'string') return ctx.agents.find(arg);
  if (typeof arg === 'object' && arg !== null && 'agent' in arg) return (arg as { agent: AgentDefinition }).agent;
  return undefined;
}

/** The agent of the active chat panel. */
export function activeAgent(ctx: Ctx): AgentDefinition | undefined {
  const active = ctx.activePanel();
  return active ? ctx.agents.find(active.agentId) : undefined;
}

/** In a multi-root workspace, asks which folder the session works in (null: the user cancelled). */
export async function pickFolder(ctx: Ctx): Promise<string | undefined | null> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0]?.uri.fsPath;
  const f = await ctx.folderPicker();
  return f ? f.uri.fsPath : null;
}

/** An error with Show Log. */
export async function showError(ctx: Ctx, agent: AgentDefinition, err: unknown): Promise<void> {
  const choice = await ctx.messages.show('error', forMessage(String((err as Error)?.message ?? err)), vscode.l10n.t('Show Log'));
  if (choice) ctx.agents.showLog(agent.id);
}
