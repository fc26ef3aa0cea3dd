// SessionSync in plain Node: the index kept in step with what an agent lists and
// what was deleted here — a real SessionIndex, stub runtimes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentCapabilityView } from '../../../src/acp/capabilities';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import type { AgentRuntime } from '../../../src/agents/agentRuntime';
import { PathMap } from '../../../src/agents/pathMap';
import { SessionIndex } from '../../../src/sessions/store/sessionIndex';
import { listedSessions, SessionSync, type SessionSyncDeps } from '../../../src/sessions/store/sessionSync';

const agent: AgentDefinition = { id: 'a', name: 'Agent A', command: 'a', args: [], env: {}, source: 'settings' };

function stubRuntime(session: object, connection: Record<string, unknown>): AgentRuntime {
  return { capabilities: new AgentCapabilityView({ sessionCapabilities: session } as any), connection: { isClosed: false, ...connection } } as unknown as AgentRuntime;
}

function setup(opts: { rt?: AgentRuntime; start?: () => Promise<AgentRuntime>; folders?: string[]; status?: () => string }) {
  const index = new SessionIndex(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-sync-')), 'sessions.json'));
  const warnings: string[] = [];
  let rt = opts.rt;
  const deps: SessionSyncDeps = {
    agents: {
      runtime: () => rt,
      ensureRunning: async () => (rt = await (opts.start ?? (() => Promise.reject(new Error('cannot start'))))()),
      find: (id: string) => (id === agent.id ? agent : undefined),
      status: () => (opts.status?.() ?? 'running') as any,
    },
    index,
    folders: () => opts.folders ?? ['/w'],
    defaultCwd: () => '/w',
    warn: (m) => warnings.push(m),
  };
  return { sync: new SessionSync(deps), index, warnings };
}

describe('SessionSync', () => {
  it('merges every page an agent lists, per folder, with the folder as the cwd it did not name', async () => {
    const asked: unknown[] = [];
    const pages: Record<string, { sessions: object[]; nextCursor?: string }> = {
      '/w|': { sessions: [{ sessionId: 's1', title: 'One' }, { title: 'no id' }], nextCursor: 'p2' },
      '/w|p2': { sessions: [{ sessionId: 's2', cwd: '/elsewhere' }] },
      '/v|': { sessions: [{ sessionId: 's3' }] },
    };
    const rt = stubRuntime({ list: {} }, { listSessions: async (p: { cwd: string; cursor?: string }) => (asked.push(p), pages[`${p.cwd}|${p.cursor ?? ''}`]) });
    const { sync, index } = setup({ rt, folders: ['/w', '/v'] });
    await sync.listInto(agent);
    assert.deepEqual(asked, [{ cwd: '/w' }, { cwd: '/w', cursor: 'p2' }, { cwd: '/v' }]);
    const got = index.forAgent('a').map((e) => [e.sessionId, e.cwd]).sort();
    assert.deepEqual(got, [['s1', '/w'], ['s2', '/elsewhere'], ['s3', '/v']]);
  });

  it('an agent by URL with a pathMap is asked about each folder as it names it, its cwds mapped back; a folder it does not map is not asked about', async () => {
    const asked: unknown[] = [];
    const rt = stubRuntime({ list: {} }, { listSessions: async (p: { cwd: string }) => (asked.push(p), { sessions: [{ sessionId: 'r1', cwd: '/srv/co/sub' }, { sessionId: 'r2', cwd: '/elsewhere' }, { sessionId: 'r3' }] }) });
    Object.assign(rt, { paths: new PathMap([{ remote: '/srv/co', local: '/w' }]) });
    const { sync, index } = setup({ rt, folders: ['/w', '/v'] });
    await sync.listInto(agent);
    assert.deepEqual(asked, [{ cwd: '/srv/co' }]);
    assert.deepEqual(index.forAgent('a').map((e) => [e.sessionId, e.cwd]).sort(), [['r1', path.join('/w', 'sub')], ['r2', '/w'], ['r3', '/w']]);
  });

  it('listedSessions, which the Resume command shares: no folder asks for all (cwds mapped back where they can be); a folder the pathMap does not map is not asked about', async () => {
    const asked: unknown[] = [];
    const list = async (p: object) => (asked.push(p), { sessions: [{ sessionId: 'r1', cwd: '/srv/co/sub' }, { sessionId: 'r2', cwd: '/elsewhere' }, { sessionId: 'r3' }, { title: 'no id' }] } as any);
    const paths = new PathMap([{ remote: '/srv/co', local: '/w' }]);
    assert.deepEqual(
      (await listedSessions({ paths }, undefined, list)).map((x) => [x.sessionId, x.cwd]),
      [['r1', path.join('/w', 'sub')], ['r2', '/elsewhere']],
      'no folder: the cwds it maps are mapped, the others kept; one with no cwd has no folder to be in',
    );
    assert.deepEqual(asked, [{}]);
    assert.deepEqual(await listedSessions({ paths }, '/v', list), [], 'not mapped: not asked');
    assert.equal(asked.length, 1);
    // A local agent: its own cwds, and the folder's for one it did not name.
    assert.deepEqual((await listedSessions({ paths: undefined }, '/w', list)).map((x) => [x.sessionId, x.cwd]), [['r1', '/srv/co/sub'], ['r2', '/elsewhere'], ['r3', '/w']]);
  });

  it('lists nothing from an agent that cannot list', async () => {
    const rt = stubRuntime({}, { listSessions: async () => assert.fail('not asked') });
    const { sync, index } = setup({ rt });
    await sync.listInto(agent);
    assert.deepEqual(index.forAgent('a'), []);
  });

  it('sends each pending session/delete once, even when two flushes overlap, and settles it', async () => {
    const deleted: string[] = [];
    const rt = stubRuntime({ delete: {} }, { deleteSession: async (id: string) => void deleted.push(id) });
    const { sync, index } = setup({ rt });
    index.remove('a', 's1', { agentPending: true });
    index.remove('a', 's2', { agentPending: true });
    await Promise.all([sync.flushDeletes(agent), sync.flushDeletes(agent)]);
    assert.deepEqual(deleted, ['s1', 's2']);
    assert.deepEqual(index.pendingDeletes('a'), []);
  });

  it('settles without asking an agent that cannot delete; keeps it pending when the connection is lost', async () => {
    let asked = 0;
    const cannot = setup({ rt: stubRuntime({}, { deleteSession: async () => void asked++ }) });
    cannot.index.remove('a', 's1', { agentPending: true });
    await cannot.sync.flushDeletes(agent);
    assert.deepEqual(cannot.index.pendingDeletes('a'), []);
    assert.equal(asked, 0, 'not asked');
    assert.deepEqual(cannot.warnings, []);

    const lost = setup({ rt: stubRuntime({ delete: {} }, { isClosed: true, deleteSession: async () => Promise.reject(new Error('closed')) }) });
    lost.index.remove('a', 's1', { agentPending: true });
    await lost.sync.flushDeletes(agent);
    assert.deepEqual(lost.index.pendingDeletes('a'), ['s1'], 'left for the next start');
  });

  it('starts the agent for a delete only when asked to, and says so when it cannot start', async () => {
    const deleted: string[] = [];
    const started = setup({ start: async () => stubRuntime({ delete: {} }, { deleteSession: async (id: string) => void deleted.push(id) }) });
    started.index.remove('a', 's1', { agentPending: true });
    await started.sync.flushDeletes(agent);
    assert.deepEqual(deleted, [], 'not started without start');
    await started.sync.flushDeletes(agent, { start: true });
    assert.deepEqual(deleted, ['s1']);

    const broken = setup({});
    broken.index.remove('a', 's1', { agentPending: true });
    await broken.sync.flushDeletes(agent, { start: true });
    assert.deepEqual(broken.index.pendingDeletes('a'), ['s1']);
    assert.match(broken.warnings.join('\n'), /session\/delete waits for Agent A to start: cannot start/);
  });

  it('on each start (starting → running): the missed deletes, then the sessions it lists', async () => {
    const calls: string[] = [];
    let status = 'starting';
    let listed!: () => void;
    const done = new Promise<void>((resolve) => (listed = resolve));
    const rt = stubRuntime({ delete: {}, list: {} }, {
      deleteSession: async (id: string) => void calls.push(`delete ${id}`),
      listSessions: async () => (calls.push('list'), listed(), { sessions: [] }),
    });
    const { sync, index } = setup({ rt, status: () => status });
    index.remove('a', 's1', { agentPending: true });
    sync.statusChanged('a');
    status = 'running';
    sync.statusChanged('a');
    await done;
    assert.deepEqual(calls, ['delete s1', 'list']);
    sync.statusChanged('a');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(calls, ['delete s1', 'list'], 'running → running is no new start');
  });
});
