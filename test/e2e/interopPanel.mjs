// What an interop cell does in the chat panel as a person would (type and send, answer the agent's
// permission requests), and the model stubs and MCP fixture record it checks against. The same steps
// as test/e2e/interop-claude-codex-opencode.test.mjs's own, in a module of their own for the newer rows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../harness/testEnv.mjs';
import { runCommand, waitForExtension, waitForWorkbench, webviewFrame } from './workbench.mjs';

/**
 * A model stub as `node esbuild.mjs --tests` compiled it into out/ (CommonJS); type it at the import
 * site from its source (a path the type checker does not follow, so out/ need not exist for it).
 * @param {string} name
 */
export const compiledStub = async (name) => (await import(pathToFileURL(path.join(ROOT, 'out', 'test', 'fixtures', 'modelStub', `${name}.js`)).href)).default;

/** The stdio MCP server the user configures (tool `echo`), recording what it receives. */
export const MCP_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'mcp', 'stdioServer.mjs');

/**
 * The MCP fixture's record, parsed (none yet: empty).
 * @param {string} record
 * @returns {any[]}
 */
export const mcpLines = (record) => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

/**
 * Types `text` into the panel's input and sends it.
 * @param {import('./workbench.mjs').Page} page
 * @param {string} text
 */
export async function send(page, text) {
  const input = webviewFrame(page).locator('#input');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

/**
 * Waits for `done`, answering every permission the agent asks on the way with its allow-once option
 * (as a person would click it); returns what was asked, by the tool card's text at the time.
 * @param {import('./workbench.mjs').Page} page
 * @param {import('playwright-core').Locator} done
 * @param {(card: string, index: number) => void} [onAsk] checks made before each answer (the file is not written yet…)
 */
export async function answerUntil(page, done, onAsk) {
  /** @type {string[]} */
  const asked = [];
  const frame = webviewFrame(page);
  const option = frame.locator('.permission-option.kind-allow_once:not([disabled])').first();
  for (const deadline = Date.now() + 90_000; ; ) {
    if (await done.isVisible()) return asked;
    if (await option.isVisible()) {
      const card = frame.locator('.item', { has: option }).last();
      const text = (await card.textContent()) ?? '';
      onAsk?.(text, asked.length);
      asked.push(text);
      await option.click();
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${done}`);
    await page.waitForTimeout(200);
  }
}

/**
 * Reloads the window, closes the editors and shows the Sessions view: where a resume cell starts.
 * @param {import('./workbench.mjs').Page} page
 */
export async function reloadToSessions(page) {
  await page.reload();
  await waitForWorkbench(page);
  // Closed before the extension activates: a restored chat panel never loads its session (the click must).
  await runCommand(page, 'View: Close All Editors');
  await waitForExtension(page);
  await runCommand(page, 'ACP Agents: Focus on Sessions View');
}

/**
 * In the Sessions view: the agent's row (expanded, so it has sessions), then its sessions, clicked one
 * after another until the panel replays `prompt` (one, unless the agent lists more). Fails naming what
 * the view listed, or when none of its sessions replays the prompt.
 * @param {import('./workbench.mjs').Page} page
 * @param {string} label the agent's label as the view shows it
 * @param {string} prompt the interop turn's prompt
 */
export async function openSessionReplaying(page, label, prompt) {
  const rows = page.locator('#workbench\\.parts\\.sidebar .monaco-list-row');
  /** @type {{ label: string, level: string }[]} */
  let list = [];
  let at = -1;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await page.waitForTimeout(250)) {
    list = await rows.evaluateAll((els) => els.map((e) => ({ label: e.getAttribute('aria-label') ?? '', level: e.getAttribute('aria-level') ?? '' })));
    at = list.findIndex((r) => r.label.startsWith(`Agent ${label}`));
    if (at >= 0 && list[at + 1]?.level === '2') break;
  }
  assert.ok(at >= 0 && list[at + 1]?.level === '2', `the agent's sessions are in the sidebar: ${JSON.stringify(list)}`);
  /** @type {number[]} */
  const mine = [];
  for (let i = at + 1; list[i]?.level === '2'; i++) mine.push(i);
  for (const idx of mine) {
    await rows.nth(idx).click();
    if (await webviewFrame(page).locator('.msg-user', { hasText: prompt }).first().waitFor({ timeout: mine.length > 1 ? 15_000 : 60_000 }).then(() => true, () => false)) return;
  }
  assert.fail(`none of ${label}'s ${mine.length} session(s) in the sidebar replays the turn's prompt`);
}
