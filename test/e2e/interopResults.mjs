// The interop tier's results: every cell (an agent × turn/mcp/resume/cancel) appends one
// JSON line to out/interop/results.jsonl, which scripts/tested-agents.mjs turns into the
// tested-agents table of the README (and test/harness/test-all.mjs checks it is current).
//   {"agent": "<npm package>", "version": "x.y.z", "cell": "turn"|"mcp"|"resume"|"cancel", "ok": true|false, "note"?: string}
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
 */
export function recordInterop(agent, version, cell, ok, note) {
  if (!INTEROP_CELLS.includes(cell)) throw new Error(`not an interop cell: ${cell}`);
  fs.mkdirSync(path.dirname(INTEROP_RESULTS), { recursive: true });
  /** @type {{ agent: string, version: string, cell: string, ok: boolean, note?: string }} */
  const line = { agent, version, cell, ok };
  if (note) line.note = note.replace(/\s+/g, ' ').trim().slice(0, 160);
  fs.appendFileSync(INTEROP_RESULTS, `${JSON.stringify(line)}\n`);
}

/**
 * Runs one cell's checks and records how it went (a failure is recorded, then thrown on). A cell whose
 * checks pin down a documented upstream limitation resolves with `{ limitation }`: recorded as not working,
 * with that note, while the test passes (and fails once the agent changes, so that the table is redone).
 * @param {{ pkg: string, version: string }} agent
 * @param {InteropCell} cell
 * @param {() => Promise<string | { limitation: string } | void>} body resolves with an optional note for a working cell
 */
export async function interopCell(agent, cell, body) {
  try {
    const out = await body();
    if (typeof out === 'object') recordInterop(agent.pkg, agent.version, cell, false, out.limitation);
    else recordInterop(agent.pkg, agent.version, cell, true, out || undefined);
  } catch (err) {
    recordInterop(agent.pkg, agent.version, cell, false, `failed: ${String(/** @type {Error} */ (err)?.message ?? err).split('\n')[0]}`);
    throw err;
  }
}
