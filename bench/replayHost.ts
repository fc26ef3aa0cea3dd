// The extension host's side of opening a long past session, without a workbench: the fake agent's
// replay-10k (10,000 mixed updates) through the real path — the agent's pipe, the NDJSON transport,
// tolerant decoding, the connection's ordered queue, the session router, AgentSession and its parts,
// the transcript, the archive — from `session/load` sent to its answer, then the panel's snapshot
// (what ChatPanel posts when the load ends). Prints wall and CPU time per run (min / median);
// `node --cpu-prof out/bench/replayHost.js` profiles it. The agent runs in its own process,
// so the wall time includes how fast it writes; the host's CPU time does not. The pipe drain (the
// agent's session/load received → its replay all written into the pipe, from its record) is
// printed beside the same agent writing into a reader that does nothing: what is left of the
// drain is the agent's own writing and the machine, not the host.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentDefinition } from '../src/agents/agentDefinition';
import type { AgentManager } from '../src/agents/agentManager';
import { AgentRuntime } from '../src/agents/agentRuntime';
import type { AuthService } from '../src/agents/auth';
import { AgentSession } from '../src/sessions/agentSession';
import type { SessionServices } from '../src/sessions/ports';
import { SessionIndex } from '../src/sessions/store/sessionIndex';
import { TranscriptArchive } from '../src/sessions/store/transcriptArchive';
import { Emitter } from '../src/shared/events';
import { figure } from './figures';

const ROOT = path.resolve(__dirname, '..', '..');
const FAKE = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');
const RUNS = Number(process.env.BENCH_REPLAY_RUNS || 11);
const SCENARIO = process.env.BENCH_REPLAY_SCENARIO || 'replay-10k';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** Any member not given: a function that does nothing (the services a replay does not use). */
function stub<T>(given: Partial<Record<keyof T, unknown>>): T {
  return new Proxy(given as object, {
    get: (target, p) => (p in target ? (target as Record<string | symbol, unknown>)[p] : p === 'then' ? undefined : () => undefined),
  }) as T;
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** From the agent's record: its session/load received → its replay all written into the pipe (ms). */
function drainOf(record: string): number {
  const rec = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { t: number; dir?: string; msg?: { method?: string } });
  const load = rec.find((r) => r.msg?.method === 'session/load' || r.msg?.method === 'session/resume')?.t;
  const written = rec.find((r) => r.dir === 'mark')?.t;
  return load !== undefined && written !== undefined ? written - load : NaN;
}

/** The same agent and replay, read by a reader that does nothing with it: the drain without the host. */
async function agentAlone(tmp: string, run: number): Promise<number> {
  const record = path.join(tmp, `alone-${run}.jsonl`);
  const child = spawn(process.execPath, [FAKE, SCENARIO], { cwd: tmp, env: { ...process.env, ACP_FAKE_RECORD: record }, stdio: ['pipe', 'pipe', 'ignore'] });
  const answered = Buffer.from('"id":2,');
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.includes(answered)) resolve();
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'session/load', params: { sessionId: 'long-1', cwd: tmp, mcpServers: [] } })}\n`);
  });
  child.kill();
  return drainOf(record);
}

/** One open of the past session over ACP v1 (session/load) or v2 (session/resume replaying from the start, v2's shapes). */
async function once(tmp: string, run: number, protocolVersion: 1 | 2 = 1): Promise<{ wallMs: number; cpuMs: number; snapshotMs: number; drainMs: number; items: number; kinds: string }> {
  const def = { id: 'fake', name: 'Fake', command: process.execPath, args: [FAKE, SCENARIO] } as unknown as AgentDefinition;
  const record = path.join(tmp, `host-${run}-v${protocolVersion}.jsonl`);
  const rt = new AgentRuntime({
    name: 'bench',
    spec: { command: process.execPath, args: [FAKE, SCENARIO], cwd: tmp, env: { ...process.env, ACP_FAKE_RECORD: record } },
    clientInfo: { name: 'bench', version: '0' },
    logger: quiet,
    initializeTimeoutMs: 10_000,
    protocolVersion,
  });
  await rt.start();
  if (rt.protocolVersion !== protocolVersion) throw new Error(`the agent settled ACP v${rt.protocolVersion}, not v${protocolVersion}`);
  const never = new Emitter<never>();
  const manager = stub<AgentManager>({
    ensureRunning: async () => rt,
    agentLog: () => quiet,
    status: () => 'running',
    onDidExit: never.event,
    onDidChangeStatus: never.event,
  });
  const auth = stub<AuthService>({ withAuth: (_d: unknown, _c: unknown, fn: (r: AgentRuntime) => unknown) => fn(rt) });
  const store = path.join(tmp, `store-${run}`);
  const archive = new TranscriptArchive(path.join(store, 'archive'), () => 50 * 1024 * 1024);
  const services = stub<SessionServices>({
    settings: stub({ autoApprove: () => ({}), instructions: () => '', keepSessionsAlive: () => false }),
    index: new SessionIndex(path.join(store, 'sessions.json')),
    archive,
    mcpServers: async () => ({ servers: [], skipped: [], fromWorkspace: [] }),
    additionalDirectories: () => [],
    scratchRoot: () => tmp,
    changeTracker: () => stub({ onDidChange: never.event, list: () => [] }),
    terminals: stub({ onDidChange: never.event }),
    fileTouches: stub({}),
    files: stub({ protectedGlobs: () => [] }),
    editorContext: undefined,
    confirmRoot: undefined,
    mcpRelay: undefined,
  });
  const session = new AgentSession(def, manager, auth, tmp, services);
  let changes = 0;
  session.onDidChangeTranscript((c) => (changes += c.length));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const opened = await session.openPast('long-1');
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (!opened) throw new Error(`the load failed: ${session.status.text}`);
  // The panel's snapshot at the load's end: the newest 50 items, serialized as postMessage would.
  const t1 = performance.now();
  const items = session.transcript.items;
  JSON.stringify({ type: 'init', items: items.slice(-50), header: session.transcript.header, status: session.status });
  const snapshotMs = performance.now() - t1;
  const last = JSON.stringify(items[items.length - 1]);
  if (!last.includes('REPLAY-END-MARKER')) throw new Error('the replay did not end with its marker');
  await archive.flush();
  session.dispose();
  rt.process.killNow();
  await rt.process.exited;
  never.dispose();
  // What the transcript holds, by kind: the same conversation must give the same items over either wire.
  const counts = new Map<string, number>();
  for (const i of items) counts.set(i.kind, (counts.get(i.kind) ?? 0) + 1);
  const kinds = [...counts].sort().map(([k, n]) => `${k} ${n}`).join(', ');
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, snapshotMs, drainMs: drainOf(record), items: items.length, kinds };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-replay-'));
  try {
    console.log(`\nThe extension host opening ${SCENARIO} (session/load sent → answered; agent, pipe, decode, session, parts, transcript, archive), ${RUNS} runs after a warm-up`);
    await once(tmp, -1);
    await once(tmp, -1, 2);
    await agentAlone(tmp, -1);
    const runs: Awaited<ReturnType<typeof once>>[] = [];
    const v2: Awaited<ReturnType<typeof once>>[] = [];
    const alone: number[] = [];
    // Interleaved, so that each sees the machine as the others do.
    for (let i = 0; i < RUNS; i++) {
      runs.push(await once(tmp, i));
      v2.push(await once(tmp, i, 2));
      alone.push(await agentAlone(tmp, i));
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
    const row = (name: string, xs: number[]) => console.log(`  ${name.padEnd(44)} min ${fmt(Math.min(...xs)).padStart(5)} ms  median ${fmt(med(xs)).padStart(5)} ms  max ${fmt(Math.max(...xs)).padStart(5)} ms`);
    row('session/load sent → answered (wall)', runs.map((r) => r.wallMs));
    row('  the host process\'s CPU time meanwhile', runs.map((r) => r.cpuMs));
    row('the panel\'s snapshot serialized', runs.map((r) => r.snapshotMs));
    row('the agent\'s pipe drained, read by the host', runs.map((r) => r.drainMs));
    row('  the same agent, read by a reader doing nothing', alone);
    console.log(`  (${fmt(runs[0]!.items)} transcript items: ${runs[0]!.kinds})`);
    console.log('  The same conversation over ACP v2 (session/resume from the start, v2 shapes: upserts, v2 diffs, replay_complete):');
    row('  session/resume sent → answered (wall)', v2.map((r) => r.wallMs));
    row('    the host process\'s CPU time meanwhile', v2.map((r) => r.cpuMs));
    // The two wires give one model: a difference here is a decoder's bug, not a speed.
    if (v2[0]!.kinds !== runs[0]!.kinds) throw new Error(`over v2 the transcript differs: ${v2[0]!.kinds} (v1: ${runs[0]!.kinds})`);
    figure('replay-10k.hostLoadMs', med(runs.map((r) => r.wallMs)));
    figure('replay-10k.hostLoadMs.v2', med(v2.map((r) => r.wallMs)));
    // The client's own cost over each wire: the host's CPU time (the wall time also holds the fake agent writing v2's
    // longer lines, and the machine). Each open costs some 40 ms of CPU, and a collection or the machine's other work
    // can add as much to any one of them: the least each wire took, over the interleaved runs, is what it costs
    // (medians moved from 0.68× to 1.20× between runs of the same code).
    const least = (xs: number[]) => Math.min(...xs);
    const cpuRatio = least(v2.map((r) => r.cpuMs)) / least(runs.map((r) => r.cpuMs));
    console.log(`  v2 ÷ v1: wall (medians) ${(med(v2.map((r) => r.wallMs)) / med(runs.map((r) => r.wallMs))).toFixed(2)}×, the host's CPU time (least) ${cpuRatio.toFixed(2)}×, (medians) ${(med(v2.map((r) => r.cpuMs)) / med(runs.map((r) => r.cpuMs))).toFixed(2)}×`);
    figure('replay-10k.hostCpuV2OverV1', cpuRatio);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
