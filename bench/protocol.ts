// Benchmarks of the protocol layer (numbers, not pass/fail):
//  1. throughput of ~1 KB session/update notifications through the NDJSON
//     transport and the full connection, against a bare JSON.parse of the same
//     lines as the floor;
//  2. spawn → initialized through AgentRuntime, against a raw NDJSON client on
//     the same fake agent.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { AcpConnection } from '../src/acp/connection';
import { NdjsonMessageReader } from '../src/acp/transport';
import { AgentRuntime } from '../src/agents/agentRuntime';

const ROOT = path.resolve(__dirname, '..', '..');
const FAKE = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');
const N = Number(process.env.BENCH_MESSAGES || 50_000);

function makeLines(): { buf: Buffer; lines: number } {
  const filler = 'lorem ipsum dolor sit amet, '.repeat(40).slice(0, 900);
  const parts: string[] = [];
  for (let i = 0; i < N; i++) {
    parts.push(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: 'bench', update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: `${i} ${filler}` } } },
      }),
    );
  }
  return { buf: Buffer.from(parts.join('\n') + '\n'), lines: N };
}

function chunks(buf: Buffer, size = 64 * 1024): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function report(name: string, ms: number, bytes: number): void {
  console.log(`  ${name.padEnd(44)} ${fmt(N / (ms / 1000)).padStart(10)} msg/s  ${fmt(bytes / 1e6 / (ms / 1000), 1).padStart(7)} MB/s  (${fmt(ms, 1)} ms)`);
}

async function throughput(): Promise<void> {
  const { buf } = makeLines();
  console.log(`\nTransport throughput: ${fmt(N)} session/update notifications of ~1 KB (${fmt(buf.length / 1e6, 1)} MB), fed in 64 KB chunks`);

  // Floor: split on newlines and JSON.parse each line.
  let t0 = performance.now();
  let count = 0;
  for (const line of buf.toString('utf8').split('\n')) if (line) {
    JSON.parse(line);
    count++;
  }
  report('floor: split + JSON.parse', performance.now() - t0, buf.length);
  if (count !== N) throw new Error('floor miscounted');

  // NDJSON reader (framing + parse + classification).
  {
    const input = new PassThrough({ highWaterMark: 1 << 20 });
    const reader = new NdjsonMessageReader(input);
    let got = 0;
    const done = new Promise<void>((resolve) => reader.listen(() => ++got === N && resolve()));
    t0 = performance.now();
    for (const c of chunks(buf)) input.write(c);
    await done;
    report('NdjsonMessageReader', performance.now() - t0, buf.length);
  }

  // Full connection: reader + vscode-jsonrpc dispatch + tolerant decoding + per-session queue.
  {
    const input = new PassThrough({ highWaterMark: 1 << 20 });
    const conn = new AcpConnection({
      input,
      output: new PassThrough(),
      clientInfo: { name: 'bench', version: '0' },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    let got = 0;
    const done = new Promise<void>((resolve) =>
      conn.onSessionUpdate(() => {
        if (++got === N) resolve();
      }),
    );
    t0 = performance.now();
    for (const c of chunks(buf)) input.write(c);
    await done;
    report('AcpConnection (decode + ordered dispatch)', performance.now() - t0, buf.length);
    conn.dispose();
  }
}

function rawInitialize(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [FAKE, 'default'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      buf += d;
      if (buf.includes('\n')) {
        const ms = performance.now() - t0;
        JSON.parse(buf.slice(0, buf.indexOf('\n')));
        child.kill('SIGKILL');
        resolve(ms);
      }
    });
    child.on('error', reject);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } }) + '\n');
  });
}

async function runtimeInitialize(): Promise<number> {
  const t0 = performance.now();
  const rt = new AgentRuntime({
    name: 'bench',
    spec: { command: process.execPath, args: [FAKE, 'default'], cwd: ROOT, env: process.env },
    clientInfo: { name: 'bench', version: '0' },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    initializeTimeoutMs: 10_000,
  });
  await rt.start();
  const ms = performance.now() - t0;
  rt.process.killNow();
  await rt.process.exited;
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function startup(): Promise<void> {
  const runs = 15;
  const raw: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < runs; i++) {
    raw.push(await rawInitialize());
    ours.push(await runtimeInitialize());
  }
  console.log(`\nSpawn → initialized (fake agent, median of ${runs}, interleaved)`);
  console.log(`  raw NDJSON client          ${fmt(median(raw), 1).padStart(7)} ms`);
  console.log(`  AgentRuntime (extension)   ${fmt(median(ours), 1).padStart(7)} ms`);
  console.log(`  overhead                   ${fmt(median(ours) - median(raw), 1).padStart(7)} ms`);
}

async function main(): Promise<void> {
  console.log(`Node ${process.version}, ${process.platform}/${process.arch}`);
  await throughput();
  await startup();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
