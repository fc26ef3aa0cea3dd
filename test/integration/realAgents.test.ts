// Real third-party agents (pinned versions, installed by the harness), through
// the extension in the real host. None of these steps reach the network.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AuthPrompter } from '../../src/agents/auth';
import { api, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

describe('Real agents through the extension', function () {
  this.timeout(120_000);

  before(async () => {
    await vscode.workspace.getConfiguration('acpAgents').update('trace', 'verbose', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('acpAgents').update('trace', undefined, vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    const a = await api();
    a.testing.setAuthPrompter(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('@zed-industries/claude-agent-acp 0.23.1: initialize, a terminal-type auth method (auth.terminal advertised), session/new', async () => {
    const a = await api();
    const panel = a.openChat('real-claude');
    await waitForStatus(panel, 'connected', connected, 90_000);
    const init = a.testing.initializeResult('real-claude')!;
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentInfo?.version, '0.23.1');
    const terminal = init.authMethods.find((m) => m.type === 'terminal');
    assert.ok(terminal, JSON.stringify(init.authMethods));
    assert.ok(panel.session.id && panel.session.id.length > 8);
  });

  it('opencode-ai 1.18.33 (opencode acp): initialize, session/new', async () => {
    const a = await api();
    const panel = a.openChat('real-opencode');
    await waitForStatus(panel, 'connected', connected, 110_000);
    assert.equal(a.testing.initializeResult('real-opencode')?.agentInfo?.version, '1.18.33');
    assert.match(panel.session.id ?? '', /^ses_/);
  });

  it('@zed-industries/codex-acp 0.16.0: -32000 on session/new, env_var sign-in with a dummy key, authenticate, then session/new', async () => {
    const a = await api();
    const asked: string[] = [];
    const prompter: AuthPrompter = {
      async pickMethod(_n, methods) {
        asked.push(methods.map((m) => `${m.id}:${m.type}`).join(','));
        return methods.find((m) => m.id === 'codex-api-key');
      },
      async askValue(_n, v) {
        asked.push(v.name);
        return 'dummy-offline-not-a-real-key';
      },
    };
    a.testing.setAuthPrompter(prompter);
    const panel = a.openChat('real-codex');
    await waitForStatus(panel, 'connected after sign-in', connected, 90_000);
    assert.match(asked[0]!, /codex-api-key:env_var/);
    assert.equal(asked[1], 'CODEX_API_KEY');
    const trace = a.testing.traceLines().filter((l) => l.startsWith('Codex (real)'));
    const order = trace.map((l) => /(request|response) (\S+)?/.exec(l)?.[0] ?? '').filter(Boolean);
    const newSession = trace.findIndex((l) => /request session\/new/.test(l));
    const authFailed = trace.findIndex((l) => /error -32000/.test(l));
    const authenticate = trace.findIndex((l) => /request authenticate/.test(l));
    const lastNew = trace.map((l, i) => (/request session\/new/.test(l) ? i : -1)).filter((i) => i >= 0).at(-1)!;
    assert.ok(newSession >= 0 && authFailed > newSession && authenticate > authFailed && lastNew > authenticate, order.join(' | '));
    // The dummy key never reaches the trace.
    assert.ok(!a.testing.traceLines().some((l) => l.includes('dummy-offline-not-a-real-key')));
  });

  for (const [agentId, label, cancelAfterMs] of [
    ['real-claude', 'claude-agent-acp', 0],
    ['real-opencode', 'opencode acp', 1500],
  ] as const) {
    it(`${label}: a prompted session (failing offline) is listed by the agent after a restart and session/load replays it`, async () => {
      const a = await api();
      const panel = a.openChat(agentId);
      await waitForStatus(panel, 'connected', connected, 110_000);
      const id = panel.session.id!;
      const turn = panel.session.prompt('hello from the integration test');
      if (cancelAfterMs) {
        await new Promise((r) => setTimeout(r, cancelAfterMs));
        await panel.session.cancel();
      }
      await turn;
      // Stop the agent (no session/close), then forget the panel.
      await a.testing.stopAllAgents();
      await closeAllEditors();
      assert.ok(a.testing.sessions(agentId).some((s) => s.sessionId === id), 'the session is in the sidebar');
      const past = a.openPastSession(agentId, id);
      await waitForStatus(past, 'loaded', connected, 110_000);
      await waitFor('session/list of the restarted agent to list the session', () =>
        a.testing.traceLines().some((l) => l.includes('response') && l.includes(id) && l.includes('"sessions"')),
      );
      const users = past.session.transcript.items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text);
      assert.ok(users.some((t) => t.includes('hello from the integration test')), `replayed user messages: ${JSON.stringify(users)}`);
    });
  }
});
