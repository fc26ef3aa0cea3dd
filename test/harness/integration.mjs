// The integration tier: mocha inside the real VS Code extension host of
// code-server, with the workbench in headless Chromium (playwright-core).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { ensureNode } from './tools.mjs';
import { ensureRealAgents, realAgentSettings } from './realAgents.mjs';
import { ROOT, prepareWorkspace, testAgents } from './testEnv.mjs';

const RUN_TIMEOUT_MS = Number(process.env.ACP_INTEGRATION_TIMEOUT_MS || 10 * 60_000);

export async function runIntegration({ grep } = {}) {
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
  const server = await startCodeServer({
    userSettings: { 'acpAgents.agents': [...testAgents(nodeBin, tmp), ...realAgentSettings(ensureRealAgents(), tmp)] },
    env: {
      ACP_TEST_RESULTS: resultsFile,
      ACP_TEST_TMP: tmp,
      ACP_TEST_NODE: nodeBin,
      ACP_TEST_FIXTURES: path.join(ROOT, 'test', 'fixtures'),
      ACP_TEST_WORKSPACE: folder,
      ...(grep ? { ACP_TEST_GREP: grep } : {}),
      ...(process.env.ACP_BENCH_OUT ? { ACP_BENCH_OUT: process.env.ACP_BENCH_OUT } : {}),
    },
  });
  const browser = await launchBrowser();
  let harnessError = null;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const exitCode = new Promise((resolve, reject) => {
      page.on('crash', () => reject(new Error('the workbench page crashed')));
      page.on('response', (res) => {
        if (res.status() >= 500) reject(new Error(`HTTP ${res.status()} for ${res.url()}`));
      });
      void page.exposeFunction('codeAutomationExit', (code) => resolve(code));
    });
    page.on('console', (msg) => {
      const text = msg.text();
      if (process.env.ACP_TEST_VERBOSE) console.log(`  [page:${msg.type()}] ${text}`);
    });
    const authority = `127.0.0.1:${server.port}`;
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${authority}${ROOT}`],
      ['extensionTestsPath', `vscode-remote://${authority}${path.join(ROOT, 'out', 'test', 'integration', 'index')}`],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    await page.goto(workbenchUrl(server, workspace, payload));
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`integration tests did not finish within ${RUN_TIMEOUT_MS / 1000} s`)), RUN_TIMEOUT_MS);
    });
    await Promise.race([exitCode, timeout]).finally(() => clearTimeout(timer));
  } catch (err) {
    harnessError = err;
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
  }

  let results = { passed: 0, failed: 0, skipped: 0, lines: [], failures: [] };
  if (fs.existsSync(resultsFile)) results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  if (results.host) console.log(`  ran in VS Code: ${results.host}`);
  for (const line of results.lines) console.log(line);
  for (const f of results.failures) console.log(`\n  FAILED: ${f.title}\n${f.error.split('\n').map((l) => `    ${l}`).join('\n')}`);
  if (harnessError || !fs.existsSync(resultsFile)) {
    console.log(`\n  harness error: ${harnessError?.message ?? 'no results were written'}`);
    console.log(`  --- tail of code-server's log ---\n${server.logTail(40)}`);
    results.failed += 1;
    results.harnessError = String(harnessError?.message ?? 'no results');
  }
  // No agent may outlive the host: every fake agent that started must be gone.
  const leftovers = leftoverAgents(tmp);
  if (leftovers.length > 0) {
    console.log(`\n  FAILED: ${leftovers.length} agent process(es) still running after VS Code stopped: ${leftovers.join(', ')}`);
    for (const pid of leftovers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    results.failed += 1;
  } else {
    console.log(`  no agent process left behind (${startedAgentPids(tmp).length} started)`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  return results;
}

function startedAgentPids(dir) {
  const pids = [];
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

/** Processes of this run's real agents (marked with ACP_TEST_RUN in their environment). */
function realAgentProcesses(dir) {
  const found = [];
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

function leftoverAgents(dir) {
  const real = fs.existsSync('/proc') ? realAgentProcesses(dir) : [];
  return [...real, ...startedAgentPids(dir)].filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}
