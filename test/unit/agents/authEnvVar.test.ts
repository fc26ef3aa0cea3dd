// Sign-in with a legacy `env_var` method (codex-acp 0.16's): the values asked once, kept in secret
// storage, put in the agent's environment at every start — the next window's too — without asking
// again, and forgotten by Sign Out (the agent restarted without them, the next start asks again).
// Real AgentManager and AuthService, the fake agent as a real process (scenario auth-env: it answers
// -32000 until signed in with FAKE_KEY in its environment); secret storage and the editor's state
// are maps shared by the "windows", as VS Code's are.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EnvVarSpec } from '../../../src/acp/authMethods';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import { AgentManager } from '../../../src/agents/agentManager';
import type { AgentRuntime } from '../../../src/agents/agentRuntime';
import { AuthService, type AuthPrompter } from '../../../src/agents/auth';
import type { LogChannel } from '../../../src/agents/ports';
import { SecretValues } from '../../../src/agents/redact';
import { SignInStore } from '../../../src/agents/signInStore';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const FAKE = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');
const SCENARIOS = path.join(ROOT, 'test', 'fixtures', 'agents', 'scenarios');
// No well-known token shape: nothing but this test knows it is a secret.
const VALUE = 'plainvalue0123456789abcdefghij';
const SECRET_KEY = 'acpAgents.env/fake-env/FAKE_KEY';

describe('sign-in: env_var methods, values stored and forgotten', function () {
  this.timeout(30_000);
  let dir = '';
  const windows: AgentManager[] = [];

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-auth-env-')));
  });
  afterEach(async () => {
    for (const m of windows.splice(0)) {
      await m.stopAll();
      m.dispose();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The agent's scenario in the temp folder: auth-env as shipped, or (`atStart`) an agent that is
   * signed in by FAKE_KEY in the environment it starts with, as most env_var agents are.
   */
  function scenario(atStart: boolean): string {
    const s = JSON.parse(fs.readFileSync(path.join(SCENARIOS, 'auth-env.json'), 'utf8')) as { auth: Record<string, unknown> };
    if (atStart) s.auth.atStart = true;
    const file = path.join(dir, `auth-env${atStart ? '-at-start' : ''}.json`);
    fs.writeFileSync(file, JSON.stringify(s));
    return file;
  }

  /** What the editor keeps between windows: secret storage and global state. */
  function storage() {
    return { secrets: new Map<string, string>(), state: new Map<string, unknown>() };
  }

  /** One editor window: its own store, manager and sign-in over the shared `kept` storage. */
  function openWindow(kept: ReturnType<typeof storage>, scenarioFile: string, answers: (string | undefined)[]) {
    const lines: string[] = [];
    const log: LogChannel = { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(String(m)), show: () => undefined, dispose: () => undefined };
    const store = new SignInStore(
      { get: async (k) => kept.secrets.get(k), store: async (k, v) => void kept.secrets.set(k, v), delete: async (k) => void kept.secrets.delete(k) },
      { get: <T>(k: string, d: T) => (kept.state.has(k) ? (kept.state.get(k) as T) : d), update: async (k, v) => void kept.state.set(k, v) },
    );
    const record = path.join(dir, 'record.jsonl');
    const def: AgentDefinition = { id: 'fake-env', name: 'Fake Env', command: process.execPath, args: [FAKE, scenarioFile], env: { ACP_FAKE_RECORD: record }, source: 'settings' };
    const runDir = path.join(dir, 'run');
    fs.mkdirSync(runDir, { recursive: true });
    const shown: string[] = [];
    const manager = new AgentManager({
      // Verbose tracing: every message to and from the agent reaches the log lines checked below.
      config: { agents: () => ({ agents: [def], problems: [] }), trace: () => 'verbose', initializeTimeoutMs: () => 10_000 },
      log,
      messages: { show: async (_s, m) => (shown.push(m), undefined) },
      ui: {
        withProgress: (_title, task) => task({ isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) }),
        isTrusted: () => true,
        defaultFolder: () => dir,
        workspaceFolders: () => [dir],
        restartRequested: () => undefined,
      },
      extensionVersion: '0.0.0-test',
      // Unredacted: the lines as the agent layer writes them, before the output channel's redaction.
      logs: { channel: () => log, redactValue: (v) => v },
      secrets: new SecretValues(),
      runDir,
      storedEnv: (id) => store.storedEnv(id),
      installed: () => [],
      hasSessionsOn: () => false,
    });
    windows.push(manager);
    const asked: string[] = [];
    const prompter: AuthPrompter = {
      async pickMethod(_n, methods) {
        asked.push(`pick:${methods.map((m) => m.id).join(',')}`);
        return methods[0];
      },
      async askValue(_n, v: EnvVarSpec, hasStored) {
        asked.push(`value:${v.name}:${hasStored ? 'stored' : 'none'}`);
        return answers.shift();
      },
      async askApiKey() {
        throw new Error('not an api-key method');
      },
    };
    const auth = new AuthService(manager, store, { show: async (_s, m) => (shown.push(m), undefined) }, prompter, async () => 0);
    /** A session/new, signing in when the agent asks for it. */
    const newSession = () => auth.withAuth(def, dir, async (rt) => (await rt.connection.newSession({ cwd: dir, mcpServers: [] })).sessionId);
    /** The FAKE_KEY of each start the agent recorded (its own environment), in order. */
    const starts = () =>
      fs
        .readFileSync(record, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { dir: string; envNames?: string[] })
        .filter((e) => e.dir === 'start')
        .map((e) => e.envNames?.includes('FAKE_KEY') ?? false);
    const running = () => manager.runtime(def.id) as AgentRuntime;
    return { manager, auth, store, def, lines, shown, asked, newSession, starts, running };
  }

  it('asks for the value once, keeps it in secret storage, and the next window’s start has it without asking', async () => {
    const kept = storage();
    const scen = scenario(true);
    const a = openWindow(kept, scen, [VALUE]);
    assert.match(await a.newSession(), /^sess-/);
    assert.deepEqual(a.asked, ['pick:fake-key', 'value:FAKE_KEY:none']);
    assert.deepEqual([...kept.secrets], [[SECRET_KEY, VALUE]], 'kept in secret storage, under the agent and variable');
    assert.deepEqual([...kept.state.values()], [['FAKE_KEY']], 'only the name in the editor’s state');
    assert.equal(a.running().process.spec.env.FAKE_KEY, VALUE, 'the agent was restarted with it');
    assert.deepEqual(a.starts(), [false, true], 'started without it, restarted with it');
    await a.manager.stopAll();

    // The next window: a new store over the same storage, a new manager, a new agent process.
    const b = openWindow(kept, scen, []);
    assert.match(await b.newSession(), /^sess-/);
    assert.deepEqual(b.asked, [], 'nothing asked');
    assert.equal(b.running().process.spec.env.FAKE_KEY, VALUE);
    assert.deepEqual(b.starts(), [false, true, true], 'its first start already had it');
    assert.ok(b.store.secretValues().includes(VALUE), 'loaded values are known to the log redaction');
    for (const w of [a, b]) {
      assert.ok(w.lines.some((l) => /→ request session\/new #\d+ \{/.test(l)), 'the verbose trace was written');
      assert.deepEqual(
        w.lines.filter((l) => l.includes(VALUE)),
        [],
        'the value is in no log line',
      );
    }
  });

  it('an agent that wants `authenticate` in every process: the question knows the stored value, and Enter keeps it', async () => {
    const kept = storage();
    const scen = scenario(false);
    const a = openWindow(kept, scen, [VALUE]);
    await a.newSession();
    await a.manager.stopAll();
    const b = openWindow(kept, scen, ['']);
    assert.equal(b.running(), undefined);
    assert.match(await b.newSession(), /^sess-/);
    assert.deepEqual(b.asked, ['pick:fake-key', 'value:FAKE_KEY:stored'], 'asked with the stored value offered');
    assert.equal(b.running().process.spec.env.FAKE_KEY, VALUE, 'signed in with the stored value, not typed again');
    assert.deepEqual([...kept.secrets], [[SECRET_KEY, VALUE]]);
    assert.deepEqual(b.starts(), [false, true, true, true], 'every start after the first had it');
    assert.deepEqual([...a.lines, ...b.lines].filter((l) => l.includes(VALUE)), [], 'the value is in no log line');
  });

  it('Sign Out forgets the values: secret storage empty, the agent restarted without them, the next start asks again', async () => {
    const kept = storage();
    const scen = scenario(true);
    const a = openWindow(kept, scen, [VALUE, undefined]);
    await a.newSession();
    const before = a.running();
    await a.auth.signOut(a.def, dir);
    assert.equal(kept.secrets.size, 0, 'secret storage is empty');
    assert.deepEqual([...kept.state.values()].flat(), [], 'no names left');
    assert.deepEqual(await a.store.storedEnv('fake-env'), {});
    assert.ok(a.shown.includes('Forgot the stored sign-in values of Fake Env and restarted it.'), a.shown.join('\n'));
    assert.notEqual(a.running(), before, 'restarted');
    assert.equal(a.running().process.spec.env.FAKE_KEY, undefined, 'restarted without the value');
    // The restarted agent is not signed in: asked again, with nothing stored; Escape signs nothing in.
    await assert.rejects(a.newSession(), /Authentication required/);
    assert.deepEqual(a.asked, ['pick:fake-key', 'value:FAKE_KEY:none', 'pick:fake-key', 'value:FAKE_KEY:none']);
    assert.equal(kept.secrets.size, 0);
    await a.manager.stopAll();

    // The next window starts it without the value and asks for it.
    const b = openWindow(kept, scen, ['another-value-0123456789']);
    assert.match(await b.newSession(), /^sess-/);
    assert.deepEqual(b.asked, ['pick:fake-key', 'value:FAKE_KEY:none']);
    assert.deepEqual([...kept.secrets], [[SECRET_KEY, 'another-value-0123456789']]);
    assert.deepEqual(b.starts(), [false, true, false, false, true], 'after Sign Out, every start lacked it until it was typed again');
    await b.auth.signOut(b.def, dir);
    assert.equal(kept.secrets.size, 0);
    // Signing out again, nothing stored any more and no `logout` advertised: said so, nothing restarted.
    const running = b.running();
    await b.auth.signOut(b.def, dir);
    assert.equal(b.running(), running, 'not restarted');
    assert.ok(b.shown.at(-1)?.includes('does not support signing out'), b.shown.join('\n'));
    assert.deepEqual([...a.lines, ...b.lines].filter((l) => l.includes(VALUE) || l.includes('another-value-0123456789')), [], 'no value is in any log line');
  });
});
