// A plain SessionCore for the parts' unit tests: a real Transcript, stub
// services that record what they were asked, and the session's state as
// fields a test sets.
import { diskIo } from '../../../../src/node/storeIo';
import type { AgentDefinition } from '../../../../src/agents/agentDefinition';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import type { SessionCore } from '../../../../src/sessions/sessionCore';
import type { SessionServices, TerminalDelta } from '../../../../src/sessions/ports';
import type { SessionPhase } from '../../../../src/sessions/sessionState';
import { Transcript, type Change } from '../../../../src/sessions/transcript';
import { Emitter } from '../../../../src/shared/events';

export interface FakeCore {
  core: SessionCore;
  transcript: Transcript;
  emitted: Change[];
  logs: string[];
  /** What the archive was given: [sessionId, line]. */
  archived: [string, unknown][];
  titles: [string, string | undefined][];
  /** Calls on the stub services, as text. */
  calls: string[];
  terminalEvents: Emitter<TerminalDelta>;
  state: { runtime: AgentRuntime | undefined; sessionId: string | undefined; phase: SessionPhase; busy: boolean; roots: string[] };
}

export function fakeCore(services: Record<string, unknown> = {}): FakeCore {
  const f = {
    transcript: new Transcript(),
    emitted: [] as Change[],
    logs: [] as string[],
    archived: [] as [string, unknown][],
    titles: [] as [string, string | undefined][],
    calls: [] as string[],
    terminalEvents: new Emitter<TerminalDelta>(),
    state: { runtime: undefined as AgentRuntime | undefined, sessionId: 's1' as string | undefined, phase: { kind: 'ready', text: '' } as SessionPhase, busy: false, roots: ['/ws'] },
  };
  const stub = {
    archive: {
      append: (_agent: string, sid: string, line: unknown) => void f.archived.push([sid, line]),
      appendLater: (_agent: string, sid: string, line: unknown) => void f.archived.push([sid, line]),
      has: () => false,
      sidecarFile: (_agent: string, sid: string, kind: string) => `/store/${sid}.${kind}.json`,
      io: diskIo,
      flush: async () => undefined,
    },
    fileTouches: { record: (t: { sessionId: string; turnId: string; files: readonly string[] }) => void f.calls.push(`touched ${t.sessionId} ${t.turnId} ${t.files.join(',')}`) },
    index: {
      setTitle: (_agent: string, sid: string, title: string | undefined) => void f.titles.push([sid, title]),
      touch: (_agent: string, sid: string, cwd: string) => void f.calls.push(`touch ${sid} ${cwd}`),
      setForkOf: (_agent: string, sid: string, from: { sessionId: string; message?: number }) => void f.calls.push(`forkOf ${sid} ${from.sessionId} ${from.message}`),
    },
    terminals: { onDidChange: f.terminalEvents.event, killAll: (owner: string) => void f.calls.push(`killAll ${owner}`), nameAfterToolCall: (id: string, title: string) => void f.calls.push(`name ${id} ${title}`) },
    files: { protectedGlob: () => undefined, protectedGlobs: () => [], askAccess: async () => undefined },
    readText: async () => undefined,
    currentBytes: () => null,
    ...services,
  };
  const core: SessionCore = {
    def: { id: 'agent-x', name: 'Agent X' } as AgentDefinition,
    services: stub as unknown as SessionServices,
    runtime: () => f.state.runtime,
    sessionId: () => f.state.sessionId,
    transcript: () => f.transcript,
    emit: (c) => void f.emitted.push(...c),
    phase: () => f.state.phase,
    setPhase: (p) => (f.state.phase = p),
    busy: () => f.state.busy,
    roots: () => f.state.roots,
    workingFolder: () => f.state.roots[0]!,
    log: (m) => void f.logs.push(m),
  };
  return { core, ...f };
}

/** Lets timers of 0 ms and pending promises run. */
export const tick = () => new Promise((r) => setTimeout(r, 5));
