/**
 * What became of each MCP server a session handed to its agent (or left out):
 * the model, how a relay's report changes it, and the words for it. The relay
 * (node/mcpRelay) sees stdio servers; of http/sse servers only the offer is
 * known. What a server or relay says (names, messages) is untrusted text,
 * bounded here and shown only as text. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import { RELAY_ENV, type RelayConfig, type RelayEvent } from '../../node/mcpRelay/wire';

export type McpServerState =
  /** Handed to the agent; not started (yet), or (http/sse) not observable. */
  | 'offered'
  /** Left out: the agent lacks the transport, the workspace's server is untrusted, the entry is broken. */
  | 'skipped'
  /** The agent started it; its tools are not listed yet. */
  | 'started'
  /** The agent started it and it listed its tools. */
  | 'listed'
  /** It could not be started, or its initialize failed. */
  | 'failed'
  /** It ended: `exitCode`/`signal` say how. */
  | 'exited'
  /** The agent did not start it during a whole turn (or is known not to). */
  | 'notStarted'
  /** The extension's own server, not started during a whole turn: said neutrally, no problem. */
  | 'unused';

/** What the user can do about a server's state. */
export type McpStatusAction = 'showLog' | 'trustSetting' | 'agentSettings';

export interface McpServerStatus {
  readonly name: string;
  readonly transport: 'stdio' | 'http' | 'sse' | 'unknown';
  readonly state: McpServerState;
  /** The relay watches it (stdio): start, tools and exit are known. */
  readonly observed: boolean;
  /** How many tools it listed (state `listed`, and kept after it exited). */
  readonly tools?: number;
  /** The first tool names it listed (the server's, untrusted). */
  readonly toolNames?: readonly string[];
  /** Why (skipped, failed, never started), or how it ended, in words. */
  readonly reason?: string;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly action?: McpStatusAction;
  /** The relay connection it is known by (a restarted server replaces it). */
  readonly connection?: number;
  /** The extension's own server (vscode-editor), not one of the user's. */
  readonly own?: true;
}

/** Servers shown at most (a status is one line each). */
const MAX_SERVERS = 100;
const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The status of each server of a selection, before the agent did anything. */
export function initialStatuses(
  servers: readonly acp.McpServer[],
  skipped: readonly { readonly name: string; readonly reason: string }[],
  observed: (name: string) => boolean,
  own?: string,
): McpServerStatus[] {
  const out: McpServerStatus[] = servers.map((s) => ({
    name: clip(s.name),
    transport: 'url' in s ? (s.type === 'sse' ? 'sse' : 'http') : 'stdio',
    state: 'offered' as const,
    observed: !('url' in s) && observed(s.name),
    ...(s.name === own ? { own: true as const } : {}),
  }));
  for (const s of skipped) out.push({ name: clip(s.name), transport: 'unknown', state: 'skipped', observed: false, reason: clip(s.reason, 500) });
  return out.slice(0, MAX_SERVERS);
}

/** A relay's report applied to one server's status. */
export function applyEvent(s: McpServerStatus, e: RelayEvent, connection: number): McpServerStatus {
  // A report of an older instance (the agent restarted the server) changes nothing.
  if (s.connection !== undefined && connection < s.connection) return s;
  const base = { name: s.name, transport: s.transport, observed: s.observed, connection, ...(s.own ? { own: s.own } : {}) };
  switch (e.e) {
    case 'spawned':
      return { ...base, state: 'started' };
    case 'spawnFailed':
      return { ...base, state: 'failed', reason: clip(e.message), action: 'agentSettings' };
    case 'initialized':
      return s.state === 'listed' ? { ...s, connection } : { ...base, state: 'started' };
    case 'initFailed':
      return { ...base, state: 'failed', reason: clip(e.message), action: 'showLog' };
    case 'tools':
      return { ...base, state: 'listed', tools: e.count, toolNames: e.names.slice(0, 50).map((n) => clip(n, 100)) };
    case 'exit':
      if (s.state === 'failed') return { ...s, connection };
      return { ...base, state: 'exited', exitCode: e.code, signal: e.signal, ...(s.tools !== undefined ? { tools: s.tools, toolNames: s.toolNames } : {}), ...(crashed(e) ? { action: 'showLog' as const } : {}) };
  }
}

const crashed = (e: { code: number | null; signal: string | null }): boolean => (e.code !== null && e.code !== 0) || (e.code === null && e.signal !== null);

/**
 * After a whole turn: a watched server the agent has not started is "never started" — but the
 * extension's own server is only "not used": an agent need not read the editor.
 */
export function afterTurn(s: McpServerStatus, known?: { reason: string; action?: McpStatusAction }): McpServerStatus {
  if (!s.observed || s.state !== 'offered') return s;
  if (s.own) return { ...s, state: 'unused' };
  if (known) return { ...s, state: 'notStarted', reason: known.reason, ...(known.action ? { action: known.action } : {}) };
  return { ...s, state: 'notStarted', reason: l10n.t('The agent did not start it during a whole turn.'), action: 'showLog' };
}

/** One line for the user: what became of the server. */
export function statusText(s: McpServerStatus): string {
  switch (s.state) {
    case 'offered':
      if (s.transport === 'http' || s.transport === 'sse') return l10n.t('offered ({0}); whether the agent connects is not visible to the extension', s.transport.toUpperCase());
      return s.observed ? l10n.t('offered; not started by the agent yet') : l10n.t('offered');
    case 'skipped':
      return l10n.t('left out: {0}', s.reason ?? '');
    case 'started':
      return l10n.t('started by the agent; no tools listed yet');
    case 'listed':
      return s.tools === 1 ? l10n.t('started by the agent, 1 tool') : l10n.t('started by the agent, {0} tools', s.tools ?? 0);
    case 'failed':
      return l10n.t('could not start: {0}', s.reason ?? '');
    case 'exited':
      if (!crashed({ code: s.exitCode ?? null, signal: s.signal ?? null })) return l10n.t('stopped');
      return s.signal ? l10n.t('crashed (signal {0})', s.signal) : l10n.t('crashed (exit code {0})', s.exitCode ?? '?');
    case 'notStarted':
      return l10n.t('never started: {0}', s.reason ?? '');
    case 'unused':
      return l10n.t('not used by the agent so far (the extension’s own editor server, offered to every agent; nothing to fix)');
  }
}

/**
 * A stdio server as the agent gets it when the relay watches it: the extension
 * host's node runs the relay, which runs the user's command with the user's args.
 * The relay's settings (the secret, and the server's env, which the relay applies
 * to the server only — never to itself) are its one env entry.
 */
export function wrapStdio(server: acp.McpServerStdio, relay: { node: string; script: string; socket: string; token: string }): acp.McpServerStdio {
  const config: RelayConfig = { socket: relay.socket, token: relay.token, server: server.name, ...(server.env.length ? { env: server.env.map(({ name, value }) => ({ name, value })) } : {}) };
  return {
    name: server.name,
    command: relay.node,
    args: [relay.script, '--', server.command, ...server.args],
    env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }, { name: RELAY_ENV, value: JSON.stringify(config) }],
  };
}
