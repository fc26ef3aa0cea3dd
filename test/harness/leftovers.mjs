// Agent processes that outlive the VS Code that started them. Real agents carry
// ACP_TEST_RUN=<the run's temporary directory> in their environment; fake agents
// record their pid (`dir: "start"`) in the run directory's *.jsonl files.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Pids the fake agents of a run recorded at their start.
 * @param {string} dir
 * @returns {number[]}
 */
export function startedAgentPids(dir) {
  /** @type {number[]} */
  const pids = [];
  if (!fs.existsSync(dir)) return pids;
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const r = JSON.parse(line);
        if (r.dir === 'start') pids.push(r.pid);
      } catch {
        // a torn last line
      }
    }
  }
  return pids;
}

/**
 * Processes of a run's real agents (marked with ACP_TEST_RUN in their environment).
 * @param {string} dir
 * @returns {number[]}
 */
function realAgentProcesses(dir) {
  /** @type {number[]} */
  const found = [];
  if (!fs.existsSync('/proc')) return found;
  const marker = `ACP_TEST_RUN=${dir}\0`;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The run's agent processes still alive now.
 * @param {string} dir
 * @returns {number[]}
 */
export function leftoverAgents(dir) {
  return [...new Set([...realAgentProcesses(dir), ...startedAgentPids(dir)])].filter(alive);
}

/**
 * What a process runs, for a report (its command line, shortened), or `pid N` when unreadable.
 * @param {number} pid
 */
export function describeProcess(pid) {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return `${pid} (${argv.map((a) => path.basename(a)).join(' ').slice(0, 120)})`;
  } catch {
    return `pid ${pid}`;
  }
}

/**
 * Waits up to `graceMs` for the run's agents to exit on their own (an agent whose stdin closed
 * may still be writing its home), then kills what is left. Returns those it had to kill (pid and command):
 * an agent that outlived its host by that long is a leftover the caller reports.
 * @param {string} dir
 * @param {number} graceMs
 * @returns {Promise<string[]>}
 */
export async function endLeftoverAgents(dir, graceMs) {
  let left = leftoverAgents(dir);
  for (const deadline = Date.now() + graceMs; left.length > 0 && Date.now() < deadline; left = leftoverAgents(dir)) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const described = left.map(describeProcess);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  // SIGKILL is not instant: wait for the killed ones to be gone before the caller removes their files.
  for (const deadline = Date.now() + 5000; left.some(alive) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
  return described;
}
