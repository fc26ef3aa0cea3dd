/**
 * The sessions index in step with the agents: the sessions an agent lists
 * (started elsewhere too) merged in, and the sessions deleted here deleted on
 * the agent too (`session/delete`) — each time an agent (re)starts, and when
 * the user asks (Refresh, Delete).
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentDefinition } from '../../agents/agentDefinition';
import type { AgentManager } from '../../agents/agentManager';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { SessionIndex } from './sessionIndex';

/** A session as an agent listed it, its cwd in this machine's names. */
export type ListedSession = { readonly sessionId: string; readonly title?: string | null; readonly updatedAt?: string | null; readonly cwd: string };

/**
 * Every session an agent lists for `folder` (undefined: every folder), page after page (at most 50). An agent by
 * URL with a pathMap is asked about the folder as it names it, and its answers' cwds are mapped back (one it does
 * not map: the folder asked about); a folder it does not map is not asked about. A session with no cwd is the
 * folder's. `list` sends one session/list: the Sessions view's plain call, or the Resume command's signed-in one.
 */
export async function listedSessions(rt: Pick<AgentRuntime, 'paths'>, folder: string | undefined, list: (params: acp.ListSessionsRequest) => Promise<Partial<acp.ListSessionsResponse> | null | undefined>): Promise<ListedSession[]> {
  const cwd = folder !== undefined && rt.paths ? rt.paths.toRemote(folder) : folder;
  if (folder !== undefined && cwd === undefined) return [];
  const here = (p: string) => (rt.paths ? (rt.paths.toLocal(p) ?? folder ?? p) : p);
  const out: ListedSession[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const r = await list({ ...(cwd !== undefined ? { cwd } : {}), ...(cursor ? { cursor } : {}) });
    for (const x of Array.isArray(r?.sessions) ? r.sessions : []) {
      if (typeof x?.sessionId !== 'string') continue;
      const at = typeof x.cwd === 'string' ? here(x.cwd) : folder;
      if (at !== undefined) out.push({ ...x, cwd: at });
    }
    cursor = typeof r?.nextCursor === 'string' && r.nextCursor ? r.nextCursor : undefined;
    if (!cursor) break;
  }
  return out;
}

export interface SessionSyncDeps {
  readonly agents: Pick<AgentManager, 'runtime' | 'ensureRunning' | 'find' | 'status'>;
  readonly index: Pick<SessionIndex, 'mergeListed' | 'pendingDeletes' | 'deleteSettled'>;
  /** The workspace folders sessions are listed for. */
  folders(): readonly string[];
  /** Where an agent started to delete sessions works (the first folder). */
  defaultCwd(): string | undefined;
  warn(message: string): void;
}

export class SessionSync {
  /** Per agent, the session/delete flush under way (see flushDeletes). */
  private readonly deleting = new Map<string, Promise<void>>();
  private readonly lastStatus = new Map<string, string>();

  constructor(private readonly deps: SessionSyncDeps) {}

  /** Sessions an agent lists (started elsewhere too), merged into the index. */
  async listInto(agent: AgentDefinition): Promise<void> {
    const rt = this.deps.agents.runtime(agent.id);
    if (!rt?.capabilities.canList()) return;
    for (const folder of this.deps.folders()) this.deps.index.mergeListed(agent.id, await listedSessions(rt, folder, (p) => rt.connection.listSessions(p)));
  }

  /**
   * Asks the agent to delete the sessions deleted here (`session/delete`),
   * starting it when `start` and it is not running. Where it cannot delete, the
   * request is settled: the tombstone alone keeps the session hidden.
   */
  flushDeletes(agent: AgentDefinition, opts: { start?: boolean } = {}): Promise<void> {
    // One at a time per agent (a start also flushes): each session/delete is sent once.
    const next = (this.deleting.get(agent.id) ?? Promise.resolve()).then(() => this.flushDeletesNow(agent, opts));
    this.deleting.set(agent.id, next.catch(() => undefined));
    return next;
  }

  /** An agent's status changed: each time it (re)starts, the deletes it missed, then the sessions it lists. */
  statusChanged(agentId: string): void {
    const agent = this.deps.agents.find(agentId);
    const status = this.deps.agents.status(agentId);
    const was = this.lastStatus.get(agentId);
    this.lastStatus.set(agentId, status);
    if (agent && status === 'running' && was === 'starting') {
      void this.flushDeletes(agent)
        .then(() => this.listInto(agent))
        .then(undefined, (err: unknown) => this.deps.warn(`session/list of ${agent.name} failed: ${String(err)}`));
    }
  }

  private async flushDeletesNow(agent: AgentDefinition, opts: { start?: boolean }): Promise<void> {
    const index = this.deps.index;
    const pending = index.pendingDeletes(agent.id);
    if (pending.length === 0) return;
    let rt = this.deps.agents.runtime(agent.id);
    if (!rt && opts.start) {
      try {
        rt = await this.deps.agents.ensureRunning(agent, this.deps.defaultCwd());
      } catch (err) {
        this.deps.warn(`session/delete waits for ${agent.name} to start: ${String((err as Error)?.message ?? err)}`);
        return;
      }
    }
    if (!rt) return;
    for (const sessionId of pending) {
      if (rt.capabilities.canDelete()) {
        try {
          await rt.connection.deleteSession(sessionId);
        } catch (err) {
          // An answer (even an error: unknown session) settles it; a lost connection leaves it for the next start.
          if (rt.connection.isClosed) return;
          this.deps.warn(`session/delete of ${sessionId} failed: ${String((err as Error)?.message ?? err)}`);
        }
      }
      index.deleteSettled(agent.id, sessionId);
    }
  }
}
