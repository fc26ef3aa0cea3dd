// ACP v2 (Preview) on the wire: the decoder that maps it onto the one internal model, the transcript's
// upserts, and the connection's v2 turn (acknowledged prompt, idle state_update) — bad input included.
import * as assert from 'node:assert/strict';
import { ProtocolVersionError } from '../../../src/acp/connection';
import { AgentCapabilityView } from '../../../src/acp/capabilities';
import { decodeSessionUpdate, type DecodedNotification, type DecodedUpdate } from '../../../src/acp/decode';
import { decodeV2InitializeResponse, decodeV2Notification, type V2Notification } from '../../../src/acp/decodeV2';
import { AgentError, ConnectionClosedError } from '../../../src/acp/errors';
import { Transcript } from '../../../src/sessions/transcript';
import type { MessageItem, ToolItem } from '../../../src/shared/transcriptTypes';
import { connectPeer } from './peer';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

function v2(update: unknown, sessionId = 's1'): V2Notification {
  const n = decodeV2Notification({ sessionId, update });
  assert.ok(n);
  return n;
}
function upd(update: unknown): { update: DecodedUpdate; problems: string[] } {
  const n = v2(update);
  assert.equal(n.kind, 'update');
  return { update: (n as { update: DecodedUpdate }).update, problems: [...n.problems] };
}
const text = (t: string) => ({ type: 'text', text: t });

describe('ACP v2: decoding', () => {
  it('initialize: one capabilities object and info, mapped so the capability view serves both versions', () => {
    const problems: string[] = [];
    const d = decodeV2InitializeResponse(
      {
        protocolVersion: 2,
        info: { name: 'codex-acp', title: 'Codex', version: '2.6.0' },
        capabilities: { session: { prompt: { image: {}, audio: null }, mcp: { stdio: {}, http: {} }, delete: {}, fork: {} }, auth: {} },
        // codex-acp 2.6.0's own answer: v2 names the id `methodId`.
        authMethods: [
          { methodId: 'api-key', type: 'agent', name: 'API Key', description: 'Use an API key to authenticate', _meta: { 'api-key': { provider: 'openai' } } },
          { methodId: 'chat-gpt', type: 'agent', name: 'ChatGPT' },
          { methodId: 'login', type: 'terminal', name: 'Log in', args: ['--login'] },
        ],
        _meta: { steering: { supported: true } },
      },
      problems,
    );
    assert.deepEqual(problems, []);
    assert.equal(d.protocolVersion, 2);
    assert.deepEqual(d.agentInfo, { name: 'codex-acp', title: 'Codex', version: '2.6.0' });
    assert.equal(d.steering, true);
    assert.deepEqual(
      d.authMethods.map((m) => [m.id, m.type, m.name]),
      [
        ['api-key', 'agent', 'API Key'],
        ['chat-gpt', 'agent', 'ChatGPT'],
        ['login', 'terminal', 'Log in'],
      ],
    );
    assert.deepEqual((d.authMethods[0] as { apiKey?: unknown }).apiKey, { provider: 'openai' }, 'the api-key method is still the key question');
    const caps = new AgentCapabilityView(d.agentCapabilities);
    assert.equal(caps.canLogout(), true, 'v2: sign-in methods mean auth/logout too');
    // The v2 baseline: list, resume and close come with `session: {}`; v2 has no session/load, but its resume
    // replays the whole history on request (replayFrom), which is what the client calls a load.
    assert.deepEqual([caps.canList(), caps.canResume(), caps.canClose(), caps.canLoad()], [true, true, true, true]);
    assert.deepEqual([caps.canDelete(), caps.canFork(), caps.supportsAdditionalDirectories()], [true, true, false]);
    assert.deepEqual([caps.supportsPrompt('image'), caps.supportsPrompt('audio')], [true, false]);
    assert.deepEqual([caps.supportsMcp('http'), caps.supportsMcp('stdio'), caps.declinesMcpStdio()], [true, true, false]);
  });

  it('initialize: v1 fields, no info, no session group and MCP without stdio are named', () => {
    const problems: string[] = [];
    const d = decodeV2InitializeResponse({ protocolVersion: 2, agentCapabilities: { loadSession: true }, agentInfo: { name: 'old' } }, problems);
    assert.equal(d.agentInfo, undefined);
    assert.equal(new AgentCapabilityView(d.agentCapabilities).canLoad(), false, 'a v1 field is not read on a v2 answer (no session group: no sessions at all)');
    assert.equal(problems.length, 3, problems.join('\n'));
    const noStdio = decodeV2InitializeResponse({ protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: { session: { mcp: { http: {} } } } }, []);
    assert.equal(new AgentCapabilityView(noStdio.agentCapabilities).declinesMcpStdio(), true);
    assert.equal(new AgentCapabilityView(noStdio.agentCapabilities).canLogout(), false, 'no sign-in methods: no auth/logout');
  });

  it('messages: whole messages are upserts by id; chunks append and need a messageId', () => {
    assert.deepEqual(upd({ sessionUpdate: 'agent_message', messageId: 'a', content: [text('hi')] }).update, { sessionUpdate: '_message', role: 'agent', messageId: 'a', content: [text('hi')] });
    assert.deepEqual(upd({ sessionUpdate: 'user_message', messageId: 'u', content: null }).update, { sessionUpdate: '_message', role: 'user', messageId: 'u', content: null });
    assert.deepEqual(upd({ sessionUpdate: 'agent_thought', messageId: 't' }).update, { sessionUpdate: '_message', role: 'thought', messageId: 't' }, 'omitted content: unchanged');
    assert.equal(upd({ sessionUpdate: 'agent_message', content: [text('x')] }).update.sessionUpdate, '_unsupported', 'no messageId');
    assert.deepEqual(upd({ sessionUpdate: 'agent_message_chunk', messageId: 'a', content: text('more') }).update, { sessionUpdate: 'agent_message_chunk', messageId: 'a', content: text('more') });
    const noId = upd({ sessionUpdate: 'agent_thought_chunk', content: text('x') });
    assert.equal(noId.update.sessionUpdate, 'agent_thought_chunk', 'never lost');
    assert.match(noId.problems.join(), /no messageId/);
  });

  it('tool calls: tool_call_update is the upsert (omitted kept, null cleared), content chunks append', () => {
    const u = upd({ sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Edit', status: null, locations: null }).update as Record<string, unknown>;
    assert.deepEqual(u, { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Edit', status: null, locations: null });
    assert.deepEqual(upd({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 't1', content: { type: 'content', content: text('out') } }).update, {
      sessionUpdate: '_tool_content_chunk',
      toolCallId: 't1',
      contents: [{ type: 'content', content: text('out') }],
    });
    assert.equal(upd({ sessionUpdate: 'tool_call_content_chunk', content: { type: 'content', content: text('x') } }).update.sessionUpdate, '_unsupported');
  });

  it('diffs: one file each, with its hunks from the git patch (absolute paths, as claude-agent-acp 0.101 sends them); changes are authoritative', () => {
    const patch = [
      'diff --git /w/new.md /w/new.md',
      'new file mode 100644',
      '--- /dev/null',
      '+++ /w/new.md',
      '@@ -0,0 +1,2 @@',
      '+hello',
      '+world',
      'diff --git /w/e.txt /w/e.txt',
      '--- /w/e.txt',
      '+++ /w/e.txt',
      '@@ -1,2 +1,2 @@',
      '-original line',
      '+edited',
      ' kept line',
      '',
    ].join('\n');
    const changes = [
      { operation: 'add', path: '/w/new.md', fileType: 'text' },
      { operation: 'modify', path: '/w/e.txt' },
      { operation: 'move', oldPath: '/w/old.bin', path: '/w/moved.bin', fileType: 'binary' },
    ];
    const r = upd({ sessionUpdate: 'tool_call_update', toolCallId: 't2', content: [{ type: 'diff', changes, patch: { format: 'git_patch', text: patch } }] });
    assert.deepEqual(r.problems, []);
    assert.deepEqual((r.update as { content: unknown[] }).content, [
      { type: '_patch', path: '/w/new.md', operation: 'add', hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 2, lines: ['+hello', '+world'] }] },
      { type: '_patch', path: '/w/e.txt', operation: 'modify', hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ['-original line', '+edited', ' kept line'] }] },
      { type: '_patch', path: '/w/moved.bin', oldPath: '/w/old.bin', operation: 'move', hunks: [] },
    ]);
    // A content chunk holding a diff of two files appends both.
    const chunk = upd({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 't2', content: { type: 'diff', changes: changes.slice(0, 2), patch: { format: 'git_patch', text: patch } } }).update as unknown as { contents: { path: string }[] };
    assert.deepEqual(chunk.contents.map((c) => c.path), ['/w/new.md', '/w/e.txt']);
    // No changes: the patch's own files (git's a/ b/ prefixes dropped); a diff naming nothing is skipped, and said.
    const bare = upd({ sessionUpdate: 'tool_call_update', toolCallId: 't3', content: [{ type: 'diff', patch: { format: 'git_patch', text: 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' } }] }).update as unknown as { content: { path: string; operation: string }[] };
    assert.deepEqual(bare.content.map((c) => `${c.operation} ${c.path}`), ['modify x']);
    const empty = upd({ sessionUpdate: 'tool_call_update', toolCallId: 't4', content: [{ type: 'diff', changes: [] }] });
    assert.deepEqual((empty.update as { content: unknown[] }).content, []);
    assert.match(empty.problems.join(), /a diff with no changes, skipped/);
    // A patch that is not one: the changes are still listed, without hunks, and the problem named.
    const garbled = upd({ sessionUpdate: 'tool_call_update', toolCallId: 't5', content: [{ type: 'diff', changes: [{ operation: 'modify', path: '/w/a.ts' }], patch: { format: 'git_patch', text: '@@ -1,2 +1 @@\n-a' } }] });
    assert.deepEqual((garbled.update as { content: unknown[] }).content, [{ type: '_patch', path: '/w/a.ts', operation: 'modify', hunks: [] }]);
    assert.match(garbled.problems.join(), /the patch could not be read/);
  });

  it('diffs: a huge patch is bounded (lines cut and counted), and the archive reads a _patch back checked again', () => {
    const lines = Array.from({ length: 25_000 }, (_, i) => `+line ${i}`);
    const text = `--- /dev/null\n+++ /w/big.txt\n@@ -0,0 +1,${lines.length} @@\n${lines.join('\n')}\n`;
    const r = upd({ sessionUpdate: 'tool_call_update', toolCallId: 't', content: [{ type: 'diff', changes: [{ operation: 'add', path: '/w/big.txt' }], patch: { format: 'git_patch', text } }] });
    const [big] = (r.update as unknown as { content: { hunks: { lines: string[] }[]; cut: number }[] }).content;
    assert.equal(big?.hunks[0]?.lines.length, 20_000);
    assert.equal(big?.cut, 5_000);
    const archived = { sessionUpdate: 'tool_call_update', toolCallId: 't', content: [{ type: '_patch', path: '/w/a', operation: 'modify', hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b', 7] }, { oldStart: 'x' }] }] };
    const problems: string[] = [];
    const back = decodeSessionUpdate(archived, problems) as { content: unknown[] };
    assert.deepEqual(back.content, [{ type: '_patch', path: '/w/a', operation: 'modify', hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] }] }]);
    assert.match(problems.join(), /a hunk of \/w\/a left out/);
  });

  it('plans, config options (configId), notices and the rest go through the shared decoder', () => {
    const plan = upd({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [{ content: 'x', priority: 'high', status: 'pending' }] } }).update;
    assert.equal(plan.sessionUpdate, 'plan_update');
    assert.deepEqual(upd({ sessionUpdate: 'plan_removed', planId: 'p' }).update, { sessionUpdate: 'plan_removed', planId: 'p' });
    const opts = upd({ sessionUpdate: 'config_option_update', configOptions: [{ configId: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] }] }).update as { configOptions: { id: string }[] };
    assert.deepEqual(opts.configOptions.map((o) => o.id), ['model']);
    assert.equal(upd({ sessionUpdate: 'notice', severity: 'warning', title: 'Hm' }).update.sessionUpdate, 'notice');
    const term = upd({ sessionUpdate: 'terminal_output_chunk', terminalId: 'x', data: 'bHM=' });
    assert.deepEqual(term.update, { sessionUpdate: '_terminal', terminalId: 'x', data: 'bHM=' }, 'an agent-owned terminal (see the transcript test)');
  });

  it('state_update and replay_complete are the connection’s, not updates', () => {
    assert.deepEqual(v2({ sessionUpdate: 'state_update', state: 'running', background: [] }), { kind: 'state', sessionId: 's1', state: { state: 'running' }, problems: [] });
    assert.deepEqual(v2({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'max_tokens' }), { kind: 'state', sessionId: 's1', state: { state: 'idle', stopReason: 'max_tokens' }, problems: [] });
    const failed = v2({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { code: -32603, message: 'model down' } });
    assert.deepEqual(failed.kind === 'state' && failed.state, { state: 'idle', stopReason: 'error', error: 'model down' });
    const bad = v2({ sessionUpdate: 'state_update', state: 'idle', stopReason: 7 });
    assert.deepEqual(bad.kind === 'state' && bad.state, { state: 'idle' }, 'a malformed stopReason is not reported');
    assert.match(bad.problems.join(), /stopReason/);
    const none = v2({ sessionUpdate: 'state_update' });
    assert.notEqual(none.kind === 'state' && none.state.state, 'idle', 'no state is never idle');
    assert.deepEqual(v2({ sessionUpdate: 'replay_complete' }), { kind: 'replay_complete', sessionId: 's1', problems: [] });
    assert.equal(decodeV2Notification({ update: { sessionUpdate: 'state_update', state: 'idle' } }), undefined, 'no sessionId');
  });

  it('v1 shapes on a v2 connection are decoded all the same and named', () => {
    for (const u of [
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Old', kind: 'read' },
      { sessionUpdate: 'plan', entries: [] },
      { sessionUpdate: 'current_mode_update', currentModeId: 'ask' },
    ]) {
      const r = upd(u);
      assert.equal(r.update.sessionUpdate, u.sessionUpdate);
      assert.match(r.problems.join(), /a v1 update on a v2 connection/);
    }
  });

  it('the archive reads the v2 kinds back', () => {
    for (const u of [
      { sessionUpdate: '_message', role: 'agent', messageId: 'a', content: [text('x')] },
      { sessionUpdate: '_tool_content_chunk', toolCallId: 't', contents: [{ type: 'content', content: text('y') }] },
      { sessionUpdate: '_terminal', terminalId: 'term', data: 'b2sK', exitStatus: { exitCode: 0, signal: null } },
    ]) assert.deepEqual(decodeSessionUpdate(JSON.parse(JSON.stringify(u)), []), u);
    assert.equal(decodeSessionUpdate({ sessionUpdate: '_message', role: 'robot', messageId: 'a' }, []).sessionUpdate, '_unsupported');
    // A chunk archived before chunks could hold several contents (`content`, one).
    assert.deepEqual(decodeSessionUpdate({ sessionUpdate: '_tool_content_chunk', toolCallId: 't', content: { type: 'content', content: text('y') } }, []), {
      sessionUpdate: '_tool_content_chunk',
      toolCallId: 't',
      contents: [{ type: 'content', content: text('y') }],
    });
  });
});

describe('ACP v2: upserts in the transcript', () => {
  const apply = (t: Transcript, u: unknown) => t.apply(upd(u).update);

  it('a message: created, replaced, cleared, kept when content is omitted; chunks append to it', () => {
    const t = new Transcript();
    apply(t, { sessionUpdate: 'agent_message', messageId: 'a', content: [text('Draft')] });
    const msg = t.items[0] as MessageItem;
    assert.equal(msg.text, 'Draft');
    const put = apply(t, { sessionUpdate: 'agent_message', messageId: 'a', content: [text('Final ')] });
    assert.deepEqual(put.map((c) => c.c), ['put']);
    apply(t, { sessionUpdate: 'agent_message_chunk', messageId: 'a', content: text('answer') });
    assert.equal(msg.text, 'Final answer');
    assert.deepEqual(apply(t, { sessionUpdate: 'agent_message', messageId: 'a' }), [], 'omitted: unchanged');
    assert.equal(msg.text, 'Final answer');
    apply(t, { sessionUpdate: 'agent_message', messageId: 'a', content: null });
    assert.equal(msg.text, '');
    assert.equal(t.items.length, 1, 'one message throughout');
    apply(t, { sessionUpdate: 'agent_thought', messageId: 'a', content: [text('thinking')] });
    assert.equal(t.items.length, 2, 'ids are per kind');
  });

  it('a tool call: created by its first update, fields kept or cleared, content chunks append; a chunk for an unknown id makes the call', () => {
    const t = new Transcript();
    apply(t, { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Run tests', kind: 'execute', status: 'in_progress', locations: [{ path: '/w/a' }] });
    apply(t, { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't1', content: { type: 'content', content: text('ok 1') } });
    apply(t, { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't1', content: { type: 'content', content: text('ok 2') } });
    apply(t, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', locations: null });
    const tool = t.tool('t1') as ToolItem;
    assert.deepEqual([tool.title, tool.toolKind, tool.status, tool.locations.length], ['Run tests', 'execute', 'completed', 0]);
    assert.equal(tool.content.length, 2);
    apply(t, { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'ghost', content: { type: 'content', content: text('late') } });
    assert.equal(t.tool('ghost')?.content.length, 1, 'not lost');
  });

  it('an agent-owned terminal: its output chunks (a character split between two) and its exit show in the tool call that references it', () => {
    const t = new Transcript();
    apply(t, { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'npm test', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-1' }] });
    apply(t, { sessionUpdate: 'terminal_update', terminalId: 'term-1', command: 'npm test', cwd: '/w' });
    const bytes = Buffer.from('tests: ✓ 12 passed\n', 'utf8');
    const cut = bytes.indexOf(0x9c); // inside ✓ (e2 9c 93)
    apply(t, { sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: bytes.subarray(0, cut).toString('base64') });
    const deltas = apply(t, { sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: bytes.subarray(cut).toString('base64') });
    assert.ok(deltas.some((d) => d.c === 'term' || d.c === 'put'), JSON.stringify(deltas));
    apply(t, { sessionUpdate: 'terminal_update', terminalId: 'term-1', exitStatus: { exitCode: 1, signal: null } });
    const shown = (t.tool('t1') as ToolItem).content[0] as { type: string; output?: string; exitStatus?: unknown };
    assert.deepEqual([shown.type, shown.output, shown.exitStatus], ['terminal', 'tests: ✓ 12 passed\n', { exitCode: 1, signal: null }]);
    // Bad input: data that is not base64 is skipped and said; a terminal update without an id is unsupported.
    const bad = upd({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: 'not base64!' });
    assert.deepEqual([bad.update.sessionUpdate, 'data' in bad.update, bad.problems.length], ['_terminal', false, 1]);
    assert.equal(upd({ sessionUpdate: 'terminal_update', exitStatus: { exitCode: 0 } }).update.sessionUpdate, '_unsupported');
  });

  it('the prompt echoed whole (user_message) is not shown twice', () => {
    const t = new Transcript();
    t.addUserPrompt('Hello there');
    const u = upd({ sessionUpdate: 'user_message', messageId: 'm1', content: [text('Hello there')] }).update;
    assert.equal(t.consumeEcho(u), true);
  });
});

describe('ACP v2: the connection', () => {
  async function v2Peer() {
    const p = connectPeer({ protocolVersion: 2 });
    const pending = p.conn.initialize();
    const req = await p.next((m) => m.method === 'initialize');
    p.send({ id: req.id, result: { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: { session: {} } } });
    await pending;
    return { p, init: req };
  }

  it('initialize offers 2 with info and one capabilities object, no fs or terminal', async () => {
    const { p, init } = await v2Peer();
    assert.equal(init.params.protocolVersion, 2);
    assert.deepEqual(init.params.info, { name: 'test', version: '0.0.0' });
    assert.equal(init.params.clientInfo, undefined);
    assert.equal(init.params.clientCapabilities, undefined);
    assert.deepEqual(init.params.capabilities.auth, { terminal: {} });
    assert.equal(init.params.capabilities.fs, undefined);
    assert.equal(init.params.capabilities.terminal, undefined);
    assert.equal(p.conn.protocolVersion, 2);
  });

  it('sign-in over v2 is auth/login (the method id and _meta as v1 authenticate sends them); Sign Out is auth/logout', async () => {
    const { p } = await v2Peer();
    const login = p.conn.authenticate('api-key', undefined, { 'api-key': { key: 'k' } });
    const req = await p.next((m) => m.method === 'auth/login');
    assert.deepEqual(req.params, { methodId: 'api-key', _meta: { 'api-key': { key: 'k' } } });
    p.send({ id: req.id, result: {} });
    await login;
    const logout = p.conn.logout();
    const out = await p.next((m) => m.method === 'auth/logout');
    p.send({ id: out.id, result: {} });
    await logout;
    assert.equal(p.received.some((m) => m.method === 'authenticate' || m.method === 'logout'), false, 'no v1 names over v2');
  });

  it('an agent answering v1 to the v2 offer is a ProtocolVersionError (the manager then starts it again with v1)', async () => {
    const p = connectPeer({ protocolVersion: 2 });
    const pending = p.conn.initialize();
    const req = await p.next((m) => m.method === 'initialize');
    p.send({ id: req.id, result: { protocolVersion: 1, agentCapabilities: {} } });
    await assert.rejects(pending, (e: unknown) => e instanceof ProtocolVersionError && e.offered === 2);
    assert.equal(p.conn.isClosed, true);
  });

  it('a turn: the acknowledgement does not end it; the idle state_update does, after every update before it', async () => {
    const { p } = await v2Peer();
    const seen: string[] = [];
    p.conn.onSessionUpdate(async (n: DecodedNotification) => {
      await tick(2);
      seen.push(n.update.sessionUpdate);
    });
    let ended = false;
    const turn = p.conn.prompt({ sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }] }).then((r) => ((ended = true), r));
    const req = await p.next((m) => m.method === 'session/prompt');
    p.send({ id: req.id, result: { messageId: 'u1' } });
    p.send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'state_update', state: 'running' } } });
    p.send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', messageId: 'a', content: text('x') } } });
    await tick(20);
    assert.equal(ended, false, 'acknowledged, still running');
    p.send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 't', title: 'T' } } });
    p.send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' } } });
    assert.deepEqual(await turn, { stopReason: 'end_turn' });
    assert.deepEqual(seen, ['agent_message_chunk', 'tool_call_update']);
    assert.equal(p.logs.filter((l) => l.startsWith('warn')).length, 0, p.logs.join('\n'));
  });

  it('an idle snapshot before the agent took the prompt up does not end it; a cancelled turn ends cancelled', async () => {
    const { p } = await v2Peer();
    let ended = false;
    const turn = p.conn.prompt({ sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }] }).then((r) => ((ended = true), r));
    const req = await p.next((m) => m.method === 'session/prompt');
    p.send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'state_update', state: 'idle' } } });
    await tick(20);
    assert.equal(ended, false);
    p.send({ id: req.id, result: { messageId: 'u1' } });
    await p.conn.cancel('s1');
    p.send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' } } });
    assert.deepEqual(await turn, { stopReason: 'cancelled' });
  });

  it('a prompt never acknowledged: the turn still ends with its state_update, and that is logged', async () => {
    const { p } = await v2Peer();
    const turn = p.conn.prompt({ sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }] });
    await p.next((m) => m.method === 'session/prompt');
    p.send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' } } });
    assert.deepEqual(await turn, { stopReason: 'end_turn' });
    assert.ok(p.logs.some((l) => /before the agent acknowledged the prompt/.test(l)), p.logs.join('\n'));
  });

  it('never a hang: a refused prompt, an error stop, a closed connection and an acknowledgement without messageId', async () => {
    const { p } = await v2Peer();
    const refused = p.conn.prompt({ sessionId: 's1', prompt: [{ type: 'text', text: 'a' }] });
    const r1 = await p.next((m) => m.method === 'session/prompt');
    p.send({ id: r1.id, error: { code: -32602, message: 'empty prompt' } });
    await assert.rejects(refused, (e: unknown) => e instanceof AgentError && e.code === -32602);

    const failed = p.conn.prompt({ sessionId: 's2', prompt: [{ type: 'text', text: 'b' }] });
    const r2 = await p.next((m) => m.method === 'session/prompt' && m.params.sessionId === 's2');
    p.send({ id: r2.id, result: {} });
    p.send({ method: 'session/update', params: { sessionId: 's2', update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { code: 1, message: 'model down' } } } });
    await assert.rejects(failed, (e: unknown) => e instanceof AgentError && /model down/.test(e.message));
    assert.ok(p.logs.some((l) => /acknowledgement has no messageId/.test(l)));

    const lost = p.conn.prompt({ sessionId: 's3', prompt: [{ type: 'text', text: 'c' }] });
    const r3 = await p.next((m) => m.method === 'session/prompt' && m.params.sessionId === 's3');
    p.send({ id: r3.id, result: { messageId: 'u3' } });
    await tick(10);
    p.end();
    await assert.rejects(lost, (e: unknown) => e instanceof ConnectionClosedError);
  });

  it('state_update for a session with no turn reaches the state handler (the runtime logs one not open there)', async () => {
    const { p } = await v2Peer();
    const states: string[] = [];
    p.conn.onSessionState((sessionId, s) => states.push(`${sessionId}:${s.state}:${s.stopReason ?? ''}`));
    p.send({ method: 'session/update', params: { sessionId: 'elsewhere', update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' } } });
    await tick(20);
    assert.deepEqual(states, ['elsewhere:idle:end_turn']);
  });

  it('a load (resume from the start) answered without replay_complete is a cut replay, said once; one with it is not', async () => {
    const { p } = await v2Peer();
    for (const [id, complete] of [['whole', true], ['cut', false]] as const) {
      const answer = p.conn.loadSession({ sessionId: id, cwd: '/w', mcpServers: [] });
      const req = await p.next((m) => m.method === 'session/resume' && m.params.sessionId === id);
      p.send({ method: 'session/update', params: { sessionId: id, update: { sessionUpdate: 'agent_message', messageId: 'm', content: [text('earlier')] } } });
      if (complete) p.send({ method: 'session/update', params: { sessionId: id, update: { sessionUpdate: 'replay_complete' } } });
      p.send({ id: req.id, result: {} });
      await answer;
      assert.equal(p.conn.replayCut(id), !complete, id);
      assert.equal(p.conn.replayCut(id), false, 'asked once');
    }
    // A replay_complete for a session not being loaded changes nothing.
    p.send({ method: 'session/update', params: { sessionId: 'other', update: { sessionUpdate: 'replay_complete' } } });
    await tick(10);
    assert.equal(p.conn.replayCut('other'), false);
  });

  it('the config options of session/new, resume (load), fork and set_config_option answers are named as v1 names them', async () => {
    const { p } = await v2Peer();
    const options = [{ configId: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'auto', options: [{ value: 'default', name: 'Manual' }] }];
    const calls: [string, () => Promise<unknown>][] = [
      ['session/new', () => p.conn.newSession({ cwd: '/w', mcpServers: [] })],
      ['session/resume', () => p.conn.loadSession({ sessionId: 's1', cwd: '/w', mcpServers: [] })],
      ['session/fork', () => p.conn.forkSession({ sessionId: 's1', cwd: '/w', mcpServers: [] })],
      ['session/set_config_option', () => p.conn.setConfigOption({ sessionId: 's1', configId: 'mode', value: 'default' })],
    ];
    for (const [method, call] of calls) {
      const answer = call();
      const req = await p.next((m) => m.method === method);
      // v2 tags a select's value (`type: "id"`; claude-agent-acp 0.101 refuses it untagged with -32602).
      if (method === 'session/set_config_option') assert.deepEqual(req.params, { sessionId: 's1', configId: 'mode', type: 'id', value: 'default' });
      p.send({ id: req.id, result: { sessionId: 's1', configOptions: options } });
      const r = (await answer) as { configOptions: { id: string; configId: string }[] };
      assert.deepEqual(r.configOptions.map((o) => o.id), ['mode'], method);
    }
  });

  it('v2 MCP servers name their transport; a permission’s subject.toolCall is read as its toolCall', async () => {
    const { p } = await v2Peer();
    void p.conn.newSession({ cwd: '/w', mcpServers: [{ name: 'vscode-editor', command: 'node', args: [], env: [] }] });
    const req = await p.next((m) => m.method === 'session/new');
    assert.equal(req.params.mcpServers[0].type, 'stdio');
    let got: any;
    p.conn.onClientRequest('session/request_permission', (params) => ((got = params), { outcome: { outcome: 'cancelled' } }));
    const diff = { type: 'diff', changes: [{ operation: 'move', oldPath: '/w/a.ts', path: '/w/.git/hooks/pre-commit' }] };
    p.send({ id: 99, method: 'session/request_permission', params: { sessionId: 's1', title: 'Edit a.ts', subject: { type: 'tool_call', toolCall: { toolCallId: 't9', title: 'Edit a.ts', content: [diff] } }, options: [] } });
    await p.next((m) => m.id === 99 && m.result !== undefined);
    assert.equal(got.toolCall.toolCallId, 't9');
    // Its v2 diff is read as one `_patch` per file: the paths the permission policy checks.
    assert.deepEqual(got.toolCall.content, [{ type: '_patch', path: '/w/.git/hooks/pre-commit', oldPath: '/w/a.ts', operation: 'move', hunks: [] }]);
    // Without a tool call as its subject: a tool call of its own, one per question even when two share a title.
    const ids: string[] = [];
    for (const id of [100, 101]) {
      p.send({ id, method: 'session/request_permission', params: { sessionId: 's1', title: 'Go online?', options: [] } });
      await p.next((m) => m.id === id && m.result !== undefined);
      assert.equal(got.toolCall.title, 'Go online?');
      ids.push(got.toolCall.toolCallId);
    }
    assert.notEqual(ids[0], ids[1]);
  });
});
