/**
 * The ACP Registry as the extension uses it: the list (registrySource.ts), what
 * of it runs on this machine (format.ts), what is installed (installer.ts), the
 * icons, and which installed agents have a newer version. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Emitter } from '../../shared/events';
import type { AgentDefinition } from '../agentDefinition';
import { findProgram } from '../resolveCommand';
import type { CancelToken } from '../sessionRouter';
import { isNewerVersion } from '../../shared/versions';
import { chooseDistribution, platformKey, type Distribution, type MachineTools, type RegistryAgent } from './format';
import { getText } from './http';
import { AgentInstaller, type InstallOptions, type InstallProgress, type InstalledAgent } from './installer';
import { dueMove, movedId, withMoves } from './moved';
import { RegistrySource, type RegistryList } from './registrySource';

export interface RegistryEntry {
  readonly agent: RegistryAgent;
  /** How it would be installed here, or why it cannot be. */
  readonly dist: Distribution | { readonly unavailable: string };
  readonly installed?: InstalledAgent;
  /** The registry has a newer version than the installed one. */
  readonly update: boolean;
  /** A cached copy of its icon (an SVG file), once fetched. */
  readonly iconFile?: string;
  /** The entry names an npm package that moved: the one it continues as (offered in the list too). */
  readonly movedTo?: string;
  /** The entry is the package an old one moved to, listed under the old one's id: the old package. */
  readonly movedFrom?: string;
}

/** An installed adapter whose package moved, and the entry of the package it continues as. */
export interface PendingMove {
  readonly installed: InstalledAgent;
  /** What it runs now (the old npm package). */
  readonly from: string;
  readonly to: RegistryEntry;
  /** The new npm package. */
  readonly toPackage: string;
}

const MAX_ICON_BYTES = 64 * 1024;

/** An agent that cannot be installed on this machine: its words say it all. */
export class NotInstallableError extends Error {}

export class AgentRegistry {
  private readonly changed = new Emitter<void>();
  /** Installed agents changed (install, update, uninstall). */
  readonly onDidChangeInstalled = this.changed.event;
  private tools: Promise<MachineTools> | undefined;
  private readonly installing = new Set<string>();

  constructor(
    readonly source: RegistrySource,
    readonly installer: AgentInstaller,
    private readonly iconsDir: string,
    private readonly log: (message: string) => void,
  ) {}

  /** The registry kept under `storage` (its cache, installs and icons), with the extension's snapshot. */
  static at(storage: string, snapshotFile: string, url: () => string, log: (message: string) => void): AgentRegistry {
    const source = new RegistrySource({ url, cacheFile: path.join(storage, 'registry', 'registry.json'), snapshotFile, log });
    return new AgentRegistry(source, new AgentInstaller(path.join(storage, 'agents'), log), path.join(storage, 'registry', 'icons'), log);
  }

  /** Installed agents as agent definitions. */
  definitions(): AgentDefinition[] {
    return this.installer.installed().map((a) => AgentInstaller.definition(a));
  }

  /** What can run here: npx and uvx looked up on PATH, then on the login shell's PATH. */
  machine(): Promise<MachineTools> {
    this.tools ??= (async () => {
      const has = async (cmd: string) => !!(await findProgram(cmd, { pathEnv: process.env.PATH ?? process.env.Path, cwd: process.cwd(), pathExt: process.env.PATHEXT }));
      const [hasNpx, hasUvx] = await Promise.all([has('npx'), has('uvx')]);
      return { platform: platformKey(), hasNpx, hasUvx };
    })();
    return this.tools;
  }

  /**
   * Every registry agent with how it runs here and whether it is installed; an entry naming an npm
   * package that moved is marked, and the package it continues as is listed too (moved.ts).
   */
  async entries(list: RegistryList = this.source.current()): Promise<RegistryEntry[]> {
    const machine = await this.machine();
    // Read once per call, not once per agent (the picker asks again as icons arrive).
    const installedById = new Map(this.installer.installed().map((a) => [a.id, a]));
    const icons = new Set(fs.existsSync(this.iconsDir) ? fs.readdirSync(this.iconsDir) : []);
    const { agents, marks } = withMoves(list.agents);
    return agents.map((agent) => {
      const installed = installedById.get(agent.id);
      const mark = marks.get(agent.id);
      return {
        agent,
        dist: chooseDistribution(agent, machine),
        ...(installed ? { installed } : {}),
        // An installed adapter whose package moved is moved (moves()), not updated.
        update: !!installed && isNewerVersion(agent.version, installed.version) && !dueMove(installed, list.agents),
        ...(icons.has(`${agent.id}.svg`) ? { iconFile: this.iconFile(agent.id) } : {}),
        ...(mark?.role === 'old' ? { movedTo: mark.move.to } : {}),
        ...(mark?.role === 'replaced' ? { movedFrom: mark.move.from[0]! } : {}),
      };
    });
  }

  /**
   * Installed adapters whose npm package moved (moved.ts), with the entry of the package they continue
   * as; not those the user pinned, nor one whose new package is installed already under its own id.
   */
  async moves(list: RegistryList, pinned: Readonly<Record<string, string>> = {}): Promise<PendingMove[]> {
    const entries = await this.entries(list);
    return this.installer.installed().flatMap((installed) => {
      if (Object.hasOwn(pinned, installed.id)) return [];
      const due = dueMove(installed, list.agents);
      const to = due && entries.find((e) => e.agent.id === movedId(due.move, list.agents));
      if (!due || !to || 'unavailable' in to.dist || (to.agent.id !== installed.id && to.installed)) return [];
      return [{ installed, from: due.from, to, toPackage: due.move.to }];
    });
  }

  /**
   * Installs (or updates) an entry; one install per agent at a time. `keepVersion`:
   * a version a running process uses, left on the disk until the next start.
   */
  install(entry: RegistryEntry, progress?: InstallProgress, token?: CancelToken, opts: InstallOptions = {}): Promise<AgentDefinition> {
    const dist = entry.dist;
    if ('unavailable' in dist) return Promise.reject(new NotInstallableError(l10n.t('{0} cannot be installed here ({1}).', entry.agent.name, dist.unavailable)));
    if (this.installing.has(entry.agent.id)) return Promise.reject(new Error(l10n.t('{0} is being installed already.', entry.agent.name)));
    const run = (async () => {
      try {
        const record = await this.installer.install(entry.agent, dist, progress, token, opts);
        return AgentInstaller.definition(record);
      } finally {
        this.installing.delete(entry.agent.id);
        this.changed.fire();
      }
    })();
    this.installing.add(entry.agent.id);
    return run;
  }

  uninstall(id: string): boolean {
    try {
      return this.installer.uninstall(id);
    } finally {
      this.changed.fire();
    }
  }

  /** Forgets what was found on PATH (the user may have installed uv or Node since). */
  rescanMachine(): void {
    this.tools = undefined;
  }

  /** Installed agents the list has a newer version of, but those the user pinned (`pinned`: id → version kept). */
  async updates(list: RegistryList, pinned: Readonly<Record<string, string>> = {}): Promise<RegistryEntry[]> {
    return (await this.entries(list)).filter((e) => e.update && !Object.hasOwn(pinned, e.agent.id));
  }

  private iconFile(id: string): string {
    return path.join(this.iconsDir, `${id}.svg`);
  }

  /** Fetches the icons not cached yet (small SVGs, four at a time); calls `onIcon` as each arrives. */
  async fetchIcons(list: RegistryList, onIcon: () => void, token?: CancelToken): Promise<void> {
    const todo = list.agents.filter((a) => a.icon && !fs.existsSync(this.iconFile(a.id)));
    const next = async (): Promise<void> => {
      const agent = todo.shift();
      if (!agent?.icon || token?.isCancellationRequested) return;
      try {
        const r = await getText(agent.icon, { idleTimeoutMs: 10_000, deadlineMs: 15_000, maxBytes: MAX_ICON_BYTES, token });
        const svg = r.text ?? '';
        // Shown as an image by VS Code (never as a document), so scripts in it cannot run; still, only an SVG is kept.
        if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(svg)) {
          fs.mkdirSync(this.iconsDir, { recursive: true });
          fs.writeFileSync(this.iconFile(agent.id), svg);
          onIcon();
        }
      } catch (err) {
        this.log(`The icon of ${agent.name} could not be fetched: ${(err as Error).message}`);
      }
      return next();
    };
    await Promise.all([next(), next(), next(), next()]);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
