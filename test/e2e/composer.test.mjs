// The composer as a person uses it, in the real workbench: Up/Down bring back what
// was sent, a pasted image and a dropped file become chips and reach the agent, and
// a code block's Copy puts its code on the clipboard.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { FAKE_AGENT } from '../harness/testEnv.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('e2e: the composer — history, paste, drop, Copy', function () {
  this.timeout(180_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {string} */
  let recordPath;

  before(async function () {
    wb = await openWorkbench({
      prefix: 'acp-e2e-composer',
      agents: (tmp) => {
        // The Demo Agent, taking images too.
        const demo = JSON.parse(fs.readFileSync(path.join(path.dirname(FAKE_AGENT), 'scenarios', 'demo.json'), 'utf8'));
        demo.agentCapabilities.promptCapabilities.image = true;
        const scenario = path.join(tmp, 'demo-images.json');
        fs.writeFileSync(scenario, JSON.stringify(demo));
        recordPath = path.join(tmp, 'demo-images.jsonl');
        return [{ id: 'demo-images', name: 'Demo Agent (images)', command: ensureNode(), args: [FAKE_AGENT, scenario], env: { ACP_FAKE_RECORD: recordPath } }];
      },
    });
  });

  after(async function () {
    await wb?.close();
  });

  /** The agent's record: what it received and sent. */
  const recorded = () =>
    fs.existsSync(recordPath)
      ? fs
          .readFileSync(recordPath, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  /** Waits until the agent has answered `n` prompts in all (its turns share one message id, so the panel shows one growing answer). */
  const turnsDone = async (/** @type {number} */ n) => {
    const deadline = Date.now() + 30_000;
    while (recorded().filter((r) => r.dir === 'out' && r.msg?.result?.stopReason === 'end_turn').length < n) {
      if (Date.now() > deadline) throw new Error(`the agent did not finish turn ${n}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const prompts = () =>
    fs
      .readFileSync(recordPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt')
      .map((r) => r.msg.params.prompt);

  it('sends two messages; Up brings back the last, then the one before; Down goes forward, then to an empty composer', async function () {
    const page = wb.page;
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Demo Agent (images)');
    const frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to Demo Agent 1.0.0' }).waitFor({ timeout: 30_000 });
    const input = frame.locator('#input');
    for (const [i, text] of ['the first message', 'the second message'].entries()) {
      await input.click();
      await input.fill(text);
      await input.press('Enter');
      await turnsDone(i + 1);
    }
    assert.equal(await input.inputValue(), '');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'the second message');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'the first message');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), 'the second message');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), '');
  });

  it('a pasted image and a file dropped from the Explorer become chips, and reach the agent as an image and the file’s content', async function () {
    const page = wb.page;
    const frame = webviewFrame(page);
    const input = frame.locator('#input');
    await input.click();
    // What the browser hands the page on Ctrl+V of an image, and on a drop from VS Code's Explorer.
    await input.evaluate((el, png) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, PNG);
    await frame.locator('.chip', { hasText: 'dot.png' }).waitFor({ timeout: 5000 });
    const greet = path.join(wb.tmp, 'workspace', 'src', 'greet.ts');
    await frame.locator('.composer').evaluate((zone, uri) => {
      const data = new DataTransfer();
      data.setData('text/uri-list', uri);
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, `file://${greet}`);
    await frame.locator('.chip', { hasText: 'greet.ts' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'composer-chips');
    await input.fill('what do you see?');
    await input.press('Enter');
    await turnsDone(3);
    await frame.locator('.msg-agent', { hasText: 'Callers need no change.' }).last().waitFor({ timeout: 30_000 });
    const prompt = prompts().at(-1);
    assert.deepEqual(prompt.map((/** @type {{ type: string }} */ b) => b.type).sort(), ['image', 'resource', 'text']);
    const image = prompt.find((/** @type {{ type: string }} */ b) => b.type === 'image');
    assert.deepEqual([image.mimeType, image.data], ['image/png', PNG]);
    const resource = prompt.find((/** @type {{ type: string }} */ b) => b.type === 'resource').resource;
    assert.match(resource.uri, /src\/greet\.ts$/);
    assert.equal(resource.text, fs.readFileSync(greet, 'utf8'));
  });

  it('Copy on a code block of the answer puts exactly its code on the clipboard', async function () {
    const page = wb.page;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const frame = webviewFrame(page);
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
