/**
 * Opening a session, one sequence for every way: `new`, `load` (the agent
 * replays it), `resume` (no replay: the local archive shows the history) and
 * `archive` (the local copy alone, read-only) — and which of them a past
 * session gets from what the agent supports. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { AgentCapabilityView } from '../acp/capabilities';
import { AgentError, ConnectionClosedError, errorText } from '../acp/errors';
import { describeExit } from '../agents/agentProcess';
import type { AgentRuntime } from '../agents/agentRuntime';
import type { SessionPhase } from './sessionState';

export type OpenMode =
  | { readonly kind: 'new' }
  | { readonly kind: 'load'; readonly sessionId: string }
  | { readonly kind: 'resume'; readonly sessionId: string }
  /** `session/fork` of another session: a new id, the agent keeps the history. */
  | { readonly kind: 'fork'; readonly fromSessionId: string; readonly meta?: Record<string, unknown> };

export type SessionParams = {
  cwd: string;
  mcpServers: acp.McpServer[];
  additionalDirectories?: string[];
  /** Schema 1.30+ (not in the SDK's stable types yet). */
  systemPrompt?: { mode: 'append'; content: { type: 'text'; text: string }[] };
};
type Opened = { sessionId: string; modes?: unknown; configOptions?: unknown; replayCut?: true };

/** How each mode runs: the phase it shows, whether the session is attached before the call (updates arrive during it), the call. */
interface ModeSpec {
  readonly phase: SessionPhase;
  readonly attachFirst: boolean;
  readonly supported: (caps: AgentCapabilityView) => boolean;
  /** Why the agent cannot (`agentName` in it), when `supported` is false. */
  readonly missing: (agentName: string) => string;
  readonly call: (rt: AgentRuntime, params: SessionParams) => Promise<Opened>;
}

function spec(mode: OpenMode, token: CancellationToken | undefined): ModeSpec {
  switch (mode.kind) {
    case 'new':
      return { phase: { kind: 'starting' }, attachFirst: false, supported: () => true, missing: () => '', call: async (rt, p) => await rt.connection.newSession(p, token) };
    case 'load':
      return {
        phase: { kind: 'loading' },
        attachFirst: true,
        supported: (c) => c.canLoad(),
        missing: (name) => l10n.t('{0} cannot load past sessions (it does not advertise loadSession).', name),
        call: async (rt, p) => {
          const r = await rt.connection.loadSession({ sessionId: mode.sessionId, ...p }, token);
          // The replay is history: all of it is shown before the session counts as open.
          await rt.connection.drainSession(mode.sessionId);
          // v2: answered before its replay said it was whole (replay_complete): shown where the history ends.
          return { ...(r ?? {}), sessionId: mode.sessionId, ...(rt.connection.replayCut(mode.sessionId) ? { replayCut: true as const } : {}) };
        },
      };
    case 'fork':
      return {
        phase: { kind: 'starting' },
        attachFirst: false,
        supported: (c) => c.canFork(),
        missing: (name) => l10n.t('{0} cannot fork sessions (it does not advertise sessionCapabilities.fork).', name),
        call: async (rt, p) => {
          const r = await rt.connection.forkSession({ sessionId: mode.fromSessionId, ...p, ...(mode.meta ? { _meta: mode.meta } : {}) }, token);
          if (typeof r?.sessionId !== 'string' || r.sessionId === '') throw new Error(l10n.t('The agent answered session/fork without a session id.'));
          return r;
        },
      };
    case 'resume':
      return {
        phase: { kind: 'resuming' },
        attachFirst: true,
        supported: (c) => c.canResume(),
        missing: (name) => l10n.t('{0} cannot resume past sessions (it does not advertise sessionCapabilities.resume).', name),
        call: async (rt, p) => ({ ...((await rt.connection.resumeSession({ sessionId: mode.sessionId, ...p }, token)) ?? {}), sessionId: mode.sessionId }),
      };
  }
}

/** The notice where a v2 replay that did not say it was whole ends: its severity, title, and what it means. */
export function replayCutNotice(agentName: string): ['warning', string, string] {
  return [
    'warning',
    l10n.t('The history may end here.'),
    l10n.t('{0} answered without saying its replay of this session was whole (ACP v2 replay_complete): what is above may stop short of the session\u2019s end. The session is open and goes on from the agent\u2019s own state.', agentName),
  ];
}

/** What opening needs from its session. */
export interface OpenHost {
  readonly agentName: string;
  /** Cancelled when the user gives up (the panel closed): the call in flight is withdrawn with $/cancel_request. */
  readonly abandon?: CancellationToken;
  setPhase(phase: SessionPhase): void;
  /** Runs `fn` on the running agent, signing in and retrying once when it asks for that. */
  withAuth<T>(fn: (rt: AgentRuntime) => Promise<T>): Promise<T>;
  sessionParams(rt: AgentRuntime): Promise<SessionParams>;
  /** A fresh transcript (a load must not mix with what was shown before). */
  resetTranscript(): void;
  attach(rt: AgentRuntime, sessionId: string): void;
  detach(): void;
  /** The session exists now: remember it, show its modes and options. */
  opened(rt: AgentRuntime, r: Opened): void;
  /** Words for a failure (how the agent exited, if it did). */
  explain(err: unknown, rt: AgentRuntime | undefined): Promise<string>;
  needsSignIn(): boolean;
}

export type OpenResult = 'opened' | 'not-found' | 'failed';

/** An open given up on (its panel closed): no phase is shown, nothing is kept. */
class Abandoned extends Error {}

/** Per agent process: the open (load or resume) of each session id in flight. */
const opening = new WeakMap<AgentRuntime, Map<string, Promise<void>>>();

/** The longest a new open waits for an earlier one of the same session (an agent that never answers it). */
const SETTLE_MS = 10_000;

/** Resolves when `p` settles, or after `ms`, whichever comes first; never rejects. */
async function within(ms: number, p: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p.then(undefined, () => undefined), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/**
 * Runs an open of `sessionId` once an earlier open of it on the same agent process has settled (a
 * panel closed during a load, and the session opened again at once: the new load must not overtake
 * the old one, nor the close that follows it), or SETTLE_MS have passed (an agent that never answers).
 */
async function oneAtATime<T>(rt: AgentRuntime, sessionId: string, fn: () => Promise<T>): Promise<T> {
  let byId = opening.get(rt);
  if (!byId) opening.set(rt, (byId = new Map()));
  const before = byId.get(sessionId);
  const run = (async () => {
    if (before) await within(SETTLE_MS, before);
    return await fn();
  })();
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  byId.set(sessionId, settled);
  try {
    return await run;
  } finally {
    if (byId.get(sessionId) === settled) byId.delete(sessionId);
  }
}

/** Opens a session in `mode`; the session's phase tells the user how it went. */
export async function openSession(host: OpenHost, mode: OpenMode): Promise<OpenResult> {
  const s = spec(mode, host.abandon);
  host.setPhase(s.phase);
  let attempted: AgentRuntime | undefined;
  try {
    const { rt, r } = await host.withAuth(async (rt) => {
      attempted = rt;
      if (!s.supported(rt.capabilities)) throw new Error(s.missing(host.agentName));
      const call = async () => {
        // Only now (an earlier open of this session has settled): what that one still replays is not shown here.
        if (mode.kind === 'load') host.resetTranscript();
        if (s.attachFirst && (mode.kind === 'load' || mode.kind === 'resume')) host.attach(rt, mode.sessionId);
        const params = await host.sessionParams(rt);
        // The panel closed while the parameters were made: nothing is sent (a request sent with its
        // cancellation right behind it is one the agent may carry out anyway).
        if (host.abandon?.isCancellationRequested) throw new Abandoned();
        const r = await s.call(rt, params);
        // Carried out though withdrawn: the agent has the session loaded, and is told to let it go
        // before the next open of it (copilot 1.0.102 refuses a session/load of a loaded session).
        if (host.abandon?.isCancellationRequested) {
          if (mode.kind !== 'new' && rt.capabilities.canClose() && !rt.connection.isClosed) await within(SETTLE_MS, rt.connection.closeSession(r.sessionId));
          throw new Abandoned();
        }
        return r;
      };
      const r = mode.kind === 'load' || mode.kind === 'resume' ? await oneAtATime(rt, mode.sessionId, call) : await call();
      return { rt, r };
    });
    if (!s.attachFirst) host.attach(rt, r.sessionId);
    host.opened(rt, r);
    host.setPhase({ kind: 'ready', text: connectedText(rt, host.agentName) });
    return 'opened';
  } catch (err) {
    if (s.attachFirst) host.detach();
    // Nobody is looking: the session was disposed with its panel.
    if (err instanceof Abandoned) return 'failed';
    if ((mode.kind === 'load' || mode.kind === 'resume') && err instanceof AgentError && err.isNotFound) {
      host.setPhase(mode.kind === 'load' ? { kind: 'notFound' } : { kind: 'readOnly', text: l10n.t('This session no longer exists on the agent. The archive above is read-only.'), error: true });
      return 'not-found';
    }
    host.setPhase({ kind: 'failed', text: await host.explain(err, attempted), needsAuth: host.needsSignIn() });
    return 'failed';
  }
}

/** How a past session is opened, from what the agent supports. */
export function pastSessionMode(caps: AgentCapabilityView): 'load' | 'resume' | 'archive' {
  return caps.canLoad() ? 'load' : caps.canResume() ? 'resume' : 'archive';
}

/** "Connected to <title> <version>." */
export function connectedText(rt: AgentRuntime, agentName: string): string {
  const info = rt.initializeResult?.agentInfo;
  const name = info?.title ?? info?.name ?? agentName;
  return info?.version ? l10n.t('Connected to {0} {1}.', name, info.version) : l10n.t('Connected to {0}.', name);
}

/**
 * Words for a failed call. When the agent closed its output, it is exiting:
 * wait for that and tell how it ended (code, signal, last stderr lines).
 */
export async function explainFailure(err: unknown, rt: AgentRuntime | undefined, agentName: string): Promise<string> {
  if (err instanceof ConnectionClosedError && rt) {
    const exit = rt.process.exit ?? (await Promise.race([rt.process.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000))]));
    if (exit) return describeExit(agentName, exit, rt.process.stderrTail());
  }
  return errorText(err);
}
