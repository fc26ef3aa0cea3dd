// The chat panel as a person uses it, in the installed .vsix: every update kind
// rendered, a permission answered exactly once, Open Diff, Stop, themes, reload.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import { focusWorkbench, openWorkbench, pick, runCommand, screenshot, waitForWorkbench, webviewFrame } from './workbench.mjs';

/** axe-core's own script, as it documents for running it in another page. */
const AXE_SOURCE = axe.source;

/**
 * axe-core's WCAG 2.1 A/AA checks of the chat webview's document: the serious and critical violations.
 * (Evaluated through the DevTools protocol, which the webview's CSP does not govern; nothing is injected into the page.)
 * @param {import('./workbench.mjs').FrameLocator} frame
 * @returns {Promise<{ id: string, impact: string, help: string, nodes: string[] }[]>}
 */
async function axeViolations(frame) {
  const handle = await frame.locator('body').elementHandle();
  const f = await handle?.ownerFrame();
  if (!f) throw new Error('no webview frame');
  await f.evaluate(AXE_SOURCE);
  /** @type {{ id: string, impact: string, help: string, nodes: string[] }[]} */
  const found = await f.evaluate(async () => {
    // @ts-ignore -- defined by the evaluated axe source
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return r.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((/** @type {any} */ n) => `${n.target.join(' ')}: ${n.any?.[0]?.message ?? n.failureSummary ?? ''}`) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const AGENTS = ['demo', 'fake-all-updates', 'fake-slow-permission', 'fake-subagents', 'fake-queue', 'fake-hunks', 'fake-long-block', 'fake-tool-stream', 'fake-follow', 'fake-fork', 'fake-rewind'];

/**
 * What a fake agent received (and sent), one entry per JSON line of its record.
 * @param {string} tmp
 * @param {string} scenario
 * @returns {any[]}
 */
function record(tmp, scenario) {
  const f = path.join(tmp, `${scenario}.jsonl`);
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
}

/**
 * The client's answer to the agent's latest permission request, from the agent's record.
 * @param {string} tmp
 * @param {string} scenario
 */
function lastPermissionAnswer(tmp, scenario) {
  const rec = record(tmp, scenario);
  const asked = rec.filter((r) => r.dir === 'out' && r.msg.method === 'session/request_permission').at(-1);
  return rec.find((r) => r.dir === 'in' && r.msg.id === asked.msg.id && r.msg.method === undefined)?.msg.result;
}

/**
 * @typedef {{ fg: string, bg: string, contrast: number, bgLuminance: number }} Pair
 * @typedef {{ body: Pair, agent: Pair, user: Pair, input: Pair, send: Pair, link: Pair }} ThemeColours
 */

/**
 * Computed colours in the chat webview: text colour, the opaque colour behind it
 * (its own and its ancestors' backgrounds composited), and their WCAG contrast ratio.
 * @param {import('playwright-core').FrameLocator} frame
 * @returns {Promise<ThemeColours>}
 */
async function themeColours(frame) {
  return await frame.locator('body').evaluate((body) => {
    /** @param {string} css @returns {number[]} r, g, b (0–255) and alpha (0–1) */
    const parse = (css) => {
      const m = /^rgba?\(([^)]+)\)$/.exec(css.trim());
      if (!m) throw new Error(`not an rgb() colour: ${css}`);
      const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [r, g, b, a];
    };
    /** Over `under` (opaque). @param {number[]} top @param {number[]} under */
    const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
    /** The opaque colour behind an element's text. @param {Element} el */
    const backdrop = (el) => {
      const layers = [];
      for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) layers.push(parse(getComputedStyle(e).backgroundColor));
      let colour = [255, 255, 255, 1];
      for (const layer of layers.reverse()) colour = over(layer, colour);
      return colour;
    };
    /** @param {number[]} c */
    const luminance = (c) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    /** @param {number[]} c */
    const hex = (c) => `#${c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
    /** @param {string} selector */
    const pair = (selector) => {
      const el = selector === 'body' ? body : document.querySelector(selector);
      if (!el) throw new Error(`no ${selector} in the panel`);
      const bg = backdrop(el);
      const fg = over(parse(getComputedStyle(el).color), bg);
      const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
      return { fg: hex(fg), bg: hex(bg), contrast: (hi + 0.05) / (lo + 0.05), bgLuminance: luminance(bg) };
    };
    return {
      body: pair('body'),
      agent: pair('.msg-agent .markdown p'),
      user: pair('.msg-user .user-text'),
      input: pair('#input'),
      send: pair('#send'),
      link: pair('.open-diff'),
    };
  });
}

/**
 * Until a file on disk holds `text` (an edit is saved a moment after the panel shows it).
 * @param {string} file
 * @param {string} text
 */
async function fileHas(file, text) {
  const read = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
  for (let i = 0; i < 100 && read() !== text; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(read(), text);
}

describe('e2e: the chat panel', function () {
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;
  /** @type {string} */
  let tmp;

  before(async function () {
    wb = await openWorkbench({ prefix: 'acp-chat', agents: AGENTS, viewport: { width: 1280, height: 900 }, settings: { 'acpAgents.changes.askReasonOnUndo': true } });
    ({ page, tmp } = wb);
  });

  after(async function () {
    await wb?.close();
  });

  /** @param {string} agentLabel */
  async function newSession(agentLabel) {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: New Session');
    // Typed, as a person would in a long list: the quick pick shows only the first ten or so rows.
    const filter = page.locator('.quick-input-widget input[placeholder="Pick an agent"]');
    await filter.waitFor({ timeout: 20_000 });
    await filter.fill(agentLabel);
    await pick(page, agentLabel);
    const frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    return frame;
  }

  /**
   * @param {import('./workbench.mjs').FrameLocator} frame
   * @param {string} text
   */
  async function send(frame, text) {
    const input = frame.locator('#input');
    await input.click();
    await input.fill(text);
    await input.press('Enter');
  }

  it('the first minute: a new session shows what the agent offers and takes typing at once', async function () {
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Demo Agent');
    const frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    // Not a blank page: the modes, the slash commands, what can be attached.
    const welcome = frame.locator('#welcome');
    await welcome.locator('.welcome-commands code', { hasText: '/explain' }).waitFor({ timeout: 10_000 });
    const offered = await welcome.innerText();
    assert.match(offered, /Ask \(current\) · Code/);
    assert.match(offered, /\/test Write tests for a file/);
    assert.match(offered, /@ mentions files, symbols, open editors, the selection and the Problems list/);
    assert.match(offered, /sent with their content/, 'the Demo Agent takes embedded context');
    await screenshot(page, 'empty-session');
    // Typing right away lands in the composer, without a click.
    await page.keyboard.type('hello there');
    assert.equal(await frame.locator('#input').inputValue(), 'hello there');
    await page.keyboard.press('Enter');
    await welcome.waitFor({ state: 'hidden', timeout: 10_000 });
    await frame.locator('.msg-agent', { hasText: 'Callers need no change.' }).waitFor({ timeout: 30_000 });
  });

  it('renders every update kind, and a permission answer reaches the agent exactly once', async function () {
    const frame = await newSession('Fake: all-updates');
    await send(frame, 'Show me everything');
    // The prompt appears at once.
    await frame.locator('.msg-user', { hasText: 'Show me everything' }).waitFor({ timeout: 10_000 });
    const allow = frame.locator('.permission-option', { hasText: 'Allow' }).first();
    await allow.waitFor({ timeout: 15_000 });
    // Options in the agent's order.
    assert.deepEqual(await frame.locator('.permission-options button').allTextContents(), ['Allow', 'Always allow', 'Reject']);
    await allow.click();
    // A second click on a disabled button cannot send a second answer.
    await allow.dispatchEvent('click', {}, { timeout: 1000 }).catch(() => {});
    await frame.locator('.msg-agent', { hasText: 'All done with the last message.' }).waitFor({ timeout: 15_000 });

    const text = await frame.locator('#transcript').innerText();
    for (const expected of [
      'Thinking',
      'Here is the plan.',
      'const answer: number = 42;',
      'Read greet.ts',
      'greet.ts:2',
      'Edit greet.ts',
      "return 'Hello, ' + name;",
      'Late tool from nowhere',
      'Run npm test',
      'Terminal term-xyz',
      'Plan (3/3)'.replace('3/3', '2/3'),
      'Explain the change',
      'Rate limit soon',
      'You have used 90% of your quota.',
      'Context compacted',
      'You chose: Allow',
      'maximum number of tokens',
    ]) assert.ok(text.includes(expected), `transcript shows "${expected}"`);
    assert.ok(!text.includes('hologram'), 'an update kind this client does not know is not shown (it goes to the log)');
    // A code block's Copy is reachable by keyboard, not only on hover: Tab from the link before it.
    await page.mouse.move(0, 0);
    await frame.locator('.code-block .copy').evaluateAll((els) => els.forEach((e) => e.remove()));
    await frame.locator('.msg-agent a', { hasText: 'the docs' }).focus();
    await page.keyboard.press('Tab');
    const copy = frame.locator('.code-block .copy:focus');
    await copy.waitFor({ timeout: 5000 });
    assert.equal(await copy.getAttribute('aria-label'), 'Copy code');
    // The compaction summary folds open, rendered as Markdown.
    await frame.locator('.compaction-summary summary').click();
    assert.equal(await frame.locator('.compaction-summary strong', { hasText: 'greet.ts' }).count(), 1);
    assert.equal(await frame.locator('.thought[open]').count(), 0, 'thoughts are collapsed');
    assert.equal(await frame.locator('img.part-image').count(), 1);
    assert.equal(await frame.locator('.msg-agent a', { hasText: 'the docs' }).getAttribute('href'), '#');
    // Header: title, config options (select + boolean), usage.
    assert.equal(await frame.locator('#session-title').innerText(), 'All updates demo');
    assert.equal(await frame.locator('#cfg-model').inputValue(), 'large');
    assert.equal(await frame.locator('#cfg-thinking').isChecked(), true);
    assert.match(await frame.locator('#usage').innerText(), /53k \/ 200k \(27%\)/);
    // The tab title follows session_info_update.
    await page.locator('.tabs-container .tab', { hasText: 'All updates demo' }).waitFor({ timeout: 5000 });

    const rec = record(tmp, 'all-updates');
    const answers = rec.filter((r) => r.dir === 'in' && r.msg.id === 'agent-1' && r.msg.method === undefined);
    assert.equal(answers.length, 1, JSON.stringify(answers));
    assert.deepEqual(answers[0].msg.result, { outcome: { outcome: 'selected', optionId: 'allow' } });

    // Changing a selector calls session/set_config_option and shows the agent's answer.
    await frame.locator('#cfg-model').selectOption('small');
    const lastSet = () => record(tmp, 'all-updates').filter((r) => r.msg?.method === 'session/set_config_option').at(-1)?.msg.params.value;
    for (const deadline = Date.now() + 10_000; lastSet() !== 'small' && Date.now() < deadline; ) await page.waitForTimeout(100);
    assert.deepEqual(lastSet(), 'small');
    assert.equal(await frame.locator('#cfg-model').inputValue(), 'small');

    // Slash commands complete from available_commands_update.
    await frame.locator('#input').fill('/te');
    await frame.locator('#commands li', { hasText: '/test' }).waitFor({ timeout: 5000 });
    await frame.locator('#input').press('Tab');
    assert.equal(await frame.locator('#input').inputValue(), '/test ');
    await frame.locator('#input').fill('');
    await screenshot(page, 'chat-all-updates');
  });

  it('Open Diff makes a diff editor the active tab, the agent’s old text on the left and its new text on the right', async function () {
    const frame = webviewFrame(page);
    await frame.locator('.open-diff').first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'greet.ts' }).waitFor({ timeout: 10_000 });
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ timeout: 10_000 });
    // The two sides as shown (Monaco renders spaces as no-break spaces). The right side is on disk nowhere: it is the tool call's newText.
    const side = (/** @type {string} */ which) => diff.locator(`.editor.${which} .view-lines`).first();
    const text = async (/** @type {string} */ which) => ((await side(which).innerText()) ?? '').replace(/\u00a0/g, ' ');
    await side('modified').filter({ hasText: 'Hello' }).waitFor({ timeout: 10_000 });
    assert.match(await text('original'), /export function greet\(name: string\) \{\s*return 'Hi ' \+ name;/);
    assert.doesNotMatch(await text('original'), /Hello/);
    assert.match(await text('modified'), /export function greet\(name: string\): string \{\s*return 'Hello, ' \+ name;/);
    await screenshot(page, 'chat-open-diff');
  });

  it('streams a long one-block answer as plain text in pieces cut at newlines or spaces, then renders it whole at the turn end', async function () {
    const frame = await newSession('Fake: long-block');
    await send(frame, 'A long answer please');
    // What the scenario streams after its heading: 3,000 words on lines of 10, 2,000 on one line, 5,000 with no space.
    let expected = '';
    for (let i = 0; i < 3000; i++) expected += `a${i}${i % 10 === 9 ? '\n' : ' '}`;
    for (let i = 0; i < 2000; i++) expected += `b${i} `;
    for (let i = 0; i < 5000; i++) expected += `c${i}`;
    const tail = frame.locator('.msg-agent .plain-tail');
    await tail.filter({ hasText: 'c4999' }).waitFor({ timeout: 30_000 });
    const pieces = await tail.evaluate((el) => [...el.children].map((c) => c.textContent ?? ''));
    // Nothing lost, nothing twice, in order.
    assert.equal(pieces.join(''), expected);
    assert.equal(await tail.evaluate((el) => el.textContent), expected);
    assert.ok(pieces.length >= 6, `${expected.length} characters in pieces of about 4,096: got ${pieces.length}`);
    for (const [i, piece] of pieces.slice(0, -1).entries()) {
      // Where the text has lines, a piece ends with one (nothing moves on screen); on the long line, after a word;
      // where there is no space at all, at 16,384 characters.
      if (piece.includes('c')) {
        assert.equal(piece.length, 16_384, `piece ${i}, cut with no space in sight`);
        continue;
      }
      assert.ok(piece.endsWith(piece.includes('b') ? ' ' : '\n'), `piece ${i} ends with ${JSON.stringify(piece.slice(-8))}`);
      assert.ok(piece.length >= 4096 && piece.length <= 4096 + 80, `piece ${i} has ${piece.length} characters`);
    }
    assert.ok(pieces.some((p) => p.length === 16_384), 'the run with no space was cut');
    // The heading before the block was rendered as markdown as soon as its block ended.
    assert.equal(await frame.locator('.msg-agent h1', { hasText: 'Long answer' }).count(), 1);
    fs.writeFileSync(path.join(tmp, 'workspace', '.long-block-go'), '');
    // At the turn end the whole message is markdown again: no plain pieces, the last chunk there.
    await frame.locator('.msg-agent', { hasText: 'END-OF-ANSWER' }).waitFor({ timeout: 15_000 });
    await frame.locator('.msg-agent .plain-tail').waitFor({ state: 'detached', timeout: 10_000 });
    const paragraph = await frame.locator('.msg-agent .markdown p').last().textContent();
    assert.match(paragraph ?? '', /^a0 a1 .* a2999\s+b0 b1 .* b1999 c0c1c2.*c4999END-OF-ANSWER$/s);
    assert.equal(await frame.locator('.msg-agent h1', { hasText: 'Long answer' }).count(), 1);
  });

  it('a tool card updated 50 times keeps its Raw input open and focused, and its unchanged diff as it was', async function () {
    const frame = await newSession('Fake: tool-stream');
    await send(frame, 'Build it');
    const card = frame.locator('.tool', { hasText: 'Build the project' });
    const summary = card.locator('details.raw > summary', { hasText: 'Raw input' });
    await summary.waitFor({ timeout: 15_000 });
    await summary.click();
    await summary.focus();
    // Marks on what is shown now: kept through the updates only if the card is patched, not rebuilt.
    await card.evaluate((el) => {
      /** @type {HTMLElement} */ (el.querySelector('details.raw')).dataset.mark = 'raw';
      /** @type {HTMLElement} */ (el.querySelector('.diff')).dataset.mark = 'diff';
    });
    const seen = () =>
      card.evaluate((el) => {
        const raw = /** @type {HTMLDetailsElement | null} */ (el.querySelector('details.raw'));
        return {
          open: raw?.open ?? false,
          focused: !!raw && raw.contains(document.activeElement),
          rawKept: raw?.dataset.mark === 'raw',
          diffKept: /** @type {HTMLElement | null} */ (el.querySelector('.diff'))?.dataset.mark === 'diff',
        };
      });
    assert.deepEqual(await seen(), { open: true, focused: true, rawKept: true, diffKept: true });
    fs.writeFileSync(path.join(tmp, 'workspace', '.tool-stream-go'), '');
    await frame.locator('.msg-agent', { hasText: 'Built in 50 steps.' }).waitFor({ timeout: 30_000 });
    // All 50 updates reached the card: its text, its raw input and its status are the last ones.
    assert.equal(await card.locator('.tool-text').innerText(), 'Step 50 of 50');
    assert.match(await card.locator('details.raw pre').innerText(), /"step":\s*50\b/);
    assert.equal(await card.locator('.badge').innerText(), 'Done');
    assert.deepEqual(await seen(), { open: true, focused: true, rawKept: true, diffKept: true }, 'the open section stays open and focused, the diff is not rebuilt');
    assert.equal(await card.locator('.diff-lines .del').innerText(), '- two');
  });

  it('Stop sends session/cancel and the pending permission is answered cancelled', async function () {
    const frame = await newSession('Fake: slow-permission');
    await send(frame, 'Clean up');
    await frame.locator('.permission-option', { hasText: 'Delete it' }).waitFor({ timeout: 15_000 });
    const stop = frame.locator('#stop');
    assert.equal(await stop.isVisible(), true);
    await stop.click();
    await frame.locator('.turn-end', { hasText: 'Stopped.' }).waitFor({ timeout: 15_000 });
    await frame.locator('.permission-verdict', { hasText: 'Cancelled' }).waitFor({ timeout: 5000 });
    assert.ok(record(tmp, 'slow-permission').some((r) => r.msg?.method === 'session/cancel'), 'session/cancel sent');
    assert.deepEqual(lastPermissionAnswer(tmp, 'slow-permission'), { outcome: { outcome: 'cancelled' } });
    assert.match(await frame.locator('.tool', { hasText: 'Delete build/' }).innerText(), /Cancelled/);
  });

  it('the status bar follows a turn — ready, needs you, working, ready — and its click shows the panel', async function () {
    const frame = await newSession('Fake: slow-permission');
    const item = page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: 'Fake: slow-permission:' });
    const says = async (/** @type {RegExp} */ re) => {
      const deadline = Date.now() + 15_000;
      let text = '';
      while (Date.now() < deadline) {
        text = (await item.first().innerText().catch(() => '')).trim();
        if (re.test(text)) return text;
        await page.waitForTimeout(100);
      }
      assert.fail(`the status bar item says "${text}", not ${re}`);
    };
    await says(/: ready$/);
    await send(frame, 'Clean up');
    // The agent asks: the session needs the user.
    await frame.locator('.permission-option', { hasText: 'Delete it' }).waitFor({ timeout: 15_000 });
    await says(/: needs you$/);
    await screenshot(page, 'status-bar-needs-you');
    await frame.locator('.permission-option', { hasText: 'Delete it' }).click();
    // Answered, the turn goes on: working, with its time.
    await says(/: working \d+:\d\d$/);
    // Another editor in front; a click on the item brings the panel back.
    await runCommand(page, 'File: New Untitled Text File');
    await page.locator('.tabs-container .tab.active', { hasText: 'Untitled' }).waitFor({ timeout: 10_000 });
    await item.first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'Fake: slow-permission' }).waitFor({ timeout: 10_000 });
    await frame.locator('#stop').click();
    await frame.locator('.turn-end', { hasText: 'Stopped.' }).waitFor({ timeout: 15_000 });
    await says(/: ready$/);
  });

  it('a rejected permission offers a reason in place; Enter keeps it, and it goes to the agent with the next prompt, once', async function () {
    const frame = await newSession('Fake: slow-permission');
    const prompts = () => record(tmp, 'slow-permission').filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt');
    const before = prompts().length;
    await send(frame, 'Clean up');
    const card = frame.locator('.tool', { hasText: 'Delete build/' }).last();
    await card.locator('.permission-option', { hasText: 'Keep it' }).click();
    // The reject went at once, before any reason.
    await card.locator('.permission-verdict', { hasText: 'Keep it' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(lastPermissionAnswer(tmp, 'slow-permission'), { outcome: { outcome: 'selected', optionId: 'no' } });
    const input = card.locator('.permission-reason input');
    await input.waitFor({ timeout: 10_000 });
    assert.equal(await input.evaluate((el) => el === document.activeElement), true, 'the reason box has the keyboard');
    await page.keyboard.type('build/ holds my notes');
    await page.keyboard.press('Enter');
    await card.locator('.permission-reason', { hasText: 'Your reason goes to the agent with your next message: build/ holds my notes' }).waitFor({ timeout: 10_000 });
    await frame.locator('#stop').click();
    await frame.locator('.turn-end', { hasText: 'Stopped.' }).last().waitFor({ timeout: 15_000 });
    await send(frame, 'Something else');
    await frame.locator('.msg-user .part-note', { hasText: 'build/ holds my notes' }).waitFor({ timeout: 10_000 });
    await frame.locator('#stop').click();
    await frame.locator('.turn-end', { hasText: 'Stopped.' }).last().waitFor({ timeout: 15_000 });
    const sent = prompts().slice(before).map((r) => r.msg.params.prompt.filter((/** @type {any} */ b) => b.type === 'text').map((/** @type {any} */ b) => b.text));
    assert.deepEqual(sent, [['Clean up'], ['The user rejected "Delete build/" and said why: build/ holds my notes', 'Something else']]);
  });

  it('the keyboard alone: type, answer the permission with Alt+Y, stop the turn with Escape', async function () {
    const frame = await newSession('Fake: slow-permission');
    await page.keyboard.type('Clean up');
    await page.keyboard.press('Enter');
    await frame.locator('.permission-option', { hasText: 'Delete it' }).waitFor({ timeout: 15_000 });
    // One card per tool call: the question is on the call's card, not a second card.
    const card = frame.locator('.tool', { hasText: 'Delete build/' });
    assert.equal(await card.count(), 1);
    assert.equal(await card.locator('.permission-option').count(), 2);
    assert.equal(await frame.locator('.permission').count(), 1);
    assert.equal(await frame.locator('.permission .permission-context').isVisible(), false, 'the card shows what is asked about once');
    await screenshot(page, 'permission-on-card');
    // Announced, with the key that answers it.
    assert.match(await frame.locator('#announcer').textContent() ?? '', /^Permission needed: Delete build\/\. Alt\+Y allows/);
    await page.keyboard.press('Alt+y');
    await card.locator('.permission-verdict', { hasText: 'Delete it' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(lastPermissionAnswer(tmp, 'slow-permission'), { outcome: { outcome: 'selected', optionId: 'yes' } });
    // Escape that closes the @-mention list only closes it: the turn goes on.
    const cancelTimes = () => record(tmp, 'slow-permission').filter((r) => r.dir === 'in' && r.msg?.method === 'session/cancel').map((r) => r.t);
    const cancelsBefore = cancelTimes().length;
    await page.keyboard.type('@');
    await frame.locator('#commands li').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await frame.locator('#commands').waitFor({ state: 'hidden', timeout: 5000 });
    await page.keyboard.press('Backspace');
    // Escape with nothing else to close stops the turn.
    const secondEscapeAt = Date.now();
    await page.keyboard.press('Escape');
    await frame.locator('.turn-end', { hasText: 'Stopped.' }).waitFor({ timeout: 15_000 });
    // No sleep-then-look for the first Escape: the agent records when each session/cancel arrived, so
    // exactly one cancel, and none before the second Escape, means the first one sent none.
    const cancels = cancelTimes().slice(cancelsBefore);
    assert.equal(cancels.length, 1, 'one session/cancel: the Escape that closed the list sent none');
    assert.ok((cancels[0] ?? 0) >= secondEscapeAt, `the cancel came from the second Escape (${cancels[0]} < ${secondEscapeAt}: the first one cancelled)`);
    // The reply is announced once the turn ends.
    await frame.locator('#announcer', { hasText: 'replied: Waiting for your permission' }).waitFor({ state: 'attached', timeout: 5000 });
    // Up and Down walk the transcript: from it, Up reaches the last item, then the ones before.
    await frame.locator('#transcript').focus();
    await page.keyboard.press('ArrowUp');
    const focused = () => frame.locator('.item:focus').getAttribute('class');
    assert.match((await focused()) ?? '', /turn-end/);
    await page.keyboard.press('ArrowUp');
    assert.match((await focused()) ?? '', /msg-agent/);
    await page.keyboard.press('Home');
    assert.match((await focused()) ?? '', /msg-user/);
    await page.keyboard.press('ArrowDown');
    assert.match((await focused()) ?? '', /tool/);
  });

  it('the keyboard alone, the other keys: Ctrl+K Alt+N starts a session, Ctrl+K A comes back to its composer, Alt+N rejects', async function () {
    await runCommand(page, 'View: Close All Editors');
    // Ctrl+K Alt+N: the agent picker, answered by typing.
    await focusWorkbench(page);
    await page.keyboard.press('Control+k');
    await page.keyboard.press('Alt+n');
    const pickInput = page.locator('.quick-input-widget input');
    await pickInput.waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.type('Fake: slow-permission');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Fake: slow-permission' }).first().waitFor({ timeout: 10_000 });
    // The arrow keys to it, if the filter put another agent first.
    const focusedRow = page.locator('.quick-input-list .monaco-list-row.focused');
    for (let i = 0; i < 20 && !((await focusedRow.textContent().catch(() => '')) ?? '').includes('Fake: slow-permission'); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    await page.keyboard.type('Clean up');
    await page.keyboard.press('Enter');
    const card = frame.locator('.tool', { hasText: 'Delete build/' });
    await card.locator('.permission-option', { hasText: 'Keep it' }).waitFor({ timeout: 15_000 });
    // While the turn works, ACP: Stop is in the palette (the palette test checks it is not when idle).
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>ACP: Stop');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'ACP: Stop' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    // The keyboard goes elsewhere (the Explorer); Ctrl+K A brings it back to the composer.
    await runCommand(page, 'View: Show Explorer');
    await page.locator('.explorer-folders-view .monaco-list').first().waitFor({ timeout: 10_000 });
    assert.equal(await frame.locator('body').evaluate(() => document.hasFocus()), false, 'the keyboard left the panel');
    await page.keyboard.press('Control+k');
    await page.keyboard.press('a');
    // Type once the composer has the keyboard (what the user sees: the caret in it).
    const composerFocused = () => frame.locator('body').evaluate(() => document.hasFocus() && document.activeElement?.id === 'input');
    for (const focusBy = Date.now() + 10_000; !(await composerFocused()) && Date.now() < focusBy; ) await page.waitForTimeout(100);
    await page.keyboard.type('typed here');
    const deadline = Date.now() + 10_000;
    while ((await frame.locator('#input').inputValue()) !== 'typed here' && Date.now() < deadline) await page.waitForTimeout(100);
    assert.equal(await frame.locator('#input').inputValue(), 'typed here', 'the keys after Ctrl+K A land in the composer');
    // Alt+N answers the waiting permission with its reject option.
    await page.keyboard.press('Alt+n');
    await card.locator('.permission-verdict', { hasText: 'Keep it' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(lastPermissionAnswer(tmp, 'slow-permission'), { outcome: { outcome: 'selected', optionId: 'no' } });
    await frame.locator('#input').fill('');
    await page.keyboard.press('Escape');
    await frame.locator('.turn-end', { hasText: 'Stopped.' }).waitFor({ timeout: 15_000 });
  });

  it('shows subagents as cards with their own items (Stop only where allowed) and a Markdown plan, rendered', async function () {
    const frame = await newSession('Fake: subagents');
    await send(frame, 'Refactor greet');
    const explorer = frame.locator('.subagent', { hasText: 'Explorer' });
    const allow = explorer.locator('.permission-option', { hasText: 'Allow' });
    await allow.waitFor({ timeout: 15_000 });
    // The child's own message and tool call are inside its card, with its state.
    assert.match(await explorer.locator('.subagent-items').innerText(), /Looking at src\/greet\.ts\.[\s\S]*Edit src\/greet\.ts/);
    assert.equal(await explorer.locator('.subagent-state').first().innerText(), 'Needs you');
    const quiet = frame.locator('.subagent', { hasText: 'Quiet helper' });
    assert.match(await quiet.locator('.subagent-items').innerText(), /Quietly counting lines\./);
    assert.equal(await quiet.locator('.subagent-stop').count(), 0, 'no Stop for a child that does not advertise cancel');
    // Messages between sessions say who to whom; the parent's tool call links to the card.
    await frame.locator('.msg-session', { hasText: 'Main agent → Explorer' }).waitFor({ timeout: 5000 });
    await frame.locator('.show-subagent').first().waitFor({ timeout: 5000 });
    // Plans: the Markdown one rendered (no raw #, **), its file shown; the removed one gone.
    const plan = frame.locator('.plan[data-format="markdown"]');
    assert.equal(await plan.locator('h1').innerText(), 'Refactor greet');
    assert.equal(await plan.locator('strong').innerText(), 'Split');
    assert.equal(await plan.locator('.plan-path').innerText(), 'PLAN.md');
    assert.equal(await frame.locator('.plan', { hasText: 'Throwaway' }).count(), 0);
    await explorer.scrollIntoViewIfNeeded();
    await screenshot(page, 'subagent-card');
    await allow.click();
    const stop = explorer.locator('.subagent-stop');
    await stop.waitFor({ timeout: 10_000 });
    await stop.click();
    await explorer.locator('.subagent-state', { hasText: 'Idle' }).waitFor({ timeout: 15_000 });
    await frame.locator('.msg-agent', { hasText: 'the helper counted 412 lines' }).waitFor({ timeout: 15_000 });
    // Stop sent session/cancel to the child, and nothing else ever went to it.
    const toChild = record(tmp, 'subagents').filter((r) => r.dir === 'in' && r.msg?.params?.sessionId === 'child-explorer').map((r) => r.msg.method);
    assert.deepEqual(toChild, ['session/cancel']);
    await plan.scrollIntoViewIfNeeded();
    await screenshot(page, 'markdown-plan');
  });

  it('keeps the composer usable while the agent works: messages typed then are queued, shown, and sent one per turn', async function () {
    const frame = await newSession('Fake: queue');
    await send(frame, 'first question');
    await frame.locator('#stop').waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await frame.locator('#send').innerText(), 'Queue');
    await send(frame, 'second question');
    // The third carries a file (an @-mention, its words then typed over).
    const input = frame.locator('#input');
    await input.fill('@gre');
    await frame.locator('#commands li', { hasText: 'src/greet.ts' }).waitFor({ timeout: 10_000 });
    await input.press('Enter');
    await frame.locator('.chip', { hasText: 'greet.ts' }).waitFor({ timeout: 5000 });
    await input.fill('third question');
    await input.press('Enter');
    assert.equal(await frame.locator('.chip').count(), 0);
    const queued = frame.locator('#queue .queued');
    await queued.nth(1).waitFor({ timeout: 10_000 });
    assert.deepEqual(await frame.locator('#queue .queued-text').allInnerTexts(), ['second question', 'third question (+1 attached)']);
    await screenshot(page, 'message-queue');
    // Edit takes the last one back into the composer (and out of the queue), with its attachment.
    await frame.locator('#queue .queued', { hasText: 'third question' }).locator('.queued-edit').click();
    assert.equal(await frame.locator('#input').inputValue(), 'third question');
    await frame.locator('.chip', { hasText: 'greet.ts' }).waitFor({ timeout: 5000 });
    await frame.locator('#input').fill('third, reworded');
    await frame.locator('#input').press('Enter');
    // Each goes out in its own turn, in order.
    await frame.locator('.msg-user', { hasText: 'third, reworded' }).waitFor({ timeout: 30_000 });
    await frame.locator('#queue').waitFor({ state: 'hidden', timeout: 30_000 });
    await frame.locator('#send', { hasText: 'Send' }).waitFor({ timeout: 30_000 });
    const sent = record(tmp, 'queue').filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt').map((r) => r.msg.params.prompt);
    assert.deepEqual(sent.map((p) => p[0].text), ['first question', 'second question', 'third, reworded']);
    assert.match(sent[2][1]?.resource?.uri ?? '', /src\/greet\.ts$/, 'the edited message went with its attachment');
    assert.equal(record(tmp, 'queue').filter((r) => r.dir === 'overlap').length, 0);
  });

  it('reviews a change hunk by hunk in the diff editor, then restores the files to before the message, after a confirmation that names the file the user changed since', async function () {
    const file = path.join(tmp, 'workspace', 'hunks.txt');
    const original = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
    fs.writeFileSync(file, original);
    const frame = await newSession('Fake: hunks');
    const prompts = () => record(tmp, 'hunks').filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt');
    const before = prompts().length;
    await send(frame, 'Edit two places');
    const change = frame.locator('.change', { hasText: 'hunks.txt' });
    await change.waitFor({ timeout: 15_000 });
    await fileHas(file, 'one\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n');
    // The turn ends, and a moment later (late disk events still count for it) its checkpoint records
    // what the agent left — the message then offers Restore: what follows is the user's.
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: 15_000 });
    const restore = frame.locator('.msg-user', { hasText: 'Edit two places' }).locator('.restore-checkpoint');
    await restore.waitFor({ timeout: 15_000 });
    // Review: the diff editor, with Keep / Undo for the change at the cursor as editor actions.
    await change.locator('.change-open').click();
    await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 10_000 });
    const undo = page.locator('.editor-actions .action-label[aria-label^="Undo This Change"]');
    await undo.waitFor({ timeout: 10_000 });
    await page.locator('.editor-actions .action-label[aria-label^="Keep This Change"]').waitFor({ timeout: 5000 });
    await screenshot(page, 'hunk-review');
    // The cursor is at the top: Undo takes back the first change only.
    await undo.click();
    await fileHas(file, 'one\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n');
    // Then VS Code's input box asks why, optionally (acpAgents.changes.askReasonOnUndo, on by default):
    // typed and Enter, the reason waits for the next message in this session.
    const why = page.locator('.quick-input-widget', { hasText: "You undid the agent's change to hunks.txt" });
    await why.waitFor({ timeout: 10_000 });
    await screenshot(page, 'undo-reason');
    await page.keyboard.type('lowercase two is our style');
    await page.keyboard.press('Enter');
    await why.waitFor({ state: 'hidden', timeout: 5000 });

    // Restore files to here: the confirmation lists the file, flagged as changed since the agent left it.
    await page.locator('.tabs-container .tab', { hasText: 'Fake: hunks' }).first().click();
    await change.waitFor({ timeout: 5000 });
    await restore.waitFor({ timeout: 15_000 });
    await restore.click();
    const card = frame.locator('.restore-card');
    await card.locator('.restore-file.is-edited', { hasText: 'hunks.txt' }).waitFor({ timeout: 10_000 });
    assert.match(await card.innerText(), /Restore 1 file to before this message\?[\s\S]*edited since the agent changed it/);
    await screenshot(page, 'checkpoint-restore');
    assert.notEqual(fs.readFileSync(file, 'utf8'), original, 'nothing changes before the confirmation');
    // Show Diff on the file changed since: a diff editor, what the agent left on the left, the file now on the right.
    await card.locator('.restore-file.is-edited', { hasText: 'hunks.txt' }).locator('.restore-diff').click();
    await page.locator('.tabs-container .tab.active', { hasText: 'hunks.txt (as the agent left it ↔ now)' }).waitFor({ timeout: 10_000 });
    const diff = page.locator('.monaco-diff-editor').first();
    const side = (/** @type {string} */ which) => diff.locator(`.editor.${which} .view-lines`).first();
    await side('modified').filter({ hasText: 'EIGHT' }).waitFor({ timeout: 10_000 });
    assert.equal((await side('original').innerText()).replace(/\u00a0/g, ' ').trim(), 'one\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine');
    assert.equal((await side('modified').innerText()).replace(/\u00a0/g, ' ').trim(), 'one\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine');
    await screenshot(page, 'checkpoint-show-diff');
    // Back in the panel, the confirmation waits as it was.
    await page.locator('.tabs-container .tab', { hasText: 'Fake: hunks' }).first().click();
    await card.locator('.restore-file.is-edited', { hasText: 'hunks.txt' }).waitFor({ timeout: 10_000 });
    await card.locator('.restore-confirm').click();
    await card.locator('.restore-title', { hasText: 'Files restored' }).waitFor({ timeout: 10_000 });
    await fileHas(file, original);
    await card.locator('.restore-undo').click();
    await card.locator('.restore-title', { hasText: 'Restore undone' }).waitFor({ timeout: 10_000 });
    await fileHas(file, 'one\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n');
    await card.locator('.restore-dismiss').click();
    await frame.locator('.restore-card').waitFor({ state: 'detached', timeout: 5000 });
    // The next message takes the Undo's reason with it, once, and says so on the message.
    await send(frame, 'Once more');
    await frame.locator('.msg-user', { hasText: 'Once more' }).locator('.part-note', { hasText: 'you undid the change to hunks.txt: lowercase two is our style' }).waitFor({ timeout: 10_000 });
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: 15_000 });
    const sent = prompts().slice(before).map((r) => r.msg.params.prompt.filter((/** @type {any} */ b) => b.type === 'text').map((/** @type {any} */ b) => b.text));
    assert.deepEqual(sent, [['Edit two places'], ['The user undid your change to hunks.txt and said why: lowercase two is our style', 'Once more']]);
  });

  it('Follow, clicked: the file each tool call works on opens beside the panel at its line; a path outside the folders does not', async function () {
    const workspace = path.join(tmp, 'workspace');
    fs.writeFileSync(path.join(workspace, 'follow-target.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const frame = await newSession('Fake: follow');
    const follow = frame.locator('#follow');
    assert.equal(await follow.getAttribute('aria-pressed'), 'false', 'off by default');
    await follow.click();
    assert.equal(await follow.getAttribute('aria-pressed'), 'true');
    await send(frame, 'read');
    // The file at line 7, in the other editor group; the panel stays in its own, shown.
    const tab = page.locator('.tabs-container .tab', { hasText: 'follow-target.txt' });
    await tab.waitFor({ timeout: 15_000 });
    const group = page.locator('.editor-group-container', { has: page.locator('.tab', { hasText: 'follow-target.txt' }) });
    const activeLine = group.locator('.line-numbers.active-line-number');
    await activeLine.filter({ hasText: /^7$/ }).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.editor-group-container', { has: page.locator('.tab', { hasText: 'Fake: follow' }) }).count(), 1);
    assert.equal(await group.locator('.tab', { hasText: 'Fake: follow' }).count(), 0, 'beside the panel, not over it');
    await frame.locator('#input').waitFor({ state: 'visible' });
    // The agent's next location in the same file: the editor follows to line 4.
    fs.writeFileSync(path.join(workspace, '.follow-go'), 'go');
    await activeLine.filter({ hasText: /^4$/ }).waitFor({ timeout: 10_000 });
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: 15_000 });
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'hosts' }).count(), 0, '/etc/hosts (outside the folders) is not opened');
    await activeLine.filter({ hasText: /^4$/ }).waitFor({ timeout: 1000 });
    fs.rmSync(path.join(workspace, '.follow-go'), { force: true });
  });

  it('the Explorer\'s context menu on a folder offers Add Folder to Agent Session, and the command gets that folder as a file of the extension host\'s machine', async function () {
    await newSession('Demo Agent');
    await runCommand(page, 'View: Show Explorer');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'src' }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.click({ button: 'right' });
    const item = page.locator('.context-view .action-item', { hasText: 'Add Folder to Agent Session' });
    await item.waitFor({ timeout: 10_000 });
    // A menu item runs on Enter once the pointer is on it (a click alone once left the menu open).
    await item.hover();
    await page.keyboard.press('Enter');
    // The Demo Agent takes no added folders: it says so. A folder the extension host got as anything but a
    // file of its machine would be refused as "Only a folder on this machine". Read in the notification
    // center, which lists it as it arrives (a toast may not show in a headless window).
    await runCommand(page, 'Notifications: Show Notifications');
    const notices = page.locator('.notifications-center .notification-list-item');
    await notices.filter({ hasText: /does not take additional folders|already among the session's folders/ }).first().waitFor({ timeout: 10_000 });
    assert.equal(await notices.filter({ hasText: 'Only a folder on this machine' }).count(), 0);
    await runCommand(page, 'Notifications: Clear All Notifications');
  });

  it('Fork, clicked: a second panel carries the history on, and the Sessions view lists it', async function () {
    const frame = await newSession('Fake: fork');
    await send(frame, 'Keep the API stable');
    await frame.locator('.msg-agent', { hasText: 'Noted: greet stays stable.' }).waitFor({ timeout: 30_000 });
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: 15_000 });
    await frame.locator('#fork').click();
    // A second panel of the agent (both titled by it: neither session has a title from the agent), shown.
    await page.locator('.tabs-container .tab', { hasText: 'Fake: fork' }).nth(1).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.tabs-container .tab').count(), 2, 'the original panel stays open');
    const fork = webviewFrame(page);
    await fork.locator('.notice', { hasText: 'Forked from "Keep the API stable"' }).waitFor({ timeout: 30_000 });
    await fork.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await fork.locator('.msg-user .user-text').allInnerTexts(), ['Keep the API stable']);
    assert.match(await fork.locator('.msg-agent').first().innerText(), /Noted: greet stays stable\./);
    const forked = record(tmp, 'fork').filter((r) => r.dir === 'in' && r.msg?.method === 'session/fork');
    assert.equal(forked.length, 1, 'the agent was asked to fork');
    // The Sessions view lists it, by the original's title (its first prompt) marked as a fork.
    await runCommand(page, 'ACP Agents: Focus on Sessions View');
    await page.locator('#workbench\\.parts\\.sidebar .monaco-list-row', { hasText: 'Keep the API stable (fork)' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'fork-clicked');
  });

  it('Export, clicked: the conversation opens as a Markdown document, and saved through the Save As dialog it is on disk', async function () {
    // The fork's panel (still the active editor).
    const frame = webviewFrame(page);
    await frame.locator('.notice', { hasText: 'Forked from "Keep the API stable"' }).waitFor({ timeout: 20_000 });
    await frame.locator('#export').click();
    await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Noted: greet stays stable.' }).first().waitFor({ timeout: 15_000 });
    // Saved as a person does: Ctrl+S, a path typed in VS Code's Save As box, Enter.
    // (Its heading, the first prompt, matches nothing the @-mention test below types.)
    const saved = path.join(tmp, 'workspace', 'exported-conversation.md');
    // Into the document first: once, on a loaded machine, the keys still went to the panel beside it.
    await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Noted: greet stays stable.' }).first().click();
    await page.keyboard.press('Control+S');
    // The dialog lists the workspace folder once it is ready (a path typed before would be overwritten by its suggestion).
    const dialog = page.locator('.quick-input-widget');
    await dialog.locator('.quick-input-list .monaco-list-row', { hasText: 'README.md' }).first().waitFor({ timeout: 10_000 });
    const box = dialog.locator('input');
    await box.fill(saved);
    await box.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: 'exported-conversation.md' }).waitFor({ timeout: 15_000 });
    await fileHas(saved, '# Keep the API stable (fork)\n\n**User:**\n\nKeep the API stable\n\n**Agent:**\n\nNoted: greet stays stable.\n');
  });

  it('@-mention fuzzy-finds a workspace file, shows it as a chip, and sends it embedded', async function () {
    const frame = await newSession('Demo Agent');
    const input = frame.locator('#input');
    await input.click();
    await input.pressSequentially('Explain @gre');
    const match = frame.locator('#commands li', { hasText: 'src/greet.ts' });
    await match.waitFor({ timeout: 10_000 });
    await input.press('Enter');
    assert.match(await input.inputValue(), /^Explain @src\/greet\.ts $/);
    await frame.locator('.chip', { hasText: 'greet.ts' }).waitFor({ timeout: 5000 });
    await input.press('Enter');
    await frame.locator('.msg-agent', { hasText: 'Callers need no change.' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('.chip').count(), 0, 'chips are cleared once sent');
    const prompt = record(tmp, 'demo').filter((r) => r.msg?.method === 'session/prompt').at(-1).msg.params.prompt;
    assert.deepEqual(prompt.map((/** @type {{ type: string }} */ b) => b.type), ['text', 'resource']);
    assert.match(prompt[1].resource.uri, /src\/greet\.ts$/);
    assert.match(prompt[1].resource.text, /export function greet/);
    await screenshot(page, 'chat-mention');
  });

  it('looks right in dark, light and high-contrast themes, and axe-core finds no serious or critical violation in any', async function () {
    const frame = await newSession('Fake: all-updates');
    await send(frame, 'Show me everything');
    await frame.locator('.permission-option', { hasText: 'Allow' }).first().waitFor({ timeout: 15_000 });
    await frame.locator('.permission-option', { hasText: 'Always allow' }).first().click();
    await frame.locator('.msg-agent', { hasText: 'All done' }).waitFor({ timeout: 15_000 });
    /** @type {Record<string, ThemeColours>} */
    const seen = {};
    for (const [name, theme] of [['dark', 'Dark Modern'], ['light', 'Light Modern'], ['high-contrast', 'Dark High Contrast']]) {
      // As a person would: Preferences: Color Theme, type the name, Enter.
      await runCommand(page, 'Preferences: Color Theme');
      const input = page.locator('.quick-input-widget input');
      await input.fill(theme);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: theme }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      // The webview gets the theme's kind as a body class, and its colours as CSS variables.
      await frame.locator(`body.vscode-${name}`).waitFor({ timeout: 10_000 });
      await page.waitForTimeout(300);
      const c = await themeColours(frame);
      seen[name] = c;
      const where = `${theme}: ${JSON.stringify(c)}`;
      // Text against what is really behind it (transparent layers composited), WCAG 2 contrast.
      const minimum = name === 'high-contrast' ? 7 : 4.5;
      assert.ok(c.body.contrast >= minimum, `body text contrast ${c.body.contrast.toFixed(2)} < ${minimum} — ${where}`);
      assert.ok(c.agent.contrast >= minimum, `agent message contrast ${c.agent.contrast.toFixed(2)} < ${minimum} — ${where}`);
      assert.ok(c.user.contrast >= 4.5, `user message contrast ${c.user.contrast.toFixed(2)} — ${where}`);
      assert.ok(c.input.contrast >= 4.5, `input contrast ${c.input.contrast.toFixed(2)} — ${where}`);
      assert.ok(c.send.contrast >= 4.5, `Send button contrast ${c.send.contrast.toFixed(2)} — ${where}`);
      assert.ok(c.link.contrast >= 4.5, `Open Diff link contrast ${c.link.contrast.toFixed(2)} — ${where}`);
      // Dark themes are dark, the light one is light.
      assert.ok(name === 'light' ? c.body.bgLuminance > 0.5 : c.body.bgLuminance < 0.1, `background luminance ${c.body.bgLuminance.toFixed(3)} — ${where}`);
      await screenshot(page, `chat-theme-${name}`);
      const violations = await axeViolations(frame);
      assert.deepEqual(violations, [], `axe-core (${theme}): ${JSON.stringify(violations, null, 1)}`);
    }
    // Each theme really changed the panel's colours.
    assert.notEqual(seen.dark.agent.fg, seen.light.agent.fg, 'message text: dark ≠ light');
    assert.notDeepEqual([seen.dark.send.fg, seen.dark.send.bg], [seen.light.send.fg, seen.light.send.bg], 'Send button: dark ≠ light');
    assert.notDeepEqual([seen.dark.input.fg, seen.dark.input.bg], [seen['high-contrast'].input.fg, seen['high-contrast'].input.bg], 'input: dark ≠ high contrast');
    assert.equal(new Set(Object.values(seen).map((c) => c.body.bg)).size, 3, 'three different backgrounds');
    assert.equal(new Set(Object.values(seen).map((c) => c.body.fg)).size, 3, 'three different text colours');
  });

  it('a window reload restores the panel, and the session is loaded again from the agent', async function () {
    const before = record(tmp, 'all-updates').filter((r) => r.msg?.method === 'session/new').length;
    // As a person reloads: the workbench shuts down (saving which editors are open), then loads again.
    // (A bare page reload can cut the browser's storage write short, and then no editor comes back.)
    const reloaded = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 30_000 });
    await runCommand(page, 'Developer: Reload Window');
    await reloaded;
    await waitForWorkbench(page);
    const frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 60_000 });
    const rec = record(tmp, 'all-updates');
    const created = rec.filter((r) => r.msg?.method === 'session/new');
    const loads = rec.filter((r) => r.msg?.method === 'session/load');
    assert.equal(created.length, before, 'no new session was created');
    assert.ok(loads.length >= 1, 'the agent (which advertises loadSession) was asked to load it');
    // The id of the last session created before the reload.
    const newResponses = rec.filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt').map((r) => r.msg.params.sessionId);
    assert.equal(loads.at(-1).msg.params.sessionId, newResponses.at(-1));
  });

  it('Edit, clicked on an earlier message: the text in the composer (Escape gives the draft back), then Send restores the files and continues in a fork', async function () {
    fs.mkdirSync(path.join(tmp, 'workspace', 'rw'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'workspace', 'rw', 'a.txt'), 'zero\n');
    // Older than the session, as a project's files are.
    const then = new Date(Date.now() - 10_000);
    for (const p of ['rw/a.txt', 'rw']) fs.utimesSync(path.join(tmp, 'workspace', p), then, then);
    const frame = await newSession('Fake: rewind');
    await send(frame, 'first');
    await frame.locator('.msg-agent', { hasText: 'Wrote one.' }).waitFor({ timeout: 30_000 });
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: 15_000 });
    await send(frame, 'second');
    await frame.locator('.msg-agent', { hasText: 'Wrote two.' }).waitFor({ timeout: 30_000 });
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: 15_000 });
    await fileHas(path.join(tmp, 'workspace', 'rw', 'b.txt'), 'b two\n');
    const second = frame.locator('.msg-user', { hasText: 'second' });
    const input = frame.locator('#input');
    // A draft typed first comes back when the edit is given up.
    await input.fill('a draft');
    await second.locator('.edit-message').click();
    const banner = frame.locator('.editing-banner');
    await banner.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await banner.innerText(), /Editing message 2/);
    assert.equal(await input.inputValue(), 'second');
    await input.press('Escape');
    await banner.waitFor({ state: 'hidden', timeout: 5_000 });
    assert.equal(await input.inputValue(), 'a draft');
    // E on the focused message edits it too: reached from the transcript with Up, as a person does.
    await input.fill('');
    await frame.locator('#transcript').focus();
    for (let i = 0; i < 5 && !(await second.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowUp');
    const active = () => frame.locator('#transcript').evaluate(() => `${document.activeElement?.className} ${document.activeElement?.textContent?.slice(0, 40)}`);
    assert.equal(await second.evaluate((el) => el === document.activeElement), true, `the message has the keyboard (it is in ${await active()})`);
    await page.keyboard.press('e');
    await banner.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await input.inputValue(), 'second');
    await input.fill('second, edited');
    await input.press('Enter');
    // The same confirmation as "Restore files to here", with Continue.
    const confirm = frame.locator('.restore-card .restore-confirm');
    await confirm.waitFor({ timeout: 15_000 });
    assert.match(await confirm.innerText(), /Restore 2 Files and Continue/);
    await screenshot(page, 'rewind-confirm');
    await confirm.click();
    // The fork: its own panel, marked where it was rewound, the history before message 2 and the new text.
    await page.locator('.tabs-container .tab', { hasText: 'Fake: rewind' }).nth(1).waitFor({ timeout: 30_000 });
    const fork = webviewFrame(page);
    await fork.locator('.notice', { hasText: 'Rewound from "first" / message 2' }).waitFor({ timeout: 30_000 });
    await fork.locator('.msg-agent', { hasText: 'Noted.' }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await fork.locator('.msg-user .user-text').allInnerTexts(), ['first', 'second, edited']);
    await fileHas(path.join(tmp, 'workspace', 'rw', 'a.txt'), 'one\n');
    assert.equal(fs.existsSync(path.join(tmp, 'workspace', 'rw', 'b.txt')), false, 'made by message 2: removed');
    const sent = record(tmp, 'rewind').filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt').map((r) => r.msg.params.prompt[0].text);
    assert.deepEqual(sent, ['first', 'second', 'second, edited']);
    await screenshot(page, 'rewind-fork');
  });
});
