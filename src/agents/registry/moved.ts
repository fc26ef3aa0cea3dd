/**
 * Adapters whose npm package moved to a new name (the one place this is kept).
 * Keyed on package names (and, for a registry entry that downloads a binary,
 * the release address it downloads from), never on display names. A registry
 * list that names an old package gets the current one next to it (or in its
 * place, when both have the same registry id); ACP: Update Agents moves an
 * installed old adapter after the user says yes. No `vscode` import.
 */
import type { RegistryAgent } from './format';
import type { InstalledAgent } from './installer';

export interface PackageMove {
  /** The old npm package names. */
  readonly from: readonly string[];
  /** Release addresses (prefixes) the old adapter's binary builds were downloaded from. */
  readonly fromReleases?: readonly string[];
  /** The npm package it continues as, and the version offered when the registry list does not name it yet. */
  readonly to: string;
  readonly version: string;
  /** The registry entry of the new package (its id in the ACP Registry). */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly authors: readonly string[];
  readonly repository: string;
}

export const PACKAGE_MOVES: readonly PackageMove[] = [
  {
    from: ['@zed-industries/claude-code-acp', '@zed-industries/claude-agent-acp'],
    to: '@agentclientprotocol/claude-agent-acp',
    version: '0.101.0',
    id: 'claude-acp',
    name: 'Claude Agent',
    description: 'ACP wrapper for Anthropic\'s Claude',
    authors: ['Anthropic'],
    repository: 'https://github.com/agentclientprotocol/claude-agent-acp',
  },
  {
    from: ['@zed-industries/codex-acp'],
    fromReleases: ['https://github.com/zed-industries/codex-acp/releases/'],
    to: '@agentclientprotocol/codex-acp',
    version: '2.6.0',
    id: 'codex-acp',
    name: 'Codex CLI',
    description: 'ACP adapter for OpenAI\'s coding assistant',
    authors: ['OpenAI'],
    repository: 'https://github.com/agentclientprotocol/codex-acp',
  },
];

/** `@scope/name@1.2.3` → `@scope/name` (a spec without a version as it is). */
export function packageName(spec: string): string {
  const at = spec.lastIndexOf('@');
  return at > 0 ? spec.slice(0, at) : spec;
}

/** The npm package a registry entry runs (npx), if any. */
function npxPackage(agent: RegistryAgent): string | undefined {
  return agent.npx ? packageName(agent.npx.package) : undefined;
}

/** The move that applies to a registry entry: it runs an old package, or downloads from an old adapter's releases. */
export function moveOf(agent: RegistryAgent, moves: readonly PackageMove[] = PACKAGE_MOVES): PackageMove | undefined {
  const pkg = npxPackage(agent);
  const archives = Object.values(agent.binary ?? {}).map((t) => t.archive);
  return moves.find((m) => (pkg !== undefined && m.from.includes(pkg)) || archives.some((a) => m.fromReleases?.some((r) => a.startsWith(r))));
}

/** The registry entry of the new package at the version the table offers. */
function movedAgent(m: PackageMove): RegistryAgent {
  return { id: m.id, name: m.name, version: m.version, description: m.description, authors: m.authors, repository: m.repository, npx: { package: `${m.to}@${m.version}`, args: [], env: {} } };
}

/** The npm package spec an installed npx agent runs (`npx --yes --prefix P <spec> …`). */
export function installedPackage(a: InstalledAgent): string | undefined {
  if (a.kind !== 'npx') return undefined;
  const prefix = a.args.indexOf('--prefix');
  return a.args.slice(prefix >= 0 ? prefix + 2 : 0).find((x) => !x.startsWith('-'));
}

/** What a move did to a list entry: `old` names the old package and stays, with the new one listed after it; `replaced` is the new package under the old one's id. */
export interface MoveMark {
  readonly move: PackageMove;
  readonly role: 'old' | 'replaced';
}

/**
 * A registry list with the moves applied: an entry naming an old package stays (marked with its move),
 * and the new package's entry is added after it, unless the list has one (same package) already.
 * When the new entry has the old one's id, it takes its place.
 */
export function withMoves(agents: readonly RegistryAgent[], moves: readonly PackageMove[] = PACKAGE_MOVES): { agents: RegistryAgent[]; marks: Map<string, MoveMark> } {
  const marks = new Map<string, MoveMark>();
  const out: RegistryAgent[] = [];
  const listed = new Set(agents.map(npxPackage).filter((p): p is string => p !== undefined));
  const added = new Set<string>();
  for (const agent of agents) {
    const m = moveOf(agent, moves);
    if (!m) {
      out.push(agent);
      continue;
    }
    const next = listed.has(m.to) ? agents.find((a) => npxPackage(a) === m.to)! : movedAgent(m);
    marks.set(agent.id, { move: m, role: next.id === agent.id ? 'replaced' : 'old' });
    if (next.id !== agent.id) out.push(agent);
    if (!listed.has(m.to) && !added.has(m.to)) {
      added.add(m.to);
      out.push(next);
    }
  }
  return { agents: out, marks };
}

/** The id the new package has in a list (the list's own entry for it, else the table's). */
export function movedId(m: PackageMove, agents: readonly RegistryAgent[]): string {
  return agents.find((a) => npxPackage(a) === m.to)?.id ?? m.id;
}

/**
 * The move an installed agent is due: it runs an old package (npx), or is the binary of an old adapter
 * (the list's entry of its id downloads from the old releases). `from` says what it runs, for the user.
 */
export function dueMove(a: InstalledAgent, agents: readonly RegistryAgent[], moves: readonly PackageMove[] = PACKAGE_MOVES): { move: PackageMove; from: string } | undefined {
  const spec = installedPackage(a);
  if (spec !== undefined) {
    const pkg = packageName(spec);
    const move = moves.find((m) => m.from.includes(pkg));
    return move ? { move, from: pkg } : undefined;
  }
  if (a.kind !== 'binary') return undefined;
  const listed = agents.find((x) => x.id === a.id);
  const move = listed?.binary ? moveOf({ ...listed, npx: undefined }, moves) : undefined;
  return move ? { move, from: move.from[0]! } : undefined;
}
