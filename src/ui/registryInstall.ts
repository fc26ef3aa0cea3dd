/**
 * Installing agents from the ACP Registry: the one install flow (an id, an
 * entry, or the registry's quick pick → a confirmation when the download has
 * no checksum → a cancellable progress notification → what the user is told),
 * and the daily check for newer versions.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentManager } from '../agents/agentManager';
import { NotInstallableError, type AgentRegistry, type RegistryEntry } from '../agents/registry/agentRegistry';
import { HttpError } from '../agents/registry/http';
import { ChecksumError } from '../agents/registry/installer';
import { forMessage } from '../shared/nativeText';
import { confirmRegistryInstall, pickFromRegistry, registryEnv, type RegistryPickItem } from './registryPicker';
import type { UserMessages } from './userMessages';

const UPDATE_CHECK_KEY = 'registry.lastUpdateCheck';
const DAY_MS = 24 * 60 * 60 * 1000;

/** After an install: offer a New Session with it, just say it, or nothing (the caller says what it did). */
export type InstallAnnounce = 'offerSession' | 'tell' | 'none';

export interface RegistryInstallDeps {
  readonly registry: AgentRegistry;
  readonly agents: Pick<AgentManager, 'find' | 'runtime'>;
  readonly messages: UserMessages;
  readonly log: vscode.LogOutputChannel;
  /** Where the time of the last update check is kept (global state). */
  readonly state: vscode.Memento;
  /** A modal confirmation (the tests answer it). */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** The ids your acpAgents.agents defines (the pick marks them). */
  configuredIds(): ReadonlySet<string>;
  /** Sees every registry quick pick as it opens (the tests drive it). */
  pickCreated(qp: vscode.QuickPick<RegistryPickItem>): void;
  /** An agent was installed. */
  installed(): void;
  /** The agents the user pinned (id → version): never offered an update. */
  pinned?(): Readonly<Record<string, string>>;
}

export class RegistryInstall {
  constructor(private readonly deps: RegistryInstallDeps) {}

  /** The registry quick pick (installed / available / cannot run here). */
  pick(title: string): Promise<RegistryEntry | undefined> {
    const d = this.deps;
    return pickFromRegistry(d.registry, d.configuredIds(), { title, created: (qp) => d.pickCreated(qp), log: (m) => d.log.warn(m) });
  }

  /**
   * Installs (or updates) a registry agent: `target` is an entry (picked, or an
   * update), an id, or undefined (the registry quick pick is shown). Resolves
   * with the installed agent; undefined when there was none, it failed, or it
   * was cancelled (the user is told why).
   */
  async install(target: RegistryEntry | string | undefined, announce: InstallAnnounce = 'none'): Promise<AgentDefinition | undefined> {
    const { registry, messages } = this.deps;
    let picked: RegistryEntry | undefined;
    if (typeof target === 'object') picked = target;
    else {
      picked = target !== undefined ? await this.entryFor(target) : await this.pick(vscode.l10n.t('ACP: Install Agent'));
      if (!picked) {
        if (target !== undefined) void messages.show('error', vscode.l10n.t('No agent "{0}" is configured, installed, or listed in the ACP Registry.', target));
        return undefined;
      }
      const a = picked.agent;
      if ('unavailable' in picked.dist) {
        void messages.show('warning', vscode.l10n.t('{0} cannot be installed on this machine ({1}).', forMessage(a.name, 100), forMessage(picked.dist.unavailable, 300)));
        return undefined;
      }
      if (picked.installed && !picked.update) {
        const def = this.deps.agents.find(a.id);
        if (def && announce === 'offerSession') this.offerNewSession(def, vscode.l10n.t('{0} {1} is already installed.', forMessage(a.name, 100), forMessage(picked.installed.version, 50)));
        return def;
      }
    }
    // The registry's current pin, not the cached or shipped one the pick may have come from
    // (a list the picker or Update Agents fetched a moment ago is current enough).
    const fresh = (await registry.entries(await registry.source.refresh({ maxAgeMs: 60_000 }))).find((e) => e.agent.id === picked.agent.id);
    const entry = fresh && !('unavailable' in fresh.dist) ? fresh : picked;
    const def = await this.download(entry);
    if (!def || announce === 'none') return def;
    const a = picked.agent;
    const shadowed = this.deps.agents.find(a.id)?.source === 'settings';
    const what = shadowed
      ? vscode.l10n.t('Installed {0} {1}. Your acpAgents.agents setting also defines "{2}"; that one is used.', forMessage(a.name, 100), forMessage(a.version, 50), forMessage(a.id, 100))
      : vscode.l10n.t('Installed {0} {1}.', forMessage(a.name, 100), forMessage(a.version, 50));
    if (announce === 'offerSession') this.offerNewSession(def, what);
    else void messages.show('info', what);
    return def;
  }

  /** The install itself, with a cancellable progress notification. */
  private async download(entry: RegistryEntry): Promise<AgentDefinition | undefined> {
    const { registry, log } = this.deps;
    const a = entry.agent;
    // A running agent keeps its files until the next start.
    const keepVersion = this.deps.agents.runtime(a.id) ? registry.installer.get(a.id)?.version : undefined;
    // The env the entry sets is shown: in the confirmation when there is one, else once it is installed.
    let asked = false;
    if (!(await confirmRegistryInstall(entry, (m, d, act) => ((asked = true), this.deps.confirm(m, d, act))))) return undefined;
    const mb = (n: number) => vscode.l10n.t('{0} MB', (n / 1024 ** 2).toFixed(1));
    try {
      const def = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Installing {0} {1}', forMessage(a.name, 100), forMessage(a.version, 50)), cancellable: true },
        async (progress, token) => {
          let shown = 0;
          return await registry.install(
            entry,
            (received, total) => {
              if (received - shown < 256 * 1024 && received !== total) return;
              const increment = total ? ((received - shown) / total) * 100 : undefined;
              shown = received;
              progress.report({ message: total ? vscode.l10n.t('{0} of {1}', mb(received), mb(total)) : mb(received), ...(increment !== undefined ? { increment } : {}) });
            },
            token,
            { ...(keepVersion ? { keepVersion } : {}), allowUnverified: true }, // confirmed above when it has no checksum
          );
        },
      );
      this.deps.installed();
      const env = registryEnv(entry);
      if (env) {
        log.info(`registry: ${a.id} ${a.version} sets ${Object.keys('kind' in entry.dist ? entry.dist.target.env : {}).join(', ')}`);
        if (!asked) void this.deps.messages.show('info', vscode.l10n.t('{0} {1} from the ACP Registry is started with these environment variables: {2}.', forMessage(a.name, 100), forMessage(a.version, 50), env));
      }
      return def;
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      if (err instanceof HttpError && err.reason === 'cancelled') {
        log.info(`registry: the install of ${a.name} was cancelled.`);
        return undefined;
      }
      log.error(`registry: ${message}`);
      const showLog = vscode.l10n.t('Show Log');
      void this.deps.messages.show('error', err instanceof ChecksumError || err instanceof NotInstallableError ? forMessage(message) : vscode.l10n.t('{0} {1} could not be installed: {2}', forMessage(a.name, 100), forMessage(a.version, 50), forMessage(message)), showLog).then((c) => c === showLog && log.show(true));
      return undefined;
    }
  }

  /** The registry entry an argument names (an id), refreshing the list when it is not known yet. */
  private async entryFor(id: string): Promise<RegistryEntry | undefined> {
    const registry = this.deps.registry;
    const find = async () => (await registry.entries()).find((e) => e.agent.id === id);
    return (await find()) ?? (await registry.source.refresh(), await find());
  }

  /** Offers a New Session with a freshly installed agent (not awaited: the command is done). */
  private offerNewSession(def: AgentDefinition, what: string): void {
    const newSession = vscode.l10n.t('New Session');
    void this.deps.messages.show('info', what, newSession).then((c) => c === newSession && vscode.commands.executeCommand('acpAgents.newSession', def.id));
  }

  /**
   * Says when the registry has newer versions of installed agents — at most
   * once a day (the time of the last check is kept in global state).
   */
  async checkForUpdates(now = Date.now()): Promise<string[]> {
    const { registry, state } = this.deps;
    if (registry.installer.installed().length === 0) return [];
    const last = state.get<number>(UPDATE_CHECK_KEY, 0);
    if (now - last < DAY_MS) return [];
    const list = await registry.source.refresh();
    if (list.from !== 'registry') return []; // offline: try again next start
    await state.update(UPDATE_CHECK_KEY, now);
    const pinned = this.deps.pinned?.() ?? {};
    // An adapter whose npm package moved is announced with the package it moves to (Update Agents asks first).
    const moves = (await registry.moves(list, pinned)).map((m) => `${m.installed.name} ${m.installed.version} → ${m.toPackage} ${m.to.agent.version}`);
    const names = [...moves, ...(await registry.updates(list, pinned)).map((e) => `${e.agent.name} ${e.installed?.version ?? '?'} → ${e.agent.version}`)];
    if (names.length) {
      const update = vscode.l10n.t('Update');
      void this.deps.messages.show('info', vscode.l10n.t('Updates from the ACP Registry: {0}.', forMessage(names.join(', '), 500)), update).then((c) => c === update && vscode.commands.executeCommand('acpAgents.updateAgents'));
    }
    return names;
  }

  /** The daily update check, a little after start-up (nothing is fetched when no agent is installed). */
  scheduleUpdateCheck(delayMs = 20_000): vscode.Disposable {
    const timer = setTimeout(() => void this.checkForUpdates().catch((err: unknown) => this.deps.log.warn(`registry: the update check failed: ${String(err)}`)), delayMs);
    return { dispose: () => clearTimeout(timer) };
  }
}
