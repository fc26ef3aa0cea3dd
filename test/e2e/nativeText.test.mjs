// An agent's text in a VS Code notification, in the real workbench: a
// permission request titled "[Allow](command:…)" while the panel is hidden
// raises a notification whose message has the words and no link. (Unescaped,
// VS Code shows "Allow" there as a link that runs the command.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

describe('e2e: untrusted text in a notification', function () {
  this.timeout(180_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;

  before(async function () {
    wb = await openWorkbench({ prefix: 'acp-native-text', agents: ['fake-evil-text'], settings: { 'acpAgents.notifications': true } });
  });

  after(async function () {
    await wb?.close();
  });

  it('a permission title with a command link shows as text: the notification has no <a>', async function () {
    const page = wb.page;
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Fake: evil-text');
    const frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    const input = frame.locator('#input');
    await input.click();
    await input.fill('go');
    await input.press('Enter');
    // The panel is hidden behind another editor; then the agent asks.
    await runCommand(page, 'File: New Untitled Text File');
    fs.writeFileSync(path.join(wb.tmp, 'workspace', '.evil-text-go'), '');
    // Read in the notification center, which lists it as it arrives (a toast may not show in a headless window).
    await runCommand(page, 'Notifications: Show Notifications');
    const notice = page.locator('.notifications-center .notification-list-item', { hasText: 'asks for permission' }).first();
    await notice.waitFor({ timeout: 20_000 });
    await screenshot(page, 'native-text-notification');
    const message = notice.locator('.notification-list-item-message');
    const text = ((await message.textContent()) ?? '').replace(/\u200b/g, '');
    assert.equal(await message.locator('a').count(), 0, 'no link in the message');
    assert.equal(await notice.locator('a[href^="command:"], a[data-href^="command:"]').count(), 0, 'no command link anywhere in the notification');
    assert.match(text, /asks for permission: \[Allow\]\(command:workbench\.action\.terminal\.new\) \$\(pass\) _it_/, 'the words are shown');
  });
});
