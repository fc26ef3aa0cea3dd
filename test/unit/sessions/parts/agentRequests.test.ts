// The agent requests part: fs/* and terminal/* dispatched to the services with
// the session's folders; its terminals' output shown, others' not; terminals
// killed with the session; paths inside the folders only.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { decodeClientRequest, type ClientRequestMethod } from '../../../../src/acp/clientRequests';
import { ErrorCodes } from '../../../../src/acp/errors';
import type { AgentManager } from '../../../../src/agents/agentManager';
import { AgentRequests } from '../../../../src/sessions/parts/agentRequests';
import { Emitter } from '../../../../src/shared/events';
import { fakeCore } from './fakeCore';

function setup() {
  const seen: string[] = [];
  const recorded: string[] = [];
  const f = fakeCore({
    files: {
      read: async (ctx: { roots: readonly string[]; agentName: string }, req: { path: string }) => (seen.push(`read ${req.path} in ${ctx.roots.join()} for ${ctx.agentName}`), { content: 'x' }),
      write: async (_ctx: unknown, req: { path: string }, onBefore: (file: string, before: Buffer | null) => void) => (onBefore(req.path, null), {}),
      guard: async (_ctx: unknown, action: string, p: string) => (seen.push(`guard ${action} ${p}`), p),
      protectedGlob: () => undefined,
      askAccess: async () => undefined,
    },
  });
  const terminals = f.core.services.terminals as unknown as Record<string, unknown>;
  terminals.create = async (owner: string, label: string, cwd: string) => (seen.push(`create ${JSON.stringify(owner)} ${label} ${cwd}`), { terminalId: 't1' });
  terminals.waitForExit = () => new Promise(() => undefined);
  const status = new Emitter<string>();
  const manager = { onDidChangeStatus: status.event, status: () => 'stopped' } as unknown as AgentManager;
  const part = new AgentRequests(f.core, manager, { record: (file) => void recorded.push(file) });
  const request = (method: ClientRequestMethod, params: object) => part.handle(decodeClientRequest(method, { sessionId: 's1', ...params }).value);
  return { f, part, seen, recorded, status, request };
}

describe('sessions/parts: agent requests', () => {
  it('serves fs requests with the session\'s folders, and records what the agent writes', async () => {
    const { seen, recorded, request } = setup();
    assert.deepEqual(await request('fs/read_text_file', { path: '/ws/a.ts' }), { content: 'x' });
    await request('fs/write_text_file', { path: '/ws/b.ts', content: 'y' });
    assert.deepEqual(seen, ['read /ws/a.ts in /ws for Agent X']);
    assert.deepEqual(recorded, ['/ws/b.ts']);
  });

  it('a terminal is the session\'s: created in a checked folder, another\'s output not shown here, killed with the session', async () => {
    const { f, part, seen, status, request } = setup();
    await request('terminal/create', { command: 'ls' });
    assert.deepEqual(seen, ['guard run a command in /ws', 'create "agent-x\\u0000s1" Agent X /ws']);
    f.terminalEvents.fire({ terminalId: 'other', text: 'not mine', start: 0, truncated: false });
    assert.equal(f.emitted.length, 0, 'another session\'s terminal is not shown here');
    // The agent stopping (while attached) kills the terminals it made.
    f.state.runtime = {} as never;
    status.fire('agent-x');
    assert.deepEqual(f.calls, ['killAll agent-x\u0000s1']);
    part.dispose();
    assert.deepEqual(f.calls, ['killAll agent-x\u0000s1', 'killAll agent-x\u0000s1'], 'closing the panel kills them too');
  });

  it('a wait the agent cancels is answered -32800', async () => {
    const { part } = setup();
    const token = { isCancellationRequested: true, onCancellationRequested: () => ({ dispose: () => undefined }) };
    await assert.rejects(part.handle(decodeClientRequest('terminal/wait_for_exit', { sessionId: 's1', terminalId: 't1' }).value, token), (e: { code?: number }) => e.code === ErrorCodes.RequestCancelled);
  });

  it('paths for Follow: inside the folders only, never asking', () => {
    const { f, part } = setup();
    const tmp = os.tmpdir();
    f.state.roots = [tmp];
    assert.equal(part.pathInside('relative/x.ts'), undefined);
    assert.equal(part.pathInside('/definitely/elsewhere/x.ts'), undefined);
    assert.ok(part.pathInside(`${tmp}/x.ts`)?.endsWith('x.ts'));
  });
});
