// The integration tier: mocha inside the real VS Code extension host of
// code-server, with the workbench in headless Chromium (playwright-core).
//
// A run counts as passed only when the tests reached their end in one extension
// host: the results file (written by test/integration/index.ts) must say
// `done: true`, name a single start, and the workbench must report exit code 0.
// An extension host that dies mid-run is noticed within about a second (its pid
// disappears, code-server logs its exit, the workbench says it terminated, or a
// restarted host starts the tests again) rather than at the run's time limit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, sleep, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { ensureNode } from './tools.mjs';
import { endLeftoverAgents, startedAgentPids } from './leftovers.mjs';
import { ensureRealAgents, realAgentSettings } from './realAgents.mjs';
import { ROOT, prepareWorkspace, testAgents } from './testEnv.mjs';

const RUN_TIMEOUT_MS = Number(process.env.ACP_INTEGRATION_TIMEOUT_MS || 10 * 60_000);
/** After a sign of a crash, how long to wait for the others (for a precise message). */
const CRASH_SETTLE_MS = 750;

/**
 * @typedef {object} IntegrationResults
 * @property {string} [host]
 * @property {{ pid: number, at: string }[]} [starts]
 * @property {number} passed
 * @property {number} failed
 * @property {number} skipped
 * @property {string[]} lines
 * @property {{ title: string, error: string }[]} failures
 * @property {boolean} [done]
 * @property {number} [exitCode]
 * @property {string} [harnessError] why the harness failed the run (crash, restart, exit code, time-out)
 * @property {number} [elapsedMs] from starting the workbench to the end (code-server stopped)
 * @property {number} [settledAt] when (epoch ms) the run ended: an exit code arrived, a crash was seen, or the time limit passed
 */

/**
 * @typedef {object} IntegrationOptions
 * @property {string} [grep] only tests whose full title contains this (mocha grep)
 * @property {string} [testsPath] the module the extension host runs as `extensionTestsPath` (absolute, without .js); default out/test/integration/index
 * @property {Record<string, string>} [env] more environment for code-server (and so the extension host)
 * @property {boolean} [realAgents] configure the real third-party agents (installed on first use); default true
 * @property {number} [timeoutMs] the whole run's time limit; default $ACP_INTEGRATION_TIMEOUT_MS or 10 minutes
 * @property {(line: string) => void} [log] where the report goes; default console.log
 */

/**
 * Reads the results file; undefined while it is missing (a torn file cannot happen: it is renamed into place).
 * @param {string} file
 */
function readResults(file) {
  try {
    return /** @type {IntegrationResults} */ (JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/** The crash watcher saw the extension host go (the signs are reported with the verdict). */
class CrashSeen extends Error {
  constructor() {
    super('the extension host went away');
  }
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

/**
 * Runs an integration suite in code-server's extension host and returns its counts;
 * any way the run did not finish cleanly adds a failure and sets `harnessError`.
 * @param {IntegrationOptions} [options]
 * @returns {Promise<IntegrationResults>}
 */
export async function runIntegration({ grep, testsPath, env = {}, realAgents = true, timeoutMs = RUN_TIMEOUT_MS, log = console.log } = {}) {
  const nodeBin = ensureNode();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-int-'));
  const resultsFile = path.join(tmp, 'results.json');
  // A multi-root workspace: the sample folder first, and a second folder.
  const folder = prepareWorkspace(tmp);
  const second = path.join(tmp, 'second-folder');
  fs.mkdirSync(second, { recursive: true });
  fs.writeFileSync(path.join(second, 'notes.md'), '# The second folder\n');
  const workspace = path.join(tmp, 'test.code-workspace');
  fs.writeFileSync(workspace, JSON.stringify({ folders: [{ path: folder }, { path: second }] }));
  const agents = [...testAgents(nodeBin, tmp), ...(realAgents ? realAgentSettings(ensureRealAgents(), tmp) : [])];
  const server = await startCodeServer({
    // No test reaches the real registry: a closed port on this machine.
    // Notifications off: the test host's window is not reliably focused, so every turn's end could notify (the attention test turns them on).
    // VS Code's Git extension off: tests make and remove repositories in the workspace, and its background git runs then die
    // with EPIPE — uncaught errors in the shared extension host that mocha pins on whichever test runs.
    userSettings: { 'acpAgents.agents': agents, 'acpAgents.registry.url': 'http://127.0.0.1:9/registry.json', 'acpAgents.notifications': false, 'git.enabled': false },
    env: {
      ACP_TEST_RESULTS: resultsFile,
      ACP_TEST_TMP: tmp,
      ACP_TEST_NODE: nodeBin,
      ACP_TEST_FIXTURES: path.join(ROOT, 'test', 'fixtures'),
      ACP_TEST_WORKSPACE: folder,
      // The tests' own CA (test/fixtures/ws/test-ca.crt): a wss:// agent by URL with a certificate it signed is trusted.
      NODE_EXTRA_CA_CERTS: path.join(ROOT, 'test', 'fixtures', 'ws', 'test-ca.crt'),
      ...(grep ? { ACP_TEST_GREP: grep } : {}),
      ...(process.env.ACP_BENCH_OUT ? { ACP_BENCH_OUT: process.env.ACP_BENCH_OUT } : {}),
      ...env,
    },
  });
  const logFile = path.join(server.dir, 'code-server.log');
  const browser = await launchBrowser();
  /** @type {Error | null} */
  let harnessError = null;
  /** @type {number | undefined} */
  let exitCode;
  /** Signs that the extension host went away before the tests finished, in the order seen. */
  /** @type {string[]} */
  const crashSigns = [];
  /** @param {string} sign */
  const note = (sign) => {
    if (!crashSigns.includes(sign)) crashSigns.push(sign);
  };
  /** What the workbench page said about the extension host, until the run is known to be done. */
  /** @type {string[]} */
  const pageSigns = [];
  let logOffset = 0;
  /** Looks for the host's end: a second start, its pid gone, code-server's log, the page. */
  const survey = () => {
    const r = readResults(resultsFile);
    const starts = r?.starts ?? [];
    if (starts.length > 1) note(`the tests were started ${starts.length} times (extension host pids ${starts.map((s) => s.pid).join(', ')}): the host was restarted`);
    let logged = '';
    try {
      logged = fs.readFileSync(logFile, 'utf8');
    } catch {
      // no log yet
    }
    // Once the run is done, the host may stop as it likes: only an earlier end is a crash.
    if (!r?.done) {
      const pid = starts.at(-1)?.pid;
      if (pid !== undefined && !alive(pid)) note(`the extension host (pid ${pid}) is gone`);
      for (const line of logged.slice(logOffset).split('\n')) {
        if (/Extension Host Process exited with code/i.test(line)) note(`code-server: ${line.replace(/^\[[^\]]*\]\s*/, '').trim()}`);
      }
      for (const sign of pageSigns.splice(0)) note(sign);
    }
    logOffset = logged.length;
    return r;
  };
  let watching = true;
  const started = Date.now();
  /** @type {number | undefined} */
  let settledAt;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Careful: after the remote extension host dies, the workbench still reports exit
    // code 0 (measured with code-server 4.139.1). The exit code alone proves nothing.
    /** @type {Promise<number>} */
    const exited = new Promise((resolve, reject) => {
      page.on('crash', () => reject(new Error('the workbench page crashed')));
      page.on('response', (res) => {
        if (res.status() >= 500) reject(new Error(`HTTP ${res.status()} for ${res.url()}`));
      });
      void page.exposeFunction('codeAutomationExit', (/** @type {number} */ code) => resolve(code));
    });
    page.on('console', (msg) => {
      const text = msg.text();
      if (process.env.ACP_TEST_VERBOSE) log(`  [page:${msg.type()}] ${text}`);
      // The workbench's own words when the remote extension host dies.
      if (/Extension host \(.*\) terminated unexpectedly/i.test(text)) pageSigns.push(`the workbench: ${text.split('\n')[0]}`);
    });

    // Watches the run while it goes, so that a crash ends it within about a second.
    /** @type {Promise<never>} */
    const crashed = new Promise((_, reject) => {
      /** @type {number | undefined} */
      let firstSignAt;
      const tick = () => {
        if (!watching) return;
        survey();
        if (crashSigns.length > 0) {
          firstSignAt ??= Date.now();
          // A moment for the other signs (the exit code in code-server's log), for a precise message.
          if (Date.now() - firstSignAt >= CRASH_SETTLE_MS) {
            reject(new CrashSeen());
            return;
          }
        }
        setTimeout(tick, 200);
      };
      tick();
    });

    const authority = `127.0.0.1:${server.port}`;
    const tests = testsPath ?? path.join(ROOT, 'out', 'test', 'integration', 'index');
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${authority}${ROOT}`],
      ['extensionTestsPath', `vscode-remote://${authority}${tests}`],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    await page.goto(workbenchUrl(server, workspace, payload));
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    /** @type {Promise<never>} */
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`integration tests did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    exitCode = await Promise.race([exited, crashed, timeout]).finally(() => {
      clearTimeout(timer);
      settledAt = Date.now();
    });
    // An exit code arrived. If the run did not say it is done, the host went away:
    // give its exit a moment to show in code-server's log, for the message.
    if (!survey()?.done) {
      await sleep(CRASH_SETTLE_MS);
      survey();
    }
  } catch (err) {
    harnessError = /** @type {Error} */ (err);
  } finally {
    watching = false;
    await browser.close().catch(() => {});
    await server.stop();
  }
  const elapsedMs = Date.now() - started;

  /** @type {IntegrationResults} */
  let results = { passed: 0, failed: 0, skipped: 0, lines: [], failures: [] };
  const written = readResults(resultsFile);
  if (written) results = written;
  results.elapsedMs = elapsedMs;
  results.settledAt = settledAt;
  if (results.host) log(`  ran in VS Code: ${results.host}`);
  for (const line of results.lines) log(line);
  for (const f of results.failures) log(`\n  FAILED: ${f.title}\n${f.error.split('\n').map((l) => `    ${l}`).join('\n')}`);

  // The verdict: anything but one whole run that says so is a failure.
  const problems = [];
  if (harnessError && !(harnessError instanceof CrashSeen)) problems.push(harnessError.message);
  if (crashSigns.length > 0) {
    const at = written ? ` after ${written.passed} passed, ${written.failed} failed` : '';
    problems.push(`the extension host crashed or exited before the tests finished${at}:\n  - ${crashSigns.join('\n  - ')}`);
  }
  if (!written) problems.push('no results were written: the tests never started');
  else {
    const starts = written.starts ?? [];
    if (starts.length !== 1) problems.push(`the tests were started ${starts.length} times (extension host pids ${starts.map((s) => s.pid).join(', ')})`);
    if (written.done !== true) problems.push(`the test run never finished (${written.passed} passed, ${written.failed} failed before it stopped)`);
    else if (written.passed + written.failed === 0) problems.push('the run had no test to run (a --grep that matches nothing?)');
    else if (exitCode !== undefined && written.exitCode !== exitCode) problems.push(`the workbench reported exit code ${exitCode}, the test run ${written.exitCode}`);
  }
  if (exitCode !== undefined && exitCode !== 0 && results.failed === 0 && problems.length === 0) problems.push(`the extension host reported exit code ${exitCode} with no failed test`);
  if (problems.length > 0) {
    const unique = [...new Set(problems)];
    log(`\n  harness error: ${unique.join('\n  harness error: ')}`);
    log(`  --- tail of code-server's log ---\n${server.logTail(40)}`);
    results.failed += 1;
    results.failures.push({ title: 'the integration run', error: unique.join('\n') });
    results.harnessError = unique.join('\n');
  }
  // No agent may outlive the host: every agent that started must be gone within a few seconds.
  const leftovers = await endLeftoverAgents(tmp, 3000);
  if (leftovers.length > 0) {
    log(`\n  FAILED: ${leftovers.length} agent process(es) still running after VS Code stopped: ${leftovers.join(', ')}`);
    results.failed += 1;
  } else {
    log(`  no agent process left behind (${startedAgentPids(tmp).length} started)`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  return results;
}
