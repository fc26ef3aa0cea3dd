/**
 * Agents installed from the ACP Registry: one folder per agent and version
 * under `<globalStorage>/agents/`, and `installed.json` saying which version of
 * each is current and how to start it. A binary is downloaded, checked against
 * the registry's SHA-256 before anything is unpacked, unpacked in a staging
 * folder and then switched to; npx/uvx agents are pinned package specs with
 * their own npm prefix. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentDefinition } from '../agentDefinition';
import type { CancelToken } from '../sessionRouter';
import { byline, type Distribution, type RegistryAgent } from './format';
import { translations } from '../../shared/translations';
import { download, HttpError } from './http';

export interface InstalledAgent {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly authors: readonly string[];
  readonly kind: Distribution['kind'];
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The archive's SHA-256 as downloaded (binary). */
  readonly sha256?: string;
  readonly installedAt: number;
}

interface StateFile {
  version: 1;
  agents: Record<string, InstalledAgent>;
}

export interface InstallOptions {
  /** A version a running process still uses: left on the disk until the next sweep. */
  readonly keepVersion?: string;
  /** Install a binary the registry gives no checksum for (the user was told and said yes). */
  readonly allowUnverified?: boolean;
}

export interface InstallProgress {
  (received: number, total: number | undefined): void;
}

/** The download does not match the registry's checksum. */
export class ChecksumError extends Error {}

/** The registry gives no checksum for the binary, and nobody allowed installing it unchecked. */
export class UnverifiedError extends Error {}

/** A binary the registry gives no SHA-256 for: installing it needs the user's yes (`allowUnverified`). */
export function isUnverified(dist: Distribution): boolean {
  return dist.kind === 'binary' && !dist.target.sha256;
}

const MAX_DOWNLOAD_BYTES = 1024 ** 3;
/** The npm prefix of an npx agent: a name no version folder can have. */
const NPM_PREFIX = '.npm-prefix';

const strs = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
function isRecord(r: unknown): r is InstalledAgent {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  return (
    typeof o.id === 'string' &&
    typeof o.name === 'string' &&
    typeof o.version === 'string' &&
    typeof o.description === 'string' &&
    typeof o.command === 'string' &&
    (o.kind === 'binary' || o.kind === 'npx' || o.kind === 'uvx') &&
    strs(o.args) &&
    strs(o.authors) &&
    typeof o.env === 'object' &&
    o.env !== null &&
    Object.values(o.env).every((v) => typeof v === 'string')
  );
}
const SAFE_NAME = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;

export class AgentInstaller {
  private readonly stateFile: string;
  private state: StateFile | undefined;
  /** The state file's mtime when read: another window may have changed it since. */
  private stateStamp = -1;

  constructor(
    /** `<globalStorage>/agents` */
    readonly root: string,
    private readonly log: (message: string) => void,
  ) {
    this.stateFile = path.join(root, 'installed.json');
  }

  installed(): InstalledAgent[] {
    return Object.values(this.read().agents).sort((a, b) => a.name.localeCompare(b.name));
  }

  get(id: string): InstalledAgent | undefined {
    return this.read().agents[id];
  }

  /** The folder an agent's files live in. */
  agentDir(id: string): string {
    if (!SAFE_NAME.test(id)) throw new Error(l10n.t('"{0}" is not an agent id.', id));
    return path.join(this.root, id);
  }

  /**
   * Installs `agent` with `dist` (from chooseDistribution) and makes it the
   * current version. Nothing of a failed install is left behind. A binary
   * without a checksum is refused unless `allowUnverified` (the user said yes).
   */
  async install(agent: RegistryAgent, dist: Distribution, progress?: InstallProgress, token?: CancelToken, opts: InstallOptions = {}): Promise<InstalledAgent> {
    if (!SAFE_NAME.test(agent.version)) throw new Error(l10n.t('"{0}" is not a version {1} can be installed as.', agent.version, agent.name));
    if (isUnverified(dist) && !opts.allowUnverified) {
      throw new UnverifiedError(l10n.t('{0} {1} was not installed: the ACP Registry gives no SHA-256 checksum for its download, so it cannot be checked.', agent.name, agent.version));
    }
    const dir = this.agentDir(agent.id);
    const hadDir = fs.existsSync(dir);
    const base = { id: agent.id, name: agent.name, version: agent.version, description: agent.description, authors: agent.authors, kind: dist.kind, installedAt: Date.now() };
    let record: InstalledAgent;
    try {
      if (dist.kind === 'binary') {
        record = { ...base, ...(await this.installBinary(agent, dist.target, dir, progress, token)) };
      } else if (dist.kind === 'npx') {
        const prefix = path.join(dir, NPM_PREFIX);
        fs.mkdirSync(prefix, { recursive: true });
        record = { ...base, command: 'npx', args: ['--yes', '--prefix', prefix, dist.target.package, ...dist.target.args], env: dist.target.env };
      } else {
        fs.mkdirSync(dir, { recursive: true });
        record = { ...base, command: 'uvx', args: [dist.target.package, ...dist.target.args], env: dist.target.env };
      }
    } catch (err) {
      if (!hadDir) fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    if (token?.isCancellationRequested) {
      if (!hadDir) fs.rmSync(dir, { recursive: true, force: true });
      throw new HttpError(l10n.t('Cancelled.'), 'cancelled');
    }
    const state = this.read();
    state.agents[agent.id] = record;
    this.write(state);
    // A version a running process still uses stays until the next sweep (see sweep()).
    this.removeOldVersions(agent.id, [record.kind === 'binary' ? agent.version : NPM_PREFIX, ...(opts.keepVersion ? [opts.keepVersion] : [])]);
    this.log(`Installed ${agent.name} ${agent.version} (${dist.kind}) from the ACP Registry.`);
    return record;
  }

  private async installBinary(
    agent: RegistryAgent,
    target: Extract<Distribution, { kind: 'binary' }>['target'],
    dir: string,
    progress: InstallProgress | undefined,
    token: CancelToken | undefined,
  ): Promise<{ command: string; args: readonly string[]; env: Readonly<Record<string, string>>; sha256: string }> {
    const tag = randomBytes(4).toString('hex');
    const tmp = path.join(this.root, '.downloads', `${agent.id}-${tag}`);
    const staging = path.join(dir, `.staging-${tag}`);
    fs.mkdirSync(tmp, { recursive: true });
    fs.mkdirSync(dir, { recursive: true });
    try {
      const file = path.join(tmp, 'archive');
      const got = await download(target.archive, file, { idleTimeoutMs: 30_000, maxBytes: MAX_DOWNLOAD_BYTES, token, onProgress: progress });
      if (target.sha256 && got.sha256 !== target.sha256.toLowerCase()) {
        throw new ChecksumError(
          l10n.t("{0} {1} was not installed: the download does not match the registry's checksum (expected SHA-256 {2}, got {3}). Nothing was unpacked.", agent.name, agent.version, target.sha256.toLowerCase(), got.sha256),
        );
      }
      if (!target.sha256) this.log(`${agent.name} ${agent.version}: the registry gives no checksum; the archive's SHA-256 is ${got.sha256}.`);
      // Loaded now, not at activation (a bundle of its own in the .vsix: tar, yauzl, ~90 KB).
      const { archiveKind, entryPath, extractArchive, useTranslations } = await import('./archive.js');
      useTranslations(translations());
      await extractArchive(file, archiveKind(target.archive), staging, path.posix.basename(target.cmd.replace(/\\/g, '/')));
      const cmdInStaging = entryPath(staging, target.cmd);
      if (!fs.statSync(cmdInStaging, { throwIfNoEntry: false })?.isFile()) throw new Error(l10n.t('{0} {1}: the archive has no "{2}" to run.', agent.name, agent.version, target.cmd));
      if (process.platform !== 'win32') fs.chmodSync(cmdInStaging, 0o755);
      const final = path.join(dir, agent.version);
      fs.rmSync(final, { recursive: true, force: true });
      fs.renameSync(staging, final);
      return { command: entryPath(final, target.cmd), args: target.args, env: target.env, sha256: got.sha256 };
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
      fs.rmSync(tmp, { recursive: true, force: true });
      try {
        fs.rmdirSync(path.dirname(tmp)); // only when empty: other installs may be under way
      } catch {
        // not empty, or gone
      }
    }
  }

  /** After a switch: every other version folder of the agent goes (a locked one is retried by sweep()). */
  private removeOldVersions(id: string, keep: readonly string[]): void {
    const dir = this.agentDir(id);
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (keep.includes(name)) continue;
      try {
        fs.rmSync(path.join(dir, name), { recursive: true, force: true });
      } catch (err) {
        this.log(`Could not remove ${path.join(dir, name)} yet: ${(err as Error).message}`);
      }
    }
  }

  /** Removes the agent's files and its entry (files a process still holds are swept later). */
  uninstall(id: string): boolean {
    const state = this.read();
    const had = id in state.agents;
    delete state.agents[id];
    this.write(state);
    try {
      fs.rmSync(this.agentDir(id), { recursive: true, force: true });
    } catch (err) {
      this.log(`Could not remove all of ${this.agentDir(id)} yet (${(err as Error).message}); it is removed at a later start.`);
    }
    if (had) this.log(`Uninstalled ${id}.`);
    return had;
  }

  /**
   * At start-up (no agent of this window runs yet): removes what failed or
   * interrupted installs left (downloads, staging folders), versions no longer
   * current, and folders of agents no longer installed.
   */
  sweep(): void {
    if (!fs.existsSync(this.root)) return;
    const state = this.read();
    for (const name of fs.readdirSync(this.root)) {
      const p = path.join(this.root, name);
      if (name === 'installed.json' || !fs.statSync(p, { throwIfNoEntry: false })?.isDirectory()) continue;
      const current = state.agents[name];
      try {
        if (!current) fs.rmSync(p, { recursive: true, force: true });
        else this.removeOldVersions(name, [current.kind === 'binary' ? current.version : NPM_PREFIX]);
      } catch (err) {
        this.log(`Could not clean ${p}: ${(err as Error).message}`);
      }
    }
  }

  /** An installed agent as the rest of the extension sees agents. */
  static definition(a: InstalledAgent): AgentDefinition {
    return { id: a.id, name: a.name, command: a.command, args: a.args, env: a.env, source: 'registry', version: a.version, description: l10n.t('{0}{1} (ACP Registry, {2})', a.description, byline(a.authors), a.version) };
  }

  /** The state, re-read when another window changed the file; records that do not hold together are dropped. */
  private read(): StateFile {
    const stamp = fs.statSync(this.stateFile, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (this.state && stamp === this.stateStamp) return this.state;
    const agents: Record<string, InstalledAgent> = {};
    try {
      const s = JSON.parse(fs.readFileSync(this.stateFile, 'utf8')) as { version?: unknown; agents?: Record<string, unknown> };
      for (const [id, r] of Object.entries(s?.version === 1 && typeof s.agents === 'object' && s.agents !== null ? s.agents : {})) {
        if (isRecord(r) && r.id === id && SAFE_NAME.test(id)) agents[id] = r;
        else this.log(`installed.json: the entry "${id}" is damaged and ignored.`);
      }
    } catch {
      // missing or unreadable: nothing installed
    }
    this.state = { version: 1, agents };
    this.stateStamp = stamp;
    return this.state;
  }

  private write(state: StateFile): void {
    fs.mkdirSync(this.root, { recursive: true });
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(state, null, 1));
    fs.renameSync(tmp, this.stateFile);
    this.state = state;
    this.stateStamp = fs.statSync(this.stateFile).mtimeMs;
  }
}
