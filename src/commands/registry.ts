/** Commands about the ACP Registry: install, update, uninstall. */
import * as vscode from 'vscode';
import type { PendingMove } from '../agents/registry/agentRegistry';
import { forLabel, forMessage } from '../shared/nativeText';
import { agentFromArg } from './helpers';
import type { CommandFactory } from './types';

/** ACP: Install Agent… — resolves with the installed agent (for callers and tests). */
const installAgent: CommandFactory = (ctx) => (arg?: unknown) => ctx.installs.install(typeof arg === 'string' ? arg : undefined, 'offerSession');

/** ACP: Update Agents — installs the registry's newer versions; resolves with the ids updated. */
const updateAgents: CommandFactory = (ctx) => async (): Promise<string[]> => {
  const list = await ctx.registry.source.refresh();
  if (list.error) {
    void ctx.messages.show('warning', list.from === 'cache' ? vscode.l10n.t('{0}. Updates are checked against the cached copy.', forMessage(list.error, 300)) : vscode.l10n.t('{0}. Updates are checked against the list shipped with the extension.', forMessage(list.error, 300)));
  }
  const moved = await moveAgents(ctx, await ctx.registry.moves(list, ctx.config.pinnedVersions()));
  const updates = await ctx.registry.updates(list, ctx.config.pinnedVersions());
  if (updates.length === 0 && moved.asked) return moved.done;
  if (updates.length === 0) {
    void ctx.messages.show('info', ctx.registry.installer.installed().length ? vscode.l10n.t('Every agent installed from the ACP Registry is up to date.') : vscode.l10n.t('No agent is installed from the ACP Registry.'));
    return [];
  }
  const done: string[] = [...moved.done];
  for (const entry of updates) {
    // An agent no panel uses is stopped first: its next start runs the new version. One in use keeps running the old one.
    if (!ctx.inUse(entry.agent.id)) await ctx.agents.stop(entry.agent.id);
    const def = await ctx.installs.install(entry);
    if (def) done.push(def.id);
  }
  if (done.length) {
    const names = updates.filter((e) => done.includes(e.agent.id)).map((e) => `${e.agent.name} ${e.installed?.version ?? '?'} → ${e.agent.version}`);
    const busy = done.filter((id) => ctx.inUse(id));
    void ctx.messages.show('info', busy.length ? vscode.l10n.t('Updated {0}. Open sessions keep the old version until the agent restarts (ACP: Restart Agent).', forMessage(names.join(', '), 500)) : vscode.l10n.t('Updated {0}.', forMessage(names.join(', '), 500)));
  }
  return done;
};

/**
 * Adapters whose npm package moved (agents/registry/moved.ts): each is moved to the package it
 * continues as, after a modal confirmation naming both packages and versions. Declined: it stays as
 * it is. A new id: the new entry is installed, then the old one uninstalled (as ACP: Uninstall Agent does).
 */
async function moveAgents(ctx: Parameters<CommandFactory>[0], moves: readonly PendingMove[]): Promise<{ asked: boolean; done: string[] }> {
  const done: string[] = [];
  for (const m of moves) {
    const old = m.installed;
    const to = m.to.agent;
    const sameId = to.id === old.id;
    const sessions = ctx.index.forAgent(old.id).length;
    const detail = [
      vscode.l10n.t('{0} is no longer updated under that name: the adapter continues as {1}.', forMessage(m.from, 100), forMessage(m.toPackage, 100)),
      sameId
        ? vscode.l10n.t('{0} is installed from {1} {2} in its place.', forMessage(old.name, 100), forMessage(m.toPackage, 100), forMessage(to.version, 50))
        : vscode.l10n.t('{0} is installed and {1} is uninstalled.', forMessage(to.name, 100), forMessage(old.name, 100)),
      ...(sessions && !sameId ? [vscode.l10n.t('Your {0} past sessions stay in the list.', sessions)] : []),
    ].join(' ');
    const question = vscode.l10n.t('Move {0} from {1} {2} to {3} {4}?', forMessage(old.name, 100), forMessage(m.from, 100), forMessage(old.version, 50), forMessage(m.toPackage, 100), forMessage(to.version, 50));
    if (!(await ctx.confirm(question, detail, vscode.l10n.t('Move')))) {
      ctx.log.info(`registry: ${old.id} stays on ${m.from} ${old.version} (the move to ${m.toPackage} was declined).`);
      continue;
    }
    if (!ctx.inUse(old.id)) await ctx.agents.stop(old.id);
    const def = await ctx.installs.install(m.to);
    if (!def) continue;
    if (!sameId) {
      // Only when the installed one is what runs (an agent of your settings with the same id wins).
      if (ctx.agents.find(old.id)?.source === 'registry') {
        for (const p of ctx.panels.all()) if (p.agentId === old.id) p.panel.dispose();
        await ctx.agents.stop(old.id);
      }
      ctx.registry.uninstall(old.id);
    }
    done.push(def.id);
    void ctx.messages.show('info', vscode.l10n.t('Moved {0} ({1} {2}) to {3} ({4} {5}).', forMessage(old.name, 100), forMessage(m.from, 100), forMessage(old.version, 50), forMessage(to.name, 100), forMessage(m.toPackage, 100), forMessage(to.version, 50)));
  }
  return { asked: moves.length > 0, done };
}

/** Pin Version / Unpin Version (an installed registry agent's context menu): the version stays put — no update is offered or installed. Resolves with the pins now. */
const pinVersion = (pin: boolean): CommandFactory => (ctx) => async (arg?: unknown): Promise<Readonly<Record<string, string>>> => {
  const id = typeof arg === 'string' ? arg : agentFromArg(ctx, arg)?.id;
  const installed = ctx.registry.installer.installed().find((a) => a.id === id);
  if (!installed) {
    void ctx.messages.show('info', vscode.l10n.t('Only an agent installed from the ACP Registry can be pinned to its version.'));
    return ctx.config.pinnedVersions();
  }
  await ctx.config.pinVersion(installed.id, pin ? installed.version : undefined);
  void ctx.messages.show('info', pin ? vscode.l10n.t('{0} stays at {1}: updates from the ACP Registry are not offered or installed for it.', forMessage(installed.name, 100), forMessage(installed.version, 50)) : vscode.l10n.t('{0} is no longer pinned: updates from the ACP Registry are offered again.', forMessage(installed.name, 100)));
  return ctx.config.pinnedVersions();
};

/** ACP: Uninstall Agent… — resolves with the id removed. */
const uninstallAgent: CommandFactory = (ctx) => async (arg?: unknown): Promise<string | undefined> => {
  const installed = ctx.registry.installer.installed();
  const fromArg = typeof arg === 'string' ? arg : agentFromArg(ctx, arg)?.id;
  let target = fromArg ? installed.find((a) => a.id === fromArg) : undefined;
  if (!target && fromArg === undefined) {
    if (installed.length === 0) {
      void ctx.messages.show('info', vscode.l10n.t('No agent is installed from the ACP Registry.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      installed.map((a) => ({ label: forLabel(a.name), description: forLabel(`${a.version} · ${a.kind}`), detail: a.description === undefined ? undefined : forLabel(a.description, 500), a })),
      { title: vscode.l10n.t('ACP: Uninstall Agent'), placeHolder: vscode.l10n.t('Pick the agent to uninstall') },
    );
    target = picked?.a;
  }
  if (!target) return undefined;
  const sessions = ctx.index.forAgent(target.id).length;
  const removed = ctx.inUse(target.id) ? vscode.l10n.t('Its files are removed and its open sessions end.') : vscode.l10n.t('Its files are removed.');
  const detail = sessions ? `${removed} ${vscode.l10n.t('Your {0} past sessions stay in the list.', sessions)}` : removed;
  if (!(await ctx.confirm(vscode.l10n.t('Uninstall {0} {1}?', forMessage(target.name, 100), forMessage(target.version, 50)), detail, vscode.l10n.t('Uninstall')))) return undefined;
  // Only when the installed one is what runs (an agent of your settings with the same id wins).
  if (ctx.agents.find(target.id)?.source === 'registry') {
    for (const p of ctx.panels.all()) if (p.agentId === target.id) p.panel.dispose();
    await ctx.agents.stop(target.id);
  }
  ctx.registry.uninstall(target.id);
  void ctx.messages.show('info', vscode.l10n.t('Uninstalled {0}.', forMessage(target.name, 100)));
  return target.id;
};

export const registryCommands = {
  'acpAgents.installAgent': installAgent,
  'acpAgents.updateAgents': updateAgents,
  'acpAgents.uninstallAgent': uninstallAgent,
  'acpAgents.pinAgentVersion': pinVersion(true),
  'acpAgents.unpinAgentVersion': pinVersion(false),
} as const;
