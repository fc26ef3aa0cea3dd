// The MCP relay: what it sees of a stdio MCP conversation (peek), that it hands
// every byte on unchanged in both directions (large tools/list, non-ASCII, any
// chunking), what it reports to the hub (start, tools, crash, a command that
// does not exist), that the hub only hears relays with the session's secret,
// that the secret reaches neither the server nor any output, that the server's
// env and a workspace's .npmrc do not reach the relay or decide what npx runs,
// and the hub's login time and per-session cap.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpRelayHub } from '../../../src/node/mcpRelay/hub';
import { McpPeek } from '../../../src/node/mcpRelay/peek';
import { RELAY_ENV, decodeEvent, type RelayEvent } from '../../../src/node/mcpRelay/wire';
import { findExecutable } from '../../../src/agents/resolveCommand';
import { selectMcpServers } from '../../../src/sessions/mcp/mcpServers';
import { wrapStdio } from '../../../src/sessions/mcp/mcpStatus';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const RELAY = path.join(root, 'out', 'src', 'node', 'mcpRelay', 'main.js');
const SERVER = path.join(root, 'test', 'fixtures', 'mcp', 'stdioServer.mjs');
const line = (m: unknown) => `${JSON.stringify(m)}\n`;

/** Feeds `text` to a cutter in pieces of `size` bytes (a multi-byte character cut in two, too). */
function feed(push: (b: Buffer) => void, text: string, size: number): void {
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += size) push(buf.subarray(i, i + size));
}

describe('MCP relay: what it sees', () => {
  const conversation = (tools: unknown[]) => ({
    client: line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }) + line({ jsonrpc: '2.0', method: 'notifications/initialized' }) + line({ jsonrpc: '2.0', id: 'b', method: 'tools/list' }),
    server: line({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'Ünïcødé srv' } } }) + line({ jsonrpc: '2.0', method: 'notifications/message', params: { data: '日本語' } }) + line({ jsonrpc: '2.0', id: 'b', result: { tools } }),
  });

  for (const size of [1, 3, 7, 4096]) {
    it(`the start and the tool count, whatever the chunks (${size} bytes)`, () => {
      const events: RelayEvent[] = [];
      const peek = new McpPeek((e) => events.push(e));
      const c = conversation([{ name: 'a' }, { name: 'ß' }]);
      feed((b) => peek.fromClient.push(b), c.client, size);
      feed((b) => peek.fromServer.push(b), c.server, size);
      assert.deepEqual(events, [{ e: 'initialized', serverName: 'Ünïcødé srv' }, { e: 'tools', count: 2, names: ['a', 'ß'] }]);
    });
  }

  it('counts a tools/list of several MB, and the pages of a paginated one', () => {
    const events: RelayEvent[] = [];
    const peek = new McpPeek((e) => events.push(e));
    const tools = Array.from({ length: 20_000 }, (_, i) => ({ name: `t${i}`, description: 'é'.repeat(100) }));
    const big = line({ jsonrpc: '2.0', id: 7, result: { tools, nextCursor: 'p2' } });
    assert.ok(big.length > 2_000_000);
    peek.fromClient.push(Buffer.from(line({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) + line({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { cursor: 'p2' } })));
    feed((b) => peek.fromServer.push(b), big, 65536);
    peek.fromServer.push(Buffer.from(line({ jsonrpc: '2.0', id: 8, result: { tools: [{ name: 'last' }] } })));
    assert.deepEqual(events.map((e) => (e.e === 'tools' ? e.count : e.e)), [20_000, 20_001]);
    const first = events[0];
    assert.ok(first?.e === 'tools' && first.names.length === 50, 'names are bounded');
  });

  it('an initialize error, an answer nobody asked for and garbage are told apart', () => {
    const events: RelayEvent[] = [];
    const peek = new McpPeek((e) => events.push(e));
    peek.fromServer.push(Buffer.from(line({ jsonrpc: '2.0', id: 1, result: { tools: [{}] } }) + 'not json\n'));
    peek.fromClient.push(Buffer.from(line({ jsonrpc: '2.0', id: 1, method: 'initialize' })));
    peek.fromServer.push(Buffer.from('{"broken\n' + line({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'no <b>way</b>' } })));
    assert.deepEqual(events, [{ e: 'initFailed', message: 'no <b>way</b>' }]);
  });

  it('the hub decodes what a relay says as untrusted', () => {
    assert.equal(decodeEvent({ e: 'tools', count: -1 }), undefined);
    assert.equal(decodeEvent({ e: 'boom' }), undefined);
    assert.deepEqual(decodeEvent({ e: 'tools', count: 2, names: ['x'.repeat(5000), 3] }), { e: 'tools', count: 2, names: ['x'.repeat(200)] });
    assert.deepEqual(decodeEvent({ e: 'exit', code: 'x', signal: 5 }), { e: 'exit', code: null, signal: null });
  });
});

interface Run {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

/** Runs the fixture server through the relay (or directly), writes `input` in `chunk`-byte pieces, ends stdin once `until` says the output is complete. */
function run(opts: { relay: boolean; input: string; env?: Record<string, string>; until: (lines: number) => boolean; command?: string[] }): Promise<Run> {
  const server = opts.command ?? [process.execPath, SERVER];
  const [cmd, ...args] = opts.relay ? [process.execPath, RELAY, '--', ...server] : server;
  const child = spawn(cmd!, args, { env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let stderr = '';
  let ended = false;
  let seen = 0;
  child.stdout.on('data', (c: Buffer) => {
    out.push(c);
    for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) seen++;
    if (!ended && opts.until(seen)) {
      ended = true;
      child.stdin.end();
    }
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.on('error', () => undefined);
  feed((b) => child.stdin.write(b), opts.input, 5);
  if (opts.until(0)) child.stdin.end();
  return new Promise((resolve) => child.on('close', (code) => resolve({ stdout: Buffer.concat(out), stderr, code })));
}

describe('MCP relay: the process', function () {
  let hub: McpRelayHub;
  let events: [string, RelayEvent][];
  let env: Record<string, string>;
  let token: string;

  beforeEach(async () => {
    hub = new McpRelayHub();
    events = [];
    const reg = await hub.register((server, e) => events.push([server, e]));
    token = reg.token;
    env = { [RELAY_ENV]: JSON.stringify({ socket: reg.socket, token: reg.token, server: 'fixture' }) };
  });
  afterEach(() => hub.dispose());

  /** Until the hub has heard `n` events (the relay's last report may trail its exit a little). */
  const heard = async (n: number) => {
    for (let i = 0; i < 500 && events.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  };

  const input =
    line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } }) +
    line({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
    line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) +
    line({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'Grüße, 世界 🌍 — ünïcødé' } } });

  it('hands on the same bytes as the server gives directly: a tools/list of several MB, non-ASCII text', async () => {
    const big = { ...env, MCP_FIXTURE_TOOLS: '12000' };
    const until = (n: number) => n >= 3;
    const direct = await run({ relay: false, input, env: { MCP_FIXTURE_TOOLS: '12000' }, until });
    const relayed = await run({ relay: true, input, env: big, until });
    assert.ok(direct.stdout.length > 3_000_000, `a large answer (${direct.stdout.length} bytes)`);
    assert.ok(relayed.stdout.equals(direct.stdout), 'byte for byte');
    assert.match(relayed.stdout.toString('utf8'), /echo: Grüße, 世界 🌍 — ünïcødé/);
    assert.equal(relayed.code, 0);
    await heard(4);
    assert.deepEqual(
      events.map(([s, e]) => `${s} ${e.e}${e.e === 'tools' ? ` ${e.count}` : ''}${e.e === 'exit' ? ` ${e.code}` : ''}`),
      ['fixture spawned', 'fixture initialized', 'fixture tools 12001', 'fixture exit 0'],
    );
  });

  it('the secret reaches neither the server nor any output', async () => {
    const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-relay-')), 'rec.jsonl');
    const r = await run({ relay: true, input, env, until: (n) => n >= 3, command: [process.execPath, SERVER, record] });
    const recorded = fs.readFileSync(record, 'utf8');
    assert.ok(!recorded.includes(token) && !r.stdout.toString().includes(token) && !r.stderr.includes(token));
    assert.deepEqual(JSON.parse(recorded.split('\n')[0]!).envNames, [], 'no ACP_MCP_RELAY, no ELECTRON_RUN_AS_NODE for the server');
  });

  it('a server that crashes: its exit code is reported and is the relay’s', async () => {
    const r = await run({ relay: true, input, env: { ...env, MCP_FIXTURE_EXIT_AFTER_LIST: '3' }, until: () => false });
    assert.equal(r.code, 3);
    await heard(4);
    assert.deepEqual(events.at(-1), ['fixture', { e: 'exit', code: 3, signal: null }]);
    assert.ok(events.some(([, e]) => e.e === 'tools' && e.count === 1));
  });

  it('a command that does not exist: reported, and the relay ends', async () => {
    const r = await run({ relay: true, input: '', env, until: () => true, command: ['/nonexistent/mcp-server'] });
    assert.equal(r.code, 127);
    await heard(1);
    assert.equal(events[0]?.[1].e, 'spawnFailed');
    assert.match(r.stderr, /could not be started/);
  });

  it('without the hub (gone, or never told), the server still works', async () => {
    const gone = { [RELAY_ENV]: JSON.stringify({ socket: path.join(os.tmpdir(), 'acp-no-such.sock'), token: 'x'.repeat(64), server: 's' }) };
    const direct = await run({ relay: false, input, until: (n) => n >= 3 });
    for (const e of [gone, {}]) {
      const r = await run({ relay: true, input, env: e, until: (n) => n >= 3 });
      assert.ok(r.stdout.equals(direct.stdout));
      assert.equal(r.code, 0);
    }
  });

  it('the hub hears only relays with a registered secret', async () => {
    const got: RelayEvent[] = [];
    const reg = await hub.register((_server, e) => got.push(e));
    const connect = (hello: unknown) => {
      const s = net.createConnection(reg.socket);
      s.on('error', () => undefined);
      s.write(line(hello) + line({ e: 'spawned' }));
      return s;
    };
    // The hub ends each of these connections (the test would time out otherwise), and hears no event.
    const refused = (hello: unknown, before: RelayEvent[] = []) =>
      new Promise<void>((resolve) => {
        const s = connect(hello);
        s.on('close', () => resolve());
        // An event heard ends the wait too, so a hub that listens fails here rather than by timeout.
        const poll = setInterval(() => got.length > before.length && (s.destroy(), clearInterval(poll)), 10);
        s.on('close', () => clearInterval(poll));
      }).then(() => assert.deepEqual(got, before, `no event from ${JSON.stringify(hello).slice(0, 40)}`));
    await refused({ token: 'f'.repeat(64), server: 'x' });
    await refused({ token: reg.token.slice(0, 10), server: 'x' });
    await refused({ server: 'x' });
    await refused('garbage');
    // The control: the same two lines with the registered secret are heard, once.
    const s = connect({ token: reg.token, server: 'x' });
    for (let i = 0; i < 500 && got.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise<void>((resolve) => s.end(resolve));
    assert.deepEqual(got, [{ e: 'spawned' }]);
    reg.dispose();
    // A registration that was disposed (its session closed) is no longer heard.
    await refused({ token: reg.token, server: 'x' }, [{ e: 'spawned' }]);
  });
});

describe('MCP relay: what the server runs with, and the hub’s limits', function () {
  this.timeout(60_000);
  let hub: McpRelayHub;
  let dir = '';
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-relay-ws-')));
  });
  afterEach(() => {
    hub?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Starts `server` as an agent starts it: wrapped in the relay, with the wrapped env over the agent's own, in `cwd`. */
  async function asAgentStarts(server: { command: string; args: string[]; env: { name: string; value: string }[] }, cwd: string) {
    hub = new McpRelayHub();
    const reg = await hub.register(() => undefined);
    const w = wrapStdio({ name: 's', ...server }, { node: process.execPath, script: RELAY, socket: reg.socket, token: reg.token });
    const child = spawn(w.command, w.args, { cwd, env: { ...process.env, ...Object.fromEntries(w.env.map((e) => [e.name, e.value])) }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.resume();
    child.stdin.end(line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stderr };
  }

  it('the server’s env is applied to the server only: NODE_OPTIONS in it never runs inside the relay', async () => {
    const preload = path.join(dir, 'preload.cjs');
    const seen = path.join(dir, 'seen.txt');
    fs.writeFileSync(preload, `require('fs').appendFileSync(${JSON.stringify(seen)}, require('path').basename(process.argv[1] || '?') + '\\n');`);
    const record = path.join(dir, 'rec.jsonl');
    const r = await asAgentStarts({ command: process.execPath, args: [SERVER, record], env: [{ name: 'NODE_OPTIONS', value: `--require ${preload}` }] }, dir);
    assert.equal(r.code, 0, r.stderr);
    // The server ran with it (the positive signal), the relay did not.
    assert.deepEqual(fs.readFileSync(seen, 'utf8').trim().split('\n'), ['stdioServer.mjs']);
    assert.ok(fs.readFileSync(record, 'utf8').includes('"initialize"'));
  });

  it('a workspace .npmrc does not decide what an npx server runs (its script-shell); "." is still the workspace', async function () {
    if (process.platform === 'win32') this.skip(); // a POSIX shell script as the planted script-shell
    const npx = findExecutable('npx', { pathEnv: process.env.PATH, cwd: dir });
    assert.ok(npx, 'npx is on PATH (it comes with Node)');
    const ws = path.join(dir, 'ws');
    const prefix = path.join(dir, 'run');
    fs.mkdirSync(ws);
    fs.mkdirSync(prefix);
    const marker = path.join(dir, 'PLANTED');
    const evil = path.join(dir, 'evil.sh');
    fs.writeFileSync(evil, `#!/bin/sh\necho planted > ${JSON.stringify(marker)}\nexec /bin/sh "$@"\n`);
    fs.chmodSync(evil, 0o755);
    fs.writeFileSync(path.join(ws, '.npmrc'), `script-shell=${evil}\nregistry=http://127.0.0.1:9/\n`);
    const ran = path.join(dir, 'ran.txt');
    // The server: what npx runs through its script shell (no download: the check needs no network).
    const script = `pwd > ${JSON.stringify(ran)}; echo "$npm_config_local_prefix" >> ${JSON.stringify(ran)}`;
    const sel = selectMcpServers([{ label: 'settings', servers: { s: { command: 'npx', args: ['-c', script] } } }], { canHttp: false, canSse: false }, { env: process.env, workspaceFolder: ws, cwd: ws, pathEnv: process.env.PATH, runnerPrefix: prefix });
    const server = sel.servers[0] as { command: string; args: string[]; env: { name: string; value: string }[] };
    const r = await asAgentStarts(server, ws);
    assert.equal(r.code, 0, r.stderr);
    const [cwd, localPrefix] = fs.readFileSync(ran, 'utf8').trim().split('\n');
    assert.equal(cwd, ws, 'the server still runs in the workspace');
    assert.equal(localPrefix, prefix, 'npm’s project (its .npmrc) is the empty folder, not the workspace');
    assert.equal(fs.existsSync(marker), false, 'the workspace’s script-shell did not run');
    assert.deepEqual(fs.readdirSync(prefix), [], 'the prefix folder stays empty');
  });

  it('the hub ends a connection that does not log in within its time', async () => {
    hub = new McpRelayHub(undefined, { loginMs: 200 });
    const reg = await hub.register(() => undefined);
    const s = net.createConnection(reg.socket);
    s.on('error', () => undefined);
    const t0 = Date.now();
    const closed = await Promise.race([new Promise<boolean>((r) => s.on('close', () => r(true))), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000).unref())]);
    s.destroy();
    assert.ok(closed, 'closed by the hub');
    assert.ok(Date.now() - t0 >= 150);
  });

  it('one session’s relays are capped: the one over the cap is cut off, the others keep reporting, and a freed place is taken again', async () => {
    hub = new McpRelayHub(undefined, { perSession: 2 });
    const got: string[] = [];
    const reg = await hub.register((server, e) => got.push(`${server} ${e.e}`));
    const other = await hub.register((server, e) => got.push(`other ${server} ${e.e}`));
    const open = (token: string, server: string) => {
      const s = net.createConnection(reg.socket);
      s.on('error', () => undefined);
      s.write(line({ token, server }) + line({ e: 'spawned' }));
      return s;
    };
    const until = async (n: number) => {
      for (let i = 0; i < 500 && got.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    const a = open(reg.token, 'a');
    await until(1);
    const b = open(reg.token, 'b');
    await until(2);
    const c = open(reg.token, 'c');
    // Cut off (or, wrongly, heard: either ends the wait).
    await new Promise<void>((r) => {
      c.on('close', () => r());
      const poll = setInterval(() => got.includes('c spawned') && (clearInterval(poll), r()), 10);
      c.on('close', () => clearInterval(poll));
    });
    // Another session is not affected by this one's cap.
    const d = open(other.token, 'd');
    await until(3);
    assert.deepEqual(got.sort(), ['a spawned', 'b spawned', 'other d spawned']);
    await new Promise<void>((r) => a.end(() => r()));
    await new Promise<void>((r) => a.on('close', () => r()));
    // The hub sees a close a little after the relay's; retried until its place is free.
    let e: net.Socket | undefined;
    for (let i = 0; i < 50 && !got.includes('e spawned'); i++) {
      e?.destroy();
      e = open(reg.token, 'e');
      await until(4);
    }
    assert.ok(got.includes('e spawned'));
    for (const s of [b, d, e]) s?.destroy();
  });
});
