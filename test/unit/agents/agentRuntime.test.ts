// The agent runtime against real processes (the fake agent), in plain Node.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentRuntime, AgentStartError } from '../../../src/agents/agentRuntime';
import { isAlive } from '../../support/processes';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const FAKE = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');


const started: AgentRuntime[] = [];

function runtime(scenario: string, opts: { timeoutMs?: number; command?: string; shutdown?: { termAfterMs: number; killAfterMs: number }; protocolVersion?: 1 | 2 } = {}) {
  const logs: string[] = [];
  const rt = new AgentRuntime({
    name: `fake ${scenario}`,
    spec: { command: opts.command ?? process.execPath, args: [FAKE, scenario], cwd: ROOT, env: { ...process.env } },
    clientInfo: { name: 'test', version: '0' },
    logger: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
    initializeTimeoutMs: opts.timeoutMs ?? 5000,
    shutdown: opts.shutdown ?? { termAfterMs: 300, killAfterMs: 500 },
    protocolVersion: opts.protocolVersion,
  });
  started.push(rt);
  return { rt, logs };
}

describe('AgentRuntime (real processes)', function () {
  this.timeout(15_000);
  afterEach(async () => {
    await Promise.all(started.splice(0).map((rt) => rt.stop()));
  });

  it('starts, initializes and stops a well-behaved agent', async () => {
    const { rt } = runtime('default');
    const init = await rt.start();
    assert.equal(init.protocolVersion, 1);
    const pid = rt.pid;
    assert.ok(isAlive(pid));
    const exit = await rt.stop();
    assert.equal(exit.requested, true);
    assert.equal(isAlive(pid), false);
  });

  it('ACP v2: an agent that speaks it settles v2; a state_update for a session not open here is logged; a v1-only agent is a protocol-version error', async () => {
    const { rt, logs } = runtime('v2-turn', { protocolVersion: 2 });
    const init = await rt.start();
    assert.equal(init.protocolVersion, 2);
    assert.equal(rt.protocolVersion, 2);
    assert.deepEqual(init.agentInfo, { name: 'fake-v2', title: 'Fake v2 Agent', version: '2.0.0' });
    assert.deepEqual(await rt.connection.prompt({ sessionId: 'not-open', prompt: [{ type: 'text', text: 'hi' }] }), { stopReason: 'end_turn' });
    assert.ok(logs.some((l) => /state_update \(running\) for session not-open, which is not open here/.test(l)), logs.join('\n'));
    const { rt: old } = runtime('default', { protocolVersion: 2 });
    await assert.rejects(old.start(), (e: unknown) => e instanceof AgentStartError && e.reason === 'protocol-version');
  });

  it('crash during initialize: says so in words, with the exit code and the last stderr lines', async () => {
    const { rt } = runtime('crash-initialize');
    await assert.rejects(rt.start(), (e: unknown) => {
      assert.ok(e instanceof AgentStartError);
      assert.equal(e.reason, 'exited');
      assert.match(e.message, /exited with code 3/);
      assert.match(e.message, /panic: invalid token/);
      return true;
    });
    assert.equal(isAlive(rt.pid), false);
  });

  it('hang in initialize: times out with a clear message and kills the process', async () => {
    const { rt } = runtime('hang-initialize', { timeoutMs: 400 });
    await assert.rejects(rt.start(), (e: unknown) => e instanceof AgentStartError && e.reason === 'timeout' && /within 0 s|within 1 s|did not answer/.test((e as Error).message));
    assert.equal(isAlive(rt.pid), false);
  });

  it('wrong protocol version: a clear error and no process left', async () => {
    const { rt } = runtime('wrong-version');
    await assert.rejects(rt.start(), (e: unknown) => e instanceof AgentStartError && e.reason === 'protocol-version' && /version 2/.test((e as Error).message));
    assert.equal(isAlive(rt.pid), false);
  });

  it('a program that does not exist: "not found"', async () => {
    const { rt } = runtime('default', { command: '/nonexistent/agent-binary' });
    await assert.rejects(rt.start(), (e: unknown) => e instanceof AgentStartError && e.reason === 'not-found' && /not found/.test((e as Error).message));
  });

  it('cancelling the start stops the agent', async () => {
    const { rt } = runtime('hang-initialize', { timeoutMs: 10_000 });
    let fire: () => void = () => {};
    const signal = {
      isCancellationRequested: false,
      onCancellationRequested: (l: () => void) => {
        fire = l;
        return { dispose() {} };
      },
    };
    const started = rt.start(signal);
    setTimeout(() => fire(), 200);
    await assert.rejects(started, (e: unknown) => e instanceof AgentStartError && e.reason === 'cancelled');
    assert.equal(isAlive(rt.pid), false);
  });

  it('garbage on stdout is skipped and the agent still works', async () => {
    const { rt, logs } = runtime('garbage');
    await rt.start();
    const s = await rt.connection.newSession({ cwd: ROOT, mcpServers: [] });
    const r = await rt.connection.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    assert.equal(r.stopReason, 'end_turn');
    assert.ok(logs.filter((l) => /Skipped a line/.test(l)).length >= 4, logs.join('\n'));
    await rt.stop();
  });

  it('an agent that ignores stdin EOF is terminated (SIGTERM) — gone by pid', async () => {
    const { rt } = runtime('ignore-eof');
    await rt.start();
    const pid = rt.pid;
    const exit = await rt.stop();
    assert.equal(exit.signal, 'SIGTERM');
    assert.equal(isAlive(pid), false);
  });

  it('an agent that also ignores SIGTERM is killed (SIGKILL of its group)', async () => {
    const { rt } = runtime('stubborn');
    await rt.start();
    const pid = rt.pid;
    const exit = await rt.stop();
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(isAlive(pid), false);
  });

  it('exit in the middle of a prompt: the prompt fails, the exit is known', async () => {
    const { rt } = runtime('exit-mid-prompt');
    await rt.start();
    const s = await rt.connection.newSession({ cwd: ROOT, mcpServers: [] });
    await assert.rejects(rt.connection.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'hi' }] }), /stopped before it answered session\/prompt/);
    const exit = await rt.process.exited;
    assert.equal(exit.code, 1);
    assert.ok(rt.process.stderrTail().some((l) => /model connection reset/.test(l)));
  });

  it('an agent that closes its output and lingers is stopped, not as asked (a crash); a session open on it is remembered', async () => {
    const { rt, logs } = runtime('close-stdout-late');
    await rt.start();
    const s = await rt.connection.newSession({ cwd: ROOT, mcpServers: [] });
    rt.sessions.register(s.sessionId, { onUpdate: () => undefined } as never);
    await assert.rejects(rt.connection.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'hi' }] }));
    assert.equal(rt.inUseWhenLost, true);
    const exit = await rt.process.exited;
    assert.equal(exit.requested, false, 'its exit counts as a crash');
    // It ignores stdin EOF and would exit by itself (code 1) only 20 s later: this client's SIGTERM ended it.
    assert.deepEqual([exit.code, exit.signal], [null, 'SIGTERM'], 'stopped, not left to exit by itself');
    assert.equal(rt.outputClosedWithoutExit, true);
    assert.ok(logs.some((l) => /closed its output but did not exit/.test(l)));
  });

  it('an agent that dies while no session is open on it: not in use', async () => {
    const { rt } = runtime('exit-mid-prompt');
    await rt.start();
    const s = await rt.connection.newSession({ cwd: ROOT, mcpServers: [] });
    await assert.rejects(rt.connection.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'hi' }] }));
    await rt.process.exited;
    assert.equal(rt.inUseWhenLost, false);
  });

  it('craft/drainMidTurnQueue (Qwen Code) is declined on purpose: -32601 with the reason, logged once however often it is asked', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-declined-'));
    try {
      const scenario = path.join(dir, 'drain.json');
      const rec = path.join(dir, 'record.jsonl');
      const drain = { request: 'craft/drainMidTurnQueue', params: { sessionId: '${sessionId}', promptId: 'p1' } };
      fs.writeFileSync(scenario, JSON.stringify({ on: { 'session/prompt': [drain, drain, { respond: { stopReason: 'end_turn' } }] } }));
      const logs: string[] = [];
      const rt = new AgentRuntime({
        name: 'fake drain',
        spec: { command: process.execPath, args: [FAKE, scenario, '--record', rec], cwd: ROOT, env: { ...process.env } },
        clientInfo: { name: 'test', version: '0' },
        logger: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
        initializeTimeoutMs: 5000,
        shutdown: { termAfterMs: 300, killAfterMs: 500 },
      });
      started.push(rt);
      await rt.start();
      const s = await rt.connection.newSession({ cwd: ROOT, mcpServers: [] });
      const result = await rt.connection.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'hi' }] });
      assert.equal(result.stopReason, 'end_turn', 'the turn goes on after the answer');
      const lines = fs.readFileSync(rec, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const asked = new Set(lines.filter((l) => l.dir === 'out' && l.msg.method === 'craft/drainMidTurnQueue').map((l) => l.msg.id));
      const answers = lines.filter((l) => l.dir === 'in' && asked.has(l.msg.id)).map((l) => l.msg);
      assert.equal(answers.length, 2);
      for (const a of answers) {
        assert.equal(a.result, undefined);
        assert.equal(a.error.code, -32601);
        assert.equal(a.error.message, 'craft/drainMidTurnQueue is not offered by this client: queued messages wait for their own turn');
      }
      assert.equal(logs.filter((l) => l.includes('craft/drainMidTurnQueue')).length, 1, logs.join('\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
