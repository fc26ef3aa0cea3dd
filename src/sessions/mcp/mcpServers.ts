/**
 * The user's MCP servers, as ACP `McpServer` entries for one agent: from
 * `acpAgents.mcpServers` and VS Code's own `mcp.json` files (same shape as their
 * `servers` object), filtered by what the agent can take. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import { jsoncProblem, parseJsonc } from '../../shared/jsonc';
import type * as acp from '@agentclientprotocol/sdk';
import { expandVariables, type ExpandContext } from '../../agents/expand';
import { findExecutable } from '../../agents/resolveCommand';
import { packageRunnerKind, withNpmPrefix, workspaceConfiguredRunner } from '../../agents/packageRunner';
import { isRefusedEnvName } from '../../node/envPolicy';
import { unsafeBatchArgument } from '../../node/spawnProgram';

export interface McpSource {
  /** Where the entries come from, for messages ("settings", ".vscode/mcp.json"…). */
  readonly label: string;
  readonly servers: unknown;
  /**
   * `user`: the user's own settings and mcp.json (`${env:…}` expanded, sent as they are).
   * `workspace`: defined by the opened folders (sent only once the user trusted the exact definition).
   */
  readonly origin?: 'user' | 'workspace';
  /** Why the source could not be read, or read only in part (an mcp.json with a syntax error): shown with the skipped servers. */
  readonly problem?: string;
}

/** A workspace-defined server, as the trust question shows it. */
export interface WorkspaceMcpServer {
  readonly name: string;
  /** Where it is defined. */
  readonly label: string;
  /** The command line or URL, as defined (variables other than `${workspaceFolder}` unexpanded). */
  readonly display: string;
  /** The environment it sets (stdio), as defined: shown in the trust question, and part of the hash. */
  readonly env?: readonly { readonly name: string; readonly value: string }[];
  /** sha256 of the exact definition (name, type, command, args, env, url, headers). */
  readonly hash: string;
}

export interface McpSelection {
  readonly servers: acp.McpServer[];
  /** Entries not sent, with the reason in words. */
  readonly skipped: { readonly name: string; readonly reason: string }[];
  /** The selected servers that a workspace defined (a subset of `servers`, by name). */
  readonly fromWorkspace: WorkspaceMcpServer[];
  /** The extension's own server among `servers` (vscode-editor), by name. */
  readonly own?: string;
}

/** A stable hash of a server definition: any change to what runs or where it connects needs trust again. */
export function definitionHash(name: string, raw: Record<string, unknown>): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : isObj(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])])) : v;
  const { type, command, args, env, url, headers } = raw;
  return createHash('sha256').update(JSON.stringify(canonical({ name, type, command, args, env, url, headers }))).digest('hex');
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
  baseCtx: ExpandContext & {
    pathEnv?: string;
    cwd: string;
    isExecutable?: (f: string) => boolean;
    /** An empty folder of the extension's own: npx / npm exec servers take npm's project config from it (packageRunner.ts). */
    runnerPrefix: string;
    platform?: NodeJS.Platform;
  },
): McpSelection {
  const byName = new Map<string, { label: string; raw: unknown; origin: 'user' | 'workspace' }>();
  const skipped: { name: string; reason: string }[] = [];
  for (const src of sources) {
    if (src.problem) skipped.push({ name: src.label, reason: src.problem });
    if (!isObj(src.servers)) continue;
    for (const [name, raw] of Object.entries(src.servers)) byName.set(name, { label: src.label, raw, origin: src.origin ?? 'user' });
  }
  const servers: acp.McpServer[] = [];
  const fromWorkspace: WorkspaceMcpServer[] = [];
  for (const [name, { label, raw, origin }] of byName) {
    const ctx = origin === 'workspace' ? { ...baseCtx, keepEnv: true } : baseCtx;
    const noteWorkspace = (display: string, env?: { name: string; value: string }[]) => {
      if (origin === 'workspace' && isObj(raw)) fromWorkspace.push({ name, label, display, hash: definitionHash(name, raw), ...(env?.length ? { env } : {}) });
    };
    const skip = (reason: string) => skipped.push({ name, reason: l10n.t('{0} (from {1})', reason, label) });
    if (!isObj(raw)) {
      skip(l10n.t('not an object'));
      continue;
    }
    if (JSON.stringify(raw).match(UNRESOLVABLE)) {
      skip(l10n.t('uses {0} variables, which only VS Code’s own MCP support can ask for', '${input:…}'));
      continue;
    }
    const type = typeof raw.type === 'string' ? raw.type : typeof raw.url === 'string' ? 'http' : 'stdio';
    if (type === 'stdio') {
      if (typeof raw.command !== 'string' || raw.command.trim() === '') {
        skip(l10n.t('has no "command"'));
        continue;
      }
      const args = raw.args === undefined ? [] : Array.isArray(raw.args) && raw.args.every((a) => typeof a === 'string') ? (raw.args as string[]).map((a) => expandVariables(a, ctx)) : undefined;
      if (!args) {
        skip(l10n.t('"args" must be an array of strings'));
        continue;
      }
      const env = pairs(raw.env, ctx);
      if (!env) {
        skip(l10n.t('"env" must be an object of strings'));
        continue;
      }
      // A workspace's server may not set what registry entries may not (code injected into every process, PATH…).
      const forbidden = origin === 'workspace' ? env.filter((e) => isRefusedEnvName(e.name)).map((e) => e.name) : [];
      if (forbidden.length) {
        skip(l10n.t('sets {0} in "env", which a server defined by the workspace may not set', forbidden.slice(0, 5).join(', ')));
        continue;
      }
      const command = expandVariables(raw.command, ctx);
      const resolved = findExecutable(command, { pathEnv: ctx.pathEnv, cwd: ctx.cwd, isExecutable: ctx.isExecutable, platform: ctx.platform });
      if (!resolved) {
        skip(l10n.t('its command "{0}" was not found on PATH', command));
        continue;
      }
      const refusal = stdioRefusal(resolved, args, ctx.platform);
      if (refusal) {
        skip(refusal);
        continue;
      }
      // Stdio servers have no "type" field in ACP.
      servers.push({ name, command: resolved, args: packageRunnerKind(resolved, args) === 'npm' ? withNpmPrefix(resolved, args, ctx.runnerPrefix) : args, env });
      noteWorkspace([resolved, ...args].join(' '), env);
    } else if (type === 'http' || type === 'sse') {
      if (typeof raw.url !== 'string' || !/^https?:\/\//i.test(raw.url)) {
        skip(l10n.t('needs an http(s) "url"'));
        continue;
      }
      if (type === 'http' && !caps.canHttp) {
        skip(l10n.t('is an HTTP server, and the agent does not support HTTP MCP servers'));
        continue;
      }
      if (type === 'sse' && !caps.canSse) {
        skip(l10n.t('is an SSE server, and the agent does not support SSE MCP servers'));
        continue;
      }
      const headers = pairs(raw.headers, ctx);
      if (!headers) {
        skip(l10n.t('"headers" must be an object of strings'));
        continue;
      }
      const url = expandVariables(raw.url, ctx);
      servers.push({ type, name, url, headers } as acp.McpServer);
      noteWorkspace(`${type.toUpperCase()} ${url}`);
    } else {
      skip(l10n.t('has the unknown type "{0}"', type));
    }
  }
  return { servers, skipped, fromWorkspace };
}

/**
 * Why a stdio server cannot be started as defined: a package runner that reads
 * the workspace's own config to choose the package (it runs in the workspace
 * folder), or an argument cmd.exe would not pass to a batch file unchanged.
 */
function stdioRefusal(resolved: string, args: readonly string[], platform: NodeJS.Platform = process.platform): string | undefined {
  const config = workspaceConfiguredRunner(resolved, args);
  if (config) return l10n.t('runs through a package runner that would let the workspace’s {0} choose what runs; use npx (or the program’s own path) instead', config);
  const unsafe = unsafeBatchArgument(resolved, args, platform);
  if (unsafe !== undefined) return l10n.t('the argument {0} has a double quote, which cmd.exe cannot pass to the batch file {1} unchanged', JSON.stringify(unsafe).slice(0, 200), resolved);
  return undefined;
}

/** Only the workspace-defined servers the user trusted stay; the others are listed as skipped. */
export function withoutUntrusted(sel: McpSelection, trusted: (hash: string) => boolean): McpSelection {
  const untrusted = new Map(sel.fromWorkspace.filter((w) => !trusted(w.hash)).map((w) => [w.name, w]));
  if (untrusted.size === 0) return sel;
  return {
    servers: sel.servers.filter((s) => !untrusted.has(s.name)),
    skipped: [...sel.skipped, ...[...untrusted.values()].map((w) => ({ name: w.name, reason: l10n.t('is defined by the workspace ({0}) and you have not trusted it (ACP: Manage Trusted Workspace MCP Servers…)', w.label) }))],
    fromWorkspace: sel.fromWorkspace.filter((w) => !untrusted.has(w.name)),
  };
}

/** Reads the `servers` object of an mcp.json text (JSON with comments and trailing commas). */
export function parseMcpJson(text: string): unknown {
  const v = parseJsonc(text);
  return isObj(v) ? v.servers : undefined;
}

/**
 * What is wrong with an mcp.json text, for the user: where the syntax first
 * breaks (line and column). Its servers are still read as VS Code reads them,
 * tolerantly; some after that place may be missing. Undefined when it is fine.
 */
export function mcpJsonProblem(text: string): string | undefined {
  const p = jsoncProblem(text);
  return p && l10n.t('has a syntax error at line {0}, column {1} ({2}); servers after it may be missing', String(p.line), String(p.column), p.what);
}
