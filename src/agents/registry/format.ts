/**
 * The ACP Registry's `registry.json` (format v1): parsed leniently — unknown
 * fields ignored, an entry that cannot be parsed skipped with a reason, never
 * the whole file — and which distribution of an entry can run on this machine.
 * No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { isRefusedEnvName } from '../../node/envPolicy';

export type PlatformKey = 'darwin-aarch64' | 'darwin-x86_64' | 'linux-aarch64' | 'linux-x86_64' | 'windows-aarch64' | 'windows-x86_64';

export interface BinaryTarget {
  readonly archive: string;
  readonly cmd: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Names the entry's env set that are never taken from a registry (stripped from `env`). */
  readonly strippedEnv?: readonly string[];
  /** Lower-case hex SHA-256 of the archive file itself, when the registry gives one. */
  readonly sha256?: string;
}

export interface PackageTarget {
  readonly package: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Names the entry's env set that are never taken from a registry (stripped from `env`). */
  readonly strippedEnv?: readonly string[];
}

export interface RegistryAgent {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly authors: readonly string[];
  readonly repository?: string;
  readonly website?: string;
  readonly license?: string;
  readonly icon?: string;
  readonly binary?: Partial<Record<PlatformKey, BinaryTarget>>;
  readonly npx?: PackageTarget;
  readonly uvx?: PackageTarget;
}

export interface ParsedRegistry {
  readonly agents: RegistryAgent[];
  /** One line per skipped entry (or a problem with the file as a whole). */
  readonly problems: string[];
}

const ID = /^[a-z][a-z0-9-]*$/;
const SHA256 = /^[0-9a-f]{64}$/i;
const PLATFORM_KEYS: readonly PlatformKey[] = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'];
/** Longest text kept from a field shown to the user. */
const MAX_TEXT = 500;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

class EntryError extends Error {}
const bad = (message: string): never => {
  throw new EntryError(message);
};

function text(o: Obj, key: string, required: true): string;
function text(o: Obj, key: string, required?: false): string | undefined;
function text(o: Obj, key: string, required = false): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return required ? bad(`"${key}" is missing`) : undefined;
  if (typeof v !== 'string' || (required && v.trim() === '')) return bad(`"${key}" must be a non-empty string`);
  return v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v;
}

function strings(o: Obj, key: string): string[] {
  const v = o[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return bad(`"${key}" must be an array of strings`);
  return v as string[];
}

/** An entry's env without the forbidden names, and the names stripped (as the entry spelled them). */
function env(o: Obj, where: string): { env: Record<string, string>; strippedEnv?: readonly string[] } {
  const v = o.env;
  if (v === undefined) return { env: {} };
  if (!isObj(v)) return bad(`"${where}.env" must be an object`);
  const out: Record<string, string> = {};
  const stripped: string[] = [];
  for (const [k, val] of Object.entries(v)) {
    if (typeof val !== 'string') return bad(`"${where}.env.${k}" must be a string`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) return bad(`"${where}.env" has an invalid name "${k}"`);
    // What decides which program runs or where traffic goes is not the entry's to set (node/envPolicy.ts):
    // stripped (the entry is kept; the install confirmation names what was left out).
    if (isRefusedEnvName(k)) stripped.push(k);
    else out[k] = val;
  }
  return stripped.length ? { env: out, strippedEnv: stripped } : { env: out };
}

/** An http(s) URL, or undefined for anything else (a registry's links are shown, never run). */
function link(o: Obj, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' && /^https?:\/\//i.test(v) && v.length <= 2000 ? v : undefined;
}

const NPX_SPEC = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*@([0-9A-Za-z][0-9A-Za-z.+-]*)$/;
const UVX_SPEC = /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?==([0-9A-Za-z][0-9A-Za-z.+!-]*)$/;

function packageTarget(v: unknown, kind: 'npx' | 'uvx', version: string): PackageTarget {
  if (!isObj(v)) return bad(`"distribution.${kind}" must be an object`);
  const pkg = text(v, 'package', true);
  // A registry package pinned to the entry's version: never a range, a tag, a path, a URL or a flag.
  const pinned = (kind === 'npx' ? NPX_SPEC : UVX_SPEC).exec(pkg)?.[kind === 'npx' ? 2 : 2];
  if (pinned === undefined) bad(`"distribution.${kind}.package" "${pkg}" is not a registry package pinned to a version`);
  if (pinned !== version) bad(`"distribution.${kind}.package" pins ${pinned}, not the entry's version ${version}`);
  if (v.cmd !== undefined) bad(`"distribution.${kind}.cmd" is not supported`);
  return { package: pkg, args: strings(v, 'args'), ...env(v, `distribution.${kind}`) };
}

function binaryTargets(v: unknown): Partial<Record<PlatformKey, BinaryTarget>> {
  if (!isObj(v)) return bad('"distribution.binary" must be an object');
  const out: Partial<Record<PlatformKey, BinaryTarget>> = {};
  for (const [key, t] of Object.entries(v)) {
    if (!(PLATFORM_KEYS as readonly string[]).includes(key)) continue; // a platform we do not know: not ours
    if (!isObj(t)) return bad(`"distribution.binary.${key}" must be an object`);
    const archive = text(t, 'archive', true);
    if (!/^https?:\/\//i.test(archive)) bad(`"distribution.binary.${key}.archive" must be an http(s) URL`);
    const cmd = text(t, 'cmd', true);
    const sha = text(t, 'sha256');
    if (sha !== undefined && !SHA256.test(sha)) bad(`"distribution.binary.${key}.sha256" is not a hex SHA-256`);
    out[key as PlatformKey] = { archive, cmd, args: strings(t, 'args'), ...env(t, `distribution.binary.${key}`), ...(sha ? { sha256: sha.toLowerCase() } : {}) };
  }
  return out;
}

function parseAgent(v: unknown): RegistryAgent {
  if (!isObj(v)) return bad('not an object');
  const id = text(v, 'id', true);
  if (!ID.test(id) || id.length > 100) bad(`"id" "${id}" is not a registry id`);
  const dist = v.distribution;
  if (!isObj(dist)) return bad('"distribution" is missing');
  const authors = v.authors === undefined ? [] : strings(v, 'authors');
  const version = text(v, 'version', true);
  const agent: RegistryAgent = {
    id,
    name: text(v, 'name', true),
    version,
    description: text(v, 'description') ?? '',
    authors,
    ...(link(v, 'repository') ? { repository: link(v, 'repository') } : {}),
    ...(link(v, 'website') ? { website: link(v, 'website') } : {}),
    ...(typeof v.license === 'string' ? { license: v.license.slice(0, 100) } : {}),
    ...(link(v, 'icon') ? { icon: link(v, 'icon') } : {}),
    ...(dist.binary !== undefined ? { binary: binaryTargets(dist.binary) } : {}),
    ...(dist.npx !== undefined ? { npx: packageTarget(dist.npx, 'npx', version) } : {}),
    ...(dist.uvx !== undefined ? { uvx: packageTarget(dist.uvx, 'uvx', version) } : {}),
  };
  if (!/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(agent.version)) bad(`"version" "${agent.version}" is not a version`);
  if (!agent.binary && !agent.npx && !agent.uvx) bad('"distribution" has none of binary, npx, uvx');
  return agent;
}

/** " — by A, B" for pickers and descriptions; empty without authors. */
export function byline(authors: readonly string[]): string {
  return authors.length ? ` — ${l10n.t('by {0}', authors.join(', '))}` : '';
}

/** Parses registry.json text. Throws only when the file as a whole is not a registry. */
export function parseRegistry(json: string): ParsedRegistry {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw new Error(`the registry is not JSON: ${(err as Error).message}`);
  }
  if (!isObj(doc) || !Array.isArray(doc.agents)) throw new Error('the registry has no "agents" list');
  const agents: RegistryAgent[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  doc.agents.forEach((entry: unknown, i) => {
    const label = isObj(entry) && typeof entry.id === 'string' ? `"${entry.id.slice(0, 100)}"` : `#${i}`;
    try {
      const agent = parseAgent(entry);
      if (seen.has(agent.id)) bad('the id is listed twice; the first is kept');
      seen.add(agent.id);
      agents.push(agent);
    } catch (err) {
      if (!(err instanceof EntryError)) throw err;
      problems.push(`registry entry ${label} skipped: ${err.message}`);
    }
  });
  return { agents, problems };
}

/** This machine's platform key, or undefined on a platform the registry has no builds for. */
export function platformKey(platform: NodeJS.Platform = process.platform, arch: string = process.arch): PlatformKey | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu = arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : undefined;
  return os && cpu ? (`${os}-${cpu}` as PlatformKey) : undefined;
}

export type Distribution =
  | { readonly kind: 'binary'; readonly target: BinaryTarget; readonly platform: PlatformKey }
  | { readonly kind: 'npx'; readonly target: PackageTarget }
  | { readonly kind: 'uvx'; readonly target: PackageTarget };

export interface MachineTools {
  readonly platform: PlatformKey | undefined;
  readonly hasNpx: boolean;
  readonly hasUvx: boolean;
}

/**
 * How the entry runs here: `binary` for this platform (or the emulated x86_64
 * build on arm64 macOS and Windows), then `npx`, then `uvx` — or why it cannot.
 */
export function chooseDistribution(agent: RegistryAgent, machine: MachineTools): Distribution | { readonly unavailable: string } {
  const p = machine.platform;
  if (agent.binary && p) {
    const emulated = p === 'darwin-aarch64' ? 'darwin-x86_64' : p === 'windows-aarch64' ? 'windows-x86_64' : undefined;
    const own = agent.binary[p];
    if (own) return { kind: 'binary', target: own, platform: p };
    const alt = emulated ? agent.binary[emulated] : undefined;
    if (alt && emulated) return { kind: 'binary', target: alt, platform: emulated };
  }
  if (agent.npx && machine.hasNpx) return { kind: 'npx', target: agent.npx };
  if (agent.uvx && machine.hasUvx) return { kind: 'uvx', target: agent.uvx };
  if (agent.npx && agent.uvx) return { unavailable: l10n.t('needs {0} or {1}', 'Node.js (npx)', 'uv') };
  if (agent.npx || agent.uvx) return { unavailable: l10n.t('needs {0}', agent.npx ? 'Node.js (npx)' : 'uv') };
  return { unavailable: p ? l10n.t('no build for this platform ({0})', p) : l10n.t('no build for this platform') };
}
