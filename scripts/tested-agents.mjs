// The README's tested-agents table (agent × turn / MCP / resume / cancel, with versions),
// written from the interop tier's results (out/interop/results.jsonl, one JSON line per cell:
// {"agent", "version", "cell", "ok", "note"?, "reported"?}, appended by the e2e interop tests).
// `version` is the pinned one, `reported` the agent's own initialize agentInfo.version in that run:
// the table is neither written nor passed while one differs from the other, or is missing.
//
//   node scripts/tested-agents.mjs            rewrite the table in README.md from the results
//   node scripts/tested-agents.mjs --check    exit 1 (and say what differs) when it is not current
//     --strict     also fail when a row of the table has a cell this run gave no result for
//     --readme F   another README (tests)        --results F   another results file (tests)
//
// Results are merged into the table that is there, cell by cell: a run that tested only some
// agents or cells (an e2e run with --grep, or one interop file) leaves the other rows and cells
// as they are; a cell it ran takes its new value; an agent it ran at another version than its
// row says gets the new version, and the cells this run did not test at that version become "–"
// (a result for an older version would be a claim nobody checked). The full run (no --grep,
// every interop file) is --strict: every row must then come from this run, so a row for an
// agent nobody tests any more cannot stay. test/harness/test-all.mjs runs the check after the e2e tier.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const START = '<!-- tested-agents:start (written by scripts/tested-agents.mjs from the e2e interop results; do not edit) -->';
export const END = '<!-- tested-agents:end -->';
const CELLS = ['turn', 'mcp', 'resume', 'cancel'];
const HEADER = ['Agent (npm)', 'Version', 'ACP', 'Whole turn', 'MCP', 'Resume', 'Cancel'];
/** The ACP versions a row can be for (a result without `protocol` is v1's). */
const PROTOCOLS = ['1', '2'];
const UNTESTED = '–';

/**
 * @typedef {{ agent: string, version: string, protocol?: string, cell: string, ok: boolean, note?: string, reported?: string }} Result
 * @typedef {{ agent: string, version: string, protocol: string, cells: string[] }} Row cells in CELLS order, as the table shows them
 */

/**
 * Reads the results file (absent: none). A line that is not a result is an error that says where.
 * @param {string} file
 * @returns {Result[]}
 */
export function readResults(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => [line.trim(), i + 1])
    .filter(([line]) => line)
    .map(([line, n]) => {
      /** @type {any} */
      let r;
      try {
        r = JSON.parse(String(line));
      } catch {
        throw new Error(`${file}:${n}: not JSON`);
      }
      const ok = r && typeof r.agent === 'string' && r.agent && typeof r.version === 'string' && /^\d+\.\d+\.\d+/.test(r.version) && CELLS.includes(r.cell) && typeof r.ok === 'boolean' && (r.note === undefined || typeof r.note === 'string') && (r.reported === undefined || typeof r.reported === 'string') && (r.protocol === undefined || PROTOCOLS.includes(r.protocol));
      if (!ok) throw new Error(`${file}:${n}: not an interop result ({"agent","version","protocol"?: ${PROTOCOLS.join('|')},"cell": ${CELLS.join('|')},"ok","note"?}): ${String(line).slice(0, 200)}`);
      return /** @type {Result} */ (r);
    });
}

/** One cell as the table shows it. @param {Result} r */
function cellText(r) {
  const note = r.note ? ` ${r.note.replace(/\s+/g, ' ').trim()}` : '';
  return `${r.ok ? '✓' : '✗'}${note}`.replace(/\|/g, '\\|');
}

/**
 * The rows of the table between the markers (none when there is no table yet).
 * @param {string} readme
 * @returns {Row[]}
 */
export function parseTable(readme) {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) return [];
  return readme
    .slice(a + START.length, b)
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => {
      const cols = l
        .slice(1, l.endsWith('|') ? -1 : undefined)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      // A table from before the ACP column: its rows are v1's.
      const at = cols.length > CELLS.length + 2 ? 3 : 2;
      return { agent: cols[0].replace(/^`|`$/g, ''), version: cols[1], protocol: at === 3 ? cols[2] : '1', cells: CELLS.map((_, i) => cols[i + at] ?? UNTESTED) };
    });
}

/**
 * The table that is there with this run's results merged in (see the header), and the cells a
 * strict check misses: the rows' cells this run gave no result for.
 * @param {Row[]} existing
 * @param {Result[]} results in the order they were written: a later result for a cell wins
 */
export function merge(existing, results) {
  /** A row is an agent over one ACP version. @param {{ agent: string, protocol?: string }} r */
  const key = (r) => `${r.agent}\n${r.protocol ?? '1'}`;
  /** @type {Map<string, Row>} */
  const rows = new Map(existing.map((r) => [key(r), { ...r, cells: [...r.cells] }]));
  /** @type {Set<string>} row + cell, this run */
  const ran = new Set();
  for (const r of results) {
    let row = rows.get(key(r));
    if (!row || row.version !== r.version) {
      row = { agent: r.agent, version: r.version, protocol: r.protocol ?? '1', cells: CELLS.map(() => UNTESTED) };
      rows.set(key(r), row);
      for (const c of CELLS) ran.delete(`${key(r)}\n${c}`);
    }
    row.cells[CELLS.indexOf(r.cell)] = cellText(r);
    ran.add(`${key(r)}\n${r.cell}`);
  }
  const sorted = [...rows.values()].sort((x, y) => x.agent.localeCompare(y.agent) || x.protocol.localeCompare(y.protocol));
  const missing = sorted.flatMap((row) => CELLS.filter((c) => !ran.has(`${key(row)}\n${c}`)).map((c) => `${row.agent} ${row.version}${row.protocol === '1' ? '' : ` (ACP v${row.protocol})`}: ${c}`));
  return { rows: sorted, missing };
}

/** The table, with its markers. @param {Row[]} rows */
export function renderTable(rows) {
  const line = (/** @type {string[]} */ cols) => `| ${cols.join(' | ')} |`;
  return [
    START,
    line(HEADER),
    line(HEADER.map(() => '---')),
    ...rows.map((r) => line([`\`${r.agent}\``, r.version, r.protocol, ...r.cells])),
    '',
    `✓ works through the extension, offline, in the real workbench; ✗ does not (why, when known); ${UNTESTED} not tested at this version. ACP: the protocol version the cells ran over (2: ACP v2, a Preview, turned on per agent).`,
    END,
  ].join('\n');
}

/**
 * The README with its table current.
 * @param {string} readme
 * @param {Result[]} results
 */
export function updatedReadme(readme, results) {
  const { rows, missing } = merge(parseTable(readme), results);
  const table = renderTable(rows);
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`the README has no tested-agents table: put the two marker lines where it goes:\n${START}\n${END}`);
  return { text: readme.slice(0, a) + table + readme.slice(b + END.length), missing };
}

/**
 * The results whose agent reported another version than the one pinned, or none: one line per agent and
 * version, naming both.
 * @param {Result[]} results
 * @returns {string[]}
 */
export function versionProblems(results) {
  /** @type {Map<string, Set<string>>} agent + pinned version → what it reported ('' for nothing) */
  const seen = new Map();
  for (const r of results) {
    const key = `${r.agent}\n${r.version}`;
    if (!seen.has(key)) seen.set(key, new Set());
    seen.get(key)?.add(r.reported ?? '');
  }
  /** @type {string[]} */
  const problems = [];
  for (const [key, reported] of seen) {
    const [agent, version] = key.split('\n');
    const wrong = [...reported].filter((v) => v !== version);
    if (!wrong.length) continue;
    const said = wrong.map((v) => (v ? v : 'no version')).join(', ');
    problems.push(
      `${agent}: pinned at ${version}, but the agent reported ${said} in this run (initialize agentInfo.version, recorded as "reported" by the interop cells)` +
        (wrong.includes('') ? '; a cell without it: give interopCell the agent\'s reported version (reportedAgentVersion in test/e2e/interopResults.mjs)' : '; pin what is installed, or install what is pinned'),
    );
  }
  return problems;
}

/**
 * Checks (or writes) the table; returns the problems, none when it is current.
 * @param {{ readme?: string, results?: string, check?: boolean, strict?: boolean }} options
 * @returns {string[]}
 */
export function testedAgents({ readme = path.join(ROOT, 'README.md'), results = path.join(ROOT, 'out', 'interop', 'results.jsonl'), check = false, strict = false } = {}) {
  const before = fs.readFileSync(readme, 'utf8');
  const all = readResults(results);
  // A version the run did not confirm is not written into the table.
  const versions = versionProblems(all);
  if (versions.length) return versions;
  const { text, missing } = updatedReadme(before, all);
  /** @type {string[]} */
  const problems = [];
  if (strict && missing.length) problems.push(`the tested-agents table has cells this run did not test (test them, or remove the rows): ${missing.join(', ')}`);
  if (text !== before) {
    if (!check) fs.writeFileSync(readme, text);
    else {
      const want = text.slice(text.indexOf(START), text.indexOf(END));
      const have = before.slice(before.indexOf(START), before.indexOf(END)).split('\n');
      const diff = want.split('\n').filter((l) => !have.includes(l));
      problems.push(
        `the tested-agents table in ${path.relative(process.cwd(), readme) || readme} is not what the interop results give. ` +
          `If every cell passed, run \`node scripts/tested-agents.mjs\` and commit README.md; a ✗ "failed: …" cell is a failing test to fix. It should have:\n${diff.join('\n')}`,
      );
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const value = (/** @type {string} */ name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  try {
    const problems = testedAgents({ readme: value('--readme'), results: value('--results'), check: args.includes('--check'), strict: args.includes('--strict') });
    for (const p of problems) console.error(p);
    process.exit(problems.length ? 1 : 0);
  } catch (err) {
    console.error(String(/** @type {Error} */ (err)?.message ?? err));
    process.exit(2);
  }
}
