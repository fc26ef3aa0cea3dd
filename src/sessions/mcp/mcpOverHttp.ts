/**
 * Stdio MCP servers for an agent that refuses stdio ones (Copilot CLI logs
 * "Rejecting non-http/sse MCP server" and never starts them; an agent may also
 * say `mcpCapabilities.stdio: false`): offered over loopback Streamable HTTP
 * when the agent takes http (the host's bridge, node/mcpRelay/httpBridge.ts),
 * otherwise left out with the real reason. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { McpRelayService } from '../ports';

/** Agents known to refuse the client's stdio MCP servers (by `agentInfo.name`): seen in Copilot CLI 1.0.102. */
const REFUSES_STDIO: readonly string[] = ['Copilot'];

/** Whether this agent refuses stdio MCP servers. */
export function refusesStdio(rt: AgentRuntime): boolean {
  const name = rt.initializeResult?.agentInfo?.name;
  return rt.capabilities.declinesMcpStdio() || (typeof name === 'string' && REFUSES_STDIO.includes(name));
}

export interface HttpOffer {
  /** What to hand the agent, in the selection's order. */
  readonly servers: acp.McpServer[];
  /** Stdio servers left out, with the reason. */
  readonly skipped: { readonly name: string; readonly reason: string }[];
  /** A line for the MCP status, when the servers go over HTTP. */
  readonly note?: string;
  dispose(): void;
}

/**
 * `servers` as handed over (stdio ones possibly wrapped in the relay), for an agent that refuses stdio:
 * each stdio one served over loopback HTTP, or — where that cannot be — left out, saying why.
 */
export async function offerOverHttp(servers: readonly acp.McpServer[], rt: AgentRuntime, agentName: string, cwd: string, relay: McpRelayService | undefined, log: (m: string) => void): Promise<HttpOffer> {
  const stdio = servers.filter((s): s is acp.McpServerStdio => !('url' in s));
  const none = { servers: [...servers], skipped: [], dispose: () => undefined };
  if (stdio.length === 0) return none;
  let why: string;
  if (!rt.capabilities.supportsMcp('http')) {
    why = l10n.t('{0} refuses stdio MCP servers and takes no HTTP ones, so the extension cannot offer this one to it.', agentName);
  } else if (!relay?.serveHttp) {
    why = l10n.t('{0} accepts only http/sse MCP servers; serving stdio servers over loopback HTTP is not available here.', agentName);
  } else {
    try {
      const served = await relay.serveHttp(stdio, cwd);
      const byName = new Map(served.servers.map((s) => [s.name, s]));
      return {
        servers: servers.map((s) => ('url' in s ? s : (byName.get(s.name) ?? s))),
        skipped: [],
        note: l10n.t('{0} accepts only http/sse MCP servers: your stdio servers are offered to it over loopback HTTP (127.0.0.1, with a token of this session).', agentName),
        dispose: () => served.dispose(),
      };
    } catch (err) {
      log(`MCP: serving stdio servers over HTTP failed: ${err instanceof Error ? err.message : String(err)}`);
      why = l10n.t('{0} accepts only http/sse MCP servers; the extension could not serve this stdio server over loopback HTTP ({1}).', agentName, err instanceof Error ? err.message : String(err));
    }
  }
  return { servers: servers.filter((s) => 'url' in s), skipped: stdio.map((s) => ({ name: s.name, reason: why })), dispose: () => undefined };
}

const LOOPBACK_HOSTS = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|0\.0\.0\.0)$/i;

/**
 * The servers an agent by URL cannot reach, each with the reason: stdio ones (the remote machine cannot
 * start this machine's programs, the extension's own vscode-editor among them) and http/sse ones on this
 * machine's loopback (on the agent's machine that address is the agent's own).
 */
export function unreachableFromRemote(servers: readonly acp.McpServer[], agentName: string, url: string): { name: string; reason: string }[] {
  const out: { name: string; reason: string }[] = [];
  for (const s of servers) {
    if (!('url' in s)) {
      out.push({ name: s.name, reason: l10n.t('{0} runs elsewhere ({1}): it cannot start a stdio MCP server of this machine. Only http/sse servers it can reach are offered to it.', agentName, url) });
      continue;
    }
    let host = '';
    try {
      host = new URL(s.url).hostname;
    } catch {
      // left to the agent, as for a local one
    }
    if (LOOPBACK_HOSTS.test(host)) out.push({ name: s.name, reason: l10n.t('{0} runs elsewhere ({1}): {2} is this machine\'s loopback, which it cannot reach.', agentName, url, host) });
  }
  return out;
}
