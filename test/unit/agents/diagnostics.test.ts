// One agent's diagnostics gathered from a real process (the fake agent), in plain Node.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { clientCapabilities } from '../../../src/sessions/clientMethods';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import { AgentRuntime } from '../../../src/agents/agentRuntime';
import { agentDiagnostics } from '../../../src/agents/diagnostics';
import { GEMINI_TRUST_ENV, launchEnvQuirks } from '../../../src/agents/quirks';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const FAKE = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');
const started: AgentRuntime[] = [];

function runtime(scenario: string, env: Record<string, string> = {}, launchNotes?: string[]): AgentRuntime {
  const rt = new AgentRuntime({
    name: scenario,
    spec: { command: process.execPath, args: [FAKE, scenario], cwd: ROOT, env: { ...process.env, ...env }, ...(launchNotes ? { launchNotes } : {}) },
    clientInfo: { name: 'test', version: '0' },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    initializeTimeoutMs: 5000,
    shutdown: { termAfterMs: 300, killAfterMs: 500 },
  });
  started.push(rt);
  return rt;
}

const gemini = (env: Record<string, string> = {}): AgentDefinition => ({ id: 'gem', name: 'Gemini', command: 'gemini', args: ['--acp'], env, source: 'settings' });
const opts = { clientCapabilities: clientCapabilities(), stderrLines: 20 };

describe('agents: one agent’s diagnostics', function () {
  this.timeout(15_000);
  afterEach(async () => {
    await Promise.all(started.splice(0).map((rt) => rt.stop()));
  });

  it('gathers agentInfo, capabilities next to their methods, the methods exercised and stderr from the running agent', async () => {
    const rt = runtime('diagnostics');
    await rt.start();
    await rt.connection.listSessions({});
    const stderrSeen = async () => {
      for (let i = 0; i < 100 && rt.process.stderrTail().length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    };
    await stderrSeen();
    const d = agentDiagnostics({ id: 'd', name: 'D', command: 'node', args: [], env: {}, source: 'settings' }, 'running', rt, opts);
    assert.equal(d.agentInfo?.version, '1.2.3');
    assert.equal(d.protocolVersion, 1);
    assert.equal(d.pid, rt.pid);
    assert.deepEqual(d.capabilityUse.find((c) => c.capability === 'sessionCapabilities.list'), { side: 'agent', capability: 'sessionCapabilities.list', declared: true, methods: ['session/list'] });
    assert.equal(d.capabilityUse.find((c) => c.capability === 'loadSession')?.declared, false);
    assert.deepEqual(d.methods.out.map((m) => [m.method, m.requests, m.ok]), [['initialize', 1, 1], ['session/list', 1, 1]]);
    assert.ok(d.stderr.some((l) => l.includes('OPENAI_API_KEY=')), 'raw here: redacted when written');
    assert.deepEqual(d.quirks, []);
    await rt.stop();
    const after = agentDiagnostics({ id: 'd', name: 'D', command: 'node', args: [], env: {}, source: 'settings' }, 'stopped', rt, opts);
    assert.equal(after.pid, undefined);
    assert.match(after.exit ?? '', /stopped by the client/);
    assert.ok(after.stderr.length >= 3, 'the stderr of an agent that exited is kept');
  });

  it('says what the launch quirks did, as the launch recorded it (set by us, or left as the user set it)', async () => {
    const info = { id: 'gemini', source: 'settings' as const, command: 'gemini', args: ['--experimental-acp'] };
    const ours = launchEnvQuirks(info, {}, { trusted: true, allowed: true });
    assert.deepEqual(ours.env, { [GEMINI_TRUST_ENV]: 'true' });
    const set = runtime('default', ours.env, ours.notes);
    await set.start();
    assert.deepEqual(agentDiagnostics(gemini(), 'running', set, opts).launchNotes, [
      `compatibility: gemini-cli: ${GEMINI_TRUST_ENV}=true (the VS Code workspace is trusted and acpAgents.passWorkspaceTrust allows it; without it gemini-cli starts no MCP servers)`,
    ]);
    const theirs = launchEnvQuirks(info, { [GEMINI_TRUST_ENV]: 'false' }, { trusted: true, allowed: true });
    const own = runtime('default', { [GEMINI_TRUST_ENV]: 'false' }, theirs.notes);
    await own.start();
    assert.match(agentDiagnostics(gemini({ [GEMINI_TRUST_ENV]: 'false' }), 'running', own, opts).launchNotes[0] ?? '', /is already set \(false\)/);
    const none = runtime('default');
    await none.start();
    assert.deepEqual(agentDiagnostics(gemini(), 'running', none, opts).launchNotes, [], 'no notes recorded, none shown');
  });
});
