/**
 * An agent by URL's paths and this machine's: the `pathMap` of its acpAgents.agents entry,
 * `{ "/srv/checkout": "${workspaceFolder}" }`. With one, the agent is offered the client file
 * system and terminal: each path it names is mapped here (the longest remote folder that holds
 * it, whole segments, after `..` is resolved), and is then held to the session's folders and
 * protected paths like any agent's; a path that maps nowhere is refused with the reason. The
 * session's folders go the other way. Remote paths are POSIX (`/…`) or Windows (`C:\…`), each
 * compared in its own way. No `vscode` import.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandVariables } from './expand';

/** One folder of the agent's machine and the folder of this machine it stands for (expanded). */
export interface PathMapping {
  readonly remote: string;
  readonly local: string;
}

const MAX_MAPPINGS = 20;
const WINDOWS = /^[A-Za-z]:[\\/]/;
/** A local side is absolute, or starts from a variable that makes it so. */
const LOCAL_START = /^(\$\{workspaceFolder\}|\$\{userHome\}|~(?=$|[\\/]))/;

const flavor = (p: string): path.PlatformPath => (WINDOWS.test(p) ? path.win32 : path.posix);

/** Why `raw` cannot be a pathMap, or undefined when it can. */
export function pathMapProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return '"pathMap" must be an object: { "/folder/on/the/agent\'s/machine": "${workspaceFolder}" }.';
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length === 0 || entries.length > MAX_MAPPINGS) return `"pathMap" must map 1 to ${MAX_MAPPINGS} folders.`;
  for (const [remote, local] of entries) {
    if (!remote.startsWith('/') && !WINDOWS.test(remote)) return `"pathMap" keys are absolute folders of the agent's machine (/… or C:\\…); ${JSON.stringify(remote.slice(0, 200))} is not.`;
    if (typeof local !== 'string' || !(LOCAL_START.test(local) || path.isAbsolute(local))) {
      return `"pathMap[${JSON.stringify(remote.slice(0, 200))}]" must be an absolute folder of this machine, or start with \${workspaceFolder}, \${userHome} or ~.`;
    }
  }
  return undefined;
}

/** The mappings of a checked pathMap, their local sides expanded for `workspaceFolder`. */
export function expandPathMap(raw: Readonly<Record<string, string>>, workspaceFolder: string): PathMapping[] {
  return Object.entries(raw).map(([remote, local]) => ({ remote, local: path.normalize(expandVariables(local, { env: {}, keepEnv: true, workspaceFolder })) }));
}

/** `p` inside `root` (both in `f`'s terms): the segments below it, or undefined. */
function below(f: path.PlatformPath, root: string, p: string): string[] | undefined {
  const rel = f.relative(f.normalize(root), f.normalize(p));
  if (rel === '') return [];
  if (rel === '..' || rel.startsWith(`..${f.sep}`) || f.isAbsolute(rel)) return undefined;
  return rel.split(f.sep);
}

/** The mapping with the longest `from` that holds the path, joined in its `out` terms. */
function best(candidates: { from: string; to: string; rest: string[] | undefined; out: path.PlatformPath }[]): string | undefined {
  const found = candidates.filter((c) => c.rest !== undefined).sort((a, b) => b.from.length - a.from.length)[0];
  if (!found) return undefined;
  // A segment one side reads as a name and the other as several (a `\` in a POSIX name, read on Windows) stays inside.
  const joined = found.out.join(found.to, ...found.rest!);
  return below(found.out, found.to, joined) ? joined : undefined;
}

export class PathMap {
  private readonly mappings: readonly PathMapping[];

  constructor(mappings: readonly PathMapping[]) {
    this.mappings = [...mappings];
  }

  /** The agent's path on this machine, or undefined when no mapping holds it. */
  toLocal(remote: string): string | undefined {
    if (!remote.startsWith('/') && !WINDOWS.test(remote)) return undefined;
    const f = flavor(remote);
    return best(this.mappings.filter((m) => flavor(m.remote) === f).map((m) => ({ from: m.remote, to: m.local, rest: below(f, m.remote, remote), out: path })));
  }

  /** A path of this machine as the agent names it, or undefined when no mapping holds it. */
  toRemote(local: string): string | undefined {
    if (!path.isAbsolute(local)) return undefined;
    return best(this.mappings.map((m) => ({ from: m.local, to: m.remote, rest: below(path, m.local, local), out: flavor(m.remote) })));
  }

  /** A `file:` URI of this machine as the agent names it (its fragment kept), or undefined: not a file URI, or in no mapped folder. */
  toRemoteUri(uri: string): string | undefined {
    let local: string;
    let hash: string;
    try {
      const u = new URL(uri);
      if (u.protocol !== 'file:') return undefined;
      local = fileURLToPath(u);
      hash = u.hash;
    } catch {
      return undefined;
    }
    const remote = this.toRemote(local);
    if (remote === undefined) return undefined;
    const segments = (WINDOWS.test(remote) ? `/${remote.replace(/\\/g, '/')}` : remote).split('/');
    // A Windows drive (`C:`) stays as written; every other segment is percent-encoded.
    return `file://${segments.map((seg, i) => (i === 1 && /^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg))).join('/')}${hash}`;
  }

  /** For messages and the log: `/srv/checkout → /home/me/project; …`. */
  describe(): string {
    return this.mappings.map((m) => `${m.remote} → ${m.local}`).join('; ');
  }
}
