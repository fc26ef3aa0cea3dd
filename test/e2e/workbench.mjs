// Helpers for driving the VS Code workbench in Chromium as a person would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';
import { endLeftoverAgents } from '../harness/leftovers.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { ROOT, prepareWorkspace, testAgents } from '../harness/testEnv.mjs';

export const SCREENSHOTS = path.join(ROOT, 'test-results', 'screenshots');

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Frame} Frame */
/** @typedef {import('playwright-core').FrameLocator} FrameLocator */
/** @typedef {Awaited<ReturnType<typeof openWorkbench>>} Workbench */

export function vsixPath() {
  const { name, version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const file = path.join(ROOT, `${name}-${version}.vsix`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run package first`);
  return file;
}

/** The activity bar's entry of this extension's view container (its class names the container, in any locale). */
const OUR_ACTIVITY = '.activitybar .action-label[class*="activity-workbench-view-extension-acpAgents-"]';

/**
 * Waits until the workbench has restored its parts; with `extension`, also until it has registered
 * this extension (waitForExtension). A fresh workbench (openWorkbench) waits for both. After a reload
 * the default is not to wait: a test that closes the restored editors does it at once, before the
 * extension activates and a restored chat panel loads its session again (which a resume cell counts).
 * @param {Page} page
 * @param {{ extension?: boolean }} [options]
 */
export async function waitForWorkbench(page, { extension = false } = {}) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // The status bar appears once the workbench has restored its parts.
  await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });
  if (extension) await waitForExtension(page);
}

/**
 * Waits until the workbench has registered this extension: its view container is in the activity bar.
 * Before that (4–7 s after the status bar, on 2 cores) the command palette lists none of its commands,
 * and one opened then never will (runCommand would time out and try again). Not fatal: a test that
 * hides the activity bar still runs, and runCommand tries again as before.
 * @param {Page} page
 */
export async function waitForExtension(page) {
  const t0 = Date.now();
  await page.locator(OUR_ACTIVITY).first().waitFor({ state: 'attached', timeout: 30_000 }).catch(() => {
    console.log(`      [workbench] the extension's activity bar entry did not appear within ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  });
}

/**
 * Gives the workbench the keyboard, as a person's click on an empty spot would, without clicking
 * anything: whatever has focus (a webview's frame, an input) is blurred. A click at a fixed point
 * once landed on a chat message's Retry button, and the key press that followed forked a session.
 * @param {Page} page
 */
export async function focusWorkbench(page) {
  await page.evaluate(() => {
    const el = document.activeElement;
    if (el instanceof HTMLElement && el !== document.body) el.blur();
  });
}

/**
 * F1, type a command's title, run it. Contributed commands appear in the palette
 * only once the extension host has registered the extension, so a person who
 * opens the palette too early closes it and tries again: so does this.
 * @param {Page} page
 * @param {string} title
 * @param {number} [timeoutMs]
 */
export async function runCommand(page, title, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  // Among the rows that contain the title, the one whose label is the title (its category and "…" aside), when
  // there is one: "ACP: New Session" must not run "ACP: New Session in a Worktree…".
  const exact = new RegExp(`^\\s*(?:[^:]+: )?${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:…|\\.\\.\\.)?\\s*$`);
  const exactRow = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
  for (;;) {
    await focusWorkbench(page);
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    try {
      // The palette can be shown while still inert (a quick pick closing as it opens, on a loaded
      // machine): it takes no text then. Closed and opened again, as a person would.
      await input.fill(`>${title}`, { timeout: 5_000 });
      await row.waitFor({ timeout: 5_000 });
      // A row that takes no click (once, a walkthrough page in front kept it 30 s) is tried again too.
      await ((await exactRow.count()) > 0 ? exactRow : row).click({ timeout: 5_000 });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      // Said, not hidden: a dialog in the way is named in the run's output.
      const dialog = await page.locator('.monaco-dialog-box').first().innerText({ timeout: 500 }).catch(() => '');
      console.log(`      [runCommand] "${title}" not run yet (${String(/** @type {Error} */ (err).message).split('\n')[0]})${dialog ? `; a dialog is open: ${dialog.replace(/\s+/g, ' ').slice(0, 200)}` : ''}; trying again`);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
  }
}

/**
 * Picks an entry in an open QuickPick by its label.
 * @param {Page} page
 * @param {string} label
 */
export async function pick(page, label) {
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout: 20_000 });
  await row.click();
}

/**
 * The frame of the active webview's content.
 * @param {Page} page
 * @returns {FrameLocator}
 */
export function webviewFrame(page) {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

/**
 * @param {Page} page
 * @param {string} name the file name, without .png
 */
export async function screenshot(page, name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Workbenches open now: a failed test reports what they show. */
const open = new Set();

/** VS Code's webview host frames (web: its pre/ pages, desktop: vscode-webview:) and the resources they load. */
const WEBVIEW_URL = /\/contrib\/webview\/browser\/pre\/|^vscode-webview:|vscode-resource|vscode-cdn\.net/;

/**
 * Records what goes wrong in the page's webview frames — an uncaught exception, an unhandled
 * rejection, a console.error, an error the browser logs there (a CSP violation, a resource that
 * does not load) — through a CDP session of its own, which knows each message's frame
 * (playwright's `pageerror` does not, and the webview's content runs in nested iframes).
 * @param {Page} page
 * @returns {Promise<string[]>} the errors so far, appended to as they come
 */
async function watchWebviewErrors(page) {
  /** @type {string[]} */
  const errors = [];
  const cdp = await page.context().newCDPSession(page);
  /** @type {Map<string, string>} frame id → url */
  const frameUrls = new Map();
  /** @type {Map<number, string>} execution context id → frame id */
  const contextFrames = new Map();
  const frameOf = (/** @type {number | undefined} */ contextId) => frameUrls.get(contextFrames.get(contextId ?? -1) ?? '') ?? '';
  const short = (/** @type {string} */ url) => url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');
  /** @param {{ frame: { id: string, url: string }, childFrames?: any[] }} tree */
  const walk = (tree) => {
    frameUrls.set(tree.frame.id, tree.frame.url);
    for (const child of tree.childFrames ?? []) walk(child);
  };
  cdp.on('Page.frameNavigated', ({ frame }) => frameUrls.set(frame.id, frame.url));
  cdp.on('Runtime.executionContextCreated', ({ context }) => {
    const frameId = context.auxData?.frameId;
    if (typeof frameId === 'string') contextFrames.set(context.id, frameId);
  });
  cdp.on('Runtime.exceptionThrown', ({ exceptionDetails: d }) => {
    const url = frameOf(d.executionContextId);
    if (!WEBVIEW_URL.test(url) && !WEBVIEW_URL.test(d.url ?? '')) return;
    errors.push(`uncaught in the webview (${short(url || d.url || '')}): ${d.exception?.description ?? d.text}`);
  });
  cdp.on('Runtime.consoleAPICalled', ({ type, args, executionContextId }) => {
    if (type !== 'error' && type !== 'assert') return;
    const url = frameOf(executionContextId);
    if (!WEBVIEW_URL.test(url)) return;
    const text = args.map((a) => (a.value !== undefined ? String(a.value) : (a.description ?? a.unserializableValue ?? a.type))).join(' ');
    errors.push(`console.${type} in the webview (${short(url)}): ${text}`);
  });
  cdp.on('Log.entryAdded', ({ entry }) => {
    if (entry.level !== 'error' || !WEBVIEW_URL.test(entry.url ?? '')) return;
    errors.push(`the browser logged in the webview (${entry.source}, ${short(entry.url ?? '')}): ${entry.text}`);
  });
  await cdp.send('Page.enable');
  walk((await cdp.send('Page.getFrameTree')).frameTree);
  await cdp.send('Runtime.enable');
  await cdp.send('Log.enable');
  return errors;
}

/**
 * Takes a workbench's webview errors that no test expected, as one error (undefined when none).
 * @param {Workbench} w
 */
function takeWebviewErrors(w) {
  const found = w.webviewErrors.splice(0).filter((e) => !w.allowed.some((re) => re.test(e)));
  if (found.length === 0) return undefined;
  return new Error(`${found.length} error(s) in the webview of the workbench (${w.tmp}):\n- ${found.join('\n- ')}`);
}

// Any uncaught exception, unhandled rejection or console error in a webview fails the test
// that was running (the hook's error is reported as the test's); one after the last test
// fails the suite's after hook through close(). Before the diagnostics below, which look for failed tests.
if (typeof globalThis.afterEach === 'function') afterEach(async function () {
  for (const w of open) {
    const err = takeWebviewErrors(w);
    if (err) /** @type {import('mocha').Hook} */ (this.test).error(err);
  }
});

/**
 * The newest lines of the extension's logs (its own and its agents') in a code-server's user data.
 * @param {string} userDataDir
 * @param {number} lines
 */
function extensionLogTail(userDataDir, lines = 40) {
  /** @type {string[]} */
  const found = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.includes('acp-agents.acp-agents') && e.name.endsWith('.log')) found.push(p);
    }
  };
  try {
    walk(path.join(userDataDir, 'logs'));
  } catch {
    return '(no logs folder)';
  }
  return found.map((f) => `--- ${path.relative(userDataDir, f)}\n${fs.readFileSync(f, 'utf8').split('\n').slice(-lines).join('\n')}`).join('\n') || '(no extension log)';
}

// When a test fails, say what the workbench showed: a screenshot, the chat
// panel's status line, and the tail of the extension's log (CI keeps only the output).
// Only under mocha: the benchmarks drive the workbench with this module too.
if (typeof globalThis.afterEach === 'function') afterEach(async function () {
  if (this.currentTest?.state !== 'failed') return;
  const name = `failed-${(this.currentTest.fullTitle() ?? 'test').replace(/[^\w-]+/g, '-').slice(0, 80)}`;
  for (const w of open) {
    const shot = await screenshot(w.page, name).catch((e) => `(no screenshot: ${e.message})`);
    const status = await webviewFrame(w.page).locator('.status-text').last().textContent({ timeout: 2000 }).catch(() => '(no chat panel)');
    console.log(`    [diagnostics] screenshot ${shot}\n    [diagnostics] chat status: ${status}\n${extensionLogTail(w.server.userDataDir)}`);
  }
});

/**
 * VS Code in the pseudo-locale: a language pack for it (VS Code's own strings
 * stay English, its translations being empty) and the installed extension's
 * package.nls.json and l10n bundle pseudo-translated next to the originals, as
 * a translation would be shipped. Every string the extension translates then
 * reads like "Şŧǿǿƥ"; one it forgot stays in plain ASCII.
 * @param {string} tmp
 * @returns {Pick<import('../harness/codeServer.mjs').CodeServerOptions, 'locale' | 'languagePacks' | 'beforeStart'>}
 */
function pseudoLocale(tmp) {
  const core = path.join(tmp, 'qps-ploc.i18n.json');
  fs.writeFileSync(core, JSON.stringify({ version: '1.0.0', contents: {} }));
  return {
    locale: 'qps-ploc',
    languagePacks: { 'qps-ploc': core },
    async beforeStart({ extensionsDir }) {
      const { getL10nPseudoLocalized } = await import('@vscode/l10n-dev');
      const { name, publisher, version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
      const installed = path.join(extensionsDir, `${publisher}.${name}-${version}`);
      if (!fs.existsSync(installed)) throw new Error(`the .vsix is not installed at ${installed}`);
      const pseudo = (/** @type {string} */ file) => JSON.stringify(getL10nPseudoLocalized(JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'))), null, 1);
      fs.writeFileSync(path.join(installed, 'package.nls.qps-ploc.json'), pseudo('package.nls.json'));
      fs.writeFileSync(path.join(installed, 'l10n', 'bundle.l10n.qps-ploc.json'), pseudo('l10n/bundle.l10n.json'));
    },
  };
}

/**
 * A code-server with the packaged .vsix installed, a copy of the sample
 * workspace, the given agents in user settings, and a page on its workbench.
 * `agents` picks fake agents by id, or is a function of the temp dir giving the settings.
 * @param {object} options
 * @param {string} options.prefix of the temporary directory's name
 * @param {string[] | ((tmp: string) => (import('../harness/testEnv.mjs').AgentSetting | import('../harness/testEnv.mjs').RemoteAgentSetting)[])} options.agents
 * @param {{ width: number, height: number }} [options.viewport]
 * @param {boolean} [options.workspaceTrust]
 * @param {Record<string, unknown>} [options.settings] more user settings
 * @param {'qps-ploc'} [options.locale] VS Code in the pseudo-locale, with the extension's strings pseudo-translated
 */
export async function openWorkbench({ prefix, agents, viewport = { width: 1280, height: 850 }, workspaceTrust = false, settings = {}, locale }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const workspace = prepareWorkspace(tmp);
  const agentSettings = typeof agents === 'function' ? agents(tmp) : testAgents(ensureNode(), tmp).filter((a) => agents.includes(a.id));
  // Notification toasts would sit over the panel's buttons in the screenshots and clicks of other tests.
  const server = await startCodeServer({
    installVsix: [vsixPath()],
    // The question after an Undo (an input box at the top) is the hunk review's to test (chat.test.mjs);
    // elsewhere an Undo is a step on the way, and the box would sit over the tabs the next step clicks.
    userSettings: { 'acpAgents.agents': agentSettings, 'acpAgents.notifications': false, 'acpAgents.changes.askReasonOnUndo': false, ...settings },
    workspaceTrust,
    ...(locale ? pseudoLocale(tmp) : {}),
  });
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let page;
  /** @type {Awaited<ReturnType<typeof watchWebviewErrors>>} */
  let webviewErrors;
  try {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport });
    webviewErrors = await watchWebviewErrors(page);
    await page.goto(workbenchUrl(server, workspace));
    await waitForWorkbench(page, { extension: !workspaceTrust });
  } catch (err) {
    // A workbench that never opened leaves nothing running: its code-server, browser and agents end here.
    await browser?.close().catch(() => {});
    await server.stop();
    await endLeftoverAgents(tmp, 5_000);
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
    throw err;
  }
  const workbench = {
    server,
    browser,
    page,
    tmp,
    /** Errors seen in the webview frames and not yet taken by a test's end (read-only for tests). */
    webviewErrors,
    /** @type {RegExp[]} */
    allowed: [],
    /**
     * A test that provokes an error in the webview on purpose says which: those matching are not failures.
     * @param {RegExp} pattern
     */
    allowWebviewErrors(pattern) {
      workbench.allowed.push(pattern);
    },
    /** Closes it; throws when its webview had errors that no test took (after the last test). */
    async close() {
      open.delete(workbench);
      await browser.close().catch(() => {});
      await server.stop();
      // An agent the stopped host started may still be exiting and writing its home (Gemini's .gemini,
      // Qwen's .qwen): its files are removed only once every agent of this workbench is gone. One still
      // running 10 s after its host stopped is killed and named. Not a failure here, unlike the
      // integration tier: code-server is stopped with a signal, which ends its extension host before the
      // extension's deactivate() can end the agents, so an agent that ignores the end of its stdin
      // (codex-acp 0.16.0) outlives it.
      const leftovers = await endLeftoverAgents(tmp, 10_000);
      if (leftovers.length > 0) console.warn(`    [workbench] ${leftovers.length} agent process(es) still running 10 s after code-server stopped, killed: ${leftovers.join(', ')}`);
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
      const err = takeWebviewErrors(workbench);
      if (err) throw err;
    },
  };
  open.add(workbench);
  return workbench;
}
