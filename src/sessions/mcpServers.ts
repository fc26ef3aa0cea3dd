/**
 * The user's MCP servers, as ACP `McpServer` entries for one agent: from
 * `acpAgents.mcpServers` and VS Code's own `mcp.json` files (same shape as their
 * `servers` object), filtered by what the agent can take. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { expandVariables, type ExpandContext } from '../agents/expand';
import { findExecutable } from '../agents/resolveCommand';

export interface McpSource {
  /** Where the entries come from, for messages ("settings", ".vscode/mcp.json"…). */
  readonly label: string;
  readonly servers: unknown;
}

export interface McpSelection {
  readonly servers: acp.McpServer[];
  /** Entries not sent, with the reason in words. */
  readonly skipped: { readonly name: string; readonly reason: string }[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pairs(v: unknown, ctx: ExpandContext): { name: string; value: string }[] | undefined {
  if (v === undefined || v === null) return [];
  if (!isObj(v)) return undefined;
  const out: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(v)) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    out.push({ name, value: expandVariables(String(value), ctx) });
  }
  return out;
}

const UNRESOLVABLE = /\$\{input:[^}]*\}/;

/**
 * Later sources override earlier ones by name. `canHttp`/`canSse` are the agent's
 * `mcpCapabilities`; stdio is always supported by agents.
 */
export function selectMcpServers(
  sources: readonly McpSource[],
  caps: { canHttp: boolean; canSse: boolean },
  ctx: ExpandContext & { pathEnv?: string; cwd: string; isExecutable?: (f: string) => boolean },
): McpSelection {
  const byName = new Map<string, { label: string; raw: unknown }>();
  for (const src of sources) {
    if (!isObj(src.servers)) continue;
    for (const [name, raw] of Object.entries(src.servers)) byName.set(name, { label: src.label, raw });
  }
  const servers: acp.McpServer[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const [name, { label, raw }] of byName) {
    const skip = (reason: string) => skipped.push({ name, reason: `${reason} (from ${label})` });
    if (!isObj(raw)) {
      skip('not an object');
      continue;
    }
    if (JSON.stringify(raw).match(UNRESOLVABLE)) {
      skip('uses ${input:…} variables, which only VS Code’s own MCP support can ask for');
      continue;
    }
    const type = typeof raw.type === 'string' ? raw.type : typeof raw.url === 'string' ? 'http' : 'stdio';
    if (type === 'stdio') {
      if (typeof raw.command !== 'string' || raw.command.trim() === '') {
        skip('has no "command"');
        continue;
      }
      const args = raw.args === undefined ? [] : Array.isArray(raw.args) && raw.args.every((a) => typeof a === 'string') ? (raw.args as string[]).map((a) => expandVariables(a, ctx)) : undefined;
      if (!args) {
        skip('"args" must be an array of strings');
        continue;
      }
      const env = pairs(raw.env, ctx);
      if (!env) {
        skip('"env" must be an object of strings');
        continue;
      }
      const command = expandVariables(raw.command, ctx);
      const resolved = findExecutable(command, { pathEnv: ctx.pathEnv, cwd: ctx.cwd, isExecutable: ctx.isExecutable });
      if (!resolved) {
        skip(`its command "${command}" was not found on PATH`);
        continue;
      }
      // Stdio servers have no "type" field in ACP.
      servers.push({ name, command: resolved, args, env });
    } else if (type === 'http' || type === 'sse') {
      if (typeof raw.url !== 'string' || !/^https?:\/\//i.test(raw.url)) {
        skip('needs an http(s) "url"');
        continue;
      }
      if (type === 'http' && !caps.canHttp) {
        skip('is an HTTP server, and the agent does not support HTTP MCP servers');
        continue;
      }
      if (type === 'sse' && !caps.canSse) {
        skip('is an SSE server, and the agent does not support SSE MCP servers');
        continue;
      }
      const headers = pairs(raw.headers, ctx);
      if (!headers) {
        skip('"headers" must be an object of strings');
        continue;
      }
      servers.push({ type, name, url: expandVariables(raw.url, ctx), headers } as acp.McpServer);
    } else {
      skip(`has the unknown type "${type}"`);
    }
  }
  return { servers, skipped };
}

/** Reads the `servers` object of an mcp.json text (JSON with comments and trailing commas). */
export function parseMcpJson(text: string): unknown {
  const stripped = text
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str: string | undefined) => str ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  const v = JSON.parse(stripped) as unknown;
  return isObj(v) ? v.servers : undefined;
}
