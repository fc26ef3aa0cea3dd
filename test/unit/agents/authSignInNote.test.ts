// "Authentication required" from an agent whose own sign-ins are all online (cline's, pi-acp's): the
// sign-in question and, when no sign-in is done, the failure the session shows say how the agent runs
// without one (quirks.ts, SIGN_IN_NOTES). The agent side is a fake runtime with the agentInfo and
// authMethods the real agents reported (cline 3.0.65 and pi-acp 0.0.34, offline).
import * as assert from 'node:assert/strict';
import { AgentError } from '../../../src/acp/errors';
import type { AuthMethodInfo } from '../../../src/acp/authMethods';
import { AuthService, type AuthPrompter } from '../../../src/agents/auth';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import type { AgentManager } from '../../../src/agents/agentManager';
import { signInNote } from '../../../src/agents/quirks';
import { SignInStore } from '../../../src/agents/signInStore';

const CLINE_METHODS: AuthMethodInfo[] = [
  { type: 'agent', id: 'cline', name: 'Sign in with Cline' },
  { type: 'agent', id: 'cline-pass', name: 'Sign in with ClinePass' },
  { type: 'agent', id: 'openai-codex', name: 'Sign in with ChatGPT Subscription' },
];

function setup(agentInfo: { name: string; version: string }, message: string) {
  const logs: string[] = [];
  const rt = { initializeResult: { agentInfo, authMethods: CLINE_METHODS }, capabilities: { canLogout: () => false }, connection: {} };
  const manager = {
    ensureRunning: async () => rt,
    runtime: () => rt,
    setStatus: () => undefined,
    agentLog: () => ({ info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m) }),
  } as unknown as AgentManager;
  const store = new SignInStore({ get: async () => undefined, store: async () => undefined, delete: async () => undefined }, { get: <T>(_k: string, d: T) => d, update: async () => undefined });
  const reasons: string[] = [];
  const prompter: AuthPrompter = {
    async pickMethod(_n, _m, reason) {
      reasons.push(reason);
      return undefined; // the user closes the question: no sign-in
    },
    async askValue() {
      return undefined;
    },
    async askApiKey() {
      return undefined;
    },
  };
  const auth = new AuthService(manager, store, { show: async () => undefined }, prompter, async () => 0);
  const def = { id: 'a', name: 'Agent' } as AgentDefinition;
  const newSession = async (): Promise<string> => {
    throw new AgentError('session/new', -32000, message);
  };
  return { auth, def, reasons, logs, newSession };
}

describe('sign-in: what an agent with only online sign-ins needs instead', () => {
  it('cline: the question and the failure name CLINE_API_KEY and CLINE_PROVIDER in the agent\'s env', async () => {
    const t = setup({ name: 'cline', version: '3.0.65' }, 'Authentication required: Call authenticate before starting a session');
    const err = await t.auth.withAuth(t.def, undefined, t.newSession).then(
      () => assert.fail('no session without a sign-in'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof AgentError && err.isAuthRequired, 'still "authentication required" (the panel offers Sign In)');
    assert.match(err.message, /^Authentication required: Call authenticate before starting a session Cline offers only its online sign-ins/);
    assert.match(err.message, /CLINE_PROVIDER .*CLINE_API_KEY .*acpAgents\.agents/);
    assert.equal(t.reasons.length, 1);
    assert.match(t.reasons[0]!, /^Agent needs you to sign in \(Authentication required: .*\)\. Cline offers only its online sign-ins/);
    assert.ok(t.logs.some((l) => l.startsWith('Sign-in asked (Authentication required: Call authenticate') && l.includes('CLINE_API_KEY')), t.logs.join('\n'));
  });

  it('pi-acp: says that pi found no model, and where one is configured', async () => {
    const t = setup({ name: 'pi-acp', version: '0.0.34' }, 'Authentication required: Configure an API key or log in with an OAuth provider.');
    const err = await t.auth.withAuth(t.def, undefined, t.newSession).then(
      () => assert.fail('no session'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof AgentError && err.isAuthRequired);
    assert.match(err.message, /OAuth provider\. pi found no model it can use\..*~\/\.pi\/agent\/models\.json/);
  });

  it('another agent: its own words only', async () => {
    const t = setup({ name: 'some-agent', version: '3.0.65' }, 'Authentication required');
    const err = await t.auth.withAuth(t.def, undefined, t.newSession).then(
      () => assert.fail('no session'),
      (e: unknown) => e,
    );
    assert.equal((err as Error).message, 'Authentication required');
    assert.equal(t.reasons[0], 'Agent needs you to sign in (Authentication required).');
  });

  it('the notes are keyed on the reported name and a version range', () => {
    assert.match(signInNote({ name: 'cline', version: '3.0.65' })!, /CLINE_API_KEY/);
    assert.equal(signInNote({ name: 'cline', version: '2.9.0' }), undefined, 'before the 3.x CLI');
    assert.equal(signInNote({ name: 'Cline', version: '3.0.65' }), undefined, 'matched exactly');
    assert.match(signInNote({ name: 'pi-acp', version: '0.0.34' })!, /models\.json/);
    assert.equal(signInNote({ name: 42 }), undefined);
    assert.equal(signInNote(undefined), undefined);
  });
});
