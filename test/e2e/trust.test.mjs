// Workspace trust, in a real VS Code with trust turned on: in an untrusted
// (Restricted Mode) workspace the extension offers nothing and spawns nothing;
// once the user trusts the folder, the same agent starts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { focusWorkbench, openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

describe('e2e: an untrusted workspace spawns no agent', function () {
  this.timeout(180_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;

  before(async function () {
    wb = await openWorkbench({ prefix: 'acp-trust', agents: ['demo'], workspaceTrust: true });
    page = wb.page;
  });

  after(async function () {
    await wb?.close();
  });

  const record = () => path.join(wb.tmp, 'demo.jsonl');

  it('in Restricted Mode "ACP: New Session" does not exist and no agent process starts; after trusting the folder it does', async function () {
    // The workbench says it is in Restricted Mode.
    await page.locator('#workbench\\.parts\\.statusbar', { hasText: 'Restricted Mode' }).waitFor({ timeout: 30_000 });
    // The Extensions view lists ours as disabled by Restricted Mode, and the palette does not offer its commands.
    await runCommand(page, 'Extensions: Show Installed Extensions');
    const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'ACP Agents' }).first();
    await row.waitFor({ timeout: 30_000 });
    await screenshot(page, 'trust-extensions');
    assert.match((await row.getAttribute('class')) ?? '', /\bdisabled\b/, 'the Extensions view shows ACP Agents disabled');
    const input = page.locator('.quick-input-widget input');
    await focusWorkbench(page);
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill('>ACP: New Session');
    // The palette has filtered: with no exact match it offers "similar commands" (or says there are none).
    await page.locator('.quick-input-widget', { hasText: /similar commands|No matching commands/ }).waitFor({ timeout: 10_000 });
    const offered = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    assert.ok(!offered.some((t) => t.includes('ACP:')), `palette offers: ${offered.join(' | ')}`);
    await screenshot(page, 'trust-restricted');
    await page.keyboard.press('Escape');
    assert.equal(fs.existsSync(record()), false, 'no agent process was started');

    // The user trusts the folder: the extension comes up and the agent starts.
    await page.locator('.monaco-workbench .banner', { hasText: 'Restricted Mode' }).locator('a', { hasText: 'Manage' }).click();
    const trustButton = page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust/ }).first();
    await trustButton.waitFor({ timeout: 15_000 });
    await trustButton.click();
    await page.locator('h1, .workspace-trust-title', { hasText: 'You trust this folder' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    // (The trust editor is a modal over the workbench: F1 without clicking into it.)
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill('>ACP: New Session');
    // The row of "ACP: New Session…" itself, not of "ACP: New Session in a Worktree…".
    await page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^\s*ACP: New Session…\s*$/ }) }).first().click({ timeout: 60_000 });
    await pick(page, 'Demo Agent');
    await webviewFrame(page).locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    assert.ok(fs.existsSync(record()), 'the agent started once the folder was trusted');
  });
});
