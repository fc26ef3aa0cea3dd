// The MCP relay's cost on a round trip: one request at a time to the stdio MCP
// fixture (tools/call echo), directly and through the relay (reporting to a hub,
// as in a session); p50 and p99 of each, and the relay's overhead.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { McpRelayHub } from '../src/node/mcpRelay/hub';
import { RELAY_ENV } from '../src/node/mcpRelay/wire';
import { figure } from './figures';

const root = path.resolve(__dirname, '..', '..');
const RELAY = path.join(root, 'out', 'src', 'node', 'mcpRelay', 'main.js');
const SERVER = path.join(root, 'test', 'fixtures', 'mcp', 'stdioServer.mjs');
const WARMUP = 200;
const RUNS = 2000;

async function roundTrips(args: string[], env: Record<string, string>): Promise<number[]> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  let buf = '';
  let waiting: (() => void) | undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c: string) => {
    buf += c;
    if (buf.includes('\n')) {
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
      waiting?.();
    }
  });
  const ask = (id: number, method: string, params: unknown) =>
    new Promise<void>((resolve) => {
      waiting = resolve;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await ask(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  await ask(1, 'tools/list', {});
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = process.hrtime.bigint();
    await ask(i + 2, 'tools/call', { name: 'echo', arguments: { text: `ping ${i} — ünïcødé` } });
    if (i >= WARMUP) times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  child.stdin.end();
  await new Promise((r) => child.on('close', r));
  return times.sort((a, b) => a - b);
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const fmt = (n: number) => n.toFixed(3).padStart(7);

async function main(): Promise<void> {
  const hub = new McpRelayHub();
  let reports = 0;
  const reg = await hub.register(() => void reports++);
  const env = { [RELAY_ENV]: JSON.stringify({ socket: reg.socket, token: reg.token, server: 'bench' }) };
  // Interleaved, so that a busy machine weighs on both alike.
  const direct: number[] = [];
  const relayed: number[] = [];
  for (let round = 0; round < 2; round++) {
    direct.push(...(await roundTrips([SERVER], {})));
    relayed.push(...(await roundTrips([RELAY, '--', process.execPath, SERVER], env)));
  }
  direct.sort((a, b) => a - b);
  relayed.sort((a, b) => a - b);
  hub.dispose();
  console.log(`\nMCP relay: a stdio round trip (tools/call, ${RUNS * 2} each, one at a time)`);
  console.log(`  direct                 p50 ${fmt(pct(direct, 0.5))} ms   p99 ${fmt(pct(direct, 0.99))} ms`);
  console.log(`  through the relay      p50 ${fmt(pct(relayed, 0.5))} ms   p99 ${fmt(pct(relayed, 0.99))} ms`);
  console.log(`  relay overhead         p50 ${fmt(pct(relayed, 0.5) - pct(direct, 0.5))} ms   p99 ${fmt(pct(relayed, 0.99) - pct(direct, 0.99))} ms   (target ≤ 1 ms p50)`);
  figure('mcpRelay.overheadP50Ms', pct(relayed, 0.5) - pct(direct, 0.5));
  if (reports < 4) console.log(`  (the hub heard ${reports} reports; expected start, initialize, tools and exit per relay)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
