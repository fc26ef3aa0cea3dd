// As a person would: the packaged .vsix installed into code-server, F1,
// "ACP: New Session", pick the Demo Agent, see the chat panel.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { focusWorkbench, openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

describe('e2e: the installed .vsix in the workbench', function () {
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('../harness/codeServer.mjs').CodeServer} */
  let server;
  /** @type {import('./workbench.mjs').Page} */
  let page;

  before(async function () {
    wb = await openWorkbench({ prefix: 'acp-e2e', agents: ['demo', 'fake-slow-permission'], viewport: { width: 1280, height: 800 } });
    ({ server, page } = wb);
  });

  after(async function () {
    await wb?.close();
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
    // The header's name comes from settings; only the running agent's initialize answer says "Connected to".
    await frame.locator('.status-text', { hasText: 'Connected to Demo Agent 1.0.0' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('#transcript').getAttribute('role'), 'region');
    assert.equal(await frame.locator('#announcer').getAttribute('aria-live'), 'polite');
    await screenshot(page, 'e2e-new-session');
  });

  it('offers ACP: Stop in the palette only while a session works', async function () {
    /** The palette's rows for `>ACP: Stop`, once it has answered (a match for the filter, or its "no matching commands" row). */
    const stopRows = async () => {
      await focusWorkbench(page);
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('>ACP: Stop');
      const rows = page.locator('.quick-input-list .monaco-list-row');
      await rows.filter({ hasText: /Stop|No matching commands/ }).first().waitFor({ timeout: 10_000 });
      return (await rows.allInnerTexts()).filter((l) => /ACP: Stop\b/.test(l));
    };
    // The panel above is open and idle: nothing works, so Stop has nothing to stop.
    assert.deepEqual(await stopRows(), [], 'no Stop while nothing works');
    await page.keyboard.press('Escape');

    // A session that works (it waits on a permission question): Stop is offered, and running it stops the turn.
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Fake: slow-permission');
    const frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    await frame.locator('#input').click();
    await frame.locator('#input').fill('Clean up');
    await frame.locator('#input').press('Enter');
    await frame.locator('.permission-option', { hasText: 'Delete it' }).waitFor({ timeout: 15_000 });
    let offered = await stopRows();
    for (let i = 0; i < 5 && offered.length === 0; i++) {
      // The context key may trail the panel by a moment: look again, as a person would.
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
      offered = await stopRows();
    }
    assert.equal(offered.length, 1, 'Stop is offered while the session works');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'ACP: Stop' }).first().click();
    await frame.locator('.turn-end', { hasText: 'Stopped.' }).waitFor({ timeout: 15_000 });

    // The turn ended: Stop is gone again.
    assert.deepEqual(await stopRows(), [], 'no Stop once the turn ended');
    await page.keyboard.press('Escape');
  });
});
