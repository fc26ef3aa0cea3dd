// An agent that takes http MCP servers and refuses stdio ones (as Copilot CLI
// does): in the real host, the user's stdio server and the extension's own
// vscode-editor are handed over as loopback HTTP servers; the fake agent (a real
// process) connects with the headers it was given, lists and calls a tool; the
// server really runs, the MCP status follows as for stdio, and the token is in
// no log. A workspace's stdio server still needs the user's trust first.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import { api, connected, endSessions, readRecord, waitFor, waitForStatus } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');
const SERVER = () => path.join(process.env.ACP_TEST_FIXTURES!, 'mcp', 'stdioServer.mjs');
const header = (panel: ChatPanel): Record<string, string> => Object.fromEntries((panel.session.transcript.header.mcp?.servers ?? []).map((s) => [s.name, s.text]));

describe('MCP over loopback HTTP for an agent that refuses stdio servers', function () {
  this.timeout(90_000);

  afterEach(async () => {
    await endSessions();
    await cfg().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the user’s stdio server and vscode-editor go over 127.0.0.1 with a bearer token; the agent lists and calls a tool; the status says started; the token is in no log', async () => {
    const a = await api();
    const record = path.join(process.env.ACP_TEST_TMP!, `mcp-http-${Date.now()}.jsonl`);
    await cfg().update('mcpServers', { probe: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: [SERVER(), record] } }, vscode.ConfigurationTarget.Global);
    const panel = a.openChat('fake-mcp-http-only');
    await waitForStatus(panel, 'connected', connected);
    const sent = readRecord('mcp-http-only').filter((r) => r.msg?.method === 'session/new').at(-1)?.msg.params.mcpServers as { name: string; type?: string; url?: string; command?: string; headers?: { name: string; value: string }[] }[];
    const probe = sent.find((s) => s.name === 'probe')!;
    assert.equal(probe.type, 'http');
    assert.match(probe.url!, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{24}\/\d+$/);
    assert.equal(probe.command, undefined, 'no stdio entry goes to this agent');
    assert.equal(sent.find((s) => s.name === 'vscode-editor')?.type, 'http', 'the extension’s own server too');
    const token = /^Bearer ([0-9a-f]{64})$/.exec(probe.headers?.find((h) => h.name === 'Authorization')?.value ?? '')?.[1];
    assert.ok(token, 'a 256-bit bearer token in the headers');
    await waitFor('the agent to have used the servers', () => {
      const used = readRecord('mcp-http-only').filter((r) => r.dir === 'mcp-http');
      return used.length >= 2 ? used : undefined;
    });
    const used = Object.fromEntries(readRecord('mcp-http-only').filter((r) => r.dir === 'mcp-http').map((r) => [r.name, r]));
    assert.deepEqual(
      { ...used.probe, t: 0, pid: 0 },
      { t: 0, pid: 0, dir: 'mcp-http', name: 'probe', initStatus: 200, initialized: true, session: true, notifiedStatus: 202, tools: 1, called: 'echo: through the bridge' },
    );
    assert.equal(used['vscode-editor']?.initialized, true);
    assert.ok(used['vscode-editor']?.tools > 0);
    // The real server got the agent's messages, without the relay's settings.
    const got = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.deepEqual(got.map((m) => m.method).filter(Boolean), ['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    assert.deepEqual(got[0].envNames, []);
    // Watched as a stdio server is: started, with its tool.
    await waitFor('the status to show the tools', () => (header(panel).probe === 'started by the agent, 1 tool' ? true : undefined));
    assert.match(panel.session.transcript.header.mcp?.note ?? '', /accepts only http\/sse MCP servers: your stdio servers are offered to it over loopback HTTP/);
    // Without the token: refused.
    const r = await fetch(probe.url!, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' });
    assert.equal(r.status, 401);
    assert.ok(![...a.testing.logLines(), ...a.testing.traceLines()].some((l) => l.includes(token)), 'the token reached a log');
    // The session ends: so does its serving (the token is void).
    panel.panel.dispose();
    await a.testing.stopAllAgents();
    await waitFor('the serving to end', async () => ((await fetch(probe.url!, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' })).status === 401 ? true : undefined));
  });
});
