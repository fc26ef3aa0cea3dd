// Benchmark of the editor-context MCP server: each tool called through the
// real server (its socket, the secret, the dispatcher, the folder and
// files.exclude filters, the bounds) by a client speaking MCP's stdio framing,
// on an editor the size of a large workspace: 20,000 files, 5,000 problems,
// 20,000 workspace symbols, 60 open editors. The editor port is in memory (what
// VS Code's own getDiagnostics/tabGroups return is already in the extension
// host); the figure is the round trip as the agent's shim sees it.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Diagnostic, EditorPort, EditorView, Severity, WorkspaceSymbol } from '../src/services/editorContext/editorPort';
import { EditorContextServer } from '../src/services/editorContext/server';
import { figure } from './figures';

const FILES = 20_000;
const PROBLEMS = 5_000;
const CALLS = Number(process.env.BENCH_EDITOR_CALLS || 300);
const TARGET_MS = 20;
// A workspace's folders exist (the tools resolve links as fs reads do); its files need not.
const ROOT = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-workspace-')));

const files = Array.from({ length: FILES }, (_, i) => path.join(ROOT, `pkg${i % 50}`, i % 7 === 0 ? 'dist' : 'src', `dir${i % 40}`, `file${i}.${i % 5 === 0 ? 'js' : 'ts'}`));
for (const dir of new Set(files.map((f) => path.dirname(f)))) fs.mkdirSync(dir, { recursive: true });
const r = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 12 } });
const severities: Severity[] = ['error', 'warning', 'information', 'hint'];
const byFile = new Map<string, Diagnostic[]>();
for (let i = 0; i < PROBLEMS; i++) {
  const file = files[(i * 13) % FILES]!;
  const list = byFile.get(file) ?? [];
  list.push({ range: r(i % 400), severity: severities[i % 4]!, message: `Problem ${i}: ${'something is not right here '.repeat(3)}`, source: 'ts', code: String(2000 + (i % 300)) });
  byFile.set(file, list);
}
const diagnostics = [...byFile.entries()];
const symbols: WorkspaceSymbol[] = files.map((file, i) => ({ name: `Symbol${i}`, kind: 'Class', containerName: `module${i % 100}`, file, range: r(i % 300) }));
const text = 'const answer = 42;\n'.repeat(2_000);
const view = (file: string): EditorView => ({ file, languageId: 'typescript', dirty: false, selections: [r(10), r(20)], visibleRanges: [{ start: { line: 0, character: 0 }, end: { line: 60, character: 0 } }], text: () => text.slice(0, 5_000) });

const port: EditorPort = {
  enabled: () => true,
  activeEditor: () => view(files[1]!),
  lastFocused: () => [view(files[1]!)],
  visibleEditors: () => [view(files[1]!), view(files[2]!), view(files[3]!)],
  openEditors: () => files.slice(0, 60).map((file, i) => ({ file, dirty: i % 9 === 0, active: i === 1, group: 1 + (i % 2) })),
  diagnostics: (file) => (file ? diagnostics.filter(([f]) => f === file) : diagnostics),
  symbols: (q) => Promise.resolve(symbols.filter((s) => s.name.includes(q))),
  excludes: () => ({ '**/.git': true, '**/node_modules': true, '**/dist': true, '**/*.js': { when: '$(basename).ts' } }),
  exists: () => false,
};

const calls: [string, Record<string, unknown>][] = [
  ['get_selection', {}],
  ['get_open_editors', {}],
  ['get_diagnostics', {}],
  ['get_diagnostics', { severity: 'warning', limit: 200 }],
  ['get_diagnostics', { file: files[13]! }],
  ['search_workspace_symbols', { query: 'Symbol1' }],
  ['get_visible_ranges', {}],
];

function client(address: string, token: string): Promise<(msg: unknown) => Promise<void>> {
  return new Promise((resolve, reject) => {
    const s = net.connect(address, () => {
      s.write(`${token}\n`);
      let buf = '';
      const waiting: (() => void)[] = [];
      s.on('data', (c: Buffer) => {
        buf += c.toString('utf8');
        for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
          buf = buf.slice(nl + 1);
          waiting.shift()?.();
        }
      });
      resolve((msg) => new Promise<void>((done) => {
        waiting.push(done);
        s.write(`${JSON.stringify(msg)}\n`);
      }));
    });
    s.on('error', reject);
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

async function main(): Promise<void> {
  const server = new EditorContextServer({ port, shim: '', node: process.execPath, version: 'bench', log: () => undefined });
  const grant = await server.grant(() => [ROOT]);
  const address = grant.entry.env.find((e) => e.name === 'ACP_EDITOR_CONTEXT_SOCKET')!.value;
  const send = await client(address, grant.token);
  await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } });
  console.log(`\nEditor context tools (${FILES.toLocaleString('en')} files, ${PROBLEMS.toLocaleString('en')} problems, ${symbols.length.toLocaleString('en')} symbols; ${CALLS} calls each, through the socket)`);
  let worst = 0;
  let id = 1;
  for (const [name, args] of calls) {
    for (let i = 0; i < 20; i++) await send({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } });
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      await send({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } });
      times.push(performance.now() - t0);
    }
    const p95 = pct(times, 95);
    worst = Math.max(worst, p95);
    const label = `${name} ${Object.keys(args).length ? JSON.stringify(args).replace(ROOT, '…') : ''}`.padEnd(58);
    console.log(`  ${label} p50 ${pct(times, 50).toFixed(2).padStart(6)} ms   p95 ${p95.toFixed(2).padStart(6)} ms`);
  }
  console.log(`  slowest tool, p95                                          ${worst.toFixed(2).padStart(6)} ms   (target ≤ ${TARGET_MS})`);
  figure('editorContext.slowestP95Ms', worst);
  grant.dispose();
  server.dispose();
  fs.rmSync(ROOT, { recursive: true, force: true });
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
