/**
 * The agent quick pick: your agents, those installed from the ACP Registry,
 * and — when asked — the registry's others, installed when picked.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentManager } from '../agents/agentManager';
import type { AgentRegistry, RegistryEntry } from '../agents/registry/agentRegistry';
import { byline } from '../agents/registry/format';
import { forLabel } from '../shared/nativeText';
import { agentStatusWords } from './sessionTree';
import type { UserMessages } from './userMessages';

export interface AgentPickerDeps {
  readonly agents: Pick<AgentManager, 'definitions' | 'status'>;
  readonly registry: Pick<AgentRegistry, 'entries'>;
  readonly messages: UserMessages;
  /** Installs a registry agent picked here. */
  install(entry: RegistryEntry): Promise<AgentDefinition | undefined>;
}

export class AgentPicker {
  constructor(private readonly deps: AgentPickerDeps) {}

  /**
   * A quick pick of agents: yours, those installed from the ACP Registry, and —
   * with `registry` — the registry's others, installed when picked.
   */
  async pick(title: string, filter: (a: AgentDefinition) => boolean = () => true, opts: { registry?: boolean } = {}): Promise<AgentDefinition | undefined> {
    const agents = this.deps.agents;
    const all = agents.definitions().filter(filter);
    const ids = new Set(agents.definitions().map((a) => a.id));
    const fromRegistry = opts.registry ? (await this.deps.registry.entries()).filter((e) => !ids.has(e.agent.id) && !('unavailable' in e.dist)) : [];
    if (all.length === 0 && fromRegistry.length === 0) {
      await this.deps.messages.show('info', vscode.l10n.t('No agent is running.'));
      return undefined;
    }
    type Item = vscode.QuickPickItem & { agent?: AgentDefinition; entry?: RegistryEntry };
    const item = (agent: AgentDefinition): Item => ({
      label: forLabel(agent.name),
      description: `${agent.version ? `${forLabel(agent.version, 50)} · ` : ''}${agentStatusWords(agents.status(agent.id))}`,
      detail: forLabel(agent.description ?? [agent.command, ...agent.args].join(' '), 500),
      agent,
    });
    const group = (label: string, list: Item[]): Item[] => (list.length ? [{ label, kind: vscode.QuickPickItemKind.Separator }, ...list] : []);
    const items: Item[] = [
      ...group(vscode.l10n.t('Your agents'), all.filter((a) => a.source === 'settings').map(item)),
      ...group(vscode.l10n.t('Installed from the ACP Registry'), all.filter((a) => a.source === 'registry').map(item)),
      ...group(
        vscode.l10n.t('ACP Registry — installed when picked'),
        fromRegistry.map((entry) => ({
          label: forLabel(entry.agent.name),
          description: vscode.l10n.t('{0} · install', forLabel(entry.agent.version, 50)),
          detail: forLabel(`${entry.agent.description}${byline(entry.agent.authors)}`, 500),
          entry,
        })),
      ),
    ];
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Pick an agent'), matchOnDescription: true, matchOnDetail: true });
    if (picked?.entry) return await this.deps.install(picked.entry);
    return picked?.agent;
  }
}
