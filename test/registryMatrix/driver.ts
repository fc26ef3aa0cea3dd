/**
 * `npm run registry-matrix` (scripts/registry-matrix.mjs builds this and runs it): every npx agent of
 * the registry snapshot the extension ships, installed at its pinned version and started the way the
 * extension starts it (AgentInstaller's record, AgentManager's launch and handshake), then
 * `session/new`, or the sign-in the agent asks for. No model, no keys: each agent gets a HOME of its
 * own and an environment without credentials. Writes docs/registry-matrix.md. Not part of `npm test`.
 *
 * argv: <snapshot.json> <cache dir> <run dir> <out.md> [--only id,id]
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentError, errorText } from '../../src/acp/errors';
import { AgentManager, type AgentManagerDeps } from '../../src/agents/agentManager';
import type { AgentRuntime } from '../../src/agents/agentRuntime';
import { AgentInstaller } from '../../src/agents/registry/installer';
import { parseRegistry, type Distribution, type RegistryAgent } from '../../src/agents/registry/format';
import { withMoves } from '../../src/agents/registry/moved';
import type { LogChannel } from '../../src/agents/ports';

const INSTALL_TIMEOUT_MS = 240_000;
/** Bigger than this (the tree npm installed) and the agent is left out, with the reason. */
const MAX_INSTALL_MB = 700;
const HANDSHAKE_TIMEOUT_MS = 60_000;
const SESSION_TIMEOUT_MS = 60_000;
/** Names never passed on: whatever could sign an agent in, or send it to a real model. */
const CREDENTIAL = /(_API_KEY|_TOKEN|_SECRET|_AUTH|PASSWORD|CREDENTIALS?)$|^(ANTHROPIC|OPENAI|GEMINI|GOOGLE|AZURE|AWS|GITHUB|GH|COPILOT|CODEX|CLAUDE|QWEN|DASHSCOPE|AUGMENT|QODER)_/i;

export interface MatrixRow {
  id: string;
  name: string;
  pkg: string;
  version: string;
  reported?: string;
  handshake: string;
  asked: string;
  capabilities: string;
  seconds: number;
  note?: string;
  /** Why an agent not in the snapshot is listed. */
  origin?: string;
}

const quiet: LogChannel = { info: () => undefined, warn: () => undefined, error: () => undefined, show: () => undefined, dispose: () => undefined };

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms)));
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Fetches the pinned package into npm's npx cache (`npm exec --package <spec>`, which is what the
 * launch's `npx --yes --prefix … <spec>` then finds), bounded in time and size. Not `npm install
 * --prefix`: npx finds a package installed there but does not put its bin on PATH.
 */
async function prewarm(prefix: string, pkg: string, env: NodeJS.ProcessEnv): Promise<{ ok: true } | { ok: false; why: string }> {
  const marker = path.join(prefix, `.matrix-fetched-${pkg.replace(/[^\w.@-]/g, '_')}`);
  if (fs.existsSync(marker)) return { ok: true };
  const npx = path.join(env.npm_config_cache!, '_npx');
  const before = new Set(fs.existsSync(npx) ? fs.readdirSync(npx) : []);
  const child = spawn('npm', ['exec', '--yes', '--prefix', prefix, '--package', pkg, '--', 'node', '-e', '0'], { env, cwd: prefix, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (b: Buffer) => void (err = (err + b.toString()).slice(-4000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
  const code = await new Promise<number | null>((r) => child.on('close', r));
  clearTimeout(timer);
  if (code === null) return { ok: false, why: `install took longer than ${INSTALL_TIMEOUT_MS / 1000} s` };
  if (code !== 0) {
    if (/ETARGET|notarget|E404/.test(err)) return { ok: false, why: `${pkg} is not on the npm registry reachable here (${/E404/.test(err) ? 'E404' : 'ETARGET'})` };
    return { ok: false, why: `npm exec failed: ${err.trim().split('\n').filter((l) => !/complete log/.test(l)).slice(-2).join(' ')}` };
  }
  const added = (fs.existsSync(npx) ? fs.readdirSync(npx) : []).filter((d) => !before.has(d));
  let mb = 0;
  for (const d of added) mb += await duMb(path.join(npx, d));
  if (mb > MAX_INSTALL_MB) return { ok: false, why: `installed size ${mb} MB is over the ${MAX_INSTALL_MB} MB bound` };
  fs.writeFileSync(marker, `${mb}\n`);
  return { ok: true };
}

async function duMb(dir: string): Promise<number> {
  const child = spawn('du', ['-sm', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => void (out += b.toString()));
  await new Promise((r) => child.on('close', r));
  return Number.parseInt(out, 10) || 0;
}

/** The capabilities as the panel's diagnostics name them (AgentCapabilityView). */
function capabilityWords(rt: AgentRuntime): string {
  const c = rt.capabilities;
  const words = [
    c.canLoad() && 'load',
    c.canResume() && 'resume',
    c.canList() && 'list',
    c.canClose() && 'close',
    c.canFork() && 'fork',
    c.supportsMcp('http') && 'mcp:http',
    c.supportsMcp('sse') && 'mcp:sse',
    c.supportsPrompt('image') && 'image',
    c.supportsPrompt('embeddedContext') && 'context',
    c.canLogout() && 'logout',
  ].filter(Boolean);
  return words.join(', ') || '—';
}

function manager(runDir: string): AgentManager {
  const deps: AgentManagerDeps = {
    config: { agents: () => ({ agents: [], problems: [] }), trace: () => 'off', initializeTimeoutMs: () => HANDSHAKE_TIMEOUT_MS },
    log: quiet,
    messages: { show: async () => undefined },
    ui: { withProgress: (_t, task) => task({ isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) }), isTrusted: () => true, defaultFolder: () => undefined, restartRequested: () => undefined },
    extensionVersion: 'registry-matrix',
    logs: { channel: () => quiet, redactValue: (v) => v },
    secrets: { add: () => undefined } as unknown as AgentManagerDeps['secrets'],
    runDir: path.join(runDir, 'run'),
    storedEnv: async () => ({}),
    installed: () => [],
    hasSessionsOn: () => false,
  };
  return new AgentManager(deps);
}

async function probe(agent: RegistryAgent, installer: AgentInstaller, runDir: string, baseEnv: NodeJS.ProcessEnv, origin?: string): Promise<MatrixRow> {
  const t0 = Date.now();
  // The npx distribution even where a binary exists (chooseDistribution would take the binary).
  const dist: Distribution | undefined = agent.npx ? { kind: 'npx', target: agent.npx } : undefined;
  const pkg = dist?.target.package ?? '?';
  const row: MatrixRow = { id: agent.id, name: agent.name, pkg: pkg.replace(/@[^@]+$/, ''), version: agent.version, handshake: '', asked: '', capabilities: '', seconds: 0, ...(origin ? { origin } : {}) };
  const done = (r: Partial<MatrixRow>): MatrixRow => ({ ...row, ...r, seconds: Math.round((Date.now() - t0) / 100) / 10 });
  if (!dist) return done({ handshake: 'skipped', asked: '—', capabilities: '—', note: 'no npx distribution here' });
  const home = path.join(runDir, 'homes', agent.id);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...baseEnv, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_STATE_HOME: path.join(home, '.local', 'state') };
  const record = await installer.install(agent, dist);
  const prefix = record.args[record.args.indexOf('--prefix') + 1]!;
  const installed = await prewarm(prefix, pkg, env);
  if (!installed.ok) return done({ handshake: 'skipped', asked: '—', capabilities: '—', note: installed.why });
  // The launch reads process.env (as in the extension host): this agent's.
  const saved = process.env;
  process.env = env;
  const agents = manager(runDir);
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  try {
    let rt: AgentRuntime;
    try {
      rt = await agents.ensureRunning(AgentInstaller.definition(record), workspace);
    } catch (err) {
      return done({ handshake: `error: ${oneLine(errorText(err))}`, asked: '—', capabilities: '—' });
    } finally {
      process.env = saved;
    }
    const init = rt.initializeResult;
    const methods = (init?.authMethods ?? []).map((m) => `${m.name} (${m.type}${m.type === 'unknown' ? `: ${m.rawType}` : ''})`).join('; ');
    const base = { reported: init?.agentInfo?.version, capabilities: capabilityWords(rt) };
    try {
      const s = await withTimeout(rt.connection.newSession({ cwd: workspace, mcpServers: [] }), SESSION_TIMEOUT_MS, 'session/new');
      return done({ ...base, handshake: 'ok', asked: `nothing: session/new answered (${s.sessionId ? 'a session id' : 'no session id'})${methods ? `; offers ${methods}` : ''}` });
    } catch (err) {
      if (err instanceof AgentError && err.isAuthRequired) return done({ ...base, handshake: 'ok', asked: `sign-in: ${methods || 'no auth method listed'}` });
      return done({ ...base, handshake: 'ok', asked: `session/new failed: ${oneLine(errorText(err))}${methods ? `; offers ${methods}` : ''}` });
    }
  } finally {
    process.env = saved;
    await agents.stopAll();
    agents.dispose();
  }
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 300);

function matrixMarkdown(rows: readonly MatrixRow[], snapshotNote: string, date: string): string {
  const out = [
    '# Registry matrix',
    '',
    `Every npx agent of the ACP Registry snapshot the extension ships (\`media/registry-snapshot.json\`, ${snapshotNote}), installed at its pinned version and started as the extension starts it: \`initialize\`, then \`session/new\` or the sign-in it asks for. No model and no keys: each agent had a HOME of its own and no credentials in its environment. Written by \`npm run registry-matrix\` on ${date}; binary and uvx agents are not run.`,
    '',
    '| Agent | npm package | Pinned | Reported | Handshake | Asked for | Capabilities | Time (s) |',
    '| --- | --- | --- | --- | --- | --- | --- | ---: |',
    ...rows.map((r) => `| ${r.name} (\`${r.id}\`${r.origin ? `; ${r.origin}` : ''}) | \`${r.pkg}\` | ${r.version} | ${r.reported ?? '—'} | ${r.handshake}${r.note ? ` (${oneLine(r.note)})` : ''} | ${r.asked} | ${r.capabilities} | ${r.seconds} |`),
    '',
  ];
  return out.join('\n');
}

async function main(): Promise<void> {
  const [snapshot, cache, runDir, outFile] = process.argv.slice(2);
  if (!snapshot || !cache || !runDir || !outFile) throw new Error('usage: driver <snapshot.json> <cache dir> <run dir> <out.md> [--only id,id]');
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt > 0 ? new Set(process.argv[onlyAt + 1]?.split(',')) : undefined;
  const parsed = parseRegistry(fs.readFileSync(snapshot, 'utf8'));
  // The list as the install list shows it: with the packages that moved offered (src/agents/registry/moved.ts).
  const shown = withMoves(parsed.agents).agents;
  const agents = shown.filter((a) => a.npx && (!only || only.has(a.id)));
  const offered = new Set(shown.filter((a) => !parsed.agents.includes(a)).map((a) => a.id));
  const installer = new AgentInstaller(path.join(cache, 'agents'), () => undefined);
  const baseEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !CREDENTIAL.test(k) && !k.toLowerCase().startsWith('npm_')));
  baseEnv.npm_config_cache = path.join(cache, 'npm-cache');
  const rows: MatrixRow[] = [];
  for (const agent of agents) {
    process.stderr.write(`[registry-matrix] ${agent.id} ${agent.version}…\n`);
    const row = await probe(agent, installer, runDir, baseEnv, offered.has(agent.id) ? 'not in the snapshot: offered for a package that moved' : undefined).catch((err: unknown) => ({ id: agent.id, name: agent.name, pkg: '?', version: agent.version, handshake: `error: ${oneLine(errorText(err))}`, asked: '—', capabilities: '—', seconds: 0 }));
    process.stderr.write(`[registry-matrix] ${agent.id}: ${row.handshake}; ${row.asked} (${row.seconds} s)\n`);
    rows.push(row);
  }
  const json = JSON.parse(fs.readFileSync(snapshot, 'utf8')) as { version?: string };
  const previous = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
  const notes = previous.indexOf('\n## Notes');
  const table = matrixMarkdown(rows, `format ${json.version ?? '?'}, ${parsed.agents.length} agents`, new Date().toISOString().slice(0, 10));
  // The notes below the table are written by hand (what failed on the agents' side, and why): kept.
  fs.writeFileSync(outFile, notes >= 0 ? `${table}${previous.slice(notes)}` : table);
  process.stderr.write(`[registry-matrix] wrote ${outFile}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  },
);
