// As a person would: New Session from the palette → Demo Agent → send a prompt
// → reload the window → the session is in the sidebar → click → history is back.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ensureNode } from '../harness/tools.mjs';
import { ROOT, testAgents } from '../harness/testEnv.mjs';
import { openWorkbench, pick, runCommand, screenshot, waitForWorkbench, webviewFrame } from './workbench.mjs';
import { startBridge, startHttpMcpServer } from './wsBridge.mjs';

/** Click on a 10,000-update session → its end visible, at most (ms): see the test. */
const REPLAY_10K_BUDGET_MS = 12_000;

describe('e2e: past sessions from the sidebar', function () {
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;

  /** An agent by URL: the fake agent behind the test's stdio-to-WebSocket bridge on 127.0.0.1. */
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let bridge;
  /** @type {string} */
  let remoteRecord;
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let mcpServer;
  /** @type {string} */
  let mcpRecord;

  before(async function () {
    const node = ensureNode();
    remoteRecord = path.join(fs.mkdtempSync(path.join(ROOT, 'out', 'e2e-remote-')), 'remote.jsonl');
    const remote = await startBridge([path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs'), 'remote-e2e'], { ACP_FAKE_RECORD: remoteRecord });
    bridge = remote.child;
    // An http MCP server the agent by URL can reach (not loopback): it calls its tool in its turn.
    mcpRecord = path.join(path.dirname(remoteRecord), 'mcp-calls.jsonl');
    const web = await startHttpMcpServer(mcpRecord);
    mcpServer = web.child;
    wb = await openWorkbench({
      prefix: 'acp-sessions',
      agents: (tmp) => [...testAgents(node, tmp).filter((a) => ['demo', 'fake-replay-10k'].includes(a.id)), { id: 'remote', name: 'Remote Fake (by URL)', url: remote.url }],
      settings: { 'acpAgents.mcpServers': { web: { type: 'http', url: web.url } } },
    });
    ({ page } = wb);
  });

  after(async function () {
    await wb?.close();
    bridge?.kill();
    mcpServer?.kill();
    if (remoteRecord) fs.rmSync(path.dirname(remoteRecord), { recursive: true, force: true });
  });

  it('a session survives a window reload and reopens from the sidebar with its history', async function () {
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Demo Agent');
    let frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    await frame.locator('#input').fill('Make greet friendlier');
    await frame.locator('#input').press('Enter');
    await frame.locator('.msg-agent', { hasText: 'Callers need no change.' }).waitFor({ timeout: 30_000 });

    await page.reload();
    await waitForWorkbench(page);
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP Agents: Focus on Sessions View');
    const sidebar = page.locator('#workbench\\.parts\\.sidebar');
    // The Demo Agent's session, titled by the agent's session_info_update.
    const row = sidebar.locator('.monaco-list-row', { hasText: 'Demo: greeting refactor' });
    await row.waitFor({ timeout: 20_000 });
    await screenshot(page, 'sessions-sidebar');
    await row.click();
    frame = webviewFrame(page);
    await frame.locator('.msg-user', { hasText: 'Make greet friendlier' }).waitFor({ timeout: 30_000 });
    await frame.locator('.msg-agent', { hasText: 'Callers need no change.' }).waitFor({ timeout: 10_000 });
    // The Demo Agent cannot load sessions: the history is the local archive, read-only.
    assert.match(await frame.locator('.status-text').innerText(), /Read-only/);
    assert.ok(await frame.locator('.notice', { hasText: 'Archived history' }).count());
    await screenshot(page, 'sessions-reopened');
  });

  it('a 10,000-update session loads with its end on screen, then its whole history in order above it', async function () {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: Resume Session');
    await pick(page, 'Fake: replay-10k');
    await pick(page, 'Long session');
    const clicked = Date.now();
    const frame = webviewFrame(page);
    await frame.locator('.msg-agent', { hasText: 'REPLAY-END-MARKER' }).waitFor({ timeout: 30_000 });
    // A loose budget on the hot path (npm run bench measures it closely, budget 1 s): about 3.5× the
    // 3.5 s this test measured on a loaded 2-core machine (load average 12). A slowdown of that size fails here.
    const visibleMs = Date.now() - clicked;
    console.log(`      (click → the end of 10,000 updates visible: ${visibleMs} ms; budget ${REPLAY_10K_BUDGET_MS} ms)`);
    assert.ok(visibleMs < REPLAY_10K_BUDGET_MS, `the end of the 10,000-update session was visible ${visibleMs} ms after the click (budget ${REPLAY_10K_BUDGET_MS} ms)`);
    // The end first; the panel then asks for older history in batches (2,634 items in all), and keeps
    // only what is near the viewport in the DOM (the rest stands behind spacers of its height).
    const transcript = frame.locator('#transcript');
    /** @type {{ older?: string, items?: string }} */
    let counts = {};
    for (const deadline = Date.now() + 15_000; counts.older !== '0' && Date.now() < deadline; await page.waitForTimeout(100)) {
      counts = await transcript.evaluate((t) => ({ older: t.dataset.older, items: t.dataset.items }));
    }
    assert.deepEqual(counts, { older: '0', items: '2634' }, 'the whole history arrived');
    const dom = await transcript.evaluate((t) => ({ items: t.querySelectorAll(':scope > .item').length, spacers: t.querySelectorAll(':scope > .block-spacer').length }));
    assert.ok(dom.items > 0 && dom.items <= 200, `items in the DOM at the bottom: ${dom.items}`);
    assert.ok(dom.spacers > 10, `spacers for the rest: ${dom.spacers}`);
    assert.ok(await transcript.evaluate((t) => t.scrollTop + t.clientHeight >= t.scrollHeight - 40), 'still at the bottom');
    // Scrolled to the top, the first turn renders, in order.
    await transcript.evaluate((t) => (t.scrollTop = 0));
    await frame.locator('.msg-user', { hasText: 'Turn 1: please refactor module 1 and explain.' }).waitFor({ timeout: 10_000 });
    const users = await frame.locator('.msg-user').allInnerTexts();
    const turns = users.map((u) => Number(/Turn (\d+):/.exec(u)?.[1])).filter((n) => n > 0);
    assert.ok(turns.length >= 2, `turns rendered at the top: ${turns.join(',')}`);
    assert.deepEqual(turns.slice(0, 3), [1, 2, 3].slice(0, Math.min(3, turns.length)), `rendered in order: ${turns.slice(0, 5).join(',')}`);
  });

  it('an agent by URL, from the installed .vsix: a whole turn over the socket that calls the user\'s http MCP server, and after a window reload the session from the sidebar is loaded from the agent over a new connection', async function () {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Remote Fake (by URL)');
    let frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    await frame.locator('#input').fill('Hello over the wire');
    await frame.locator('#input').press('Enter');
    await frame.locator('.msg-agent', { hasText: 'Answered over a WebSocket.' }).waitFor({ timeout: 30_000 });
    // The user's http MCP server was offered to it, and its tool called.
    assert.deepEqual(fs.readFileSync(mcpRecord, 'utf8').trim().split('\n').map((l) => JSON.parse(l)), [{ tool: 'echo', text: 'through the installed extension' }]);

    await page.reload();
    await waitForWorkbench(page);
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP Agents: Focus on Sessions View');
    const row = page.locator('#workbench\\.parts\\.sidebar .monaco-list-row', { hasText: 'Remote: over the socket' });
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    frame = webviewFrame(page);
    await frame.locator('.msg-agent', { hasText: 'Answered over a WebSocket.' }).waitFor({ timeout: 30_000 });
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'sessions-remote-reloaded');
    // Loaded by the agent (not the local archive), over a second connection: a second process behind the bridge.
    const records = fs.readFileSync(remoteRecord, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const methods = records.filter((r) => r.dir === 'in' && r.msg?.method).map((r) => r.msg.method);
    assert.ok(methods.includes('session/load'), methods.join(', '));
    assert.ok(new Set(records.map((r) => r.pid)).size >= 2, 'two connections, two agent processes');
    const init = records.find((r) => r.dir === 'in' && r.msg?.method === 'initialize')?.msg.params;
    assert.notEqual(init?.clientCapabilities?.fs?.readTextFile, true, 'no client fs for an agent by URL');
  });
});
