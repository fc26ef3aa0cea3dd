/** An agent the user can start: a program spoken to over stdio with ACP. No `vscode` import. */
import { pathMapProblem } from './pathMap';

export interface AgentDefinition {
  /** Stable identifier, unique among configured and installed agents. */
  readonly id: string;
  /** The name shown in pickers, panels and the sidebar. */
  readonly name: string;
  /** The program to run: absolute, or looked up on PATH (an agent by URL: the URL). */
  readonly command: string;
  /** An agent by URL (`wss://…`, or `ws://` on loopback): spoken to over a WebSocket, nothing started here. */
  readonly url?: string;
  /** An agent by URL's folders and this machine's (agents/pathMap.ts): with it, the client file system and terminal are offered. */
  readonly pathMap?: Readonly<Record<string, string>>;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Where the definition came from: the acpAgents.agents setting, or an install from the ACP Registry. */
  readonly source: 'settings' | 'registry';
  /** The installed version (registry agents). */
  readonly version?: string;
  /** A short description for pickers. */
  readonly description?: string;
  /** The ACP version to offer this agent (`protocolVersion` of its acpAgents.agents entry); absent: acpAgents.protocolVersion. */
  readonly protocolVersion?: ProtocolChoice;
}

/** Which ACP version to offer: 1, 2 (the v2 Preview), or auto (offer 2, accept 1 on a fresh start). */
export type ProtocolChoice = '1' | '2' | 'auto';
export const PROTOCOL_CHOICES: readonly ProtocolChoice[] = ['1', '2', 'auto'];

export interface AgentSettingsProblem {
  readonly index: number;
  readonly message: string;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Turns the raw value of `acpAgents.agents` into definitions. Invalid entries are
 * skipped and reported (never thrown): one bad entry must not hide the others.
 */
export function parseAgentSettings(raw: unknown): { agents: AgentDefinition[]; problems: AgentSettingsProblem[] } {
  const agents: AgentDefinition[] = [];
  const problems: AgentSettingsProblem[] = [];
  if (raw === undefined || raw === null) return { agents, problems };
  if (!Array.isArray(raw)) {
    problems.push({ index: -1, message: 'acpAgents.agents must be an array of agent definitions.' });
    return { agents, problems };
  }
  const seen = new Set<string>();
  raw.forEach((entry: unknown, index) => {
    const problem = (message: string) => problems.push({ index, message: `acpAgents.agents[${index}]: ${message}` });
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problem('must be an object with "id", "name" and "command".');
      return;
    }
    const e = entry as Record<string, unknown>;
    if (typeof e.id !== 'string' || !ID_PATTERN.test(e.id)) {
      problem('"id" must be a non-empty string of letters, digits, ".", "_" or "-".');
      return;
    }
    if (seen.has(e.id)) {
      problem(`the id "${e.id}" is used twice; only the first is kept.`);
      return;
    }
    let url: string | undefined;
    if (e.url !== undefined) {
      if (e.command !== undefined) {
        problem('give either "command" (a program started here) or "url" (an agent elsewhere), not both.');
        return;
      }
      const why = remoteUrlProblem(e.url);
      if (why) {
        problem(why);
        return;
      }
      url = e.url as string;
    } else if (typeof e.command !== 'string' || e.command.trim() === '') {
      problem('"command" must be a non-empty string (or give "url" for an agent elsewhere).');
      return;
    }
    const name = typeof e.name === 'string' && e.name.trim() !== '' ? e.name : e.id;
    let args: string[] = [];
    if (e.args !== undefined) {
      if (url !== undefined) {
        problem('"args" and "env" are for a program started here, not for an agent by "url".');
        return;
      }
      if (!Array.isArray(e.args) || !e.args.every((a) => typeof a === 'string')) {
        problem('"args" must be an array of strings.');
        return;
      }
      args = e.args as string[];
    }
    const env: Record<string, string> = {};
    if (e.env !== undefined) {
      if (url !== undefined) {
        problem('"args" and "env" are for a program started here, not for an agent by "url".');
        return;
      }
      if (typeof e.env !== 'object' || e.env === null || Array.isArray(e.env)) {
        problem('"env" must be an object of string values.');
        return;
      }
      for (const [k, v] of Object.entries(e.env as Record<string, unknown>)) {
        if (typeof v !== 'string') {
          problem(`"env.${k}" must be a string.`);
          return;
        }
        env[k] = v;
      }
    }
    if (e.pathMap !== undefined) {
      const why = url === undefined ? '"pathMap" maps the folders of an agent by "url"; a program started here uses this machine\'s paths.' : pathMapProblem(e.pathMap);
      if (why) {
        problem(why);
        return;
      }
    }
    const pathMap = e.pathMap as Record<string, string> | undefined;
    let protocolVersion: ProtocolChoice | undefined;
    if (e.protocolVersion !== undefined) {
      const v = typeof e.protocolVersion === 'number' ? String(e.protocolVersion) : e.protocolVersion;
      if (!(PROTOCOL_CHOICES as readonly unknown[]).includes(v)) {
        problem('"protocolVersion" must be "1", "2" or "auto".');
        return;
      }
      protocolVersion = v as ProtocolChoice;
    }
    seen.add(e.id);
    agents.push({ id: e.id, name, command: url ?? (e.command as string), args, env, source: 'settings', ...(url ? { url } : {}), ...(pathMap ? { pathMap: { ...pathMap } } : {}), ...(protocolVersion ? { protocolVersion } : {}) });
  });
  return { agents, problems };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why a `url` cannot name an agent, or undefined when it can: `wss://` anywhere, `ws://` (unencrypted,
 * a token and the whole conversation readable on the wire) only on this machine's loopback.
 */
function remoteUrlProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return '"url" must be a non-empty string (wss://host:port/path).';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `"url" is not a URL: ${JSON.stringify(raw.slice(0, 200))}.`;
  }
  if (u.username || u.password) return '"url" must not carry a user name or password: Sign In asks for a token and keeps it in secret storage.';
  if (u.protocol === 'wss:') return undefined;
  if (u.protocol === 'ws:') return LOOPBACK.has(u.hostname) ? undefined : '"ws://" (unencrypted) is allowed only on loopback (127.0.0.1, [::1], localhost); use "wss://" for another machine.';
  return `"url" must start with wss:// (or ws:// on loopback), not ${u.protocol}//.`;
}

/** Configured agents first; an installed agent is hidden when a configured agent has its id. */
export function mergeAgents(configured: readonly AgentDefinition[], installed: readonly AgentDefinition[]): AgentDefinition[] {
  const ids = new Set(configured.map((a) => a.id));
  return [...configured, ...installed.filter((p) => !ids.has(p.id))];
}
