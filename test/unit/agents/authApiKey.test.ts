// Sign-in with an agent method that takes a key in `_meta["api-key"]` (codex-acp 2.x's `api-key`):
// the key asked once (masked), kept in secret storage, sent as `_meta["api-key"].apiKey`, reused on
// the next "authentication required" without asking, and forgotten by Sign Out. The agent side is a
// fake runtime that records what it was sent.
import * as assert from 'node:assert/strict';
import { AgentError } from '../../../src/acp/errors';
import type { AuthMethodInfo } from '../../../src/acp/authMethods';
import { AuthService, type AuthPrompter } from '../../../src/agents/auth';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import type { AgentManager } from '../../../src/agents/agentManager';
import { SignInStore } from '../../../src/agents/signInStore';
import { redact } from '../../../src/agents/redact';

// No well-known token shape: the redaction knows it because it was typed.
const KEY = 'plainkey0123456789abcdefghij';
const METHODS: AuthMethodInfo[] = [
  { type: 'agent', id: 'api-key', name: 'API Key', apiKey: { provider: 'openai' } },
  { type: 'agent', id: 'chat-gpt', name: 'ChatGPT' },
];

function setup() {
  const sent: { methodId: string; meta?: unknown }[] = [];
  const logs: string[] = [];
  let signedIn = false;
  /** What the agent accepts as a key. */
  let accepts: (k: unknown) => boolean = (k) => k === KEY;
  const rt = {
    initializeResult: { authMethods: METHODS },
    capabilities: { canLogout: () => true },
    connection: {
      async authenticate(methodId: string, _token: unknown, meta?: Record<string, any>) {
        sent.push({ methodId, meta });
        if (!accepts(meta?.['api-key']?.apiKey)) throw new AgentError('authenticate', -32603, 'bad key');
        signedIn = true;
        return {};
      },
      async logout() {
        signedIn = false;
      },
    },
  };
  const log = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m) };
  const manager = {
    ensureRunning: async () => rt,
    runtime: () => rt,
    setStatus: () => undefined,
    setExtraEnv: () => undefined,
    agentLog: () => log,
    restart: async () => rt,
  } as unknown as AgentManager;
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  const store = new SignInStore(
    { get: async (k) => secrets.get(k), store: async (k, v) => void secrets.set(k, v), delete: async (k) => void secrets.delete(k) },
    { get: <T>(k: string, d: T) => (state.has(k) ? (state.get(k) as T) : d), update: async (k, v) => void state.set(k, v) },
  );
  const asked: string[] = [];
  let typed: string | undefined = KEY;
  /** Holds the method question open until it is answered (undefined: answered at once with the first method). */
  let answer: Promise<AuthMethodInfo | undefined> | undefined;
  const prompter: AuthPrompter = {
    async pickMethod(_n, methods) {
      asked.push(`pick:${methods.map((m) => m.id).join(',')}`);
      return answer ? await answer : methods[0];
    },
    async askValue() {
      throw new Error('not an env_var method');
    },
    async askApiKey(_n, method, hasStored) {
      asked.push(`key:${method.id}:${hasStored ? 'stored' : 'none'}`);
      return typed;
    },
  };
  const shown: string[] = [];
  const auth = new AuthService(manager, store, { show: async (_s, m) => (shown.push(m), undefined) }, prompter, async () => 0);
  const def = { id: 'codex', name: 'Codex' } as AgentDefinition;
  /** A session/new that needs a signed-in agent. */
  const newSession = async () => {
    if (!signedIn) throw new AgentError('session/new', -32000, 'Authentication required');
    return 'session-1';
  };
  return {
    auth,
    def,
    store,
    sent,
    asked,
    logs,
    secrets,
    shown,
    newSession,
    signOutAgent: () => (signedIn = false),
    setTyped: (v: string | undefined) => (typed = v),
    setAccepts: (f: (k: unknown) => boolean) => (accepts = f),
    holdQuestion: () => {
      let answerWith: (m: AuthMethodInfo | undefined) => void = () => undefined;
      answer = new Promise((resolve) => (answerWith = resolve));
      return (m: AuthMethodInfo | undefined) => {
        answer = undefined;
        answerWith(m);
      };
    },
  };
}

describe('sign-in: agent methods with _meta["api-key"]', () => {
  it('asks for the key once, sends it in _meta, keeps it, and reuses it without asking on the next connect', async () => {
    const t = setup();
    assert.equal(await t.auth.withAuth(t.def, undefined, t.newSession), 'session-1');
    assert.deepEqual(t.asked, ['pick:api-key,chat-gpt', 'key:api-key:none']);
    assert.deepEqual(t.sent, [{ methodId: 'api-key', meta: { 'api-key': { apiKey: KEY } } }]);
    assert.equal(await t.store.apiKey('codex', 'api-key'), KEY, 'kept in secret storage');
    assert.deepEqual([...t.secrets.values()], [KEY]);
    // The next connect (a new process, not signed in): the stored key is sent, nothing is asked.
    t.signOutAgent();
    assert.equal(await t.auth.withAuth(t.def, undefined, t.newSession), 'session-1');
    assert.deepEqual(t.asked, ['pick:api-key,chat-gpt', 'key:api-key:none'], 'nothing asked the second time');
    assert.equal(t.sent.length, 2);
    assert.deepEqual(t.sent[1], { methodId: 'api-key', meta: { 'api-key': { apiKey: KEY } } });
    assert.ok(t.logs.some((l) => l.includes('stored key of "API Key"')), t.logs.join('\n'));
    // The key is known to the redaction: a log line or a traced message holding it shows it redacted.
    const traced = JSON.stringify(redact({ params: { methodId: 'api-key', _meta: { 'api-key': { apiKey: KEY } } }, text: `the key is ${KEY} here` }, t.store.secretValues()));
    assert.ok(!traced.includes(KEY) && traced.includes('the key is «redacted» here'), traced);
  });

  it('a stored key that is refused leads to the question again; a wrong typed key is not stored', async () => {
    const t = setup();
    await t.auth.withAuth(t.def, undefined, t.newSession);
    t.signOutAgent();
    t.setAccepts((k) => k === 'sk-new-key-0123456789');
    t.setTyped('sk-wrong-key-0123456789');
    await assert.rejects(t.auth.withAuth(t.def, undefined, t.newSession), /Authentication required/);
    assert.deepEqual(t.asked.slice(2), ['pick:api-key,chat-gpt', 'key:api-key:stored']);
    assert.equal(await t.store.apiKey('codex', 'api-key'), KEY, 'the refused key did not replace the stored one');
    assert.ok(t.shown.some((m) => m.includes('bad key')), t.shown.join('\n'));
    t.setTyped('sk-new-key-0123456789');
    assert.equal(await t.auth.withAuth(t.def, undefined, t.newSession), 'session-1');
    assert.equal(await t.store.apiKey('codex', 'api-key'), 'sk-new-key-0123456789');
  });

  it('an empty answer keeps the stored key; Escape signs nothing in', async () => {
    const t = setup();
    await t.auth.withAuth(t.def, undefined, t.newSession);
    t.signOutAgent();
    t.setTyped('');
    assert.equal(await t.auth.signIn(t.def, undefined), true);
    assert.deepEqual(t.sent.at(-1), { methodId: 'api-key', meta: { 'api-key': { apiKey: KEY } } });
    t.signOutAgent();
    t.setTyped(undefined);
    const before = t.sent.length;
    assert.equal(await t.auth.signIn(t.def, undefined), false);
    assert.equal(t.sent.length, before, 'nothing sent');
  });

  it('Sign Out forgets the key: the next connect asks again', async () => {
    const t = setup();
    await t.auth.withAuth(t.def, undefined, t.newSession);
    await t.auth.signOut(t.def, undefined);
    assert.equal(await t.store.apiKey('codex', 'api-key'), undefined);
    assert.equal(t.secrets.size, 0);
    await t.auth.withAuth(t.def, undefined, t.newSession);
    assert.deepEqual(t.asked, ['pick:api-key,chat-gpt', 'key:api-key:none', 'pick:api-key,chat-gpt', 'key:api-key:none']);
  });
});

describe('sign-in: one question per agent at a time', () => {
  it('calls that meet "authentication required" while the question is open share it: asked once, both go on', async () => {
    const t = setup();
    const answer = t.holdQuestion();
    // A session/new and a second one (another panel) at once, the agent not signed in.
    const a = t.auth.withAuth(t.def, undefined, t.newSession);
    const b = t.auth.withAuth(t.def, undefined, t.newSession);
    await new Promise((r) => setTimeout(r, 10));
    answer(METHODS[0]);
    assert.deepEqual(await Promise.all([a, b]), ['session-1', 'session-1']);
    assert.deepEqual(t.asked, ['pick:api-key,chat-gpt', 'key:api-key:none'], 'one question, one key');
    assert.equal(t.sent.length, 1, 'one authenticate');
  });

  it('Escape on the shared question answers every call waiting on it: none asks again', async () => {
    const t = setup();
    const answer = t.holdQuestion();
    const calls = [1, 2, 3].map(() => t.auth.withAuth(t.def, undefined, t.newSession).then(() => 'opened', (e: Error) => e.message));
    await new Promise((r) => setTimeout(r, 10));
    answer(undefined);
    assert.deepEqual(await Promise.all(calls), ['Authentication required', 'Authentication required', 'Authentication required']);
    assert.deepEqual(t.asked, ['pick:api-key,chat-gpt'], 'asked once');
    assert.equal(t.sent.length, 0);
  });

  it('a call whose "authentication required" arrives after another call signed in tries again without asking', async () => {
    const t = setup();
    let late: (() => void) | undefined;
    let tries = 0;
    // Its first request left before the sign-in and its refusal arrives after it; tried again, it succeeds.
    const slow = t.auth.withAuth(t.def, undefined, async () => {
      if (tries++ > 0) return await t.newSession();
      await new Promise<void>((r) => (late = r));
      throw new AgentError('session/list', -32000, 'Authentication required');
    });
    assert.equal(await t.auth.withAuth(t.def, undefined, t.newSession), 'session-1');
    assert.deepEqual(t.asked, ['pick:api-key,chat-gpt', 'key:api-key:none']);
    late?.();
    assert.equal(await slow, 'session-1');
    assert.equal(tries, 2, 'tried again once');
    assert.deepEqual(t.asked, ['pick:api-key,chat-gpt', 'key:api-key:none'], 'nothing more asked');
    assert.equal(t.sent.length, 1, 'not even the stored key was sent again');
  });
});
