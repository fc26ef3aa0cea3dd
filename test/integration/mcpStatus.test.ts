// The MCP status in the real host: fake agents that really start the user's
// stdio MCP server (test/fixtures/mcp/stdioServer.mjs) through the extension's
// relay; the panel's header and the session's tooltip in the sidebar say what
// became of each server — started with its tools, never started, started late,
// crashed, left out. And acpAgents.passWorkspaceTrust: user settings only.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import { api, connected, endSessions, readRecord, waitFor, waitForStatus } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');
const SERVER = () => path.join(process.env.ACP_TEST_FIXTURES!, 'mcp', 'stdioServer.mjs');

/** The panel's MCP lines (what its webview is sent), by server name. */
const header = (panel: ChatPanel): Record<string, string> => Object.fromEntries((panel.session.transcript.header.mcp?.servers ?? []).map((s) => [s.name, s.text]));

/** The session's tooltip in the sidebar (its text: spaces come as &nbsp;). */
async function tooltip(agentId: string, sessionId: string): Promise<string> {
  const a = await api();
  const item = a.testing.treeItems(agentId).sessions.find((s) => s.id === `session:${agentId}:${sessionId}`);
  const tip = item?.tooltip;
  return (typeof tip === 'string' ? tip : (tip?.value ?? '')).replace(/&nbsp;/g, ' ');
}

describe('MCP status: what became of the servers handed to the agent', function () {
  this.timeout(90_000);

  afterEach(async () => {
    await endSessions();
    await cfg().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
  });

  it('started by the agent through the relay, with its tool count — in the panel and the sidebar tooltip; a broken one as left out', async () => {
    const a = await api();
    const record = path.join(process.env.ACP_TEST_TMP!, `mcp-status-${Date.now()}.jsonl`);
    await cfg().update('mcpServers', { probe: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: [SERVER(), record] }, broken: { type: 'stdio' } }, vscode.ConfigurationTarget.Global);
    const panel = a.openChat('fake-mcp-start');
    await waitForStatus(panel, 'connected', connected);
    await waitFor('the status to show the tools', () => (header(panel).probe === 'started by the agent, 1 tool' ? true : undefined));
    assert.match(header(panel).broken!, /^left out: has no "command"/);
    const s = panel.session.mcp.statuses().find((x) => x.name === 'probe')!;
    assert.deepEqual([s.state, s.tools, s.toolNames], ['listed', 1, ['echo']]);
    // The server really ran, and got what the agent sent unchanged.
    const got = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.deepEqual(got.map((m) => m.method).filter(Boolean), ['initialize', 'notifications/initialized', 'tools/list']);
    assert.deepEqual(got[0].envNames, [], 'the relay’s settings never reach the server');
    assert.ok(readRecord('mcp-start').some((r) => r.dir === 'mcp' && r.name === 'probe' && r.tools === 1), 'the agent saw the tool');
    const tip = await tooltip('fake-mcp-start', panel.session.id!);
    assert.match(tip, /MCP servers/);
    assert.match(tip, /probe: started by the agent, 1 tool/);
    assert.match(tip, /broken: left out/);
    // The session's secret is in no log.
    const env = readRecord('mcp-start').filter((r) => r.msg?.method === 'session/new').at(-1)?.msg.params.mcpServers[0].env;
    const token = JSON.parse(env.find((e: { name: string }) => e.name === 'ACP_MCP_RELAY').value).token as string;
    assert.ok(token.length >= 32);
    assert.ok(![...a.testing.logLines(), ...a.testing.traceLines()].some((l) => l.includes(token)), 'the relay secret reached a log');
  });

  it('an agent that never starts its server: "never started" after a whole turn, with an action; started late: the status follows', async () => {
    const a = await api();
    await cfg().update('mcpServers', { probe: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: [SERVER()] } }, vscode.ConfigurationTarget.Global);
    const panel = a.openChat('fake-mcp-late');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(header(panel).probe, 'offered; not started by the agent yet');
    assert.equal(await panel.session.prompt('first'), 'end_turn');
    assert.match(header(panel).probe!, /^never started: The agent did not start it during a whole turn/);
    assert.equal(panel.session.transcript.header.mcp?.servers[0]?.action, 'showLog');
    assert.match(await tooltip('fake-mcp-late', panel.session.id!), /probe: never started/);
    // The second turn starts it.
    assert.equal(await panel.session.prompt('second'), 'end_turn');
    await waitFor('the late start to show', () => (header(panel).probe === 'started by the agent, 1 tool' ? true : undefined));
    await waitFor('the tooltip to follow', async () => ((await tooltip('fake-mcp-late', panel.session.id!)).includes('probe: started by the agent, 1 tool') ? true : undefined));
  });

  it('the extension’s own vscode-editor the agent does not start: "not used", no warning nor action; the user’s server keeps its warning', async () => {
    const a = await api();
    await cfg().update('mcpServers', { probe: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: [SERVER()] } }, vscode.ConfigurationTarget.Global);
    const panel = a.openChat('fake-mcp-late');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('first'), 'end_turn');
    const views = Object.fromEntries((panel.session.transcript.header.mcp?.servers ?? []).map((s) => [s.name, s]));
    assert.equal(views['vscode-editor']?.state, 'unused', JSON.stringify(views));
    assert.match(views['vscode-editor']!.text, /^not used by the agent so far \(the extension’s own editor server/);
    assert.equal(views['vscode-editor']!.action, undefined, 'nothing to do about it');
    assert.equal(views.probe?.state, 'notStarted', 'the user’s own server still says it never started');
    assert.equal(views.probe?.action, 'showLog');
    const tip = await tooltip('fake-mcp-late', panel.session.id!);
    assert.match(tip, /vscode-editor: not used by the agent/);
    assert.doesNotMatch(tip, /vscode-editor: never started/);
  });

  it('a server that crashes: "crashed (exit code 3)", and nothing hangs', async () => {
    const a = await api();
    await cfg().update('mcpServers', { probe: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: [SERVER()], env: { MCP_FIXTURE_EXIT_AFTER_LIST: '3' } } }, vscode.ConfigurationTarget.Global);
    const panel = a.openChat('fake-mcp-start');
    await waitForStatus(panel, 'connected', connected);
    await waitFor('the crash to show', () => (header(panel).probe === 'crashed (exit code 3)' ? true : undefined));
    assert.equal(panel.session.mcp.statuses()[0]?.tools, 1, 'what it listed before is kept');
    assert.ok(a.testing.logLines().some((l) => /MCP server "probe": crashed \(exit code 3\)/.test(l)));
    // The session goes on.
    assert.equal(await panel.session.prompt('still there?'), 'end_turn');
  });

  it('acpAgents.passWorkspaceTrust is read from user settings only: a folder’s value is ignored (and said so); the user’s turns it off, logged', async () => {
    const a = await api();
    const pkg = vscode.extensions.all.find((e) => e.packageJSON?.name === 'acp-agents')?.packageJSON;
    assert.equal(pkg?.contributes.configuration.properties['acpAgents.passWorkspaceTrust']?.scope, 'machine');
    // An agent launched as gemini-cli (its command line) — only its launch is computed, it never runs.
    const agents = cfg().get<unknown[]>('agents') ?? [];
    const gemini = { id: 'gemini-like', name: 'Gemini-like', command: process.env.ACP_TEST_NODE, args: ['@google/gemini-cli', '--acp'] };
    const dir = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode');
    const file = path.join(dir, 'settings.json');
    const hadDir = fs.existsSync(dir);
    const prior = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    try {
      await cfg().update('agents', [...agents, gemini], vscode.ConfigurationTarget.Global);
      assert.equal((await a.testing.launchSpec('gemini-like')).env.GEMINI_CLI_TRUST_WORKSPACE, 'true', 'passed on by default');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ 'acpAgents.passWorkspaceTrust': { 'gemini-like': false } }, null, 2));
      await vscode.commands.executeCommand('acpAgents.refreshSessions');
      await waitFor('the log to say the workspace value is ignored', () => a.testing.logLines().some((l) => /sets acpAgents\.passWorkspaceTrust; it is ignored/.test(l)) || undefined);
      assert.equal((await a.testing.launchSpec('gemini-like')).env.GEMINI_CLI_TRUST_WORKSPACE, 'true', 'the folder cannot turn it off (nor on)');
      await cfg().update('passWorkspaceTrust', { 'gemini-like': false }, vscode.ConfigurationTarget.Global);
      assert.equal((await a.testing.launchSpec('gemini-like')).env.GEMINI_CLI_TRUST_WORKSPACE, undefined, 'the user’s own value turns it off');
      assert.ok(a.testing.logLines().some((l) => l.includes('passing on the VS Code workspace trust is turned off for this agent (acpAgents.passWorkspaceTrust)')));
      // Nor can the folder turn it back on. (VS Code hides a machine-scoped folder value from inspect(); a window-scoped
      // one written through VS Code after it makes VS Code read the file, with our value in it, before the update returns.)
      fs.writeFileSync(file, JSON.stringify({ 'acpAgents.passWorkspaceTrust': { 'gemini-like': true } }, null, 2));
      await vscode.workspace.getConfiguration('editor').update('tabSize', 7, vscode.ConfigurationTarget.Workspace);
      assert.match(fs.readFileSync(file, 'utf8'), /"gemini-like": true/, 'the folder value is in the file VS Code read');
      assert.equal((await a.testing.launchSpec('gemini-like')).env.GEMINI_CLI_TRUST_WORKSPACE, undefined, 'the folder cannot turn it on');
    } finally {
      await cfg().update('passWorkspaceTrust', undefined, vscode.ConfigurationTarget.Global);
      await cfg().update('agents', agents, vscode.ConfigurationTarget.Global);
      if (prior !== undefined) fs.writeFileSync(file, prior);
      else fs.rmSync(file, { force: true });
      if (!hadDir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
