// Benchmarks of the protocol layer (numbers, not pass/fail):
//  1. throughput of session/update notifications (~1 KB each, and a word each as
//     a streamed answer) through the NDJSON transport and the full connection,
//     against a bare JSON.parse of the same lines as the floor;
//  2. spawn → initialized through AgentRuntime, against a raw NDJSON client on
//     the same fake agent.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { AcpConnection } from '../src/acp/connection';
import { NdjsonMessageReader } from '../src/acp/transport';
import { AgentRuntime } from '../src/agents/agentRuntime';
import { figure } from './figures';

const ROOT = path.resolve(__dirname, '..', '..');
const FAKE = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');
const N = Number(process.env.BENCH_MESSAGES || 50_000);

/** A workload: NDJSON lines of session/update text chunks, and the text they carry. */
interface Workload {
  name: string;
  buf: Buffer;
  lines: number;
  textChars: number;
}

function makeLines(name: string, count: number, text: (i: number) => string): Workload {
  const parts: string[] = [];
  let textChars = 0;
  for (let i = 0; i < count; i++) {
    const t = text(i);
    textChars += t.length;
    parts.push(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: 'bench', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } } },
      }),
    );
  }
  return { name, buf: Buffer.from(parts.join('\n') + '\n'), lines: count, textChars };
}

function chunks(buf: Buffer, size = 64 * 1024): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function report(w: Workload, name: string, ms: number): void {
  console.log(`  ${name.padEnd(44)} ${fmt(w.lines / (ms / 1000)).padStart(10)} msg/s  ${fmt(w.buf.length / 1e6 / (ms / 1000), 1).padStart(7)} MB/s  (${fmt(ms, 1)} ms)`);
}

/** Resolves when `done` is called; fails the benchmark (instead of letting the process end quietly) if it never is. */
function completion(what: string, ms = 60_000): { promise: Promise<void>; done: () => void } {
  let done!: () => void;
  const promise = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`benchmark: ${what} did not complete in ${ms} ms`)), ms);
    done = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { promise, done };
}

async function throughput(w: Workload, key: string): Promise<void> {
  console.log(`\nTransport throughput: ${w.name} (${fmt(w.lines)} session/update notifications, ${fmt(w.buf.length / 1e6, 1)} MB), fed in 64 KB chunks`);

  // Floor: split on newlines and JSON.parse each line.
  let t0 = performance.now();
  let count = 0;
  for (const line of w.buf.toString('utf8').split('\n')) if (line) {
    JSON.parse(line);
    count++;
  }
  report(w, 'floor: split + JSON.parse', performance.now() - t0);
  if (count !== w.lines) throw new Error('floor miscounted');

  // NDJSON reader (framing + parse + classification).
  {
    const input = new PassThrough({ highWaterMark: 1 << 20 });
    const reader = new NdjsonMessageReader(input);
    let got = 0;
    const c = completion('NdjsonMessageReader');
    reader.listen(() => ++got === w.lines && c.done());
    t0 = performance.now();
    for (const ch of chunks(w.buf)) input.write(ch);
    await c.promise;
    report(w, 'NdjsonMessageReader', performance.now() - t0);
  }

  // Full connection: reader + tolerant decoding + per-session queue. Consecutive
  // text chunks are joined on the way, so completion is all of the text arriving.
  {
    const input = new PassThrough({ highWaterMark: 1 << 20 });
    const conn = new AcpConnection({
      input,
      output: new PassThrough(),
      clientInfo: { name: 'bench', version: '0' },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    let chars = 0;
    let updates = 0;
    const c = completion('AcpConnection');
    conn.onSessionUpdate((n) => {
      updates++;
      const content = (n.update as { content?: { text?: string } }).content;
      chars += content?.text?.length ?? 0;
      if (chars === w.textChars) c.done();
    });
    t0 = performance.now();
    for (const ch of chunks(w.buf)) input.write(ch);
    await c.promise;
    const ms = performance.now() - t0;
    report(w, 'AcpConnection (decode + ordered dispatch)', ms);
    figure(`protocol.${key}.msPer10k`, (ms * 10_000) / w.lines);
    console.log(`    (${fmt(w.lines)} chunks reached the session as ${fmt(updates)} joined updates)`);
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
  figure('protocol.initializeOverheadMs', median(ours) - median(raw));
}

async function main(): Promise<void> {
  console.log(`Node ${process.version}, ${process.platform}/${process.arch}`);
  const filler = 'lorem ipsum dolor sit amet, '.repeat(40).slice(0, 900);
  await throughput(makeLines('~1 KB chunks', N, (i) => `${i} ${filler}`), 'chunks1KB');
  // What a streamed answer looks like on the wire: a few words per update (the webview bench's stream).
  await throughput(makeLines('a streamed answer of a word per chunk', 20_000, (i) => `w${i} `), 'wordChunks');
  await startup();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
