// Security: agent output is untrusted. A corpus of XSS payloads placed in every
// rendered field must run no script (a sentinel the payloads would call, plus a
// CSP violation listener) and leave no javascript:/data: link in the webview.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureNode } from '../harness/tools.mjs';
import { FAKE_AGENT, ROOT } from '../harness/testEnv.mjs';
import { openWorkbench, pick, runCommand, screenshot } from './workbench.mjs';

/** @type {string[]} */
const PAYLOADS = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'xss', 'payloads.json'), 'utf8'));

/**
 * The name a payload gets as a file in the Changes list (no "/" in a file name).
 * @param {string} p
 * @param {number} i
 */
function changeName(p, i) {
  return `${String(i).padStart(2, '0')} ${p.replaceAll('/', '\u2215').replaceAll('\0', '')}`.slice(0, 120);
}

/**
 * A fake-agent scenario that puts every payload into every field the panel renders.
 * It answers `initialize` only once `goFile` exists, so the test arms its sentinel
 * before anything from the agent (agentInfo, modes…) reaches the panel.
 * @param {{ goFile: string, payloadsTxt: string }} files
 */
function xssScenario({ goFile, payloadsTxt }) {
  /** @type {object[]} */
  const steps = [];
  PAYLOADS.forEach((p, i) => {
    steps.push(
      { update: { sessionUpdate: 'user_message_chunk', messageId: `u${i}`, content: { type: 'text', text: p } } },
      { update: { sessionUpdate: 'agent_thought_chunk', messageId: `th${i}`, content: { type: 'text', text: p } } },
      { update: { sessionUpdate: 'agent_message_chunk', messageId: `a${i}`, content: { type: 'text', text: `${p}\n\n**${p}** [${p}](${p}) <${p}>` } } },
      { update: { sessionUpdate: 'agent_message_chunk', messageId: `r${i}`, content: { type: 'resource_link', uri: `javascript:__xss(${1000 + i})`, name: p } } },
      { update: { sessionUpdate: 'agent_message_chunk', messageId: `img${i}`, content: { type: 'image', mimeType: p, data: p } } },
      {
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `t${i}`,
          title: p,
          kind: 'edit',
          status: 'in_progress',
          locations: [{ path: `/ws/${p}`, line: 1 }],
          content: [
            { type: 'diff', path: `/ws/${p}`, oldText: p, newText: `${p}\n${p}` },
            { type: 'terminal', terminalId: p },
            { type: 'content', content: { type: 'text', text: p } },
          ],
          rawInput: { command: p },
          rawOutput: { out: p },
        },
      },
      { update: { sessionUpdate: 'plan', entries: [{ content: p, priority: 'high', status: 'in_progress' }] } },
      { update: { sessionUpdate: 'notice', severity: 'warning', title: p, description: p } },
      { update: { sessionUpdate: `x_${i}`, payload: p } },
      // The usage meter (the header), with the payload as the cost's currency.
      { update: { sessionUpdate: 'usage_update', used: 1000 + i, size: 200_000, cost: { amount: 0.5, currency: p } } },
      // Schema 1.34: a subagent card (title, description, cwd, error), its own message, a message to it, a Markdown plan with a path.
      { update: { sessionUpdate: 'subagent_update', sessionId: `child-${i}`, title: p, description: p, cwd: `/ws/${p}`, capabilities: { cancel: {} }, state: { state: 'idle', stopReason: 'error', error: { code: -32603, message: p } } } },
      { notify: 'session/update', params: { sessionId: `child-${i}`, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${p} **${p}**` } } } },
      { update: { sessionUpdate: 'session_message', messageId: `sm${i}`, senderSessionId: '${sessionId}', recipientSessionId: `child-${i}`, content: [{ type: 'text', text: `${p} [${p}](${p})` }] } },
      { update: { sessionUpdate: 'tool_call', toolCallId: `task${i}`, title: p, kind: 'other', status: 'completed', content: [{ type: 'session', sessionId: `child-${i}` }] } },
      { update: { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: `pl${i}`, content: `# ${p}\n\n${p} [x](${p})`, path: p } } },
    );
  });
  steps.push(
    // The Changes list (the header): files the agent writes, named and filled with the payloads (at once: quicker).
    { parallel: PAYLOADS.map((p, i) => ({ request: 'fs/write_text_file', params: { sessionId: '${sessionId}', path: `\${cwd}/xss-changes/${changeName(p, i)}`, content: `${p}\n` } })) },
    // Terminal output in a tool call: a command that prints every payload.
    { update: { sessionUpdate: 'tool_call', toolCallId: 'xss-term', title: 'Print the payloads', kind: 'execute', status: 'in_progress' } },
    { request: 'terminal/create', params: { sessionId: '${sessionId}', command: '${node}', args: ['-e', "process.stdout.write(require('fs').readFileSync(process.argv[1], 'utf8'))", payloadsTxt] }, as: 'xterm' },
    { update: { sessionUpdate: 'tool_call_update', toolCallId: 'xss-term', content: [{ type: 'terminal', terminalId: '${xterm.terminalId}' }] } },
    { request: 'terminal/wait_for_exit', params: { sessionId: '${sessionId}', terminalId: '${xterm.terminalId}' } },
    { update: { sessionUpdate: 'tool_call_update', toolCallId: 'xss-term', status: 'completed' } },
    { update: { sessionUpdate: 'available_commands_update', availableCommands: PAYLOADS.map((p) => ({ name: p, description: p, input: { hint: p } })) } },
    {
      update: {
        sessionUpdate: 'config_option_update',
        configOptions: PAYLOADS.slice(0, 20).map((p, i) => ({ id: `c${i}`, name: p, type: 'select', currentValue: 'v0', options: [{ value: 'v0', name: p }, { group: p, name: p, options: [{ value: 'v1', name: p }] }] })),
      },
    },
    { update: { sessionUpdate: 'session_info_update', title: PAYLOADS[0] } },
    { request: 'session/request_permission', params: { sessionId: '${sessionId}', toolCall: { toolCallId: 't0', title: PAYLOADS[1] }, options: PAYLOADS.slice(0, 3).map((p, i) => ({ optionId: `o${i}`, name: p, kind: i === 0 ? 'allow_once' : 'reject_once' })) }, as: 'perm' },
    // Questions in the panel: a form whose message, field titles, descriptions and choices are payloads, then a page to open.
    {
      request: 'elicitation/create',
      params: {
        sessionId: '${sessionId}',
        mode: 'form',
        message: PAYLOADS[2],
        requestedSchema: { type: 'object', properties: Object.fromEntries(PAYLOADS.slice(0, 20).map((p, i) => [`f${i}`, i % 2 ? { type: 'string', title: p, description: p, default: p } : { type: 'string', title: p, oneOf: [{ const: 'a', title: p }] }])) },
      },
      as: 'form',
    },
    { request: 'elicitation/create', params: { sessionId: '${sessionId}', mode: 'url', message: PAYLOADS[3], url: `https://example.com/${encodeURIComponent(PAYLOADS[3])}?q=${encodeURIComponent(PAYLOADS[4])}`, elicitationId: 'xss-url' }, as: 'url' },
    { update: { sessionUpdate: 'agent_message_chunk', messageId: 'end', content: { type: 'text', text: 'XSS corpus done.' } } },
    { respond: { stopReason: 'end_turn' } },
  );
  return {
    description: 'Every rendered field carries XSS payloads.',
    agentInfo: { name: PAYLOADS[5], title: PAYLOADS[6], version: '1' },
    on: {
      initialize: [{ waitForFile: goFile, timeout: 60_000 }],
      // …and it starts the user's MCP server, whose tool names (and its name in the settings) are payloads: the MCP status.
      'session/new': [{ respond: { sessionId: '${sessionId}', modes: { currentModeId: 'm0', availableModes: PAYLOADS.slice(0, 5).map((p, i) => ({ id: `m${i}`, name: p, description: p })) } } }, { startMcp: {} }],
      // The first prompt gets everything above; the second fails with the payloads as the error (a turn error entry).
      'session/prompt': { sequence: [steps, [{ error: { code: -32603, message: `Model failed: ${PAYLOADS.join(' ')}`, data: { detail: PAYLOADS } } }]] },
    },
  };
}

/** The MCP server's name in the user's settings: a payload too. */
const MCP_NAME = PAYLOADS[7] ?? 'mcp';

/** A file with the payloads as MCP tool names (the fixture server lists them). */
function toolNamesFile() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-xss-mcp-')), 'names.json');
  fs.writeFileSync(file, JSON.stringify(PAYLOADS.slice(0, 40)));
  return file;
}

/** @typedef {Window & { __hits: unknown[], __violations: string[], __xss: (n: unknown) => void, __sentinel?: string }} Sentinel */

describe('e2e: XSS corpus in every rendered field', function () {
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;
  let goFile = '';

  before(async function () {
    wb = await openWorkbench({
      prefix: 'acp-xss',
      viewport: { width: 1280, height: 900 },
      agents: (tmp) => {
        goFile = path.join(tmp, 'xss-go');
        const payloadsTxt = path.join(tmp, 'xss-payloads.txt');
        fs.writeFileSync(payloadsTxt, PAYLOADS.join('\n') + '\n');
        const scenarioFile = path.join(tmp, 'xss-scenario.json');
        fs.writeFileSync(scenarioFile, JSON.stringify(xssScenario({ goFile, payloadsTxt })));
        return [{ id: 'xss', name: 'XSS Agent', command: ensureNode(), args: [FAKE_AGENT, scenarioFile], env: { ACP_FAKE_RECORD: path.join(tmp, 'xss.jsonl') } }];
      },
      settings: { 'acpAgents.mcpServers': { [MCP_NAME]: { type: 'stdio', command: ensureNode(), args: [path.join(ROOT, 'test', 'fixtures', 'mcp', 'stdioServer.mjs')], env: { MCP_FIXTURE_TOOL_NAMES: toolNamesFile() } } } },
    });
    ({ page } = wb);
    // The test's own canary (below) breaks the CSP on purpose, to prove its listener hears; nothing else may.
    wb.allowWebviewErrors(/canary\.invalid/);
  });

  after(async function () {
    await wb?.close();
  });

  it(`${PAYLOADS.length} payloads run no script, break no CSP rule and leave no javascript:/data: link`, async function () {
    assert.ok(PAYLOADS.length >= 60);
    /** @type {string[]} */
    const dialogs = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'XSS Agent');
    // The panel's own frame (the one with the transcript), instrumented before any payload arrives:
    // the agent answers initialize only once goFile exists.
    /** @type {import('playwright-core').Frame | undefined} */
    let frame;
    for (let i = 0; i < 150 && !frame; i++) {
      for (const f of page.frames()) if (await f.$('#transcript').catch(() => null)) frame = f;
      if (!frame) await page.waitForTimeout(200);
    }
    assert.ok(frame, 'found the chat webview frame');
    const token = `armed-${Date.now()}`;
    const before = await frame.evaluate((t) => {
      const w = /** @type {Sentinel} */ (/** @type {unknown} */ (window));
      w.__hits = [];
      w.__violations = [];
      w.__xss = (n) => w.__hits.push(n);
      w.__sentinel = t;
      document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      return document.body.innerText;
    }, token);
    assert.equal(fs.existsSync(goFile), false, 'the agent has not answered yet');
    for (const p of PAYLOADS.slice(0, 7)) assert.ok(!before.includes(p), `no payload shown before the sentinel was armed: ${p}`);
    fs.writeFileSync(goFile, 'go');
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    // agentInfo and the modes (from session/new) rendered under the sentinel.
    assert.ok((await frame.locator('.status-text').innerText()).includes(PAYLOADS[6]), 'the agent\'s title (a payload) is shown as text');

    await frame.locator('#input').fill(`${PAYLOADS[0]} typed by the user`);
    await frame.locator('#input').press('Enter');
    const option = frame.locator('.permission-option').first();
    await option.waitFor({ timeout: 60_000 });
    await option.click();
    // Both questions are declined from the panel (the form first, then the page).
    for (let i = 0; i < 2; i++) {
      const decline = frame.locator('.elicitation[data-state="pending"] .elicitation-decline');
      await decline.waitFor({ timeout: 30_000 });
      await decline.click();
      await frame.locator('.elicitation[data-state="declined"]').nth(i).waitFor({ timeout: 10_000 });
    }
    await frame.locator('.msg-agent', { hasText: 'XSS corpus done.' }).waitFor({ timeout: 60_000 });
    // The second prompt fails: the agent's error (every payload) becomes a turn error entry.
    await frame.locator('#input').fill(`${PAYLOADS[1]} again`);
    await frame.locator('#input').press('Enter');
    await frame.locator('.turn-error').first().waitFor({ timeout: 30_000 });

    // Every message rendered now pinned: its text, a payload, shown in the strip (before the render below, under the sentinel).
    const pinned = await frame.evaluate(() => [...document.querySelectorAll('.pin-message')].map((b) => /** @type {HTMLElement} */ (b).click()).length);
    assert.ok(pinned >= 10, `pinned ${pinned} messages`);
    await frame.locator('#pins .pin').nth(pinned - 1).waitFor({ timeout: 30_000 });

    // Bring every lazily rendered item into view (each placeholder left, until none is), and open every <details>.
    const placeholdersLeft = await frame.evaluate(async () => {
      const frameDone = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))));
      const deadline = Date.now() + 20_000;
      for (let ph = document.querySelector('#transcript .placeholder'); ph && Date.now() < deadline; ph = document.querySelector('#transcript .placeholder')) {
        ph.scrollIntoView({ block: 'center' });
        await frameDone();
      }
      for (const d of document.querySelectorAll('details')) d.open = true;
      // What the opened items load has loaded, or failed to (a blocked image is complete too), and been painted.
      const settleBy = Date.now() + 5000;
      while ([...document.images].some((i) => !i.complete) && Date.now() < settleBy) await frameDone();
      await frameDone();
      return document.querySelectorAll('.placeholder').length;
    });
    assert.equal(placeholdersLeft, 0, 'every item was rendered');
    await frame.locator('#input').fill('/');
    await frame.locator('#commands li').first().waitFor({ timeout: 10_000 });
    // The sentinel is still the one armed first, and its CSP listener still hears: a canary violation.
    const live = await frame.evaluate(async (t) => {
      const w = /** @type {Sentinel} */ (/** @type {unknown} */ (window));
      const img = document.createElement('img');
      img.src = 'https://canary.invalid/csp.png';
      document.body.append(img);
      const deadline = Date.now() + 3000;
      while (!w.__violations.some((v) => v.includes('canary.invalid')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      img.remove();
      return { armed: w.__sentinel === t, canary: w.__violations.some((v) => v.includes('canary.invalid')) };
    }, token);
    assert.deepEqual(live, { armed: true, canary: true }, 'the sentinel armed before the first render is still in place and listening');
    const result = await frame.evaluate(() => {
      const w = /** @type {Sentinel} */ (/** @type {unknown} */ (window));
      return {
        hits: w.__hits,
        violations: w.__violations.filter((v) => !v.includes('canary.invalid')),
        placeholders: document.querySelectorAll('.placeholder').length,
        items: document.querySelectorAll('#transcript > .item').length,
        links: [...document.querySelectorAll('a')].map((a) => ({ href: a.getAttribute('href'), data: a.getAttribute('data-href') })),
        srcs: [...document.querySelectorAll('[src]')].map((e) => e.getAttribute('src')),
        scripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src') ?? `inline:${(s.textContent ?? '').slice(0, 60)}`),
        handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`)),
        iframes: [...document.querySelectorAll('iframe, object, embed, form, base, meta[http-equiv]')].filter((e) => e.getAttribute('http-equiv') !== 'Content-Security-Policy').map((e) => e.outerHTML.slice(0, 80)),
        changes: [...document.querySelectorAll('.change .change-name')].map((e) => e.textContent),
        usage: document.getElementById('usage')?.textContent ?? '',
        terminal: [...document.querySelectorAll('.terminal-output')].map((e) => e.textContent ?? '').join('\n'),
        errors: [...document.querySelectorAll('.turn-error')].map((e) => e.textContent ?? ''),
        pins: [...document.querySelectorAll('#pins .pin-user .pin-text')].map((e) => e.textContent ?? ''),
        mcpNames: [...document.querySelectorAll('#mcp-status .mcp-name')].map((e) => e.textContent ?? ''),
        mcpText: [...document.querySelectorAll('#mcp-status .mcp-text')].map((e) => e.textContent ?? ''),
        mcpTools: [...document.querySelectorAll('#mcp-status .mcp-tools')].map((e) => e.textContent ?? ''),
      };
    });
    await screenshot(page, 'xss-corpus');
    assert.deepEqual(result.hits, [], 'no payload ran');
    assert.deepEqual(result.violations, [], 'no CSP violation');
    assert.deepEqual(dialogs, [], 'no dialog');
    assert.equal(result.placeholders, 0);
    // Only VS Code's own bootstrap (acquireVsCodeApi) and the panel's bundle.
    assert.equal(result.scripts.length, 2, JSON.stringify(result.scripts));
    assert.match(result.scripts[0], /^inline:\s*globalThis\.acquireVsCodeApi/);
    assert.match(result.scripts[1], /\/dist\/webview\.js$/);
    assert.deepEqual(result.handlers, [], 'no inline event handlers');
    assert.deepEqual(result.iframes, [], 'no frames, objects, forms, base or meta refresh');
    assert.ok(result.items > PAYLOADS.length * 5, `rendered ${result.items} items`);
    for (const l of result.links) {
      assert.equal(l.href, '#', `link href neutralised: ${JSON.stringify(l)}`);
      if (l.data !== null) assert.match(l.data, /^(https?:|mailto:|file:)/i, `only safe schemes reach the host: ${l.data}`);
    }
    for (const src of result.srcs) {
      if (src === null) continue;
      assert.ok(/^data:image\/(png|jpe?g|gif|webp);base64,/i.test(src) || /^https:\/\/.*vscode-cdn\.net\//.test(src), `no foreign src: ${src.slice(0, 80)}`);
    }
    // The payloads did reach these fields, shown as text: the Changes list, the usage meter,
    // the terminal output and the turn error.
    assert.deepEqual([...result.changes].sort(), PAYLOADS.map((p, i) => changeName(p, i)).sort(), 'every file the agent wrote is listed by its (payload) name');
    assert.ok(result.usage.includes(PAYLOADS.at(-1) ?? '?'), `the usage shows the last cost currency as text: ${result.usage}`);
    for (const p of PAYLOADS) assert.ok(result.terminal.includes(p), `the terminal output shows ${p} as text`);
    assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
    for (const p of PAYLOADS) assert.ok(result.errors[0].includes(p), `the turn error shows ${p} as text`);
    // The MCP status: the server's name and the tool names it listed (payloads) as text.
    // (after it, vscode-editor: the editor's own server, handed to every session)
    assert.deepEqual(result.mcpNames.map((n) => n.trim()), [MCP_NAME.slice(0, 200), 'vscode-editor'], JSON.stringify(result.mcpNames));
    assert.match(result.mcpText[0] ?? '', /started by the agent, 41 tools/);
    for (const p of PAYLOADS.slice(0, 40)) assert.ok((result.mcpTools[0] ?? '').includes(p.slice(0, 60)), `the MCP tool name ${p} is shown as text`);
    // The pin strip: the pinned prompts (payloads) as text, whitespace folded.
    const shown = (/** @type {string} */ p) => p.replace(/\s+/g, ' ').trim().slice(0, 160);
    assert.ok(result.pins.length >= 3, JSON.stringify(result.pins));
    // The two prompts typed above, exactly as typed (folded). Only rendered messages were pinned (the transcript is
    // virtualised), so the first may be out of it; the last one, near the end, is there.
    const typed = [shown(`${PAYLOADS[0]} typed by the user`), shown(`${PAYLOADS[1]} again`)];
    assert.ok(result.pins.includes(typed[1]), `the last typed prompt is pinned as text: ${JSON.stringify(result.pins)}`);
    for (const text of result.pins) assert.ok(PAYLOADS.some((p) => text === shown(p)) || typed.includes(text), `the pin strip shows a payload as text: ${text}`);
  });
});
