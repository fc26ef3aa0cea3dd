// Pinned messages, as a person uses them in the installed .vsix: pin a prompt
// and an answer from their action rows, go to one from the strip (mouse and
// keyboard), unpin one, reload the window, reopen the session from the sidebar
// and find the other pin back; and in a long loaded session, a pin on the first
// message brings it in from history not shown yet.
import assert from 'node:assert/strict';
import { openWorkbench, pick, runCommand, screenshot, waitForWorkbench, webviewFrame } from './workbench.mjs';

/**
 * Whether an element is inside the transcript's visible area.
 * @param {import('./workbench.mjs').FrameLocator} frame
 * @param {import('playwright-core').Locator} item
 */
async function onScreen(frame, item) {
  const t = await frame.locator('#transcript').boundingBox();
  const r = await item.boundingBox();
  return !!t && !!r && r.y + r.height > t.y && r.y < t.y + t.height;
}

/**
 * Whether the element has the keyboard (waited for a little: the view may be bringing it in).
 * @param {import('playwright-core').Locator} item
 */
async function focused(item) {
  const has = () => item.evaluate((el) => el === document.activeElement).catch(() => false);
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) if (await has()) return true;
  return await has();
}

describe('e2e: pinned messages', function () {
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;

  before(async function () {
    wb = await openWorkbench({ prefix: 'acp-pins', agents: ['demo', 'fake-replay-10k'] });
    ({ page } = wb);
  });

  after(async function () {
    await wb?.close();
  });

  it('pins a prompt and an answer, goes to them from the strip, unpins one, and the other is back after a reload', async function () {
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Demo Agent');
    let frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    await frame.locator('#input').fill('Make greet friendlier');
    await frame.locator('#input').press('Enter');
    const answer = frame.locator('.msg-agent', { hasText: 'Callers need no change.' });
    await answer.waitFor({ timeout: 30_000 });
    await frame.locator('body:not(.busy)').waitFor({ timeout: 30_000 });
    const prompt = frame.locator('.msg-user', { hasText: 'Make greet friendlier' });
    assert.equal(await frame.locator('#pins').isHidden(), true, 'no strip without pins');

    await prompt.locator('.pin-message').click();
    await answer.locator('.pin-message').click();
    const strip = frame.locator('#pins');
    await strip.locator('.pin').nth(1).waitFor({ timeout: 10_000 });
    assert.deepEqual(await strip.locator('.pin-role').allInnerTexts(), ['You', 'Agent'], 'in the order of the conversation');
    assert.match(await strip.locator('.pin-user .pin-text').innerText(), /Make greet friendlier/);
    assert.equal(await prompt.locator('.pin-message').getAttribute('aria-pressed'), 'true');
    assert.equal(await answer.locator('.pin-message').getAttribute('aria-pressed'), 'true');
    assert.match(String(await strip.locator('.pin-user .pin-go').getAttribute('aria-label')), /pinned message: Make greet friendlier/);
    await screenshot(page, 'pins-strip');

    // A click goes to the message: scrolled into view, the keyboard on it.
    await frame.locator('#transcript').evaluate((t) => (t.scrollTop = t.scrollHeight));
    await strip.locator('.pin-user .pin-go').click();
    assert.ok(await focused(prompt), 'the prompt has the keyboard');
    assert.ok(await onScreen(frame, prompt), 'the prompt is on screen');
    // The keyboard: Enter on the agent's pin goes there; Delete unpins it.
    await strip.locator('.pin-agent .pin-go').focus();
    await page.keyboard.press('Enter');
    assert.ok(await focused(answer), 'Enter went to the answer');
    await strip.locator('.pin-agent .pin-go').focus();
    await page.keyboard.press('Delete');
    await strip.locator('.pin-agent').waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await strip.locator('.pin').count(), 1);
    assert.equal(await answer.locator('.pin-message').getAttribute('aria-pressed'), 'false', 'the message shows it is unpinned');

    await page.reload();
    await waitForWorkbench(page);
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP Agents: Focus on Sessions View');
    const row = page.locator('#workbench\\.parts\\.sidebar').locator('.monaco-list-row', { hasText: 'Demo: greeting refactor' });
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    frame = webviewFrame(page);
    await frame.locator('#pins .pin-user', { hasText: 'Make greet friendlier' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('#pins .pin').count(), 1, 'the unpinned one stayed unpinned');
    const again = frame.locator('.msg-user', { hasText: 'Make greet friendlier' });
    assert.equal(await again.locator('.pin-message').getAttribute('aria-pressed'), 'true', 'the message is marked in the archived history');
    await frame.locator('#pins .pin-go').click();
    assert.ok(await focused(again), 'the pin goes to the message in the reopened session');
    await screenshot(page, 'pins-reopened');
  });

  it('in a 10,000-update session loaded by the agent, a pin on the first prompt brings it in from history not shown yet', async function () {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: Resume Session');
    await pick(page, 'Fake: replay-10k');
    await pick(page, 'Long session');
    let frame = webviewFrame(page);
    await frame.locator('.msg-agent', { hasText: 'REPLAY-END-MARKER' }).waitFor({ timeout: 30_000 });
    const transcript = frame.locator('#transcript');
    for (const deadline = Date.now() + 15_000; (await transcript.getAttribute('data-older')) !== '0' && Date.now() < deadline; ) await page.waitForTimeout(100);
    await transcript.evaluate((t) => (t.scrollTop = 0));
    const first = frame.locator('.msg-user', { hasText: 'Turn 1: please refactor module 1 and explain.' });
    await first.waitFor({ timeout: 10_000 });
    await first.locator('.pin-message').click();
    await frame.locator('#pins .pin-user', { hasText: 'Turn 1:' }).waitFor({ timeout: 10_000 });

    // Closed and loaded again: the newest items first; the pin is back, and its message is not in the DOM yet.
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: Resume Session');
    await pick(page, 'Fake: replay-10k');
    await pick(page, 'Long session');
    frame = webviewFrame(page);
    const pin = frame.locator('#pins .pin-user', { hasText: 'Turn 1:' });
    await pin.waitFor({ timeout: 30_000 });
    const again = frame.locator('.msg-user', { hasText: 'Turn 1: please refactor module 1 and explain.' });
    assert.equal(await again.count(), 0, 'the first prompt is not rendered at the bottom of the session');
    await pin.locator('.pin-go').click();
    await again.waitFor({ timeout: 15_000 });
    assert.ok(await focused(again), 'the pinned prompt has the keyboard');
    assert.ok(await onScreen(frame, again), 'the pinned prompt is on screen');
    assert.equal(await again.locator('.pin-message').getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'pins-long-session');
  });
});
