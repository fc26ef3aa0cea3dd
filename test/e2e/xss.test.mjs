// Security: agent output is untrusted. A corpus of XSS payloads placed in every
// rendered field must run no script (a sentinel the payloads would call, plus a
// CSP violation listener) and leave no javascript:/data: link in the webview.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ensureNode } from '../harness/tools.mjs';
import { FAKE_AGENT, ROOT } from '../harness/testEnv.mjs';
import { openWorkbench, pick, runCommand, screenshot } from './workbench.mjs';

const PAYLOADS = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'xss', 'payloads.json'), 'utf8'));

/** A fake-agent scenario that puts every payload into every field the panel renders. */
function xssScenario() {
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
    );
  });
  steps.push(
    { update: { sessionUpdate: 'available_commands_update', availableCommands: PAYLOADS.map((p) => ({ name: p, description: p, input: { hint: p } })) } },
    {
      update: {
        sessionUpdate: 'config_option_update',
        configOptions: PAYLOADS.slice(0, 20).map((p, i) => ({ id: `c${i}`, name: p, type: 'select', currentValue: 'v0', options: [{ value: 'v0', name: p }, { group: p, name: p, options: [{ value: 'v1', name: p }] }] })),
      },
    },
    { update: { sessionUpdate: 'session_info_update', title: PAYLOADS[0] } },
    { request: 'session/request_permission', params: { sessionId: '${sessionId}', toolCall: { toolCallId: 't0', title: PAYLOADS[1] }, options: PAYLOADS.slice(0, 3).map((p, i) => ({ optionId: `o${i}`, name: p, kind: i === 0 ? 'allow_once' : 'reject_once' })) }, as: 'perm' },
    { update: { sessionUpdate: 'agent_message_chunk', messageId: 'end', content: { type: 'text', text: 'XSS corpus done.' } } },
    { respond: { stopReason: 'end_turn' } },
  );
  return {
    description: 'Every rendered field carries XSS payloads.',
    agentInfo: { name: PAYLOADS[5], title: PAYLOADS[6], version: '1' },
    on: {
      'session/new': [{ respond: { sessionId: '${sessionId}', modes: { currentModeId: 'm0', availableModes: PAYLOADS.slice(0, 5).map((p, i) => ({ id: `m${i}`, name: p, description: p })) } } }],
      'session/prompt': steps,
    },
  };
}

describe('e2e: XSS corpus in every rendered field', function () {
  let wb;
  let page;

  before(async function () {
    wb = await openWorkbench({
      prefix: 'acp-xss',
      viewport: { width: 1280, height: 900 },
      agents: (tmp) => {
        const scenarioFile = path.join(tmp, 'xss-scenario.json');
        fs.writeFileSync(scenarioFile, JSON.stringify(xssScenario()));
        return [{ id: 'xss', name: 'XSS Agent', command: ensureNode(), args: [FAKE_AGENT, scenarioFile], env: { ACP_FAKE_RECORD: path.join(tmp, 'xss.jsonl') } }];
      },
    });
    ({ page } = wb);
  });

  after(async function () {
    await wb?.close();
  });

  it(`${PAYLOADS.length} payloads run no script, break no CSP rule and leave no javascript:/data: link`, async function () {
    assert.ok(PAYLOADS.length >= 60);
    const dialogs = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'XSS Agent');
    // The panel's own frame (the one with the transcript), instrumented before any payload arrives.
    let frame;
    for (let i = 0; i < 100 && !frame; i++) {
      for (const f of page.frames()) if (await f.$('#transcript').catch(() => null)) frame = f;
      if (!frame) await page.waitForTimeout(200);
    }
    assert.ok(frame, 'found the chat webview frame');
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    await frame.evaluate(() => {
      window.__hits = [];
      window.__violations = [];
      window.__xss = (n) => window.__hits.push(n);
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await frame.locator('#input').fill(`${PAYLOADS[0]} typed by the user`);
    await frame.locator('#input').press('Enter');
    const option = frame.locator('.permission-option').first();
    await option.waitFor({ timeout: 60_000 });
    await option.click();
    await frame.locator('.msg-agent', { hasText: 'XSS corpus done.' }).waitFor({ timeout: 60_000 });
    // Bring every lazily rendered item into view, and open every <details>.
    await frame.evaluate(async () => {
      const t = document.getElementById('transcript');
      for (let y = t.scrollHeight; y >= 0; y -= 600) {
        t.scrollTop = y;
        await new Promise((r) => requestAnimationFrame(() => r()));
      }
      for (const d of document.querySelectorAll('details')) d.open = true;
      await new Promise((r) => setTimeout(r, 500));
    });
    await frame.locator('#input').fill('/');
    await page.waitForTimeout(300);
    const result = await frame.evaluate(() => ({
      hits: window.__hits,
      violations: window.__violations,
      placeholders: document.querySelectorAll('.placeholder').length,
      items: document.querySelectorAll('#transcript > .item').length,
      links: [...document.querySelectorAll('a')].map((a) => ({ href: a.getAttribute('href'), data: a.getAttribute('data-href') })),
      srcs: [...document.querySelectorAll('[src]')].map((e) => e.getAttribute('src')),
      scripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src') ?? `inline:${s.textContent.slice(0, 60)}`),
      handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`)),
      iframes: [...document.querySelectorAll('iframe, object, embed, form, base, meta[http-equiv]')].filter((e) => e.getAttribute('http-equiv') !== 'Content-Security-Policy').map((e) => e.outerHTML.slice(0, 80)),
      styles: document.querySelectorAll('[style]:not(.placeholder)').length,
    }));
    await screenshot(page, 'xss-corpus');
    assert.deepEqual(result.hits, [], 'no payload ran');
    assert.deepEqual(result.violations, [], 'no CSP violation');
    assert.deepEqual(dialogs, [], 'no dialog');
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
  });
});
