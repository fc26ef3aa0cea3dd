/** Commands about agents: restart, log, sign in and out. */
import * as vscode from 'vscode';
import { activeAgent, agentFromArg, showError } from './helpers';
import type { CommandFactory } from './types';

const restartAgent: CommandFactory = (ctx) => async (arg?: unknown) => {
  const agent = agentFromArg(ctx, arg) ?? activeAgent(ctx) ?? (await ctx.agentPicker.pick(vscode.l10n.t('ACP: Restart Agent'), (a) => ctx.agents.status(a.id) !== 'not-started'));
  if (!agent) return;
  try {
    await ctx.agents.restart(agent.id, ctx.workspaceCwd());
    for (const p of ctx.panels.all()) if (p.agentId === agent.id && !p.session.id) await p.session.start();
  } catch (err) {
    await showError(ctx, agent, err);
  }
};

const showLog: CommandFactory = (ctx) => (arg?: unknown) => {
  const agent = agentFromArg(ctx, arg) ?? activeAgent(ctx);
  ctx.agents.showLog(agent?.id);
};

const signIn: CommandFactory = (ctx) => async (arg?: unknown) => {
  const agent = agentFromArg(ctx, arg) ?? activeAgent(ctx) ?? (await ctx.agentPicker.pick(vscode.l10n.t('ACP: Sign In')));
  if (agent) await ctx.auth.signIn(agent, ctx.workspaceCwd());
};

const signOut: CommandFactory = (ctx) => async (arg?: unknown) => {
  const agent = agentFromArg(ctx, arg) ?? activeAgent(ctx) ?? (await ctx.agentPicker.pick(vscode.l10n.t('ACP: Sign Out'), (a) => ctx.agents.status(a.id) !== 'not-started'));
  if (agent) await ctx.auth.signOut(agent, ctx.workspaceCwd());
};

export const agentCommands = {
  'acpAgents.restartAgent': restartAgent,
  'acpAgents.showLog': showLog,
  'acpAgents.signIn': signIn,
  'acpAgents.signOut': signOut,
} as const;
