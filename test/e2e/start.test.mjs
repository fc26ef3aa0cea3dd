// `npm start` as a newcomer runs it: the printed URL opens a workbench where the
// extension (development path) is active and the Demo Agent is selectable.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort, launchBrowser } from '../harness/codeServer.mjs';
import { ROOT } from '../harness/testEnv.mjs';
import { pick, runCommand, screenshot, waitForWorkbench, webviewFrame } from './workbench.mjs';

describe('e2e: npm start', function () {
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;

  after(async function () {
    await browser?.close().catch(() => {});
    if (child && child.exitCode === null) {
      const running = child;
      const exited = new Promise((r) => running.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
    }
  });

  it('serves the workbench on 127.0.0.1 with the Demo Agent selectable', async function () {
    const port = await freePort();
    const started = spawn(process.execPath, [path.join(ROOT, 'test', 'harness', 'start.mjs')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    /** @type {string} */
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start printed no URL:\n${output}`)), 90_000);
      const onData = (/** @type {Buffer} */ d) => {
        output += d;
        const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      started.stdout.on('data', onData);
      started.stderr.on('data', onData);
      started.once('exit', (code) => reject(new Error(`npm start exited ${code}:\n${output}`)));
    });
    assert.ok(url.startsWith(`http://127.0.0.1:${port}/`), url);
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await waitForWorkbench(page);
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Demo Agent');
    // The header's name comes from settings; only the running agent's initialize answer says "Connected to".
    await webviewFrame(page).locator('.status-text', { hasText: 'Connected to Demo Agent 1.0.0' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'npm-start');
  });
});
