// The interop tier's results: every cell (an agent × turn/mcp/resume/cancel) appends one
// JSON line to out/interop/results.jsonl, which scripts/tested-agents.mjs turns into the
// tested-agents table of the README (and test/harness/test-all.mjs checks it is current).
//   {"agent": "<npm package>", "version": "x.y.z", "protocol"?: "2", "cell": "turn"|"mcp"|"resume"|"cancel", "ok": true|false,
//    "note"?: string, "reported"?: "x.y.z"}   (no protocol: the cells ran over ACP v1)
// `version` is the version the harness pinned; `reported` the one the agent gave in this run (initialize's
// agentInfo.version, read by reportedAgentVersion below): the table check fails when they differ or it is missing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../harness/testEnv.mjs';

export const INTEROP_RESULTS = path.join(ROOT, 'out', 'interop', 'results.jsonl');
export const INTEROP_CELLS = /** @type {const} */ (['turn', 'mcp', 'resume', 'cancel']);

/** @typedef {(typeof INTEROP_CELLS)[number]} InteropCell */

/**
 * Appends one cell's result.
 * @param {string} agent the npm package, e.g. `@zed-industries/claude-agent-acp`
 * @param {string} version e.g. `0.23.1`
 * @param {InteropCell} cell
 * @param {boolean} ok
 * @param {string} [note] a short why (a documented limitation, or how the cell failed)
 * @param {string} [reported] the version the agent reported in this run (initialize's agentInfo.version)
 * @param {'2'} [protocol] the cells ran over ACP v2 (none: v1)
 */
export function recordInterop(agent, version, cell, ok, note, reported, protocol) {
  if (!INTEROP_CELLS.includes(cell)) throw new Error(`not an interop cell: ${cell}`);
  fs.mkdirSync(path.dirname(INTEROP_RESULTS), { recursive: true });
  /** @type {{ agent: string, version: string, protocol?: string, cell: string, ok: boolean, note?: string, reported?: string }} */
  const line = { agent, version, ...(protocol ? { protocol } : {}), cell, ok };
  if (note) line.note = note.replace(/\s+/g, ' ').trim().slice(0, 160);
  if (reported) line.reported = reported.slice(0, 64);
  fs.appendFileSync(INTEROP_RESULTS, `${JSON.stringify(line)}\n`);
}

/**
 * Runs one cell's checks and records how it went (a failure is recorded, then thrown on). A cell whose
 * checks pin down a documented upstream limitation resolves with `{ limitation }`: recorded as not working,
 * with that note, while the test passes (and fails once the agent changes, so that the table is redone).
 * `agent.reported`, read when the cell ends, is the version the agent reported in this run, e.g.
 * `() => reportedAgentVersion(wb.server.userDataDir, label)`; without it the table check fails.
 * @param {{ pkg: string, version: string, protocol?: '2', reported?: string | (() => string | undefined) }} agent
 * @param {InteropCell} cell
 * @param {() => Promise<string | { limitation: string } | void>} body resolves with an optional note for a working cell
 */
export async function interopCell(agent, cell, body) {
  const reported = () => {
    try {
      return typeof agent.reported === 'function' ? agent.reported() : agent.reported;
    } catch {
      return undefined;
    }
  };
  try {
    const out = await body();
    if (typeof out === 'object') recordInterop(agent.pkg, agent.version, cell, false, out.limitation, reported(), agent.protocol);
    else recordInterop(agent.pkg, agent.version, cell, true, out || undefined, reported(), agent.protocol);
  } catch (err) {
    recordInterop(agent.pkg, agent.version, cell, false, `failed: ${String(/** @type {Error} */ (err)?.message ?? err).split('\n')[0]}`, reported(), agent.protocol);
    throw err;
  }
}

// ------------------------------------------------------------ what the run itself says (the extension's logs)

/**
 * The extension's log files in a workbench's user data (its own log, each agent's "ACP: <name>" channel,
 * the "ACP Trace" channel), oldest first: a window reload starts new ones.
 * @param {string} userDataDir
 * @returns {string[]}
 */
export function extensionLogFiles(userDataDir) {
  /** @type {{ file: string, mtime: number }[]} */
  const out = [];
  const walk = (/** @type {string} */ dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.includes('acp-agents.acp-agents') && e.name.endsWith('.log')) out.push({ file: p, mtime: fs.statSync(p).mtimeMs });
    }
  };
  const logs = path.join(userDataDir, 'logs');
  if (fs.existsSync(logs)) walk(logs);
  return out.sort((a, b) => a.mtime - b.mtime || a.file.localeCompare(b.file)).map((f) => f.file);
}

/** A log channel's file name, as VS Code makes it from the channel's name. @param {string} channel */
const channelFile = (channel) => `${channel.replace(/[\\/:*?"<>|]/g, '')}.log`;

/**
 * The version the agent reported in this run (`initialize` → `agentInfo.version`), from the last
 * "Initialized: <title or name> <version>; capabilities …" line of its "ACP: <name>" log channel
 * (written at every start, whatever acpAgents.trace says). Undefined when it never started, or
 * reported no agentInfo.
 * @param {string} userDataDir the workbench's (`wb.server.userDataDir`)
 * @param {string} agentName the agent's `name` in acpAgents.agents (as the picker and the sidebar show it)
 */
export function reportedAgentVersion(userDataDir, agentName) {
  const want = channelFile(`ACP: ${agentName}`);
  /** @type {string | undefined} */
  let version;
  for (const file of extensionLogFiles(userDataDir).filter((f) => path.basename(f) === want)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const m = /\] Initialized: (.*) (\S+); capabilities /.exec(line);
      if (m) version = m[1] === 'no' && m[2] === 'agentInfo' ? undefined : m[2];
    }
  }
  return version;
}

/**
 * The agent's answer to the last `session/load` or `session/resume` the extension sent it, from the
 * ACP trace (the workbench needs `acpAgents.trace: 'verbose'`). Undefined while none is answered.
 * @param {string} userDataDir
 * @param {string} agentName
 * @returns {{ method: string, sessionId?: string, error?: string } | undefined}
 */
export function lastSessionOpen(userDataDir, agentName) {
  const esc = agentName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const request = new RegExp(`\\] ${esc} → request (session/load|session/resume) #(\\S+) (.*)$`);
  /** @type {{ method: string, sessionId?: string, error?: string } | undefined} */
  let found;
  for (const file of extensionLogFiles(userDataDir).filter((f) => path.basename(f) === channelFile('ACP Trace'))) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const at = lines.findLastIndex((l) => request.test(l));
    if (at < 0) continue;
    const [, method, id, json] = /** @type {RegExpExecArray} */ (request.exec(lines[at]));
    const sessionId = parse(json)?.params?.sessionId;
    const answer = lines.slice(at + 1).find((l) => l.includes(`] ${agentName} ← response #${id} `) || l.endsWith(`] ${agentName} ← response #${id}`));
    if (!answer) {
      found = undefined;
      continue;
    }
    const error = parse(answer.slice(answer.indexOf('{')))?.error;
    found = { method, sessionId: typeof sessionId === 'string' ? sessionId : undefined };
    if (error || / error -?\d+ /.test(answer)) found.error = error ? `${error.code} ${String(error.message ?? '')}${error.data === undefined ? '' : ` ${JSON.stringify(error.data)}`}`.slice(0, 200) : answer.slice(answer.indexOf(' error ') + 7, 200);
  }
  return found;
}

/** @param {string} text */
function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A resume cell's check that the session was truly resumed, not shown from the local archive (which holds
 * the same prompt and answer): the agent answered `session/load` (or `session/resume`) without an error (the
 * ACP trace: the workbench needs `acpAgents.trace: 'verbose'`), the panel is live ("Connected to …"), and after
 * a load no "Archived history" is shown. Call it after the click that opens the session; it throws, with the
 * agent's answer and the panel's status, when any of it is not so. The caller then checks the replayed prompt
 * and answer are shown.
 * @param {import('./workbench.mjs').FrameLocator} frame the session's panel
 * @param {string} userDataDir the workbench's (`wb.server.userDataDir`)
 * @param {string} agentName the agent's `name` in acpAgents.agents
 * @param {number} [timeoutMs]
 * @returns {Promise<{ method: string, sessionId?: string }>}
 */
export async function assertResumed(frame, userDataDir, agentName, timeoutMs = 90_000) {
  const status = frame.locator('.status-text').last();
  const statusText = () => status.innerText({ timeout: 2_000 }).catch(() => '?');
  /** @type {ReturnType<typeof lastSessionOpen>} */
  let open;
  for (const deadline = Date.now() + timeoutMs; !(open = lastSessionOpen(userDataDir, agentName)); await new Promise((r) => setTimeout(r, 250))) {
    if (Date.now() > deadline) throw new Error(`${agentName} never answered session/load or session/resume (is acpAgents.trace verbose?); the panel says: ${await statusText()}`);
  }
  if (open.error) {
    // The panel leaves "Loading…" for the archive and the agent's reason: say what it shows.
    await frame.locator('.status-text', { hasText: /could not|read-only|Read-only|no longer exists|error/i }).last().waitFor({ timeout: 15_000 }).catch(() => {});
    throw new Error(`${open.method} failed: ${open.error}; the panel shows the archive: ${await statusText()}`);
  }
  await frame.locator('.status-text', { hasText: /^Connected to / }).last().waitFor({ timeout: 30_000 }).catch(async () => {
    throw new Error(`${open?.method} answered, but the panel is not live: ${await statusText()}`);
  });
  if (open.method === 'session/load') assert.equal(await frame.locator('.notice', { hasText: 'Archived history' }).count(), 0, 'a loaded session is the agent’s replay, not the archive');
  return open;
}
