// The loopback Streamable HTTP bridge (src/node/mcpRelay/httpBridge.ts) for real:
// a node:http server on 127.0.0.1, real HTTP requests, real server processes
// (test/fixtures/mcp/stdioServer.mjs, and a raw line echo for byte-exactness).
// Auth (bearer token, Host and Origin), JSON and SSE answers, Mcp-Session-Id,
// 202 for notifications, 405 for GET, DELETE, the bounds, and hostile clients.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpHttpBridge, type BridgedServer, type HttpBridgeLimits } from '../../../src/node/mcpRelay/httpBridge';

const ROOT = path.resolve(__dirname, '../../../..');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'mcp', 'stdioServer.mjs');
/** Answers every request line with a fixed, oddly spaced line (so byte-exactness shows), records every raw line; sends a notification first for ids ≥ 100; never answers id 666. */
const RAW_ECHO = `
const fs = require('node:fs');
let buf = '';
process.stdin.on('data', (c) => {
  buf += c;
  let nl;
  while ((nl = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
    fs.appendFileSync(process.argv[1], line + '\\n');
    const m = JSON.parse(line);
    if (Array.isArray(m)) { process.stdout.write(JSON.stringify(m.filter((x) => x.id !== undefined).map((x) => ({ jsonrpc: '2.0', id: x.id, result: {} }))) + '\\n'); continue; }
    if (m.id === undefined || m.id === 666) continue;
    if (m.id >= 100) process.stdout.write('{"jsonrpc":"2.0","method":"notifications/progress","params":{"n":1}}\\n');
    if (m.id === 200) process.stdout.write('{"jsonrpc":"2.0","id":"srv-1","method":"roots/list"}\\n');
    process.stdout.write('{"jsonrpc":"2.0",  "id":' + JSON.stringify(m.id) + ', "result":{"text":"ü \\\\u00fc"}}\\n');
  }
});`;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; abortAfterHeaders?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'POST', headers: opts.headers }, (res) => {
      if (opts.abortAfterHeaders) {
        req.destroy();
        return resolve({ status: res.statusCode!, headers: res.headers, body: '' });
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const JSON_ACCEPT = 'application/json';
const BOTH = 'application/json, text/event-stream';

describe('node/mcpRelay: the loopback Streamable HTTP bridge', function () {
  this.timeout(20_000);
  let bridge: McpHttpBridge;
  let logs: string[];
  let tmp: string;
  const children: { pid?: number; exitCode: number | null; signalCode: NodeJS.Signals | null }[] = [];

  const fixture = (name: string, record: string): BridgedServer => ({
    name,
    start: () => {
      const c = spawn(process.execPath, [SERVER, record], { stdio: ['pipe', 'pipe', 'pipe'] });
      children.push(c);
      return c;
    },
  });
  const raw = (record: string): BridgedServer => ({
    name: 'raw',
    start: () => {
      const c = spawn(process.execPath, ['-e', RAW_ECHO, record], { stdio: ['pipe', 'pipe', 'pipe'] });
      children.push(c);
      return c;
    },
  });

  async function setup(servers: (rec: string) => BridgedServer[], limits: HttpBridgeLimits = {}) {
    logs = [];
    bridge = new McpHttpBridge((m) => logs.push(m), limits);
    const record = path.join(tmp, `rec-${Date.now()}-${Math.random()}.jsonl`);
    const reg = await bridge.register(servers(record));
    const auth = { authorization: `Bearer ${reg.token}` };
    const post = (i: number, body: unknown, headers: Record<string, string> = {}) =>
      request(reg.urls[i]!, { headers: { 'content-type': 'application/json', accept: JSON_ACCEPT, ...auth, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const init = async (i = 0, accept = JSON_ACCEPT) => {
      const r = await post(i, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, { accept });
      return { r, sid: r.headers['mcp-session-id'] as string };
    };
    return { reg, auth, post, init, record };
  }

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-http-'));
  });
  afterEach(() => {
    bridge.dispose();
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null && c.pid) process.kill(c.pid);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a whole MCP session over JSON answers: initialize gets an Mcp-Session-Id, notifications 202, tools listed and called; the token is in no log', async () => {
    const { reg, post, init, record } = await setup((rec) => [fixture('probe', rec)]);
    assert.match(reg.urls[0]!, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{24}\/0$/);
    assert.equal(reg.token.length, 64, '256 bits, hex');
    const { r, sid } = await init();
    assert.equal(r.status, 200);
    assert.match(r.headers['content-type']!, /^application\/json/);
    assert.match(sid, /^[0-9a-f]{32}$/);
    assert.equal(JSON.parse(r.body).result.serverInfo.name, 'acp-test-mcp');
    const n = await post(0, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sid });
    assert.deepEqual([n.status, n.body], [202, '']);
    const list = await post(0, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': sid });
    assert.deepEqual(JSON.parse(list.body).result.tools.map((t: { name: string }) => t.name), ['echo']);
    const call = await post(0, { jsonrpc: '2.0', id: 'c-3', method: 'tools/call', params: { name: 'echo', arguments: { text: 'über http' } } }, { 'mcp-session-id': sid });
    assert.deepEqual(JSON.parse(call.body), { jsonrpc: '2.0', id: 'c-3', result: { content: [{ type: 'text', text: 'echo: über http' }] } });
    const got = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { method?: string });
    assert.deepEqual(got.map((m) => m.method).filter(Boolean), ['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    assert.ok(!logs.join('\n').includes(reg.token));
  });

  it('byte-exact both ways; SSE when the client accepts it, with the server’s notification before the answer; a batch is answered as a batch', async () => {
    const { post, init, record } = await setup((rec) => [raw(rec)]);
    const { sid } = await init();
    const body = '{"jsonrpc":"2.0","id":5,   "method":"tools/call","params":{"s":"\\u00fc ü 𝄞"}}';
    const r = await post(0, body, { 'mcp-session-id': sid });
    assert.equal(r.body, '{"jsonrpc":"2.0",  "id":5, "result":{"text":"ü \\u00fc"}}', 'the server’s line, unchanged');
    assert.equal(fs.readFileSync(record, 'utf8').split('\n')[1], body, 'the client’s body, unchanged');
    // A body over several lines goes on one line (stdio frames are lines), same message.
    await post(0, '{\n  "jsonrpc": "2.0",\n  "id": 6,\n  "method": "ping"\n}', { 'mcp-session-id': sid });
    assert.equal(fs.readFileSync(record, 'utf8').split('\n')[2], '{"jsonrpc":"2.0","id":6,"method":"ping"}');
    const sse = await post(0, { jsonrpc: '2.0', id: 100, method: 'tools/call' }, { 'mcp-session-id': sid, accept: BOTH });
    assert.match(sse.headers['content-type']!, /^text\/event-stream/);
    assert.equal(sse.body, 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"n":1}}\n\nevent: message\ndata: {"jsonrpc":"2.0",  "id":100, "result":{"text":"ü \\u00fc"}}\n\n');
    const batch = await post(0, [{ jsonrpc: '2.0', id: 7, method: 'a' }, { jsonrpc: '2.0', method: 'notifications/x' }, { jsonrpc: '2.0', id: 8, method: 'b' }], { 'mcp-session-id': sid });
    assert.deepEqual(JSON.parse(batch.body).map((m: { id: number }) => m.id), [7, 8]);
  });

  it('a request of the server with no stream open is refused to the server (it does not wait for ever); on an SSE answer it is passed on', async () => {
    const { post, init, record } = await setup((rec) => [raw(rec)]);
    const { sid } = await init();
    const r = await post(0, { jsonrpc: '2.0', id: 200, method: 'x' }, { 'mcp-session-id': sid });
    assert.equal(JSON.parse(r.body).id, 200);
    // The refusal reaches the server before (or right after) the answer: wait for it in its record.
    const deadline = Date.now() + 5000;
    let lines: string[] = [];
    while (Date.now() < deadline && !(lines = fs.readFileSync(record, 'utf8').split('\n')).some((l) => l.includes('"srv-1"'))) await new Promise((res) => setTimeout(res, 20));
    assert.match(lines.find((l) => l.includes('"srv-1"'))!, /"error":\{"code":-32601/);
    assert.ok(logs.some((l) => /"raw": 1 message\(s\) of the server dropped \(no stream open\)/.test(l)), logs.join('\n'));
    const sse = await post(0, { jsonrpc: '2.0', id: 200, method: 'x' }, { 'mcp-session-id': sid, accept: BOTH });
    assert.match(sse.body, /"id":"srv-1","method":"roots\/list"/);
  });

  it('refuses without the token, with a wrong one, from another Host or Origin (DNS rebinding), on an unknown path — and starts nothing', async () => {
    const { reg, post } = await setup((rec) => [fixture('probe', rec)]);
    const initBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    const url = reg.urls[0]!;
    const port = new URL(url).port;
    const base = { 'content-type': 'application/json', accept: JSON_ACCEPT };
    const wrong = reg.token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const cases: [string, string, Record<string, string>, number][] = [
      ['no token', url, base, 401],
      ['a wrong token of the same length', url, { ...base, authorization: `Bearer ${wrong}` }, 401],
      ['a token prefix', url, { ...base, authorization: `Bearer ${reg.token.slice(0, 32)}` }, 401],
      ['basic auth', url, { ...base, authorization: `Basic ${reg.token}` }, 401],
      ['another registration', url.replace(/\/mcp\/[0-9a-f]+\//, '/mcp/000000000000000000000000/'), { ...base, authorization: `Bearer ${reg.token}` }, 401],
      ['a rebinding Host', url, { ...base, authorization: `Bearer ${reg.token}`, host: `evil.example:${port}` }, 403],
      ['a foreign Origin', url, { ...base, authorization: `Bearer ${reg.token}`, origin: 'http://evil.example' }, 403],
      ['a server index that is not there', url.replace(/\/0$/, '/7'), { ...base, authorization: `Bearer ${reg.token}` }, 404],
    ];
    for (const [what, u, headers, status] of cases) {
      const r = await request(u, { headers, body: initBody });
      assert.equal(r.status, status, what);
      assert.equal(r.headers['mcp-session-id'], undefined, what);
    }
    assert.equal(children.length, 0, 'no server was started');
    // Its own origin is fine.
    const ok = await post(0, initBody, { origin: `http://127.0.0.1:${port}` });
    assert.equal(ok.status, 200);
    assert.equal(children.length, 1);
  });

  it('sessions: none or an unknown id is refused; GET is 405; DELETE ends the server; the registration’s end ends them all', async () => {
    const { reg, auth, post, init } = await setup((rec) => [fixture('probe', rec)]);
    const { sid } = await init();
    assert.equal((await post(0, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status, 400, 'no Mcp-Session-Id');
    assert.equal((await post(0, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'f'.repeat(32) })).status, 404);
    const get = await request(reg.urls[0]!, { method: 'GET', headers: { ...auth, accept: 'text/event-stream', 'mcp-session-id': sid } });
    assert.deepEqual([get.status, get.headers.allow], [405, 'POST, DELETE']);
    const child = children[0]!;
    const del = await request(reg.urls[0]!, { method: 'DELETE', headers: { ...auth, 'mcp-session-id': sid } });
    assert.equal(del.status, 204);
    await waitFor(() => child.exitCode !== null || child.signalCode !== null);
    assert.equal((await post(0, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': sid })).status, 404, 'the client must initialize again');
    const again = await init();
    assert.equal(again.r.status, 200);
    reg.dispose();
    await waitFor(() => children[1]!.exitCode !== null || children[1]!.signalCode !== null);
    assert.equal((await post(0, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, { 'mcp-session-id': again.sid })).status, 401, 'the token is void once the session ended');
  });

  it('bounds: a body over the limit is 413 (unread); too many sessions of one server end the oldest', async () => {
    const { post, init } = await setup((rec) => [fixture('probe', rec)], { maxBody: 1024, sessionsPerServer: 2 });
    const big = await post(0, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(2000) } });
    assert.equal(big.status, 413);
    assert.equal(children.length, 0);
    const a = await init();
    await init();
    await init();
    await waitFor(() => children[0]!.exitCode !== null || children[0]!.signalCode !== null);
    assert.equal((await post(0, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': a.sid })).status, 404, 'the oldest session went');
    assert.equal(children.filter((c) => c.exitCode === null && c.signalCode === null).length, 2);
  });

  it('a hostile client: bad JSON, wrong types, duplicate ids, a client that leaves mid-answer — each refused or dropped, and the session goes on', async () => {
    const { reg, post, init, record } = await setup((rec) => [raw(rec)]);
    const { sid } = await init();
    const h = { 'mcp-session-id': sid };
    assert.deepEqual([(await post(0, '{"jsonrpc":', h)).status, JSON.parse((await post(0, '{"jsonrpc":', h)).body).error.code], [400, -32700]);
    assert.equal((await post(0, '[]', h)).status, 400);
    assert.equal((await post(0, '[1,2]', h)).status, 400);
    assert.equal((await post(0, { jsonrpc: '2.0', id: { x: 1 }, method: 'a' }, h)).status, 400, 'an object id');
    assert.equal((await post(0, { jsonrpc: '2.0', id: 1, method: 'initialize' }, { ...h, 'content-type': 'text/plain' })).status, 415);
    assert.equal((await post(0, { jsonrpc: '2.0', id: 9, method: 'a' }, { ...h, accept: 'text/html' })).status, 406);
    // A request the server never answers, and the same id again while it waits.
    const hanging = post(0, { jsonrpc: '2.0', id: 666, method: 'slow' }, { ...h, accept: BOTH });
    await waitFor(() => fs.readFileSync(record, 'utf8').includes('"id":666'));
    const dup = await post(0, { jsonrpc: '2.0', id: 666, method: 'slow' }, h);
    assert.equal(dup.status, 400);
    assert.match(JSON.parse(dup.body).error.message, /already awaiting/);
    // A client that reads the headers of its SSE answer and leaves.
    await request(reg.urls[0]!, { headers: { 'content-type': 'application/json', accept: BOTH, authorization: `Bearer ${reg.token}`, ...h }, body: JSON.stringify({ jsonrpc: '2.0', id: 101, method: 'x' }), abortAfterHeaders: true });
    // The session still answers.
    assert.equal(JSON.parse((await post(0, { jsonrpc: '2.0', id: 10, method: 'ping' }, h)).body).id, 10);
    // The server exits: the hanging request gets an error, not silence.
    const child = children[0]!;
    if (child.pid) process.kill(child.pid);
    const r = await hanging;
    assert.match(r.body, /"id":666,"error":\{"code":-32000,"message":"MCP server unavailable: the MCP server exited"/);
  });
});

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
