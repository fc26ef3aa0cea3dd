// The composer as a person uses it, in the real workbench: a code block's Copy puts
// its code on the clipboard. (History, paste and drop: not yet covered here.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { FAKE_AGENT } from '../harness/testEnv.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { openWorkbench, pick, runCommand, webviewFrame } from './workbench.mjs';

describe('e2e: the composer — Copy', function () {
  this.timeout(180_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;

  before(async function () {
    wb = await openWorkbench({
      prefix: 'acp-e2e-composer',
      agents: (tmp) => {
        // The Demo Agent, taking images too.
        const demo = JSON.parse(fs.readFileSync(path.join(path.dirname(FAKE_AGENT), 'scenarios', 'demo.json'), 'utf8'));
        demo.agentCapabilities.promptCapabilities.image = true;
        const scenario = path.join(tmp, 'demo-images.json');
        fs.writeFileSync(scenario, JSON.stringify(demo));
        return [{ id: 'demo-images', name: 'Demo Agent (images)', command: ensureNode(), args: [FAKE_AGENT, scenario], env: {} }];
      },
    });
  });

  after(async function () {
    await wb?.close();
  });

  it('a sent message gets the agent’s answer, and Copy on its code block puts exactly its code on the clipboard', async function () {
    const page = wb.page;
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Demo Agent (images)');
    const frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to Demo Agent 1.0.0' }).waitFor({ timeout: 30_000 });
    const input = frame.locator('#input');
    await input.click();
    await input.fill('the first message');
    await input.press('Enter');
    await frame.locator('.msg-agent', { hasText: 'Callers need no change.' }).first().waitFor({ timeout: 30_000 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const block = frame.locator('.msg-agent .code-block').last();
    await block.hover();
    const copy = block.locator(':scope > .copy');
    await copy.click();
    await copy.filter({ hasText: 'Copied' }).waitFor({ timeout: 5000 });
    const code = await block.locator('code').innerText();
    assert.match(code, /return `Hello, \$\{name\}! Welcome back\.`;/);
    // The clipboard, read where the webview wrote it.
    const clip = await block.evaluate(() => navigator.clipboard.readText());
    assert.equal(clip.trimEnd(), code.trimEnd());
    assert.doesNotMatch(clip, /Copied|Copy/, 'the button’s label is not part of it');
  });
});
