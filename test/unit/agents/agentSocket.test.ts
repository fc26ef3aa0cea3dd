// An agent by URL, in plain Node: real WebSocket servers on 127.0.0.1 (the `ws` library's), and the fake
// agent behind the test bridge (test/fixtures/ws/ws-bridge.mjs) for whole handshakes.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { AgentRuntime, AgentStartError } from '../../../src/agents/agentRuntime';
import { AgentSocket } from '../../../src/agents/agentSocket';
import type { SpawnSpec } from '../../../src/agents/agentProcess';
import { describeExit } from '../../../src/agents/agentProcess';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'ws');
const BRIDGE = path.join(FIXTURES, 'ws-bridge.mjs');
const FAKE = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');

const spec = (url: string, headers: Record<string, string> = {}): SpawnSpec => ({ command: url, args: [], cwd: ROOT, env: {}, remote: { url, headers } });

/** A WebSocket server on a free loopback port; `onConnection` gets each socket. */
async function server(onConnection: (ws: WebSocket, req: http.IncomingMessage) => void, opts: { tls?: boolean; status?: number } = {}) {
  const base = opts.tls ? https.createServer({ cert: fs.readFileSync(path.join(FIXTURES, 'self-signed.crt')), key: fs.readFileSync(path.join(FIXTURES, 'self-signed.key')) }) : http.createServer();
  const wss = new WebSocketServer({ server: base, verifyClient: (_info, done) => (opts.status ? done(false, opts.status) : done(true)) });
  wss.on('connection', onConnection);
  await new Promise<void>((r) => base.listen(0, '127.0.0.1', r));
  const port = (base.address() as AddressInfo).port;
  return {
    url: `${opts.tls ? 'wss' : 'ws'}://127.0.0.1:${port}/acp`,
    close: () => new Promise<void>((r) => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      base.close(() => r());
    }),
  };
}

/** Everything the socket's input gave, as text. */
function collect(s: AgentSocket): { text: () => string } {
  let text = '';
  s.input.on('data', (chunk) => (text += chunk.toString()));
  return { text: () => text };
}

const until = async (cond: () => boolean, ms = 3000) => {
  for (const end = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 20))) if (Date.now() > end) throw new Error('timed out');
};

describe('AgentSocket: an agent by URL over a WebSocket', function () {
  this.timeout(15_000);
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('one message per text frame each way: a pretty-printed frame is one line; writes before the socket opens are sent once it does', async () => {
    const frames: string[] = [];
    const srv = await server((ws, req) => {
      frames.push(`auth:${req.headers.authorization ?? ''}`);
      ws.on('message', (d) => frames.push(d.toString()));
      ws.send('{\n  "jsonrpc": "2.0",\r\n  "method": "x",\n  "params": {"t": "a\\nb"}\n}');
    });
    cleanups.push(srv.close);
    const s = new AgentSocket(spec(srv.url, { Authorization: 'Bearer secret-1' }));
    cleanups.push(() => s.stop());
    const got = collect(s);
    // Written at once, while still connecting.
    const sent = new Promise<Error | null | undefined>((r) => s.output.write('{"jsonrpc":"2.0","id":1,"method":"initialize"}\n', r));
    assert.equal(await sent, null);
    await until(() => frames.length >= 2 && got.text().includes('\n'));
    assert.deepEqual(frames, ['auth:Bearer secret-1', '{"jsonrpc":"2.0","id":1,"method":"initialize"}']);
    assert.equal(got.text(), '{   "jsonrpc": "2.0",    "method": "x",   "params": {"t": "a\\nb"} }\n');
    assert.deepEqual(JSON.parse(got.text()), { jsonrpc: '2.0', method: 'x', params: { t: 'a\nb' } });
    assert.equal(s.pid, undefined);
    assert.deepEqual(s.stderrTail(), []);
  });

  it('a close by the agent is its exit, with the code and reason; a close we asked for is requested', async () => {
    let peer: WebSocket | undefined;
    const srv = await server((ws) => (peer = ws));
    cleanups.push(srv.close);
    const s = new AgentSocket(spec(srv.url));
    await until(() => peer !== undefined);
    let ended = false;
    s.input.on('close', () => (ended = true));
    peer!.close(1012, 'restarting');
    const info = await s.exited;
    assert.deepEqual(info.closed, { code: 1012, reason: 'restarting' });
    assert.equal(info.requested, false);
    assert.ok(ended, 'the input ends with the socket');
    assert.match(describeExit('Remote', info, []), /Agent 'Remote': the connection closed \(WebSocket code 1012 \(restarting\)\)/);
    await new Promise<void>((r) => s.output.write('{}\n', (err) => (assert.ok(err), r())));

    const s2 = new AgentSocket(spec(srv.url));
    await until(() => s2.output.writable === true && peer !== undefined);
    await new Promise((r) => setTimeout(r, 100));
    const own = await s2.stop();
    assert.equal(own.requested, true);
    assert.equal(own.closed?.code, 1000);
  });

  it('unreachable in words: nothing listening, an HTTP 401 (a token needed), and a TLS certificate this machine does not trust (refused, never ignored)', async () => {
    const dead = await server(() => {});
    const deadUrl = dead.url;
    await dead.close();
    const refused = await new AgentSocket(spec(deadUrl)).exited;
    assert.match(refused.unreachable?.why ?? '', /nothing accepts connections at ws:\/\/127\.0\.0\.1:\d+\/acp/);

    const locked = await server(() => assert.fail('no connection without the token'), { status: 401 });
    cleanups.push(locked.close);
    const unauthorized = await new AgentSocket(spec(locked.url)).exited;
    assert.equal(unauthorized.unreachable?.status, 401);
    assert.match(unauthorized.unreachable?.why ?? '', /answered HTTP 401: it needs a token \(Sign In gives it one\)/);

    let connected = false;
    const tls = await server(() => (connected = true), { tls: true });
    cleanups.push(tls.close);
    const cert = await new AgentSocket(spec(tls.url)).exited;
    assert.match(cert.unreachable?.why ?? '', /the TLS certificate of wss:\/\/127\.0\.0\.1:\d+\/acp was refused \(self[- ]signed certificate\)/);
    assert.equal(connected, false, 'no socket was opened past a refused certificate');
    assert.match(describeExit('Remote', cert, []), /^Agent 'Remote' could not be reached: the TLS certificate/);
  });

  it('bad input from the server: garbage and a JSON batch are skipped and logged, a binary frame too; a frame over the limit closes the connection, saying why; one that never answers initialize times out and closes the socket', async () => {
    const initialize = { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } };
    let peerClosed = false;
    const srv = await server((ws) => {
      ws.on('close', () => (peerClosed = true));
      ws.on('message', (d) => {
        const msg = JSON.parse(d.toString());
        if (msg.method !== 'initialize') return;
        if (msg.params.clientInfo.name === 'silent') return;
        ws.send('not json at all');
        ws.send('[{"jsonrpc":"2.0","method":"x"}]');
        ws.send(Buffer.from([1, 2, 3]), { binary: true });
        ws.send(JSON.stringify({ ...initialize, id: msg.id }));
        if (msg.params.clientInfo.name === 'big') setTimeout(() => ws.send(`{"jsonrpc":"2.0","method":"session/update","params":{"pad":"${'x'.repeat(2048)}"}}`), 50);
      });
    });
    cleanups.push(srv.close);
    const make = (name: string, logs: string[], opts: { maxLineBytes?: number; timeoutMs?: number } = {}) =>
      new AgentRuntime({
        name,
        spec: spec(srv.url),
        clientInfo: { name, version: '0' },
        logger: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
        initializeTimeoutMs: opts.timeoutMs ?? 5000,
        ...(opts.maxLineBytes !== undefined ? { maxLineBytes: opts.maxLineBytes } : {}),
      });
    const logs: string[] = [];
    const rt = make('noisy', logs);
    cleanups.push(() => rt.stop());
    assert.equal((await rt.start()).protocolVersion, 1, 'the handshake survives the junk before it');
    assert.ok(logs.some((l) => /Skipped a line from the agent: not JSON/.test(l)), logs.join('\n'));
    assert.ok(logs.some((l) => /Skipped a line from the agent: a JSON-RPC batch/.test(l)), logs.join('\n'));
    assert.ok(logs.some((l) => /a binary frame \(ACP over WebSocket uses text frames\): skipped/.test(l)), logs.join('\n'));

    const big = make('big', [], { maxLineBytes: 1024 });
    cleanups.push(() => big.stop());
    await big.start();
    const exit = await big.process.exited;
    assert.match(exit.closed?.reason ?? '', /Max payload size exceeded/, JSON.stringify(exit));
    assert.match(describeExit('big', exit, []), /the connection closed \(WebSocket code \d+ \(Max payload size exceeded\)\)/);

    const silent = make('silent', [], { timeoutMs: 500 });
    await assert.rejects(silent.start(), (e: unknown) => e instanceof AgentStartError && e.reason === 'timeout');
    await until(() => peerClosed, 3000);
    assert.equal(silent.process.hasExited, true, 'nothing left half-open');
  });

  it('the whole handshake and a session through the runtime, to the fake agent behind a bridge; an address nothing listens on fails the start in words', async () => {
    const bridge: ChildProcess = spawn(process.execPath, [BRIDGE, '--', FAKE, 'default'], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => void bridge.kill());
    const port = await new Promise<number>((resolve, reject) => {
      bridge.stdout!.on('data', (d: Buffer) => {
        const m = /LISTENING (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      bridge.on('exit', (c) => reject(new Error(`bridge exited ${c}`)));
    });
    const rt = new AgentRuntime({
      name: 'Remote fake',
      spec: spec(`ws://127.0.0.1:${port}/`),
      clientInfo: { name: 'test', version: '0' },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      initializeTimeoutMs: 5000,
    });
    cleanups.push(() => rt.stop());
    const init = await rt.start();
    assert.equal(init.protocolVersion, 1);
    assert.equal(rt.pid, undefined);
    const created = await rt.connection.newSession({ cwd: ROOT, mcpServers: [] });
    assert.equal(typeof created.sessionId, 'string');
    const exit = await rt.stop();
    assert.equal(exit.requested, true);

    const refused = new AgentRuntime({
      name: 'Nobody',
      spec: spec(`ws://127.0.0.1:${port + 1 === 65536 ? 1 : port + 1}/`),
      clientInfo: { name: 'test', version: '0' },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      initializeTimeoutMs: 5000,
    });
    await assert.rejects(refused.start(), (e: unknown) => e instanceof AgentStartError && e.reason === 'exited' && /Agent 'Nobody' could not be reached: nothing accepts connections/.test(e.message));
  });
});
