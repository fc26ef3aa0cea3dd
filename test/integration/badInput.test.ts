// Bad input from an adapter at the handshake and sign-in: capabilities and _meta never seen
// before, a sign-in method of an unknown type, and a session/new that still answers
// "Authentication required" after a successful authenticate. Each ends in a clear state in
// the panel and a line in the diagnostics (the agent's log or the diagnostics document), never a hang.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AuthPrompter } from '../../src/agents/auth';
import { api, closeAllEditors, connected, nextLogLine, readRecord, waitFor, waitForStatus } from './helpers';

function picks(methodId: string): AuthPrompter & { asked: number } {
  const p = {
    asked: 0,
    async pickMethod(_agent: string, methods: readonly { id: string }[]) {
      p.asked++;
      return methods.find((m) => m.id === methodId) as never;
    },
    async askValue() {
      return undefined;
    },
    // The API Key method (its _meta["api-key"]) asks for a key: the user types one.
    async askApiKey() {
      return 'sk-test-dummy-key';
    },
  };
  return p;
}

describe('Bad input from an adapter: a clear state, never a hang', function () {
  this.timeout(60_000);

  afterEach(async () => {
    const a = await api();
    a.testing.setAuthPrompter(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('initialize with unknown capabilities and _meta: connects and answers; the diagnostics list the extensions as not used', async () => {
    const a = await api();
    const panel = a.openChat('fake-odd-initialize');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('go'), 'end_turn');
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('acpAgents.copyDiagnostics', 'fake-odd-initialize');
    const md = await waitFor('the diagnostics', async () => (await vscode.env.clipboard.readText()) || undefined);
    assert.match(md, /Extensions in the initialize result \(_meta\)/);
    for (const key of ['steering', 'providers', 'systemPrompt', 'hologram']) assert.match(md, new RegExp(`${key}: not used by this client`), key);
    assert.match(md, /teleport/, 'the capabilities as sent are in the report');
  });

  it('a sign-in method of an unknown type: said so (message and log), the panel offers Sign In again; nothing is sent for it', async () => {
    const a = await api();
    a.testing.setAuthPrompter(picks('beam'));
    const logged = nextLogLine(a, (l) => l.includes('Sign-in: "Beam me in" (beam) is of type "teleport"'));
    const panel = a.openChat('fake-auth-still-required');
    const s = await waitForStatus(panel, 'sign-in needed', (x) => x.severity === 'error');
    await logged.wait('the unknown method type logged');
    assert.match(s.text, /Authentication required/);
    assert.ok(s.actions.includes('signIn'), s.actions.join(','));
    assert.ok(JSON.stringify(a.testing.messages()).includes('a sign-in method of type \\"teleport\\" that this extension cannot run'), JSON.stringify(a.testing.messages()));
    assert.equal(readRecord('auth-still-required').filter((r) => r.dir === 'in' && r.msg?.method === 'authenticate').length, 0);
  });

  it('session/new still "Authentication required" after a successful authenticate: said plainly, once, with Sign In; no loop', async () => {
    const a = await api();
    const p = picks('api-key');
    a.testing.setAuthPrompter(p);
    const before = readRecord('auth-still-required').length;
    const logged = nextLogLine(a, (l) => l.includes('Signed in with "API Key", but session/new still answered -32000'));
    const panel = a.openChat('fake-auth-still-required');
    const s = await waitForStatus(panel, 'sign-in needed', (x) => x.severity === 'error');
    await logged.wait('the second refusal logged');
    assert.match(s.text, /still asks for a sign-in after signing in with "API Key" succeeded \(Authentication required\)/);
    assert.ok(s.actions.includes('signIn'), s.actions.join(','));
    assert.equal(p.asked, 1, 'sign-in offered once, not in a loop');
    const methods = readRecord('auth-still-required').slice(before).filter((r) => r.dir === 'in' && r.msg?.method).map((r) => r.msg.method);
    assert.equal(methods.filter((m) => m === 'authenticate').length, 1);
    assert.equal(methods.filter((m) => m === 'session/new').length, 2, 'once before, once after signing in');
    assert.equal(a.agentStatus('fake-auth-still-required'), 'needs-sign-in');
  });
});
