// As a person would: F1 → "ACP: Install Agent…", the registry's agents in a
// quick pick (here from a registry on 127.0.0.1: the shipped snapshot's agents
// plus an installable fake one), pick it, "New Session" on the notification,
// and the chat panel opens with the installed agent.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as tar from 'tar';
import { ensureNode } from '../harness/tools.mjs';
import { ROOT } from '../harness/testEnv.mjs';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

describe('e2e: install an agent from the ACP Registry', function () {
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;
  /** @type {http.Server} */
  let server;

  before(async function () {
    const tmp = fs.mkdtempSync(path.join(ROOT, 'test-results', 'e2e-registry-'));
    const pkg = path.join(tmp, 'pkg');
    fs.mkdirSync(path.join(pkg, 'scenarios'), { recursive: true });
    const agents = path.join(ROOT, 'test', 'fixtures', 'agents');
    fs.writeFileSync(path.join(pkg, 'agent'), '#!/bin/sh\nhere="$(cd "$(dirname "$0")" && pwd)"\nexec "$ACP_TEST_NODE" "$here/fake-agent.mjs" demo "$@"\n');
    fs.copyFileSync(path.join(agents, 'fake-agent.mjs'), path.join(pkg, 'fake-agent.mjs'));
    fs.copyFileSync(path.join(agents, 'scenarios', 'demo.json'), path.join(pkg, 'scenarios', 'demo.json'));
    const archive = path.join(tmp, 'demo-agent.tar.gz');
    await tar.c({ gzip: true, file: archive, cwd: pkg }, ['agent', 'fake-agent.mjs', 'scenarios']);
    const bytes = fs.readFileSync(archive);
    /** @type {Record<string, Buffer>} */
    const files = { '/demo-agent.tar.gz': bytes, '/demo-agent.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M2 3h12v8H6l-4 3z" fill="#3794ff"/></svg>') };
    server = http.createServer((req, res) => {
      const body = files[(req.url ?? '').split('?')[0] ?? ''];
      if (body) res.writeHead(200, { 'content-length': body.length }).end(body);
      else res.writeHead(404).end();
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    const base = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
    const target = { archive: `${base}/demo-agent.tar.gz`, cmd: './agent', sha256: createHash('sha256').update(bytes).digest('hex'), env: { ACP_TEST_NODE: ensureNode() } };
    const snapshot = JSON.parse(fs.readFileSync(path.join(ROOT, 'media', 'registry-snapshot.json'), 'utf8'));
    const demo = {
      id: 'demo-agent',
      name: 'Demo Agent (local registry)',
      version: '1.0.0',
      description: 'A scripted agent served by this test',
      authors: ['ACP Agents tests'],
      icon: `${base}/demo-agent.svg`,
      distribution: { binary: Object.fromEntries(['linux-x86_64', 'linux-aarch64', 'darwin-aarch64', 'darwin-x86_64', 'windows-x86_64', 'windows-aarch64'].map((k) => [k, target])) },
    };
    // The snapshot's icons point at the real CDN, which this machine cannot reach: they fall back to a codicon.
    files['/registry.json'] = Buffer.from(JSON.stringify({ version: '1.0.0', agents: [demo, ...snapshot.agents.map((/** @type {any} */ a) => ({ ...a, icon: undefined }))] }));
    wb = await openWorkbench({ prefix: 'acp-e2e-registry', agents: [], viewport: { width: 1280, height: 800 }, settings: { 'acpAgents.registry.url': `${base}/registry.json` } });
    ({ page } = wb);
  });

  after(async function () {
    await wb?.close();
    server?.closeAllConnections();
    server?.close();
  });

  it('with no agent configured, the Sessions view offers to install one and says where agents are configured in the browser', async function () {
    await runCommand(page, 'ACP Agents: Focus on Sessions View');
    const welcome = page.locator('.welcome-view-content', { hasText: 'No agent sessions yet' });
    await welcome.waitFor({ timeout: 10_000 });
    // code-server is a remote window: the agents run on the server, and their setting is the remote's.
    const note = page.locator('.welcome-view-content', { hasText: 'This is a remote window' });
    await note.waitFor({ timeout: 10_000 });
    await screenshot(page, 'welcome-remote');
    await note.locator('a, .monaco-button', { hasText: 'Open Remote Settings (JSON)' }).first().click();
    await page.locator('.tabs-container .tab', { hasText: 'settings.json' }).first().waitFor({ timeout: 10_000 });
    await runCommand(page, 'View: Close All Editors');
  });

  it('the walkthrough opens from "Welcome: Open Walkthrough…", and its first button runs Install an Agent…', async function () {
    await runCommand(page, 'Welcome: Open Walkthrough');
    await pick(page, 'Get Started with ACP Agents');
    const step = page.locator('.getting-started-step', { hasText: 'Install or configure an agent' }).first();
    await step.waitFor({ timeout: 15_000 });
    for (const title of ['Start a session', 'Resume a past session', 'Review what the agent changed']) await page.locator('.getting-started-step', { hasText: title }).first().waitFor({ timeout: 5000 });
    await screenshot(page, 'walkthrough');
    await step.locator('a, .monaco-button, button', { hasText: 'Install an Agent…' }).first().click();
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Demo Agent (local registry)' }).first().waitFor({ timeout: 20_000 });
    // The walkthrough, marking its step done, may have taken the keyboard: Escape goes to the picker.
    await page.locator('.quick-input-widget input').first().click();
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 });
    await runCommand(page, 'View: Close All Editors');
  });

  it('F1 → "ACP: Install Agent…" → pick → New Session opens the installed agent', async function () {
    await runCommand(page, 'ACP: Install Agent');
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Demo Agent (local registry)' }).first();
    await row.waitFor({ timeout: 20_000 });
    // The registry's other agents are listed too, each with version and how it installs.
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Gemini CLI' }).first().waitFor({ timeout: 10_000 });
    await page.waitForTimeout(500); // the icons arrive just after the list: let the screenshot have them
    assert.match((await row.textContent()) ?? '', /1\.0\.0 · download/);
    await screenshot(page, 'registry-install-agent');
    await row.click();
    // The notification, read in the notification center, which lists it as it arrives (a toast may not show in a headless window).
    await runCommand(page, 'Notifications: Show Notifications');
    const notice = page.locator('.notifications-center .notification-list-item', { hasText: 'Installed Demo Agent (local registry) 1.0.0' }).first();
    await notice.waitFor({ timeout: 15_000 }).catch(async (/** @type {Error} */ err) => {
      await screenshot(page, 'registry-install-failed');
      throw err;
    });
    const button = notice.locator('.monaco-button', { hasText: 'New Session' }).first();
    await button.click();
    const frame = webviewFrame(page);
    await frame.locator('#agent-name', { hasText: 'Demo Agent (local registry)' }).waitFor({ timeout: 30_000 });
    // That name is the registry entry's; the installed binary itself answers initialize as the demo scenario's agent.
    await frame.locator('.status-text', { hasText: 'Connected to Demo Agent 1.0.0' }).waitFor({ timeout: 30_000 });
  });
});
