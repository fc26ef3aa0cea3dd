// The native dialogs behind every test hook, answered as a person would: the
// shipped .vsix (no hooks) in the workbench, each modal or quick pick clicked,
// and what the click did checked where it lands — the agent's record of the
// answers it got, the files on disk, the Sessions view.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureNode } from '../harness/tools.mjs';
import { workbenchUrl } from '../harness/codeServer.mjs';
import { openWorkbench, pick, runCommand, screenshot, waitForWorkbench, webviewFrame } from './workbench.mjs';

describe('e2e: the native dialogs, clicked', function () {
  this.timeout(240_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;
  /** @type {string} */
  let workspace;

  before(async function () {
    wb = await openWorkbench({
      prefix: 'acp-dialogs',
      agents: ['fake-access-dialogs', 'fake-auth-agent', 'fake-delete-list', 'fake-default', 'fake-elicit-dialogs', 'fake-worktree'],
      // VS Code's own MCP support must not start (or ask about) the workspace's mcp.json server of the last test.
      settings: { 'chat.mcp.enabled': false, 'chat.mcp.autostart': 'never' },
    });
    ({ page } = wb);
    workspace = path.join(wb.tmp, 'workspace');
  });

  after(async function () {
    await wb?.close();
  });

  // Each test starts from an empty editor area (cleaned up first, so that a failure's screenshot shows what failed).
  beforeEach(async function () {
    // What a failed test left open is dismissed first: a modal and those queued behind it, a quick input.
    const box = page.locator('.monaco-dialog-box').first();
    for (let i = 0; i < 20 && (await box.waitFor({ timeout: 1000 }).then(() => true, () => false)); i++) await box.press('Escape');
    if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
  });

  /**
   * What a fake agent received, in order (its record file).
   * @param {string} scenario
   * @returns {any[]}
   */
  const received = (scenario) => {
    const file = path.join(wb.tmp, `${scenario}.jsonl`);
    if (!fs.existsSync(file)) return [];
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((r) => r.dir === 'in');
  };
  /**
   * The answers to the agent's own requests (fs/*), in order: { result } or { error }.
   * @param {string} scenario
   */
  const answers = (scenario) => received(scenario).filter((r) => typeof r.msg?.id === 'string' && r.msg.id.startsWith('agent-') && r.msg.method === undefined).map((r) => r.msg);
  /**
   * The calls of one method the agent received.
   * @param {string} scenario
   * @param {string} method
   */
  const calls = (scenario, method) => received(scenario).filter((r) => r.msg?.method === method).map((r) => r.msg);

  /**
   * Polls until `check` gives a value (the agent's record and the disk change outside the page).
   * @template T
   * @param {string} what
   * @param {() => T | undefined | false} check
   * @returns {Promise<T>}
   */
  async function until(what, check, timeoutMs = 30_000) {
    for (const deadline = Date.now() + timeoutMs; ; await page.waitForTimeout(100)) {
      const v = check();
      if (v !== undefined && v !== false) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    }
  }

  /**
   * The modal dialog showing `text`: its message, detail and buttons, as shown.
   * @param {string | RegExp} text
   */
  async function modal(text) {
    const box = page.locator('.monaco-dialog-box', { hasText: text });
    await box.waitFor({ timeout: 30_000 });
    const message = (await box.locator('.dialog-message-text').innerText()).trim();
    const detail = (await box.locator('.dialog-message-detail').innerText()).trim();
    const buttons = (await box.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((b) => b.trim());
    return {
      box,
      message,
      detail,
      buttons,
      /** @param {string} label the button's whole label */
      click: async (label) => {
        assert.ok(buttons.includes(label), `"${label}" is one of the buttons: ${buttons.join(' | ')}`);
        await box.locator('.dialog-buttons .monaco-button').filter({ hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }).click();
      },
      escape: () => box.press('Escape'),
    };
  }

  /** @param {string} agentName */
  async function newSession(agentName) {
    await runCommand(page, 'ACP: New Session');
    await pick(page, agentName);
  }

  /** @param {string} text */
  async function send(text) {
    const input = webviewFrame(page).locator('#input');
    await input.fill(text);
    await input.press('Enter');
  }

  const connected = () => webviewFrame(page).locator('#status .status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });

  it('access question: the modal names the agent, the action and the path; Allow Once, Deny, for the session, Deny All for This Turn and Escape each do what they say, and Deny leaves a protected file as it was', async function () {
    const outsideA = path.join(wb.tmp, 'dialogs-outside-a.txt');
    const outsideB = path.join(wb.tmp, 'dialogs-outside-b.txt');
    fs.writeFileSync(outsideA, 'outside A\n');
    fs.writeFileSync(outsideB, 'outside B\n');
    const settingsFile = path.join(workspace, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    const settingsBefore = '{ "editor.tabSize": 4 }\n';
    fs.writeFileSync(settingsFile, settingsBefore);
    const envFile = path.join(workspace, '.env');

    const agent = 'Fake: access-dialogs';
    const got = () => answers('access-dialogs');
    await newSession(agent);
    await connected();
    await send('turn 1');

    // 1. Allow Once: the agent reads the file.
    let q = await modal('dialogs-outside-a.txt');
    assert.equal(q.message, `${agent} wants to read ${outsideA}, which is outside the session's folders.`);
    assert.equal(q.detail, 'Allow only if you expect the agent to need this.');
    // No "Allow Its Folder": the folder holds the session's own.
    assert.deepEqual([...q.buttons].sort(), ['Allow Once', 'Allow This File for the Session', 'Cancel', 'Deny', 'Deny All for This Turn']);
    await screenshot(page, 'dialogs-access-outside');
    await q.click('Allow Once');
    await until('the answer to the 1st read', () => got().length >= 1);
    assert.deepEqual(got()[0].result, { content: 'outside A\n' });

    // 2. Once was once: the same read asks again; Deny → an error, no content.
    q = await modal('dialogs-outside-a.txt');
    await q.click('Deny');
    await until('the answer to the 2nd read', () => got().length >= 2);
    assert.equal(got()[1].result, undefined, 'no content after Deny');
    assert.match(got()[1].error?.message ?? '', /Access refused/);

    // 3. Allowed for the session: this read and the next (not asked again) get the content.
    q = await modal('dialogs-outside-a.txt');
    await q.click('Allow This File for the Session');
    await until('the answers to the 3rd and 4th reads (the 4th not asked)', () => got().length >= 4);
    assert.deepEqual(got()[2].result, { content: 'outside A\n' });
    assert.deepEqual(got()[3].result, { content: 'outside A\n' });

    // 4. Turn 2, another file: Deny All for This Turn refuses this read and the next, unasked.
    await send('turn 2');
    q = await modal('dialogs-outside-b.txt');
    await q.click('Deny All for This Turn');
    await until('the answers of turn 2', () => got().length >= 6);
    for (const a of got().slice(4, 6)) assert.match(a.error?.message ?? '', /Access refused/, JSON.stringify(a));

    // 5. Turn 3: asked again (the denial ended with its turn); Escape means no.
    await send('turn 3');
    q = await modal('dialogs-outside-b.txt');
    await q.escape();
    await until('the answer to the read dismissed with Escape', () => got().length >= 7);
    assert.match(got()[6].error?.message ?? '', /Access refused/);

    // 6. A protected write asks even inside the folder; Deny leaves the file as it was.
    q = await modal('settings.json');
    assert.equal(q.message, `${agent} wants to write ${settingsFile}, a protected path (.vscode/**).`);
    assert.match(q.detail, /Allow only if you asked the agent to change it/);
    assert.deepEqual([...q.buttons].sort(), ['Allow Once', 'Allow This File for the Session', 'Cancel', 'Deny', 'Deny All for This Turn']);
    await q.click('Deny');
    await until('the answer to the protected write', () => got().length >= 8);
    assert.match(got()[7].error?.message ?? '', /protected path/);
    assert.equal(fs.readFileSync(settingsFile, 'utf8'), settingsBefore, 'Deny: the file is unchanged on disk');

    // 7. Allow Once on a protected write: it is written.
    q = await modal('.env');
    assert.equal(q.message, `${agent} wants to write ${envFile}, a protected path (.env*).`);
    await q.click('Allow Once');
    await until('the answer to the allowed protected write', () => got().length >= 9);
    assert.equal(got()[8].error, undefined, JSON.stringify(got()[8]));
    await until('.env on disk', () => fs.existsSync(envFile) && fs.readFileSync(envFile, 'utf8') === 'WRITTEN_BY_THE_AGENT=1\n');
    assert.equal(fs.readFileSync(settingsFile, 'utf8'), settingsBefore, 'still unchanged at the end of the turn');
  });

  it('sign-in picker: the quick pick lists the agent’s methods; Escape signs in with none, Sign In… and a pick sends authenticate with that method, then the session connects', async function () {
    await newSession('Fake: auth-agent');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: 'Sign in to Fake: auth-agent' }).waitFor({ timeout: 30_000 });
    const rows = widget.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'Quantum sign-in' }).waitFor({ timeout: 10_000 });
    const offered = await rows.allInnerTexts();
    assert.equal(offered.length, 2, offered.join(' | '));
    assert.match(offered.find((t) => t.includes('Sign in with Fake')) ?? '', /the agent signs you in/);
    assert.match(offered.find((t) => t.includes('Quantum sign-in')) ?? '', /type "quantum": this extension cannot run it/);
    await screenshot(page, 'dialogs-sign-in');
    // (The chat panel opening behind it may have taken the keyboard: Escape goes to the picker.)
    await widget.locator('input').first().click();
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });

    // Declined: the panel says so and offers Sign In…; nothing was sent.
    const frame = webviewFrame(page);
    const signIn = frame.locator('#status button[data-action="signIn"]', { hasText: 'Sign In…' });
    await signIn.waitFor({ timeout: 30_000 });
    assert.match(await frame.locator('#status .status-text').innerText(), /Authentication required/);
    assert.equal(calls('auth-agent', 'authenticate').length, 0, 'no authenticate after Escape');

    await signIn.click();
    await pick(page, 'Sign in with Fake');
    await frame.locator('#status .status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    assert.deepEqual(
      calls('auth-agent', 'authenticate').map((m) => m.params),
      [{ methodId: 'oauth' }],
    );
  });

  it('Resume Session picker: offers what the agent lists; Escape opens nothing, a pick loads that session', async function () {
    await runCommand(page, 'ACP: Resume Session');
    await pick(page, 'Fake: delete-list');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: 'ACP: Resume Session — Fake: delete-list' }).waitFor({ timeout: 30_000 });
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Listed, then deleted' }).waitFor({ timeout: 10_000 });
    await widget.locator('input').first().click();
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });

    await runCommand(page, 'ACP: Resume Session');
    await pick(page, 'Fake: delete-list');
    await pick(page, 'Listed, then deleted');
    await until('session/load', () => calls('delete-list', 'session/load').length > 0);
    assert.deepEqual(
      calls('delete-list', 'session/load').map((m) => m.params.sessionId),
      ['listed-gone'],
      'loaded once: the picked session, and nothing on Escape',
    );
  });

  it('Delete confirmation from the Sessions view: Cancel and Escape keep the session; Delete removes the row and asks the agent to delete it', async function () {
    // (The agent runs since the Resume Session test: its listed session is in the view.)
    await runCommand(page, 'ACP Agents: Focus on Sessions View');
    const sidebar = page.locator('#workbench\\.parts\\.sidebar');
    const row = sidebar.locator('.monaco-list-row', { hasText: 'Listed, then deleted' });
    await row.waitFor({ timeout: 30_000 });
    const question = 'Delete the session "Listed, then deleted" of Fake: delete-list?';
    // The row's own Delete Session… button (shown on hover).
    const askToDelete = async () => {
      await row.hover();
      await row.getByRole('button', { name: /Delete Session/ }).click();
      return await modal(question);
    };

    let q = await askToDelete();
    assert.equal(q.message, question);
    assert.match(q.detail, /Its local history is removed/);
    assert.deepEqual([...q.buttons].sort(), ['Cancel', 'Delete']);
    await screenshot(page, 'dialogs-delete');
    await q.click('Cancel');
    await q.box.waitFor({ state: 'detached', timeout: 10_000 });
    await row.waitFor({ timeout: 5000 });

    q = await askToDelete();
    await q.escape();
    await q.box.waitFor({ state: 'detached', timeout: 10_000 });
    await row.waitFor({ timeout: 5000 });
    assert.equal(calls('delete-list', 'session/delete').length, 0, 'Cancel and Escape: the agent was asked nothing');

    q = await askToDelete();
    await q.click('Delete');
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    await until('session/delete', () => calls('delete-list', 'session/delete').length > 0);
    assert.deepEqual(
      calls('delete-list', 'session/delete').map((m) => m.params.sessionId),
      ['listed-gone'],
    );
  });

  it('MCP trust: the modal names the workspace’s server and its command; Trust hands it to the agent, Escape on a changed definition does not, and is not asked again in this window', async function () {
    const node = ensureNode();
    const mcpFile = path.join(workspace, '.vscode', 'mcp.json');
    const define = (/** @type {string[]} */ args) => {
      fs.mkdirSync(path.dirname(mcpFile), { recursive: true });
      fs.writeFileSync(mcpFile, JSON.stringify({ servers: { repoTool: { type: 'stdio', command: node, args } } }, null, 2));
    };
    const sent = () => (calls('default', 'session/new').at(-1)?.params.mcpServers ?? []).map((/** @type {{ name: string }} */ s) => s.name);
    try {
      define(['repo-tool.js', '--flag']);
      await newSession('Fake: default');
      let q = await modal('Trust it?');
      assert.equal(q.message, 'This workspace defines an MCP server that Fake: default would start. Trust it?');
      const flat = (/** @type {string} */ t) => t.replace(/\s+/g, ' ');
      assert.ok(flat(q.detail).includes(`• repoTool (workspace/.vscode/mcp.json): ${node} repo-tool.js --flag`), q.detail);
      assert.deepEqual([...q.buttons].sort(), ['Cancel', 'Trust and Start It']);
      await screenshot(page, 'dialogs-mcp-trust');
      await q.click('Trust and Start It');
      await connected();
      assert.equal(calls('default', 'session/new').length, 1);
      assert.ok(sent().includes('repoTool'), `trusted: in session/new (${sent().join(', ')})`);
      await runCommand(page, 'View: Close All Editors');

      // A changed definition is asked about again; Escape trusts nothing.
      define(['repo-tool.js', '--changed']);
      await newSession('Fake: default');
      q = await modal('Trust it?');
      assert.ok(flat(q.detail).includes(`${node} repo-tool.js --changed`), q.detail);
      await q.escape();
      await connected();
      assert.equal(calls('default', 'session/new').length, 2);
      assert.ok(!sent().includes('repoTool'), `not trusted: not in session/new (${sent().join(', ')})`);
      await runCommand(page, 'View: Close All Editors');

      // The refusal holds for this window: a new session connects without asking, still without it.
      await newSession('Fake: default');
      await connected();
      assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'not asked again');
      assert.equal(calls('default', 'session/new').length, 3);
      assert.ok(!sent().includes('repoTool'), `still not in session/new (${sent().join(', ')})`);
    } finally {
      fs.rmSync(mcpFile, { force: true });
    }
  });

  it('elicitation outside a session: the modal says who asks what; Fill In, then an input box and a quick pick, answer the form; Escape cancels; Decline declines', async function () {
    const got = () => answers('elicit-dialogs');
    await newSession('Fake: elicit-dialogs');
    await connected();
    await send('deploy it');
    let q = await modal('Where should it deploy?');
    assert.equal(q.message, 'Fake: elicit-dialogs asks: Where should it deploy?');
    assert.match(q.detail, /^2 fields: App name \(required\), Region \(required\)/);
    assert.deepEqual([...q.buttons].sort(), ['Cancel', 'Decline', 'Decline All from This Agent', 'Fill In']);
    await q.click('Fill In');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: 'App name' }).waitFor({ timeout: 10_000 });
    await widget.locator('input').fill('shop');
    await widget.locator('input').press('Enter');
    await widget.locator('.quick-input-title', { hasText: 'Region' }).waitFor({ timeout: 10_000 });
    await pick(page, 'United States');
    await until('the answer to the form', () => got().length >= 1);
    assert.deepEqual(got()[0].result, { action: 'accept', content: { name: 'shop', region: 'us' } });

    q = await modal('Where should it deploy?');
    await q.escape();
    await until('the answer to the form dismissed with Escape', () => got().length >= 2);
    assert.deepEqual(got()[1].result, { action: 'cancel' });

    q = await modal('Where should it deploy?');
    await q.click('Decline');
    await until('the declined form', () => got().length >= 3);
    assert.deepEqual(got()[2].result, { action: 'decline' });
  });

  // Last: it reopens the window on a multi-root workspace.
  it('a session in a new git worktree: the branch typed in the input box, the agent edits in the worktree, its row shows the branch, and Merge Back clicked in the confirmation merges it into the checkout', async function () {
    /** @param {string[]} args */
    const git = (...args) => execFileSync('git', ['-C', workspace, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { encoding: 'utf8', stdio: 'pipe' });
    const shared = path.join(workspace, 'worktree-shared.txt');
    fs.writeFileSync(shared, 'base line\n');
    git('init', '-q', '-b', 'main');
    git('add', 'worktree-shared.txt');
    git('commit', '-q', '-m', 'base');
    try {
      await runCommand(page, 'ACP: New Session in a Worktree');
      await pick(page, 'Fake: worktree');
      const widget = page.locator('.quick-input-widget');
      const input = widget.locator('input');
      await widget.locator('.quick-input-message', { hasText: 'The new branch the session works on' }).waitFor({ timeout: 20_000 });
      assert.match(await input.inputValue(), /^acp\/fake-worktree-\d{4}-\d{6}$/, 'a branch name is suggested');
      await input.fill('not..valid');
      await widget.locator('.quick-input-message', { hasText: 'is not a valid branch name' }).waitFor({ timeout: 10_000 });
      await input.fill('acp/e2e');
      await input.press('Enter');
      await connected();
      const frame = webviewFrame(page);
      await frame.locator('.notice', { hasText: 'In a git worktree on branch acp/e2e' }).waitFor({ timeout: 10_000 });
      // Where git put it: the worktree of branch acp/e2e.
      const listed = git('worktree', 'list', '--porcelain').split('\n\n').find((w) => w.includes('branch refs/heads/acp/e2e'));
      const dir = /^worktree (.+)$/m.exec(listed ?? '')?.[1];
      assert.ok(dir && !dir.startsWith(workspace), `the worktree is outside the checkout: ${dir}`);
      await send('edit it');
      const written = await until('the agent’s write in the worktree', () => fs.existsSync(path.join(dir, 'worktree-shared.txt')) && /^written by /.test(fs.readFileSync(path.join(dir, 'worktree-shared.txt'), 'utf8')) && fs.readFileSync(path.join(dir, 'worktree-shared.txt'), 'utf8'));
      assert.equal(fs.readFileSync(shared, 'utf8'), 'base line\n', 'the checkout is untouched');

      await runCommand(page, 'ACP Agents: Focus on Sessions View');
      // The earlier tests' sessions fill the view (its rows outside the viewport are not drawn): all collapsed,
      // then this agent's opened.
      const sidebar = page.locator('#workbench\\.parts\\.sidebar');
      await sidebar.locator('.action-label[aria-label="Collapse All"]').first().click();
      await sidebar.locator('.monaco-list-row', { hasText: 'Fake: worktree' }).click();
      await sidebar.locator('.monaco-list-row', { hasText: 'branch acp/e2e' }).waitFor({ timeout: 20_000 });
      await screenshot(page, 'worktree-session-row');

      // Finish, from the panel: Merge Back, confirmed in the modal.
      await page.locator('.tabs-container .tab', { hasText: 'Fake: worktree' }).first().click();
      await runCommand(page, 'ACP: Finish Worktree Session');
      await pick(page, 'Merge Back');
      const confirm = await modal('Merge branch acp/e2e into the checkout at');
      assert.match(confirm.detail, /Its uncommitted changes \(.*worktree-shared\.txt.*\) are committed on acp\/e2e first/);
      await confirm.click('Merge Back');
      await until('the merge in the checkout', () => fs.readFileSync(shared, 'utf8') === written || undefined);
      // Read in the notification center, which lists it as it arrives (a toast may not show in a headless window).
      await runCommand(page, 'Notifications: Show Notifications');
      await page.locator('.notifications-center .notification-list-item', { hasText: 'Merged acp/e2e into main' }).first().waitFor({ timeout: 20_000 });
      await runCommand(page, 'Notifications: Clear All Notifications');
      assert.equal(git('rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ').length, 3, 'a merge commit');
    } finally {
      fs.rmSync(path.join(workspace, '.git'), { recursive: true, force: true });
      fs.rmSync(shared, { force: true });
    }
  });

  it('multi-root folder picker: New Session asks which folder; Escape starts nothing, a pick starts the session there', async function () {
    const second = path.join(wb.tmp, 'second');
    fs.mkdirSync(second, { recursive: true });
    const wsFile = path.join(wb.tmp, 'dialogs.code-workspace');
    fs.writeFileSync(wsFile, JSON.stringify({ folders: [{ path: workspace }, { path: second }] }));
    await page.goto(workbenchUrl(wb.server, wsFile));
    await waitForWorkbench(page);
    // The workbench can be up before the workspace's folders are (the Explorer says "No Folder
    // Opened" for a moment, and a command run then sees no folder): wait for both roots, as a person would.
    const root = (/** @type {string} */ name) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
    await runCommand(page, 'View: Show Explorer');
    try {
      await root('second').waitFor({ timeout: 20_000 });
    } catch {
      await page.reload();
      await waitForWorkbench(page);
      await runCommand(page, 'View: Show Explorer');
      await root('second').waitFor({ timeout: 30_000 });
    }
    await root(path.basename(workspace)).waitFor({ timeout: 10_000 });
    const before = calls('default', 'session/new').length;

    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input');
    await newSession('Fake: default');
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'second' }).waitFor({ timeout: 20_000 });
    assert.equal(await input.getAttribute('placeholder'), 'Pick the folder the agent works in');
    await input.click();
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });

    await newSession('Fake: default');
    await pick(page, 'second');
    await connected();
    const news = calls('default', 'session/new').slice(before);
    assert.deepEqual(
      news.map((m) => m.params.cwd),
      [second],
      'one session/new, in the folder picked (none on Escape)',
    );
  });
});
