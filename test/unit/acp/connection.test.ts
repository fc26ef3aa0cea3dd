import * as assert from 'node:assert/strict';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import { ProtocolVersionError } from '../../../src/acp/connection';
import { AgentError, ConnectionClosedError } from '../../../src/acp/errors';
import type { DecodedNotification } from '../../../src/acp/decode';
import { connectPeer } from './peer';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe('AcpConnection', () => {
  it('initialize: sends version 1, clientInfo and capabilities; decodes the answer', async () => {
    const p = connectPeer();
    const pending = p.conn.initialize();
    const req = await p.next((m) => m.method === 'initialize');
    assert.equal(req.params.protocolVersion, 1);
    assert.deepEqual(req.params.clientInfo, { name: 'test', version: '0.0.0' });
    assert.equal(req.params.clientCapabilities.auth.terminal, true);
    p.send({ id: req.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [{ id: 'a', name: 'A' }, 'bad'], agentInfo: { name: 'x', version: '1' } } });
    const r = await pending;
    assert.equal(r.agentCapabilities.loadSession, true);
    assert.deepEqual(r.authMethods.map((m) => m.id), ['a']);
    assert.ok(p.logs.some((l) => /authMethods\[1\]: skipped/.test(l)));
  });

  it('initialize: a different protocol version is a clear error and closes the connection', async () => {
    const p = connectPeer();
    const pending = p.conn.initialize();
    const req = await p.next((m) => m.method === 'initialize');
    p.send({ id: req.id, result: { protocolVersion: 2 } });
    await assert.rejects(pending, (e: Error) => e instanceof ProtocolVersionError && /version 2.*version 1/.test(e.message));
    assert.equal(p.conn.isClosed, true);
  });

  it('an error answer becomes an AgentError with its code (auth required, not found)', async () => {
    const p = connectPeer();
    const pending = p.conn.newSession({ cwd: '/w', mcpServers: [] });
    const req = await p.next((m) => m.method === 'session/new');
    assert.deepEqual(req.params, { cwd: '/w', mcpServers: [] });
    p.send({ id: req.id, error: { code: -32000, message: 'Authentication required' } });
    await assert.rejects(pending, (e: unknown) => e instanceof AgentError && e.isAuthRequired && e.method === 'session/new');
  });

  it('session/cancel is a notification (no id)', async () => {
    const p = connectPeer();
    await p.conn.cancel('s1');
    const m = await p.next((x) => x.method === 'session/cancel');
    assert.equal(m.id, undefined);
    assert.deepEqual(m.params, { sessionId: 's1' });
  });

  it('cancelling an outgoing request sends $/cancel_request {requestId} (not $/cancelRequest)', async () => {
    const p = connectPeer();
    const cts = new CancellationTokenSource();
    const pending = p.conn.listSessions({}, cts.token);
    const req = await p.next((m) => m.method === 'session/list');
    cts.cancel();
    const cancel = await p.next((m) => m.method === '$/cancel_request');
    assert.deepEqual(cancel.params, { requestId: req.id });
    assert.equal(p.received.some((m) => m.method === '$/cancelRequest'), false);
    p.send({ id: req.id, error: { code: -32800, message: 'cancelled' } });
    await assert.rejects(pending, (e: unknown) => e instanceof AgentError && e.isCancelled);
  });

  it('an incoming $/cancel_request cancels the token of the request being served', async () => {
    const p = connectPeer();
    let sawCancel = false;
    p.conn.onClientRequest('session/request_permission', async (_params, token) => {
      while (!token.isCancellationRequested) await tick(2);
      sawCancel = true;
      throw new ResponseError(-32800, 'cancelled');
    });
    p.send({ id: 'perm-1', method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [] } });
    await tick(10);
    p.send({ method: '$/cancel_request', params: { requestId: 'perm-1' } });
    const res = await p.next((m) => m.id === 'perm-1');
    assert.equal(sawCancel, true);
    assert.equal(res.error.code, -32800);
  });

  it('requests from the agent: served when handled, -32601 when unknown (also vendor names without "_")', async () => {
    const p = connectPeer();
    p.conn.onClientRequest('fs/read_text_file', () => ({ content: 'hi' }));
    p.send({ id: 1, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } });
    p.send({ id: 2, method: 'zed.dev/whatever', params: {} });
    p.send({ id: 3, method: '_vendor/thing', params: {} });
    assert.deepEqual((await p.next((m) => m.id === 1)).result, { content: 'hi' });
    assert.equal((await p.next((m) => m.id === 2)).error.code, -32601);
    assert.equal((await p.next((m) => m.id === 3)).error.code, -32601);
  });

  it('a handler that throws answers -32603 with its message, and the connection goes on', async () => {
    const p = connectPeer();
    p.conn.onClientRequest('fs/write_text_file', () => {
      throw new Error('disk full');
    });
    p.send({ id: 9, method: 'fs/write_text_file', params: {} });
    const res = await p.next((m) => m.id === 9);
    assert.equal(res.error.code, -32603);
    assert.match(res.error.message, /disk full/);
  });

  it('unknown notifications are ignored; garbage lines are skipped; later messages still arrive', async () => {
    const p = connectPeer();
    const got: DecodedNotification[] = [];
    p.conn.onSessionUpdate((n) => {
      got.push(n);
    });
    p.send({ method: 'some/unknown', params: {} });
    p.sendRaw('not json at all\n{"partial": \n');
    p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } } } });
    await tick(20);
    assert.equal(got.length, 1);
    assert.equal(p.logs.filter((l) => /Skipped a line/.test(l)).length, 2);
  });

  it('delivers updates in arrival order per session even with an async handler', async () => {
    const p = connectPeer();
    const seen: string[] = [];
    p.conn.onSessionUpdate(async (n) => {
      const text = (n.update as any).content.text as string;
      await tick(text === '0' ? 30 : 1);
      seen.push(text);
    });
    // (Separate messages: consecutive chunks of one message would be joined.)
    for (let i = 0; i < 10; i++) {
      p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', messageId: `m${i}`, content: { type: 'text', text: String(i) } } } });
    }
    await tick(20);
    await p.conn.drainSession('s');
    assert.deepEqual(seen, ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('over v1, the kinds ACP v2 upserts become (_message, _tool_content_chunk) are not taken from the agent', async () => {
    const p = connectPeer();
    const seen: string[] = [];
    p.conn.onSessionUpdate((n) => void seen.push(n.update.sessionUpdate));
    p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: '_message', role: 'user', messageId: 'u1', content: null } } });
    p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: '_tool_content_chunk', toolCallId: 't', content: { type: 'content', content: { type: 'text', text: 'x' } } } } });
    p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } } } });
    await tick(20);
    await p.conn.drainSession('s');
    assert.deepEqual(seen, ['agent_message_chunk']);
  });

  it('prompt: handles the turn updates before resolving with the stop reason', async () => {
    const p = connectPeer();
    const seen: string[] = [];
    p.conn.onSessionUpdate(async (n) => {
      await tick(5);
      const u = n.update as any;
      seen.push(u.content?.text ?? u.title);
    });
    const pending = p.conn.prompt({ sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] });
    const req = await p.next((m) => m.method === 'session/prompt');
    for (const t of ['a', 'b', 'c']) p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: t } } } });
    p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'd' } } });
    p.send({ id: req.id, result: { stopReason: 'end_turn' } });
    const r = await pending;
    assert.equal(r.stopReason, 'end_turn');
    // The three chunks of one thought arrive joined, all before the tool call and the answer.
    assert.deepEqual(seen, ['abc', 'd']);
  });

  it('joins consecutive plain text chunks of one message, never across messages, kinds, sessions or anything else; keeps the order', async () => {
    const p = connectPeer();
    const seen: string[] = [];
    p.conn.onSessionUpdate((n) => {
      const u = n.update as any;
      seen.push(`${n.sessionId}:${u.sessionUpdate}:${u.messageId ?? ''}:${u.content?.text ?? u.toolCallId}`);
    });
    const chunk = (text: string, extra: object = {}, sessionId = 's', kind = 'agent_message_chunk') =>
      p.send({ method: 'session/update', params: { sessionId, update: { sessionUpdate: kind, content: { type: 'text', text }, ...extra } } });
    let all = '';
    for (let i = 0; i < 2000; i++) {
      chunk(`w${i} `);
      all += `w${i} `;
    }
    chunk('x', { messageId: 'm2' });
    chunk('y', { messageId: 'm2' });
    chunk('z', {}, 's', 'agent_thought_chunk');
    chunk('other session', {}, 's2');
    chunk('annotated', { _meta: { k: 1 } });
    chunk('plain');
    p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'with annotations', annotations: { priority: 1 } } } } });
    p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 'tc' } } });
    chunk('after');
    await tick(30);
    assert.deepEqual(seen, [
      `s:agent_message_chunk::${all}`,
      's:agent_message_chunk:m2:xy',
      's:agent_thought_chunk::z',
      's2:agent_message_chunk::other session',
      's:agent_message_chunk::annotated',
      's:agent_message_chunk::plain',
      's:agent_message_chunk::with annotations',
      's:tool_call::tc',
      's:agent_message_chunk::after',
    ]);
  });

  it('a pending call fails with ConnectionClosedError when the agent closes its output', async () => {
    const p = connectPeer();
    const pending = p.conn.prompt({ sessionId: 's', prompt: [] });
    await p.next((m) => m.method === 'session/prompt');
    p.end();
    await assert.rejects(pending, (e: unknown) => e instanceof ConnectionClosedError && /session\/prompt/.test((e as Error).message));
    assert.equal(p.conn.isClosed, true);
    await assert.rejects(p.conn.newSession({ cwd: '/', mcpServers: [] }), ConnectionClosedError);
  });

  it('the trace hook sees both directions', async () => {
    const seen: string[] = [];
    const p = connectPeer({ trace: (dir, m) => seen.push(`${dir}:${(m as any).method ?? 'response'}`) });
    const pending = p.conn.listSessions({});
    const req = await p.next((m) => m.method === 'session/list');
    p.send({ id: req.id, result: { sessions: [] } });
    await pending;
    assert.deepEqual(seen, ['send:session/list', 'receive:response']);
  });
});
