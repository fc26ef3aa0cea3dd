// Sign-in flows against fake agents in the real host. The questions a person
// would answer (which method, which value) are answered by a test prompter.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AuthPrompter } from '../../src/agents/auth';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

function prompter(methodId: string, value?: string): AuthPrompter & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async pickMethod(_agent, methods) {
      asked.push(`pick:${methods.map((m) => m.id).join(',')}`);
      return methods.find((m) => m.id === methodId);
    },
    async askValue(_agent, variable) {
      asked.push(`value:${variable.name}:${variable.secret ? 'secret' : 'plain'}`);
      return value;
    },
    async askApiKey(_agent, method) {
      asked.push(`key:${method.id}`);
      return value;
    },
  };
}

describe('Auth: -32000 leads to sign-in, then the session starts', function () {
  this.timeout(60_000);

  afterEach(async () => {
    const a = await api();
    a.testing.setAuthPrompter(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('env_var (legacy): asks for the secret, restarts the agent with it, authenticates, then session/new succeeds', async () => {
    const a = await api();
    const p = prompter('fake-key', 'sekret-value-1234');
    a.testing.setAuthPrompter(p);
    const panel = a.openChat('fake-auth-env');
    await waitForStatus(panel, 'connected after sign-in', connected, 30_000);
    assert.deepEqual(p.asked, ['pick:fake-key', 'value:FAKE_KEY:secret']);
    const rec = readRecord('auth-env');
    const methods = rec.filter((r) => r.dir === 'in').map((r) => r.msg.method);
    assert.ok(methods.includes('authenticate'), methods.join(' '));
    assert.deepEqual(rec.find((r) => r.msg?.method === 'authenticate').msg.params, { methodId: 'fake-key' });
    const starts = rec.filter((r) => r.dir === 'start');
    assert.ok(starts.length >= 2, 'restarted after the value was given');
    assert.deepEqual(starts.at(-1).envNames, ['FAKE_KEY']);
    // The value is in the secret storage, not in settings, and never in a log message shown.
    assert.ok(!JSON.stringify(a.testing.messages()).includes('sekret-value-1234'));
  });

  it('terminal: runs the agent with the method’s args in a VS Code terminal, waits for exit 0, restarts, then session/new succeeds', async () => {
    const a = await api();
    a.testing.setAuthPrompter(prompter('fake-login'));
    const opened: string[] = [];
    const sub = vscode.window.onDidOpenTerminal((t) => opened.push(t.name));
    try {
      const panel = a.openChat('fake-auth-terminal');
      await waitForStatus(panel, 'connected after terminal sign-in', connected, 40_000);
    } finally {
      sub.dispose();
    }
    assert.ok(opened.some((n) => /Log in to Fake/.test(n)), `terminal opened: ${opened.join(', ')}`);
    const rec = readRecord('auth-terminal');
    const login = rec.find((r) => r.dir === 'login');
    assert.ok(login, 'the sign-in program ran');
    assert.ok(login.argv.includes('--login'));
    assert.equal(rec.filter((r) => r.msg?.method === 'authenticate').length, 0, 'no authenticate for a terminal method');
    // A neutral folder, never the workspace: a repository's .npmrc cannot choose the shell npx uses.
    const real = (p: string) => fs.realpathSync(p);
    assert.equal(real(login.cwd), real(path.join(a.testing.storagePath(), 'run')), 'the sign-in ran in the extension’s empty folder');
    for (const f of vscode.workspace.workspaceFolders ?? []) assert.ok(!real(login.cwd).startsWith(real(f.uri.fsPath)), `not in ${f.uri.fsPath}`);
  });

  it('agent-type: authenticate {methodId}; an unknown method type is offered, not hidden', async () => {
    const a = await api();
    const p = prompter('oauth');
    a.testing.setAuthPrompter(p);
    const panel = a.openChat('fake-auth-agent');
    await waitForStatus(panel, 'connected after authenticate', connected, 30_000);
    assert.deepEqual(p.asked, ['pick:oauth,weird']);
    assert.deepEqual(readRecord('auth-agent').find((r) => r.msg?.method === 'authenticate').msg.params, { methodId: 'oauth' });
  });

  it('declining to sign in leaves the panel with a Sign In action', async () => {
    const a = await api();
    a.testing.setAuthPrompter({ pickMethod: async () => undefined, askValue: async () => undefined, askApiKey: async () => undefined });
    const panel = a.openChat('fake-auth-agent');
    const s = await waitForStatus(panel, 'sign-in needed', (x) => x.severity === 'error');
    assert.match(s.text, /Authentication required/);
    assert.deepEqual(s.actions, ['signIn', 'showLog']);
    assert.equal(a.agentStatus('fake-auth-agent'), 'needs-sign-in');
  });

  it('-32000 on session/prompt: the prompt stays with Retry, sign-in is offered; after signing in the same session answers', async () => {
    const a = await api();
    let offered = 0;
    a.testing.setAuthPrompter({ pickMethod: async () => (offered++, undefined), askValue: async () => undefined, askApiKey: async () => undefined });
    const panel = a.openChat('fake-auth-prompt');
    await waitForStatus(panel, 'connected (session/new needs no sign-in)', connected);
    const sessionId = panel.session.id;
    assert.equal(await panel.session.prompt('hello before signing in'), undefined);
    const s = await waitForStatus(panel, 'sign-in offered', (x) => x.actions.includes('signIn'));
    assert.match(s.text, /needs you to sign in/);
    await waitFor('the sign-in question', () => offered === 1 || undefined);
    const err = panel.session.transcript.items.find((i) => i.kind === 'error') as { message: string; retryPrompt?: string } | undefined;
    assert.ok(err, 'the failure is in the transcript');
    assert.equal(err.retryPrompt, 'hello before signing in', 'with the prompt to retry');

    // The person signs in from the panel's action; the session goes on (same id, same process).
    const p = prompter('oauth');
    a.testing.setAuthPrompter(p);
    await panel.session.runAction('signIn');
    await waitForStatus(panel, 'connected after signing in', connected);
    assert.equal(panel.session.id, sessionId);
    assert.equal(await panel.session.prompt('hello again'), 'end_turn');
    const rec = readRecord('auth-prompt');
    assert.deepEqual(rec.find((r) => r.msg?.method === 'authenticate').msg.params, { methodId: 'oauth' });
    assert.equal(rec.filter((r) => r.msg?.method === 'session/new').length, 1, 'no second session');
    assert.equal(rec.filter((r) => r.dir === 'start').length, 1, 'the agent was not restarted');
  });

  it('-32000 on session/prompt with an env_var method: the agent restarts with the value, a new session starts, and the prompt is offered again', async () => {
    const a = await api();
    a.testing.setAuthPrompter(prompter('prompt-key', 'prompt-secret-9876'));
    const panel = a.openChat('fake-auth-prompt-env');
    await waitForStatus(panel, 'connected', connected);
    const first = panel.session.id;
    assert.equal(await panel.session.prompt('needs a key'), undefined);
    await waitFor('a new session after the restart', () => (panel.session.id && panel.session.id !== first && panel.session.status.inputEnabled ? true : undefined), 30_000);
    const items = panel.session.transcript.items;
    assert.ok(items.some((i) => i.kind === 'notice' && /restarted to sign in/.test(JSON.stringify(i))), 'says why the session is new');
    const retry = items.filter((i) => i.kind === 'error').at(-1) as { retryPrompt?: string } | undefined;
    assert.equal(retry?.retryPrompt, 'needs a key', 'the prompt is offered again');
    assert.equal(await panel.session.prompt('needs a key'), 'end_turn');
    const rec = readRecord('auth-prompt-env');
    assert.ok(rec.filter((r) => r.dir === 'start').length >= 2, 'restarted with the value');
    assert.ok(!JSON.stringify(a.testing.messages()).includes('prompt-secret-9876'));
  });
});
