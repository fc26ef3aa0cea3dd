// The pseudo-locale run: VS Code in qps-ploc, the installed .vsix with its
// package.nls.json and l10n bundle pseudo-translated. Every string the extension
// translates then reads "Şŧǿǿƥ"; one it forgot stays plain ASCII and is listed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { ROOT } from '../harness/testEnv.mjs';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

/** @param {string} file @returns {Record<string, string>} */
const pseudo = (file) => /** @type {Record<string, string>} */ (getL10nPseudoLocalized(JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'))));

/** Every string in a value (what the fake agent sends: titles, messages, option names — the agent's words, not ours). */
function stringsOf(/** @type {unknown} */ v, /** @type {Set<string>} */ out = new Set()) {
  if (typeof v === 'string') out.add(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out);
  return out;
}

/**
 * What is left of a text once the agent's words, file names and key names are
 * taken out: any run of two ASCII letters there is a string nobody translated.
 * @param {string} text
 * @param {string[]} theirs longest first
 */
function untranslated(text, theirs) {
  let rest = text;
  for (const s of theirs) if (s.length >= 2) rest = rest.split(s).join(' ');
  rest = rest
    .replace(/(?:\/[\w.-]+)+/g, ' ') // paths
    .replace(/[\w.-]+\.(ts|md|json|js|txt)\b/g, ' ') // file names
    .replace(/\b(Alt|Ctrl|Control|Option|Shift|Cmd|Enter|Escape|Esc|Tab|Up|Down)\b/g, ' ') // key names
    .replace(/\bACP\b/g, ' ') // the protocol's name
    .replace(/\d+(\.\d+)?\s*(k|ms|s|%)?/g, ' ');
  return /[A-Za-z]{2,}/.test(rest) ? rest.replace(/\s+/g, ' ').trim() : undefined;
}

describe('e2e: the pseudo-locale (qps-ploc)', function () {
  this.timeout(240_000);
  /** @type {Awaited<ReturnType<typeof openWorkbench>>} */
  let w;
  before(async () => {
    w = await openWorkbench({ prefix: 'acp-e2e-l10n', agents: ['fake-all-updates'], locale: 'qps-ploc' });
  });
  after(async () => {
    await w?.close();
  });

  it('shows the commands, the chat panel and a whole turn with no string left untranslated', async () => {
    const nls = pseudo('package.nls.json');
    const page = w.page;
    // The command palette takes the titles from package.nls.qps-ploc.json.
    const title = `${nls['command.category']}: ${nls['command.newSession.title']}`;
    assert.doesNotMatch(title, /New Session/);
    await runCommand(page, nls['command.newSession.title'] ?? 'missing');
    await pick(page, 'Fake: all-updates');
    const frame = webviewFrame(page);
    const input = frame.locator('#input');
    await input.waitFor({ timeout: 30_000 });
    // The strings come from the pseudo bundle the extension passed to the webview.
    const placeholder = (await input.getAttribute('placeholder')) ?? '';
    assert.ok(placeholder.length > 10 && !/[A-Za-z]{3}/.test(placeholder.replace(/\b(Enter|Shift|Alt)\b/g, '')), `placeholder: ${placeholder}`);
    await input.fill('Show me everything');
    await input.press('Enter');
    // A permission inside its tool call's card: answered by its first option (the agent's word).
    const option = frame.locator('.permission-option').first();
    await option.waitFor({ timeout: 20_000 });
    await option.click();
    await frame.locator('.msg-agent', { hasText: 'All done with the last message.' }).waitFor({ timeout: 20_000 });
    // The turn's end (Stop hidden), so that what it renders last is read too.
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: 20_000 });
    await screenshot(page, 'pseudo-locale');

    const scenario = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'all-updates.json'), 'utf8'));
    // (and vscode-editor: the name of the editor's own MCP server, a name like the user's servers', never translated)
    const theirs = [...stringsOf(scenario), 'Fake: all-updates', 'Show me everything', 'vscode-editor'].sort((a, b) => b.length - a.length);
    /** @type {{ where: string, text: string }[]} */
    const texts = await frame.locator('body').evaluate((body) => {
      /** @type {{ where: string, text: string }[]} */
      const out = [];
      const walker = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.nodeType === Node.TEXT_NODE) {
          const t = n.textContent?.trim();
          const parent = /** @type {Element} */ (n.parentElement);
          // Code, diffs and terminal output are the agent's (and the files'); the user's own message too; and
          // the agent's Markdown, rendered (its words split over elements), but for our buttons in it (Copy).
          const agents = parent.closest('.markdown') && !parent.closest('button');
          if (t && !agents && !parent.closest('pre, code, .diff, .terminal, .msg-user .msg-body, script, style, [hidden]')) out.push({ where: parent.className || parent.tagName, text: t });
        } else {
          const e = /** @type {Element} */ (n);
          for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
            const v = e.getAttribute(a);
            if (v && !e.closest('[hidden]') && !(e.closest('.markdown') && !e.closest('button'))) out.push({ where: `${e.tagName.toLowerCase()}.${e.className}[${a}]`, text: v });
          }
        }
      }
      return out;
    });
    assert.ok(texts.length > 50, `the panel's texts (${texts.length})`);
    const left = texts.map((t) => ({ ...t, rest: untranslated(t.text, theirs) })).filter((t) => t.rest);
    assert.deepEqual(left.map((t) => `${t.where}: "${t.text}"`), [], 'strings left untranslated');
    // Ours are there, translated: the Send button and the composer's label.
    assert.equal(await frame.locator('#send').innerText(), pseudo('l10n/bundle.l10n.json')['Send']);
  });
});
