// The composer as a person uses it, in the real workbench: a code block's Copy puts
// its code on the clipboard; an image pasted from the clipboard becomes a chip and
// reaches the agent byte for byte (text pastes as text; an image over 8 MiB is refused,
// in words); a workspace file dropped on the composer becomes a chip and reaches the
// agent (a URI outside the session's folders, or not a file, is refused in words);
// Up and Down walk the prompts sent before, never over a draft, and the history
// survives the panel being hidden and the window being reloaded.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FAKE_AGENT } from '../harness/testEnv.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { openWorkbench, pick, runCommand, waitForWorkbench, webviewFrame } from './workbench.mjs';

/** A 4×4 red PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAEklEQVR4nGP4z8DwHxkzkC4AADxAH+HggXe0AAAAAElFTkSuQmCC';

/**
 * The prompts the fake agent received, oldest first (each a list of ACP content blocks).
 * @param {string} tmp
 * @returns {any[][]}
 */
function prompts(tmp) {
  const f = path.join(tmp, 'demo-images.jsonl');
  if (!fs.existsSync(f)) return [];
  return fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt')
    .map((r) => r.msg.params.prompt);
}

/**
 * The last prompt the fake agent received.
 * @param {string} tmp
 * @returns {any[]}
 */
function lastPrompt(tmp) {
  const last = prompts(tmp).at(-1);
  if (!last) throw new Error('the agent received no prompt');
  return last;
}

/**
 * Sends what is in the composer (Enter) and waits for the Demo Agent's whole answer.
 * @param {import('./workbench.mjs').FrameLocator} frame
 */
async function sendAndWait(frame) {
  const answers = frame.locator('.msg-agent', { hasText: 'Ask me to write a test next.' });
  const before = await answers.count();
  await frame.locator('#input').press('Enter');
  await answers.nth(before).waitFor({ timeout: 30_000 });
  await frame.locator('body:not(.busy)').waitFor({ timeout: 30_000 });
}

/**
 * A paste of files on the composer, as the browser fires it (a ClipboardEvent whose DataTransfer holds them).
 * @param {import('playwright-core').Locator} input
 * @param {{ name: string, type: string, size?: number, base64?: string }[]} files
 */
async function pasteFiles(input, files) {
  await input.evaluate((el, list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = f.base64 ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : new Uint8Array(f.size ?? 0);
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, files);
}

/**
 * A drop on the composer of a uri-list, as VS Code's drags carry it.
 * @param {import('./workbench.mjs').FrameLocator} frame
 * @param {string[]} uris
 */
async function dropUris(frame, uris) {
  await frame.locator('.composer').evaluate((zone, list) => {
    const dt = new DataTransfer();
    dt.setData('application/vnd.code.uri-list', list.join('\r\n'));
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, uris);
}

describe('e2e: the composer — Copy, paste, drop, history', function () {
  this.timeout(180_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;

  before(async function () {
    wb = await openWorkbench({
      prefix: 'acp-e2e-composer',
      agents: (tmp) => {
        // The Demo Agent, taking images too, and loading its sessions again after a reload; it records what it receives.
        const demo = JSON.parse(fs.readFileSync(path.join(path.dirname(FAKE_AGENT), 'scenarios', 'demo.json'), 'utf8'));
        demo.agentCapabilities.promptCapabilities.image = true;
        demo.agentCapabilities.loadSession = true;
        // Each turn's answer its own message (the demo script gives every turn the same message ids).
        for (const step of demo.on['session/prompt']) delete step.messageId;
        const scenario = path.join(tmp, 'demo-images.json');
        fs.writeFileSync(scenario, JSON.stringify(demo));
        return [{ id: 'demo-images', name: 'Demo Agent (images)', command: ensureNode(), args: [FAKE_AGENT, scenario], env: { ACP_FAKE_RECORD: path.join(tmp, 'demo-images.jsonl') } }];
      },
    });
    await wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
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

  it('an image pasted from the clipboard becomes a chip, and the agent receives it byte for byte; text pastes as text', async function () {
    const page = wb.page;
    const frame = webviewFrame(page);
    const input = frame.locator('#input');
    await input.click();
    // The real clipboard: a PNG written to it, pasted with Ctrl+V.
    await input.evaluate(async (_el, b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': new Blob([bytes], { type: 'image/png' }) })]);
    }, PNG_BASE64);
    // What the clipboard holds (the browser may re-encode an image written to it).
    const held = await input.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const bytes = new Uint8Array(await (await item.getType('image/png')).arrayBuffer());
      return btoa(String.fromCharCode(...bytes));
    });
    await input.press('Control+V');
    const chip = frame.locator('#chips .chip');
    await chip.first().waitFor({ timeout: 10_000 });
    assert.equal(await chip.count(), 1);
    assert.match(await chip.innerText(), /\.png/);
    assert.equal(await input.inputValue(), '', 'the image is not pasted as text');
    await input.fill('What is in this picture?');
    await sendAndWait(frame);
    assert.equal(await chip.count(), 0, 'chips are cleared once sent');
    const sent = lastPrompt(wb.tmp);
    assert.deepEqual(sent.map((/** @type {{ type: string }} */ b) => b.type), ['text', 'image']);
    assert.equal(sent[1].mimeType, 'image/png');
    assert.equal(sent[1].data, held, 'the bytes on the clipboard');

    // Plain text pastes as text, and makes no chip.
    await input.click();
    await input.evaluate(() => navigator.clipboard.writeText('pasted words'));
    await input.press('Control+V');
    assert.equal(await input.inputValue(), 'pasted words');
    assert.equal(await chip.count(), 0);
    await input.fill('');
  });

  it('an image over 8 MiB is not attached, and the composer says why', async function () {
    const frame = webviewFrame(wb.page);
    const input = frame.locator('#input');
    await input.click();
    await pasteFiles(input, [{ name: 'huge.png', type: 'image/png', size: 8 * 1024 * 1024 + 1 }]);
    const note = frame.locator('.composer-note');
    await note.waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await note.innerText(), /huge\.png was not attached: it is 8\.0 MiB, and images may be at most 8 MiB\./);
    assert.equal(await frame.locator('#chips .chip').count(), 0);
    // A small one pasted next is attached, and the note goes.
    await pasteFiles(input, [{ name: 'small.png', type: 'image/png', base64: PNG_BASE64 }]);
    await frame.locator('#chips .chip', { hasText: 'small.png' }).waitFor({ timeout: 5000 });
    await note.waitFor({ state: 'hidden', timeout: 5000 });
    await frame.locator('#chips .chip-remove').click();
    assert.equal(await frame.locator('#chips .chip').count(), 0);
  });

  it('a workspace file dropped on the composer becomes a chip, and the agent receives it', async function () {
    const page = wb.page;
    const frame = webviewFrame(page);
    const readme = path.join(wb.tmp, 'workspace', 'README.md');
    const chip = frame.locator('#chips .chip', { hasText: 'README.md' });
    // As a person does it: README.md dragged from the Explorer onto the composer, Shift held (VS Code's
    // way to drop into a webview rather than open the file in the editor group).
    await runCommand(page, 'View: Show Explorer');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).first();
    await row.waitFor({ timeout: 20_000 });
    const from = await row.boundingBox();
    const to = await frame.locator('#input').boundingBox();
    assert.ok(from && to);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 30, from.y + from.height / 2, { steps: 5 });
    await page.keyboard.down('Shift');
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
    await page.mouse.move(to.x + to.width / 2 + 5, to.y + to.height / 2 + 5, { steps: 2 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await chip.waitFor({ timeout: 10_000 });
    assert.equal(await frame.locator('#chips .chip').count(), 1);
    const input = frame.locator('#input');
    await input.click();
    await input.fill('What does this file say?');
    await sendAndWait(frame);
    const sent = lastPrompt(wb.tmp);
    assert.deepEqual(sent.map((/** @type {{ type: string }} */ b) => b.type), ['text', 'resource']);
    assert.equal(sent[1].resource.uri, pathToFileURL(readme).href);
    assert.equal(sent[1].resource.text, fs.readFileSync(readme, 'utf8'));
  });

  it('a dropped file outside the session’s folders, or a URI that is not a file, is refused in words', async function () {
    // (Dropped as a DragEvent in the webview: the Explorer drags only the workspace's own files.)
    const frame = webviewFrame(wb.page);
    const outside = path.join(wb.tmp, 'outside-secret.txt');
    fs.writeFileSync(outside, 'not for the agent\n');
    await dropUris(frame, [pathToFileURL(outside).href, 'command:workbench.action.openSettings', 'https://example.com/page.txt']);
    const note = frame.locator('.composer-note');
    await note.waitFor({ state: 'visible', timeout: 10_000 });
    const text = await note.innerText();
    assert.match(text, /outside-secret\.txt was not attached: it is outside the session's folders\./);
    assert.match(text, /command\u200b?:workbench\.action\.openSettings was not attached: only files can be attached, and this is a command link\./);
    assert.match(text, /https:\/\/example\.com\/page\.txt was not attached: only files can be attached, and this is a https link\./);
    assert.equal(await frame.locator('#chips .chip').count(), 0, 'nothing attached');
    // What is sent next carries none of them.
    const input = frame.locator('#input');
    await input.click();
    await input.fill('Anything attached?');
    await sendAndWait(frame);
    assert.deepEqual(lastPrompt(wb.tmp).map((/** @type {{ type: string }} */ b) => b.type), ['text']);
    await note.waitFor({ state: 'hidden', timeout: 5000 });
  });

  it('Shift+Enter starts a new line and sends nothing; Enter then sends both lines as one message', async function () {
    const frame = webviewFrame(wb.page);
    const input = frame.locator('#input');
    await input.click();
    await input.fill('');
    const before = prompts(wb.tmp).length;
    await input.pressSequentially('the first line');
    await input.press('Shift+Enter');
    await input.pressSequentially('the second line');
    // Had Shift+Enter sent, the composer would hold only the second line.
    assert.equal(await input.inputValue(), 'the first line\nthe second line');
    await sendAndWait(frame);
    const sent = prompts(wb.tmp).slice(before);
    assert.equal(sent.length, 1, 'one message, sent by Enter');
    assert.deepEqual(sent[0], [{ type: 'text', text: 'the first line\nthe second line' }]);
    assert.equal(await frame.locator('.msg-user').last().locator('.user-text').innerText(), 'the first line\nthe second line');
  });

  it('Copy on a message puts it on the clipboard: the user’s as typed (pasted back whole), the agent’s as its Markdown', async function () {
    const frame = webviewFrame(wb.page);
    const input = frame.locator('#input');
    const user = frame.locator('.msg-user', { hasText: 'the second line' }).last();
    await user.hover();
    const copyUser = user.locator('.copy-message');
    await copyUser.click();
    await copyUser.filter({ hasText: 'Copied' }).waitFor({ timeout: 5000 });
    assert.equal(await input.evaluate(() => navigator.clipboard.readText()), 'the first line\nthe second line');
    await input.click();
    await input.fill('');
    await input.press('Control+V');
    assert.equal(await input.inputValue(), 'the first line\nthe second line', 'pasted into the composer, both lines');
    await input.fill('');
    // The agent's answer: its Markdown source, not the rendered text (the ** and the code fence are there).
    const agent = frame.locator('.msg-agent', { hasText: 'Ask me to write a test next.' }).last();
    await agent.hover();
    const copyAgent = agent.locator('.copy-message');
    await copyAgent.click();
    await copyAgent.filter({ hasText: 'Copied' }).waitFor({ timeout: 5000 });
    const demo = JSON.parse(fs.readFileSync(path.join(path.dirname(FAKE_AGENT), 'scenarios', 'demo.json'), 'utf8'));
    const answer = demo.on['session/prompt'].find((/** @type {any} */ s) => s.messageId === 'answer-1').stream;
    assert.equal(await input.evaluate(() => navigator.clipboard.readText()), answer);
  });

  it('Attach… → Files…, answered in the file dialog: the file becomes a chip, and the agent receives it', async function () {
    const page = wb.page;
    const frame = webviewFrame(page);
    // A file the user picks from anywhere (the picker is the way to attach one outside the session's folders).
    const picked = path.join(wb.tmp, 'picked-notes.txt');
    fs.writeFileSync(picked, 'notes picked in the file dialog\n');
    await frame.locator('#attach').click();
    await pick(page, 'Files…');
    // VS Code's own file dialog in the browser: it opens on the workspace folder; the folder of the file
    // typed in its box, then the file clicked in its list.
    const dialog = page.locator('.quick-input-widget');
    const row = (/** @type {string} */ name) => dialog.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    await row('README.md').waitFor({ timeout: 10_000 });
    await dialog.locator('input').fill(`${wb.tmp}/`);
    await row('picked-notes.txt').waitFor({ timeout: 10_000 });
    await row('picked-notes.txt').click();
    const chip = frame.locator('#chips .chip', { hasText: 'picked-notes.txt' });
    await chip.waitFor({ timeout: 10_000 });
    assert.equal(await frame.locator('#chips .chip').count(), 1);
    const input = frame.locator('#input');
    await input.click();
    await input.fill('What do my notes say?');
    await sendAndWait(frame);
    assert.equal(await frame.locator('#chips .chip').count(), 0, 'chips are cleared once sent');
    const sent = lastPrompt(wb.tmp);
    assert.deepEqual(sent.map((/** @type {{ type: string }} */ b) => b.type), ['text', 'resource']);
    assert.equal(sent[1].resource.uri, pathToFileURL(picked).href);
    assert.equal(sent[1].resource.text, 'notes picked in the file dialog\n');
  });

  it('Up and Down walk the prompts sent before, never over a draft, and the history survives hiding the panel and a reload', async function () {
    const page = wb.page;
    let frame = webviewFrame(page);
    let input = frame.locator('#input');
    await input.click();
    await input.fill('history: the older one');
    await sendAndWait(frame);
    await input.fill('history: the newer one');
    await sendAndWait(frame);
    assert.equal(await input.inputValue(), '');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'history: the newer one');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'history: the older one');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), 'history: the newer one');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), '', 'past the newest: empty again');

    // A draft is never replaced: with the caret at its end, or at its start.
    await input.pressSequentially('my draft');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'my draft');
    await input.press('Home');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'my draft');
    // Nor is an entry once edited.
    await input.fill('');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'history: the newer one');
    await input.press('End');
    await input.pressSequentially(', edited');
    await input.press('Home');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'history: the newer one, edited');
    await input.fill('');

    // The panel hidden (another editor in its place: its webview is discarded) and shown again.
    await frame.locator('body').evaluate(() => Object.assign(window, { acpMarker: true }));
    await runCommand(page, 'Go to File');
    await page.locator('.quick-input-widget input').fill('README.md');
    await pick(page, 'README.md');
    await page.locator('.tab.active', { hasText: 'README.md' }).waitFor({ timeout: 10_000 });
    await page.locator('.tab', { hasText: 'Demo Agent (images)' }).click();
    frame = webviewFrame(page);
    input = frame.locator('#input');
    await input.waitFor({ timeout: 20_000 });
    assert.equal(await frame.locator('body').evaluate(() => 'acpMarker' in window), false, 'the webview was made anew');
    await input.click();
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'history: the newer one');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'history: the older one');
    await input.fill('');

    // A window reload, as a person does it.
    const reloaded = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 30_000 });
    await runCommand(page, 'Developer: Reload Window');
    await reloaded;
    await waitForWorkbench(page);
    frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to Demo Agent 1.0.0' }).waitFor({ timeout: 60_000 });
    input = frame.locator('#input');
    await input.click();
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'history: the newer one');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'history: the older one');
  });
});
