/**
 * Permission requests of one session. A request is a state of its tool call
 * (the transcript shows it on that call): answered automatically when the
 * user's settings or an earlier "allow always" say so, else asked, one answer
 * counting; withdrawn when the agent cancels it or the turn stops. Pure: no
 * `vscode` — unit-tested in plain Node.
 */
import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { PermissionOption, PermissionRequest } from '../acp/clientRequests';
import { decodeSessionUpdate } from '../acp/decode';
import { clientError } from '../acp/errors';
import type { CancelToken } from '../agents/sessionRouter';
import { allowOption, autoApproves, permissionKey, type AutoApprove } from './permissionPolicy';
import type { Change, Transcript } from './transcript';

/** What the permission handling needs from its session. */
export interface PermissionHost {
  readonly agentId: string;
  sessionId(): string;
  transcript(): Transcript;
  emit(changes: readonly Change[]): void;
  autoApprove(): AutoApprove;
  /** The protected-path glob an absolute path falls under, if any. */
  protectedGlob(file: string): string | undefined;
  log(message: string): void;
}

interface Pending {
  /** A subagent's request (kept when only the session's own are withdrawn). */
  readonly child: boolean;
  readonly options: readonly PermissionOption[];
  readonly key: string;
  /** Whether "allow always" may be remembered: not for a nameless execute/other/fetch call (one "always" on `ls` must not cover `curl … | sh`). */
  readonly rememberable: boolean;
  readonly resolve: (outcome: acp.RequestPermissionResponse) => void;
}

export class Permissions {
  private readonly pending = new Map<string, Pending>();
  /** "Allow always" answers of this session: permission key → option id. */
  private readonly always = new Map<string, string>();

  constructor(private readonly host: PermissionHost) {}

  /** Requests waiting for the user. */
  get waiting(): number {
    return this.pending.size;
  }

  /** `childSessionId`: the request is a subagent's (it is shown in the subagent's card). */
  async request(req: PermissionRequest, token: CancelToken, childSessionId?: string): Promise<acp.RequestPermissionResponse> {
    const h = this.host;
    const { toolCallId, options } = req;
    // The request may carry details of the call: merge them into the transcript.
    if (toolCallId) h.emit(h.transcript().apply(decodeSessionUpdate({ ...req.toolCall, sessionUpdate: 'tool_call_update', toolCallId }, []), childSessionId));
    const tool = toolCallId ? h.transcript().tool(toolCallId, childSessionId) : undefined;
    const toolKind = tool?.toolKind ?? 'other';
    const title = tool?.title ?? req.title ?? l10n.t('The agent asks for permission');
    const toolName = tool?.name ?? req.name;
    const key = permissionKey(h.agentId, h.sessionId(), toolKind, toolName);
    const describe = `"${title}" (${toolKind}${toolName ? `, tool ${toolName}` : ''})`;
    // A call that touches a protected path (.vscode/, .git/, .env…) is always asked about.
    const touched = tool ? [...tool.locations.map((l) => l.path), ...tool.content.flatMap((c) => (c.type === 'diff' ? [c.path] : []))] : [];
    const protectedHit = touched.map((f) => (path.isAbsolute(f) ? h.protectedGlob(f) : undefined)).find((g) => g !== undefined);

    const remembered = protectedHit === undefined ? this.always.get(key) : undefined;
    const rememberedOption = remembered ? options.find((o) => o.optionId === remembered) : undefined;
    const auto = rememberedOption ?? (protectedHit === undefined && autoApproves(h.autoApprove(), toolKind) ? allowOption(options) : undefined);
    const { item, changes } = h.transcript().addPermission({ toolCallId: toolCallId ?? '', title, options: [...options], content: tool?.content ?? [], rawInput: tool?.rawInput }, childSessionId);
    h.emit(changes);
    if (auto) {
      h.emit(h.transcript().settlePermission(item.id, 'auto', auto.optionId));
      h.log(`permission ${describe}: answered "${auto.optionId}" automatically (${rememberedOption ? 'allowed always earlier in this session' : `acpAgents.permissions.autoApprove`})`);
      return { outcome: { outcome: 'selected', optionId: auto.optionId } };
    }
    h.log(`permission ${describe}: asking the user (options ${options.map((o) => o.optionId).join(', ')})${protectedHit ? `; it touches a protected path (${protectedHit})` : ''}`);
    return await new Promise<acp.RequestPermissionResponse>((resolve, reject) => {
      const rememberable = typeof toolName === 'string' || !['execute', 'other', 'fetch'].includes(toolKind);
      this.pending.set(item.id, { child: childSessionId !== undefined, options, key, rememberable, resolve });
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

  private settle(itemId: string, optionId: string | undefined, why: string): boolean {
    const pending = this.pending.get(itemId);
    if (!pending) return false;
    this.pending.delete(itemId);
    const h = this.host;
    if (optionId !== undefined) {
      const option = pending.options.find((o) => o.optionId === optionId);
      if (option?.kind === 'allow_always' && pending.rememberable) this.always.set(pending.key, optionId);
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
