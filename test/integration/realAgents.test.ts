// Real third-party agents (pinned versions, installed by the harness), through
// the extension in the real host. None of these steps reach the network.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AuthPrompter } from '../../src/agents/auth';
import type { ChatPanel } from '../../src/chat/chatPanel';
import type { ToolItem } from '../../src/shared/transcriptTypes';
import { startGeminiStub, type GeminiStub } from '../fixtures/modelStub/gemini';
import { startOpenAiChatStub, type ChatStub } from '../fixtures/modelStub/openaiChat';
import { api, closeAllEditors, connected, waitFor, waitForStatus, allowOnce } from './helpers';

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
      async askApiKey(_n, m) {
        asked.push(m.id);
        return undefined;
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

  for (const [agentId, label, agentName, cancelAfterMs] of [
    ['real-claude', 'claude-agent-acp', 'Claude Agent (real)', 0],
    ['real-opencode', 'opencode acp', 'opencode (real)', 1500],
  ] as const) {
    it(`${label}: a prompted session (failing offline) is listed by the agent after a restart and session/load replays it (a load, not the archive)`, async () => {
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
      // The local archive holds the same prompt: a resume is the agent's answer to session/load, without an error, and a live panel.
      assert.equal(sessionLoadAnswer(a.testing.traceLines(), agentName, id), 'answered', 'the agent answered session/load for this session');
      assert.ok(!past.session.transcript.items.some((i) => i.kind === 'notice' && i.title === 'Archived history'), 'the replay is the agent’s, not the archive');
      const users = past.session.transcript.items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text);
      assert.ok(users.some((t) => t.includes('hello from the integration test')), `replayed user messages: ${JSON.stringify(users)}`);
    });
  }
});

/**
 * The agent's answer to the last session/load of `sessionId` in the trace (verbose): 'answered', the error
 * it answered with, or 'no answer' / 'not sent'.
 */
function sessionLoadAnswer(trace: readonly string[], agentName: string, sessionId: string): string {
  const at = trace.findLastIndex((l) => l.startsWith(`${agentName} → request session/load #`) && l.includes(`"sessionId":"${sessionId}"`));
  if (at < 0) return 'not sent';
  const id = /#(\S+)/.exec(trace[at]!)![1];
  const answer = trace.slice(at + 1).find((l) => l.startsWith(`${agentName} ← response #${id} `));
  if (!answer) return 'no answer';
  return / error -?\d+ /.test(answer) ? answer.slice(0, 300) : 'answered';
}

/** Points a real agent from the harness's settings at a loopback model stub (its env), for the rest of the suite. */
async function pointAt(agentId: string, env: Record<string, string>): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('acpAgents');
  const agents = cfg.get<{ id: string; env?: Record<string, string> }[]>('agents') ?? [];
  assert.ok(agents.some((x) => x.id === agentId), `the harness configures ${agentId}`);
  await cfg.update('agents', agents.map((x) => (x.id === agentId ? { ...x, env: { ...x.env, ...env } } : x)), vscode.ConfigurationTarget.Global);
}


const tools = (panel: ChatPanel) => panel.session.transcript.items.filter((i): i is ToolItem => i.kind === 'tool');

describe('Real agents through the extension: gemini-cli 0.61.0 and Qwen Code 0.24.4 against loopback model stubs', function () {
  this.timeout(150_000);
  let gemini: GeminiStub;
  let chat: ChatStub;
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

  before(async () => {
    gemini = await startGeminiStub();
    chat = await startOpenAiChatStub();
    await pointAt('real-gemini', { GOOGLE_GEMINI_BASE_URL: gemini.url });
    await pointAt('real-qwen', { OPENAI_BASE_URL: `${chat.url}/v1` });
  });
  after(async () => {
    await gemini?.close();
    await chat?.close();
  });
  afterEach(async () => {
    const a = await api();
    await closeAllEditors();
    await a.testing.stopAllAgents();
    await vscode.workspace.getConfiguration('acpAgents').update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
  });

  it('gemini-cli: a whole turn creates a NEW file through fs/read_text_file + fs/write_text_file (missing file read as empty, logged once)', async () => {
    const a = await api();
    const target = path.join(folder(), 'gemini-created.md');
    fs.rmSync(target, { force: true });
    gemini.setScript([
      { text: ['I will create ', 'gemini-created.md.'], call: { name: 'write_file', args: { file_path: target, content: '# Made by Gemini CLI\n' } } },
      { text: ['Created ', 'gemini-created.md.'] },
    ]);
    const panel = a.openChat('real-gemini');
    await waitForStatus(panel, 'connected', connected, 90_000);
    assert.equal(a.testing.initializeResult('real-gemini')?.agentInfo?.version, '0.61.0');
    const perms = allowOnce(panel);
    let stop: string | undefined;
    try {
      stop = await panel.session.prompt('Create gemini-created.md');
    } finally {
      perms.stop();
    }
    assert.equal(stop, 'end_turn');
    const write = tools(panel).find((t) => t.toolCallId.startsWith('write_file'));
    assert.ok(write, `the transcript has the write_file call: ${JSON.stringify(tools(panel).map((t) => [t.toolCallId, t.status]))}`);
    assert.equal(write.status, 'completed', JSON.stringify(write.content).slice(0, 500));
    assert.equal(fs.readFileSync(target, 'utf8'), '# Made by Gemini CLI\n', 'the new file is on disk');
    assert.ok(perms.asked.length >= 1, 'gemini-cli asked permission for the write, and it was answered');
    assert.ok(gemini.requests.some((r) => r.kind === 'json'), 'the routing side call was answered in JSON mode');
    const compat = a.testing.logLines().filter((l) => /compatibility: gemini-cli 0\.61\.0: fs\/read_text_file of a missing file/.test(l));
    assert.equal(compat.length, 1, 'the workaround is logged once for the session');
    assert.match(compat[0]!, /issues\/9280/);
    fs.rmSync(target, { force: true });
  });

  it('gemini-cli: starts the user’s stdio MCP server from acpAgents.mcpServers and lists its tools (the VS Code trust is passed on)', async () => {
    const a = await api();
    const record = path.join(process.env.ACP_TEST_TMP!, `gemini-mcp-${Date.now()}.jsonl`);
    const server = path.join(process.env.ACP_TEST_FIXTURES!, 'mcp', 'stdioServer.mjs');
    await vscode.workspace.getConfiguration('acpAgents').update('mcpServers', { probe: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: [server, record] } }, vscode.ConfigurationTarget.Global);
    const panel = a.openChat('real-gemini');
    await waitForStatus(panel, 'connected', connected, 90_000);
    const seen = await waitFor(
      'gemini-cli to start the MCP server and list its tools',
      () => {
        const methods = fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).method as string | undefined) : [];
        return methods.includes('tools/list') ? methods : undefined;
      },
      60_000,
    );
    assert.ok(seen.includes('initialize'), seen.join(', '));
    assert.ok(
      a.testing.logLines().some((l) => l.includes('compatibility: gemini-cli: GEMINI_CLI_TRUST_WORKSPACE=true')),
      'the log says the trust was passed on',
    );
    assert.equal((await a.testing.launchSpec('real-gemini')).env.GEMINI_CLI_TRUST_WORKSPACE, 'true');
    assert.ok(!panel.session.transcript.items.some((i) => i.kind === 'notice' && /may not start your MCP servers/.test(i.title)), 'no warning when the trust is passed on');
    // The MCP status (through the relay) says so, and that the trust was passed on.
    await waitFor('the MCP status to show the tools', () => (panel.session.transcript.header.mcp?.servers.find((x) => x.name === 'probe')?.text === 'started by the agent, 1 tool' ? true : undefined));
    assert.match(panel.session.transcript.header.mcp?.note ?? '', /passed on to Gemini CLI/);
  });

  it('gemini-cli told by the user’s env not to trust the folder: the session says why its MCP servers may not start', async () => {
    const a = await api();
    const cfg = vscode.workspace.getConfiguration('acpAgents');
    const agents = cfg.get<{ id: string; env?: Record<string, string> }[]>('agents') ?? [];
    const server = path.join(process.env.ACP_TEST_FIXTURES!, 'mcp', 'stdioServer.mjs');
    await cfg.update('mcpServers', { probe: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: [server] } }, vscode.ConfigurationTarget.Global);
    try {
      await pointAt('real-gemini', { GEMINI_CLI_TRUST_WORKSPACE: 'false' });
      assert.equal((await a.testing.launchSpec('real-gemini')).env.GEMINI_CLI_TRUST_WORKSPACE, 'false', 'the user’s value wins');
      const panel = a.openChat('real-gemini');
      await waitForStatus(panel, 'connected', connected, 90_000);
      const notice = panel.session.transcript.items.find((i) => i.kind === 'notice' && /may not start your MCP servers/.test(i.title)) as { description?: string } | undefined;
      assert.ok(notice, 'a notice in the session');
      assert.match(notice.description ?? '', /only in folders it trusts.*GEMINI_CLI_TRUST_WORKSPACE to "false"/);
      assert.ok(a.testing.logLines().some((l) => l.includes('GEMINI_CLI_TRUST_WORKSPACE is already set (false); left as it is')));
    } finally {
      await cfg.update('agents', agents, vscode.ConfigurationTarget.Global);
    }
  });

  it('gemini-cli: the workspace’s .gemini/settings.json MCP server runs only once the user accepts the dialog (Escape: gemini starts without the trust, nothing runs)', async () => {
    const a = await api();
    const server = path.join(process.env.ACP_TEST_FIXTURES!, 'mcp', 'stdioServer.mjs');
    const marker = path.join(process.env.ACP_TEST_TMP!, `gemini-repo-mcp-${Date.now()}.jsonl`);
    const geminiDir = path.join(folder(), '.gemini');
    fs.mkdirSync(geminiDir, { recursive: true });
    // The repository's own server: it writes its marker (one line per message) as soon as it starts.
    fs.writeFileSync(path.join(geminiDir, 'settings.json'), `// the repository's\n${JSON.stringify({ mcpServers: { repo: { command: process.env.ACP_TEST_NODE, args: [server, marker] } } }, null, 2)}\n`);
    // The user's own server too: without the trust, gemini-cli starts neither, and the session says why.
    await vscode.workspace.getConfiguration('acpAgents').update('mcpServers', { probe: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: [server] } }, vscode.ConfigurationTarget.Global);
    const shown: { message: string; detail?: string; items: readonly string[] }[] = [];
    try {
      await a.testing.forgetGeminiTrust();
      // 1. Escape.
      a.testing.setGeminiTrustDialog(async (d) => (shown.push(d), undefined));
      gemini.setScript([{ text: ['Nothing to do.'] }]);
      const declined = a.openChat('real-gemini');
      await waitForStatus(declined, 'connected', connected, 90_000);
      assert.equal(shown.length, 1, 'the user was asked before gemini-cli was told to trust the workspace');
      assert.match(shown[0]!.message, /Gemini CLI settings/);
      assert.ok(shown[0]!.detail?.includes('.gemini/settings.json') && shown[0]!.detail.includes(server), `the dialog lists the file and the server's command: ${shown[0]!.detail}`);
      assert.equal(a.testing.agentPid('real-gemini') !== undefined, true);
      // A whole turn (the positive signal: gemini-cli has set up its tools and talked to its model) and still no marker.
      assert.equal(await declined.session.prompt('hello'), 'end_turn');
      assert.equal(fs.existsSync(marker), false, 'the repository’s MCP server never ran');
      const notice = declined.session.transcript.items.find((i) => i.kind === 'notice' && /may not start your MCP servers/.test(i.title)) as { description?: string } | undefined;
      assert.match(notice?.description ?? '', /did not trust/, 'the session says why MCP servers may not start');
      assert.ok(a.testing.logLines().some((l) => l.includes('Gemini settings the user did not trust') || l.includes('Gemini settings (.gemini/settings.json, commands or .env) that the user did not trust')));
      await closeAllEditors();
      await a.testing.stopAllAgents();
      // 2. A new window's question (the refusal is kept until the window closes): accepted this time.
      await a.testing.forgetGeminiTrust();
      a.testing.setGeminiTrustDialog(async (d) => (shown.push(d), d.items[0]));
      const accepted = a.openChat('real-gemini');
      await waitForStatus(accepted, 'connected', connected, 90_000);
      assert.equal(shown.length, 2, 'asked again');
      await waitFor('the accepted repository MCP server to start', () => (fs.existsSync(marker) ? true : undefined), 60_000);
      assert.equal((await a.testing.launchSpec('real-gemini')).env.GEMINI_CLI_TRUST_WORKSPACE, 'true', 'accepted: remembered');
    } finally {
      a.testing.setGeminiTrustDialog(undefined);
      await a.testing.forgetGeminiTrust();
      fs.rmSync(geminiDir, { recursive: true, force: true });
    }
  });

  it('Qwen Code: initialize, session/new, and a whole turn that creates a new file', async () => {
    const a = await api();
    const target = path.join(folder(), 'qwen-created.md');
    fs.rmSync(target, { force: true });
    chat.setScript([
      { text: ['Creating ', 'qwen-created.md.'], call: { name: 'write_file', arguments: { file_path: target, content: '# Made by Qwen Code\n' } } },
      { text: ['Created ', 'qwen-created.md.'] },
    ]);
    const panel = a.openChat('real-qwen');
    await waitForStatus(panel, 'connected', connected, 90_000);
    assert.equal(a.testing.initializeResult('real-qwen')?.agentInfo?.version, '0.24.4');
    assert.ok(panel.session.id);
    const perms = allowOnce(panel);
    let stop: string | undefined;
    try {
      stop = await panel.session.prompt('Create qwen-created.md');
    } finally {
      perms.stop();
    }
    assert.equal(stop, 'end_turn');
    assert.equal(fs.readFileSync(target, 'utf8'), '# Made by Qwen Code\n', 'the new file is on disk');
    const write = tools(panel).find((t) => t.toolKind === 'edit');
    assert.ok(write && write.status === 'completed', JSON.stringify(tools(panel).map((t) => [t.title, t.status])));
    assert.ok(chat.requests.filter((r) => r.kind === 'turn').length >= 2, 'the model saw the tool result');
    assert.ok(!a.testing.logLines().some((l) => l.includes('compatibility: qwen')), 'no workaround for Qwen Code');
    fs.rmSync(target, { force: true });
  });
});
