/**
 * Permission requests of one session. A request is a state of its tool call
 * (the transcript shows it on that call): answered automatically when the
 * user's settings or an earlier "allow always" say so, else asked, one answer
 * counting; withdrawn when the agent cancels it or the turn stops. A session
 * part; `session/request_permission` is its table (PERMISSION_METHODS). Pure:
 * no `vscode` — unit-tested in plain Node.
 */
import * as l10n from '@vscode/l10n';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { decodePermissionRequest, type PermissionOption, type PermissionRequest } from '../../acp/clientRequests';
import { RequestPermissionRequest } from '../../acp/protocol';
import { bindMethods, type ClientMethod } from '../../agents/clientMethods';
import { decodeSessionUpdate, type DecodedUpdate } from '../../acp/decode';
import { clientError } from '../../acp/errors';
import type { CancelToken } from '../../agents/sessionRouter';
import { checkPath, isInside, realPathLoose } from '../../node/pathPolicy';
import { globMayNameProtected } from '../../node/protectedGlobs';
import { allowOption, alwaysScope, autoApproves, permissionKey, type AutoApprove } from '../policy/permissionPolicy';
import { toolCallPaths, type ToolCallView } from '../policy/toolPaths';
import type { SessionCore, SessionPart } from '../sessionCore';
import type { Change, Transcript } from '../transcript';
import type { ToolItem } from '../../shared/transcriptTypes';

/** What the permission handling needs from its session. */
export interface PermissionHost {
  readonly agentId: string;
  sessionId(): string;
  transcript(): Transcript;
  emit(changes: readonly Change[]): void;
  autoApprove(): AutoApprove;
  /** The protected-path glob an absolute path falls under, if any. */
  protectedGlob(file: string): string | undefined;
  /** The protected-path globs in force: a search's glob is checked against them as a glob. */
  protectedGlobs(): readonly string[];
  /** The session's folders: a call naming a path outside them is always asked about. */
  roots(): readonly string[];
  /** The session's cwd (its first folder): relative paths in a tool call are resolved against it. */
  cwd(): string;
  log(message: string): void;
  /** The tool call details a request carried, as an update (a diff in it names a file about to change). */
  noted?(update: DecodedUpdate, childSessionId?: string): void;
}

/** The host of a session's permissions, from its core; `noted` as in PermissionHost. */
export function permissionHost(core: SessionCore, noted: PermissionHost['noted']): PermissionHost {
  const { services } = core;
  return {
    ...core,
    agentId: core.def.id,
    sessionId: () => core.sessionId() ?? '',
    autoApprove: () => services.settings.autoApprove(),
    protectedGlob: (f) => services.files.protectedGlob(f, core.roots()),
    protectedGlobs: () => services.files.protectedGlobs(),
    cwd: () => core.workingFolder(),
    noted,
  };
}

interface Pending {
  /** A subagent's request (kept when only the session's own are withdrawn). */
  readonly child: boolean;
  readonly options: readonly PermissionOption[];
  /** Undefined: "allow always" is not remembered (a nameless call of another kind, an execute call with no command or title). */
  readonly key: string | undefined;
  readonly resolve: (outcome: acp.RequestPermissionResponse) => void;
}

/** Kinds that change files: with no path we can find, the call cannot be checked. */
const PATH_KINDS = new Set(['edit', 'delete', 'move']);

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The paths and input of a call as the transcript holds it (the request's details merged in). */
function toolView(tool: ToolItem): ToolCallView & { rawInput: unknown } {
  return { locations: tool.locations, diffPaths: tool.content.flatMap((c) => (c.type === 'diff' ? [c.path] : c.type === 'patch' ? [c.path, ...(c.oldPath !== undefined ? [c.oldPath] : [])] : [])), rawInput: parseJson(tool.rawInput) };
}

/** The same from a request with no tool call id (nothing in the transcript to merge it into). */
function rawView(call: Readonly<Record<string, unknown>>): ToolCallView & { rawInput: unknown } {
  const objs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : []);
  return {
    locations: objs(call.locations).flatMap((l) => (typeof l.path === 'string' ? [{ path: l.path }] : [])),
    // v1's diff, and one file of a v2 diff (`_patch`, with the path it moved from).
    diffPaths: objs(call.content).flatMap((c) => ((c.type === 'diff' || c.type === '_patch') && typeof c.path === 'string' ? [c.path, ...(c.type === '_patch' && typeof c.oldPath === 'string' ? [c.oldPath] : [])] : [])),
    rawInput: call.rawInput,
  };
}

const CANCELLED: acp.RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/** The agent → client method this part serves (it earns no capability: every client must answer it). */
export const PERMISSION_METHODS: readonly ClientMethod<Permissions, PermissionRequest>[] = [
  {
    method: RequestPermissionRequest.method,
    // Never throws: a request it cannot read offers no options.
    decode: (params) => {
      const { value, dropped } = decodePermissionRequest(params);
      return { value, sessionId: value.sessionId, dropped };
    },
    serve: (part, req, token) => part.serve(req, token),
    // A request for a session not open here: nothing to show it on, so nothing is approved.
    unrouted: () => CANCELLED,
  },
];

export class Permissions implements SessionPart {
  readonly methods = bindMethods<Permissions>(this, PERMISSION_METHODS);
  private readonly pending = new Map<string, Pending>();
  /** "Allow always" answers of this session: permission key → option id. */
  private readonly always = new Map<string, string>();

  constructor(private readonly host: PermissionHost) {}

  /** Requests waiting for the user. */
  get waiting(): number {
    return this.pending.size;
  }

  /** A request about the session or one of its subagents; one of a child the transcript does not know is not asked. */
  async serve(req: PermissionRequest, token: CancelToken): Promise<acp.RequestPermissionResponse> {
    const child = req.sessionId !== this.host.sessionId() ? req.sessionId : undefined;
    if (child && !this.host.transcript().hasChild(child)) return CANCELLED;
    return await this.request(req, token, child);
  }

  /** `childSessionId`: the request is a subagent's (it is shown in the subagent's card). */
  async request(req: PermissionRequest, token: CancelToken, childSessionId?: string): Promise<acp.RequestPermissionResponse> {
    const h = this.host;
    const { toolCallId, options } = req;
    // The request may carry details of the call: merge them into the transcript.
    if (toolCallId) {
      const u = decodeSessionUpdate({ ...req.toolCall, sessionUpdate: 'tool_call_update', toolCallId }, []);
      h.emit(h.transcript().apply(u, childSessionId));
      h.noted?.(u, childSessionId);
    }
    const tool = toolCallId ? h.transcript().tool(toolCallId, childSessionId) : undefined;
    const toolKind = tool?.toolKind ?? 'other';
    const title = tool?.title ?? req.title ?? l10n.t('The agent asks for permission');
    const toolName = tool?.name ?? req.name;
    const describe = `"${title}" (${toolKind}${toolName ? `, tool ${toolName}` : ''})`;
    const view = tool ? toolView(tool) : rawView(req.toolCall);
    // Every path the call names, checked before any automatic answer: outside the folders, protected, or none at all for an edit → ask.
    const askWhy = this.askReason(toolKind, view);
    const agentTitle = req.title ?? (tool && tool.title !== l10n.t('Tool call') ? tool.title : undefined);
    const scope = alwaysScope({ toolKind, toolName, title: agentTitle, rawInput: view.rawInput });
    const key = scope === undefined ? undefined : permissionKey(h.agentId, h.sessionId(), scope);

    const remembered = key !== undefined ? this.always.get(key) : undefined;
    const rememberedOption = remembered && askWhy === undefined ? options.find((o) => o.optionId === remembered) : undefined;
    const auto = rememberedOption ?? (askWhy === undefined && autoApproves(h.autoApprove(), toolKind) ? allowOption(options) : undefined);
    const { item, changes } = h.transcript().addPermission({ toolCallId: toolCallId ?? '', title, options: [...options], content: tool?.content ?? [], rawInput: tool?.rawInput }, childSessionId);
    h.emit(changes);
    if (auto) {
      h.emit(h.transcript().settlePermission(item.id, 'auto', auto.optionId));
      h.log(`permission ${describe}: answered "${auto.optionId}" automatically (${rememberedOption ? 'allowed always earlier in this session' : `acpAgents.permissions.autoApprove`})`);
      return { outcome: { outcome: 'selected', optionId: auto.optionId } };
    }
    const held = remembered !== undefined && askWhy !== undefined ? '; an earlier "allow always" does not cover it' : '';
    h.log(`permission ${describe}: asking the user (options ${options.map((o) => o.optionId).join(', ')})${askWhy ? `; ${askWhy}` : ''}${held}`);
    return await new Promise<acp.RequestPermissionResponse>((resolve, reject) => {
      this.pending.set(item.id, { child: childSessionId !== undefined, options, key, resolve });
      // The agent's $/cancel_request: the prompt closes, and the request is answered -32800.
      const sub = token.onCancellationRequested(() => {
        sub.dispose();
        if (!this.pending.delete(item.id)) return;
        h.emit(h.transcript().settlePermission(item.id, 'cancelled'));
        h.log(`permission ${item.id}: withdrawn by the agent ($/cancel_request)`);
        reject(clientError.cancelled('The agent cancelled the permission request.'));
      });
    });
  }

  /**
   * Why a call must be asked about whatever the settings or an earlier "allow always" say, or
   * undefined. Every kind: a path outside the session's folders (reading ~/.ssh/id_rsa or
   * globbing ~/.ssh/* is never automatic), one we cannot place (a glob whose wildcards may lead
   * out), or a protected path (reading .env or globbing .git/** included: a search names what it
   * reads). Edit, delete and move: naming no path at all.
   */
  private askReason(toolKind: string, view: ToolCallView & { rawInput: unknown }): string | undefined {
    const h = this.host;
    const found = toolCallPaths(view, { cwd: h.cwd(), home: os.homedir() });
    if (found.truncated) return 'its input is too large to search whole for the paths it names';
    const roots = h.roots();
    for (const p of found.paths) {
      const named = `${JSON.stringify(p.raw)} (${p.from})`;
      if (p.resolved === undefined) return `${named} is not a path that can be checked`;
      const { resolved, inside } = checkPath(p.resolved, roots);
      if (!inside) return `${named} resolves to ${resolved}, outside the session's folders`;
      const glob = h.protectedGlob(resolved);
      if (glob !== undefined) return `${named} resolves to ${resolved}, a protected path (${glob})`;
      const globbed = p.pattern !== undefined && p.pattern !== p.resolved ? h.protectedGlob(p.pattern) : undefined;
      if (globbed !== undefined) return `${named} is a glob ${p.pattern} that names protected paths (${globbed})`;
      const spelled = p.glob ? this.globReason(resolved, p.glob, roots) : undefined;
      if (spelled !== undefined) return `${named} is a glob that may name protected paths (${spelled})`;
    }
    if (found.paths.length === 0 && PATH_KINDS.has(toolKind)) return `it names no path, so what a ${toolKind} call changes cannot be checked`;
    return undefined;
  }

  /**
   * Whether a glob (its magic part, under the real folder `base`) may name protected paths: checked
   * as a glob, from the session folder that holds its base (`.e*` names `.env`, `.gi?/config` names
   * `.git/config`). A recursive search with no glob, or a bare `**`, names nothing and cannot be held to it.
   */
  private globReason(base: string, glob: string, roots: readonly string[]): string | undefined {
    const root = roots.map((r) => realPathLoose(r)).find((r) => isInside(base, r));
    const baseSegments = root === undefined ? [] : path.relative(root, base).split(/[\\/]/).filter((s) => s !== '');
    return globMayNameProtected(baseSegments, glob, this.host.protectedGlobs());
  }

  /** The user's answer; only the first answer to a request counts, and only one of its options. */
  answer(itemId: string, optionId: string): boolean {
    const pending = this.pending.get(itemId);
    if (!pending) {
      this.host.log(`permission ${itemId}: ignored a second answer "${optionId}"`);
      return false;
    }
    if (!pending.options.some((o) => o.optionId === optionId)) {
      this.host.log(`permission ${itemId}: ignored an answer that is not one of the options ("${optionId}")`);
      return false;
    }
    return this.settle(itemId, optionId, 'the user chose');
  }

  /** Every waiting request answered `cancelled` (Stop, the agent exited) — or only the session's own, not its subagents' (the turn ended). */
  cancelAll(why = 'the turn was stopped', ownOnly = false): void {
    for (const [id, p] of [...this.pending]) if (!ownOnly || !p.child) this.settle(id, undefined, why);
  }

  /** Questions withdrawn (SessionPart): the same as `cancelAll`. */
  withdraw(why: string, ownOnly: boolean): void {
    this.cancelAll(why, ownOnly);
  }

  dispose(): void {
    this.cancelAll('the panel closed');
  }

  private settle(itemId: string, optionId: string | undefined, why: string): boolean {
    const pending = this.pending.get(itemId);
    if (!pending) return false;
    this.pending.delete(itemId);
    const h = this.host;
    if (optionId !== undefined) {
      const option = pending.options.find((o) => o.optionId === optionId);
      if (option?.kind === 'allow_always' && pending.key !== undefined) this.always.set(pending.key, optionId);
      h.emit(h.transcript().settlePermission(itemId, 'answered', optionId));
      h.log(`permission ${itemId}: "${optionId}" (${why})`);
      pending.resolve({ outcome: { outcome: 'selected', optionId } });
    } else {
      h.emit(h.transcript().settlePermission(itemId, 'cancelled'));
      h.log(`permission ${itemId}: cancelled (${why})`);
      pending.resolve({ outcome: { outcome: 'cancelled' } });
    }
    return true;
  }
}
