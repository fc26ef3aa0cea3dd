/** ACP: Sessions That Changed This File — from the editor's title, its context menu or the Explorer. */
import * as vscode from 'vscode';
import { forLabel, forMessage } from '../shared/nativeText';
import type { CommandFactory } from './types';

/** The file a command was run on: the Explorer's or the editor title's resource, else the active editor's. */
function fileOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  return vscode.window.activeTextEditor?.document.uri;
}

const sessionsThatChangedFile: CommandFactory = (ctx) => async (arg?: unknown): Promise<string | undefined> => {
  const uri = fileOf(arg);
  if (!uri || uri.scheme !== 'file') {
    void ctx.messages.show('info', vscode.l10n.t('Sessions That Changed This File works on a file on disk: open one, or pick one in the Explorer.'));
    return undefined;
  }
  const name = vscode.workspace.asRelativePath(uri, false);
  const turns = (await ctx.fileTouches.turnsThatChanged(uri.fsPath)).filter((t) => ctx.agents.find(t.agentId) && !ctx.index.isDeleted(t.agentId, t.sessionId));
  if (turns.length === 0) {
    void ctx.messages.show('info', vscode.l10n.t('No session in your history changed {0}.', forMessage(name, 300)));
    return undefined;
  }
  const items = turns.map((t) => {
    const agent = ctx.agents.find(t.agentId)!;
    const entry = ctx.index.get(t.agentId, t.sessionId);
    const others = t.files.length - 1;
    return {
      label: forLabel(entry?.title || t.text || t.sessionId),
      description: `${forLabel(agent.name, 100)} · ${new Date(t.at).toLocaleString()}`,
      detail: `${t.text ? vscode.l10n.t('Turn: {0}', forLabel(t.text, 200)) : vscode.l10n.t('A turn')}${others > 0 ? ` · ${others === 1 ? vscode.l10n.t('and 1 other file') : vscode.l10n.t('and {0} other files', others)}` : ''}`,
      session: { sessionId: t.sessionId },
      turn: t,
      cwd: entry?.cwd,
    };
  });
  const picked = await ctx.sessionPicker(items, vscode.l10n.t('Sessions That Changed {0}', forLabel(name, 200)));
  if (!picked) return undefined;
  const agent = ctx.agents.find(picked.turn.agentId);
  if (!agent) return undefined;
  const panel = ctx.panels.openPast(agent, picked.turn.sessionId, picked.cwd);
  const messageId = await panel.revealTurn(picked.turn.turnId);
  if (messageId === undefined) ctx.log.info(`sessions that changed ${uri.fsPath}: the turn ${picked.turn.turnId} of ${picked.turn.sessionId} is not in the history shown`);
  return messageId;
};

export const fileSessionCommands = {
  'acpAgents.sessionsThatChangedFile': sessionsThatChangedFile,
} as const;
