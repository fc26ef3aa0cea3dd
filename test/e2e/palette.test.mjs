// As a person would: the packaged .vsix installed into code-server, F1,
// "ACP: New Session", pick the Demo Agent, see the chat panel.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { prepareWorkspace, testAgents } from '../harness/testEnv.mjs';
import { pick, runCommand, screenshot, vsixPath, waitForWorkbench, webviewFrame } from './workbench.mjs';

describe('e2e: the installed .vsix in the workbench', function () {
  let server;
  let browser;
  let page;
  let tmp;

  before(async function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-e2e-'));
    const workspace = prepareWorkspace(tmp);
    server = await startCodeServer({
      installVsix: [vsixPath()],
      userSettings: { 'acpAgents.agents': testAgents(ensureNode(), tmp).filter((a) => a.id === 'demo') },
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(workbenchUrl(server, workspace));
    await waitForWorkbench(page);
  });

  after(async function () {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('is installed from the .vsix, not loaded from the source tree', () => {
    const installed = fs.readdirSync(server.extensionsDir).filter((d) => d.startsWith('acp-agents.acp-agents-'));
    assert.equal(installed.length, 1, `installed: ${installed}`);
    assert.ok(fs.existsSync(path.join(server.extensionsDir, installed[0], 'dist', 'extension.js')));
    assert.ok(!fs.existsSync(path.join(server.extensionsDir, installed[0], 'src')), 'sources are not shipped');
  });

  it('F1 → "ACP: New Session…" → Demo Agent opens the chat panel', async function () {
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Demo Agent');
    const tab = page.locator('.tabs-container .tab', { hasText: 'Demo Agent' });
    await tab.waitFor({ timeout: 20_000 });
    const frame = webviewFrame(page);
    await frame.locator('#agent-name', { hasText: 'Demo Agent' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('#transcript').getAttribute('role'), 'log');
    await screenshot(page, 'e2e-new-session');
  });
});
