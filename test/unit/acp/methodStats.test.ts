import * as assert from 'node:assert/strict';
import { ResponseError } from 'vscode-jsonrpc/node';
import { MAX_METHOD_CHARS, MAX_METHODS, MethodStats, type MethodCount } from '../../../src/acp/methodStats';
import { connectPeer } from './peer';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
const find = (list: readonly MethodCount[], method: string) => list.find((m) => m.method === method);

describe('MethodStats: what crossed a connection', () => {
  it('counts both directions on a real connection: notifications, requests and how each ended', async () => {
    const p = connectPeer();
    p.conn.onClientRequest('fs/read_text_file', () => ({ content: 'hi' }));
    p.conn.onClientRequest('fs/write_text_file', () => {
      throw new ResponseError(-32002, 'not found');
    });
    p.conn.onSessionUpdate(() => {});
    for (let i = 0; i < 5; i++) p.send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `w${i}` } } } });
    p.send({ id: 'r1', method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } });
    p.send({ id: 'r2', method: 'fs/read_text_file', params: { sessionId: 's', path: '/b' } });
    p.send({ id: 7, method: 'fs/write_text_file', params: { sessionId: 's', path: '/c', content: '' } });
    p.send({ id: 8, method: 'x/invented', params: {} });
    p.send({ method: 'x/note', params: {} });
    await p.next((m) => m.id === 8);
    await p.next((m) => m.id === 7);

    const list = p.conn.listSessions({});
    const req = await p.next((m) => m.method === 'session/list');
    p.send({ id: req.id, result: { sessions: [] } });
    await list;
    const fail = p.conn.newSession({ cwd: '/w', mcpServers: [] });
    const req2 = await p.next((m) => m.method === 'session/new');
    p.send({ id: req2.id, error: { code: -32000, message: 'Authentication required' } });
    await assert.rejects(fail);
    await p.conn.cancel('s');
    await tick();

    const s = p.conn.stats.snapshot();
    assert.deepEqual(find(s.in, 'session/update'), { method: 'session/update', requests: 0, notifications: 5, ok: 0, errors: 0, errorCodes: [], otherErrorCodes: 0 }, 'every chunk counts, joined or not');
    assert.deepEqual({ ...find(s.in, 'fs/read_text_file'), errorCodes: undefined }, { method: 'fs/read_text_file', requests: 2, notifications: 0, ok: 2, errors: 0, errorCodes: undefined, otherErrorCodes: 0 });
    assert.deepEqual(find(s.in, 'fs/write_text_file')?.errorCodes, [{ code: -32002, count: 1 }]);
    assert.deepEqual(find(s.in, 'x/invented')?.errorCodes, [{ code: -32601, count: 1 }], 'a method nobody serves is answered method-not-found, and counted');
    assert.equal(find(s.in, 'x/note')?.notifications, 1);
    assert.deepEqual([find(s.out, 'session/list')?.requests, find(s.out, 'session/list')?.ok], [1, 1]);
    assert.deepEqual([find(s.out, 'session/new')?.errors, find(s.out, 'session/new')?.errorCodes], [1, [{ code: -32000, count: 1 }]]);
    assert.equal(find(s.out, 'session/cancel')?.notifications, 1);
  });

  it('counts a request that is never answered as sent, not as answered', async () => {
    const p = connectPeer();
    void p.conn.prompt({ sessionId: 's', prompt: [] }).catch(() => {});
    await p.next((m) => m.method === 'session/prompt');
    const m = find(p.conn.stats.snapshot().out, 'session/prompt')!;
    assert.deepEqual([m.requests, m.ok, m.errors], [1, 0, 0]);
    p.conn.dispose();
  });

  it('counts lines that are not JSON-RPC', async () => {
    const p = connectPeer();
    p.sendRaw('this is not json\n');
    p.send({ method: 'x/after' });
    await tick(20);
    assert.equal(p.conn.stats.snapshot().invalidLines, 1);
  });

  it('keeps at most MAX_METHODS names per direction; the rest are counted together', () => {
    const s = new MethodStats();
    for (let i = 0; i < MAX_METHODS + 36; i++) s.notification('in', `x/m${i}`);
    s.notification('in', 'x/m0');
    s.notification('out', 'session/cancel');
    const snap = s.snapshot();
    assert.equal(snap.in.length, MAX_METHODS);
    assert.equal(snap.overflow.in, 36);
    assert.equal(find(snap.in, 'x/m0')?.notifications, 2, 'a known name still counts once the cap is reached');
    assert.equal(snap.out.length, 1, 'the directions are capped apart');
  });

  it('cuts long method names, and keeps error codes bounded per method', () => {
    const s = new MethodStats();
    const long = 'x/'.padEnd(10_000, 'a');
    s.request('in', long, 1);
    s.request('in', long, 2);
    s.answered(1);
    s.answered(2, -1);
    s.answered(99);
    const snap = s.snapshot();
    assert.equal(snap.in.length, 1);
    assert.equal(snap.in[0]!.method.length, MAX_METHOD_CHARS);
    assert.deepEqual([snap.in[0]!.requests, snap.in[0]!.ok, snap.in[0]!.errors], [2, 1, 1]);
    for (let code = 0; code < 20; code++) {
      s.request('out', 'session/new');
      s.outcome('session/new', code);
    }
    const m = find(s.snapshot().out, 'session/new')!;
    assert.equal(m.errors, 20);
    assert.equal(m.errorCodes.length, 8);
    assert.equal(m.otherErrorCodes, 12);
  });
});
