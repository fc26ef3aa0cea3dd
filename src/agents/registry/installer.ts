/**
 * Agents installed from the ACP Registry: one folder per agent and version
 * under `<globalStorage>/agents/`, and `installed.json` saying which version of
 * each is current and how to start it. A binary is downloaded, checked against
 * the registry's SHA-256 before anything is unpacked, unpacked in a staging
 * folder and then switched to; npx/uvx agents are pinned package specs with
 * their own npm prefix. No `vscode` import.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentDefinition } from '../agentDefinition';
import type { CancelToken } from '../sessionRouter';
import { archiveKind, entryPath, extractArchive } from './archive';
import type { Distribution, RegistryAgent } from './format';
import { download } from './http';

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

export interface InstallProgress {
  (received: number, total: number | undefined): void;
}

/** The download does not match the registry's checksum. */
export class ChecksumError extends Error {}

const MAX_DOWNLOAD_BYTES = 1024 ** 3;
const SAFE_NAME = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;

export class AgentInstaller {
  private readonly stateFile: string;
  private state: StateFile | undefined;

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
    if (!SAFE_NAME.test(id)) throw new Error(`"${id}" is not an agent id.`);
    return path.join(this.root, id);
  }

  /**
   * Installs `agent` with `dist` (from chooseDistribution) and makes it the
   * current version. Nothing of a failed install is left behind.
   */
  async install(agent: RegistryAgent, dist: Distribution, progress?: InstallProgress, token?: CancelToken): Promise<InstalledAgent> {
    if (!SAFE_NAME.test(agent.version)) throw new Error(`"${agent.version}" is not a version ${agent.name} can be installed as.`);
    const dir = this.agentDir(agent.id);
    const hadDir = fs.existsSync(dir);
    const base = { id: agent.id, name: agent.name, version: agent.version, description: agent.description, authors: agent.authors, kind: dist.kind, installedAt: Date.now() };
    let record: InstalledAgent;
    try {
      if (dist.kind === 'binary') {
        record = { ...base, ...(await this.installBinary(agent, dist.target, dir, progress, token)) };
      } else if (dist.kind === 'npx') {
        const prefix = path.join(dir, 'npm');
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
    const state = this.read();
    state.agents[agent.id] = record;
    this.write(state);
    this.removeOldVersions(agent.id, record.kind === 'binary' ? agent.version : 'npm');
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
          `${agent.name} ${agent.version} was not installed: the download does not match the registry's checksum (expected SHA-256 ${target.sha256.toLowerCase()}, got ${got.sha256}). Nothing was unpacked.`,
        );
      }
      if (!target.sha256) this.log(`${agent.name} ${agent.version}: the registry gives no checksum; the archive's SHA-256 is ${got.sha256}.`);
      await extractArchive(file, archiveKind(target.archive), staging, path.posix.basename(target.cmd.replace(/\\/g, '/')));
      const cmdInStaging = entryPath(staging, target.cmd);
      if (!fs.statSync(cmdInStaging, { throwIfNoEntry: false })?.isFile()) throw new Error(`${agent.name} ${agent.version}: the archive has no "${target.cmd}" to run.`);
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

  /** After a switch: every other version folder of the agent goes (a locked one is retried next time). */
  private removeOldVersions(id: string, keep: string): void {
    const dir = this.agentDir(id);
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (name === keep) continue;
      try {
        fs.rmSync(path.join(dir, name), { recursive: true, force: true });
      } catch (err) {
        this.log(`Could not remove ${path.join(dir, name)} yet: ${(err as Error).message}`);
      }
    }
  }

  /** Removes the agent's files and its entry. */
  uninstall(id: string): boolean {
    const state = this.read();
    const had = id in state.agents;
    delete state.agents[id];
    this.write(state);
    fs.rmSync(this.agentDir(id), { recursive: true, force: true });
    if (had) this.log(`Uninstalled ${id}.`);
    return had;
  }

  /** An installed agent as the rest of the extension sees agents. */
  static definition(a: InstalledAgent): AgentDefinition {
    const by = a.authors.length ? ` — by ${a.authors.join(', ')}` : '';
    return { id: a.id, name: a.name, command: a.command, args: a.args, env: a.env, source: 'registry', version: a.version, description: `${a.description}${by} (ACP Registry, ${a.version})` };
  }

  private read(): StateFile {
    if (this.state) return this.state;
    try {
      const s = JSON.parse(fs.readFileSync(this.stateFile, 'utf8')) as StateFile;
      this.state = s?.version === 1 && typeof s.agents === 'object' && s.agents !== null ? s : { version: 1, agents: {} };
    } catch {
      this.state = { version: 1, agents: {} };
    }
    return this.state;
  }

  private write(state: StateFile): void {
    this.state = state;
    fs.mkdirSync(this.root, { recursive: true });
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(state, null, 1));
    fs.renameSync(tmp, this.stateFile);
  }
}
