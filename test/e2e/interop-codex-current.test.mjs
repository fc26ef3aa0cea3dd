// The interop tier for the current Codex adapter, @agentclientprotocol/codex-acp (pinned in
// CURRENT_AGENT_PACKAGES, test/harness/realAgents.mjs; Codex App Server 0.166 underneath), run offline
// through the installed .vsix in the real workbench against the loopback Responses stub
// (test/fixtures/modelStub/openai.ts). One workbench. The same four cells as the older adapters' rows
// (interop-claude-codex-opencode.test.mjs), each appended to out/interop/results.jsonl:
//   turn   — Codex starts in "Auto review", whose approvals a model-side reviewer judges (a stub cannot
//            answer it): the test picks "Workspace access" in the panel's Mode list, as a user can; then a
//            whole turn creates a file and edits another (one patch, through exec_command): the diffs, the
//            Changes list, Undo (the files on disk checked each time) — in that mode Codex edits the
//            workspace without asking; the permission is the mcp cell's;
//   mcp    — the user's stdio MCP server from acpAgents.mcpServers: Codex offers its tools as a namespace
//            (`mcp__acp_test`), the stub calls `echo` in it as a model does, Codex asks (the permission
//            request, answered in the panel), the server gets
//            tools/call, the panel shows the answer;
//   cancel — Stop while the stub holds the model's stream; the same agent answers the next prompt;
//   resume — after a window reload the session is in the sidebar, and a click replays it.
// And Codex 2 with no model provider of its own (issue #35, item 2): "Authentication required" on
// session/new, its `api-key` method through the extension's sign-in (a masked input box, the key kept in
// secret storage and sent in `authenticate`'s _meta), a turn answered by the stub with that key, a second
// connect that reuses the stored key without asking, Sign Out, and no key in any log.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../harness/testEnv.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { CURRENT_AGENT_PACKAGES, ensureCurrentAgents, splitSpec } from '../harness/realAgents.mjs';
import { codexCurrentSigningIn, codexCurrentWithModelStub } from '../harness/currentAgentsCodex.mjs';
import { openSessionReplaying, reloadToSessions } from './interopPanel.mjs';
import { assertResumed, interopCell, reportedAgentVersion } from './interopResults.mjs';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

/** @type {typeof import('../fixtures/modelStub/openai.js')} */
const { startOpenAiStub } = (await import(pathToFileURL(path.join(ROOT, 'out', 'test', 'fixtures', 'modelStub', 'openai.js')).href)).default;

const [pkg, version] = splitSpec(CURRENT_AGENT_PACKAGES.codex);
/** @type {{ pkg: string, version: string, protocol?: '2', reported?: () => string | undefined }} */
const AGENT = { pkg, version };
const KEY = 'codex2'; // the files' and messages' tag
const LABEL = 'Codex 2 (model stub)';
const SIGN_IN_LABEL = 'Codex 2 (API key)';
const V2_LABEL = 'Codex 2 over ACP v2';
/** The same adapter with its own model provider, over ACP v2: a row of its own with the four cells. */
const V2_STUB_LABEL = 'Codex 2 over ACP v2 (model stub)';
/** @type {typeof AGENT} */
const AGENT_V2 = { pkg, version, protocol: '2' };
const MCP_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'mcp', 'stdioServer.mjs');
const ORIGINAL = 'original line\nkept line\n';
const NEW_CONTENT = `# Hello from ${KEY}\n\nWritten through ACP.\n`;
const EDITED = `edited by ${KEY}\nkept line\n`;
const DONE = `${KEY} finished both files.`;
const TURN_PROMPT = `Create notes/${KEY}-new.md and edit ${KEY}-edit.txt`;
/** The key typed at sign-in: no well-known token shape, so only the extension's knowledge of it keeps it out of the logs. */
const API_KEY = `codexe2ekey${Date.now().toString(36)}0123456789`;

/** Codex 0.166 offers no apply_patch tool for this model; a patch run through exec_command is still Codex's own patch (diffs, approval). */
const patchCommand = (/** @type {string} */ newFile, /** @type {string} */ existing) => ({
  cmd: `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${newFile}\n${NEW_CONTENT.replace(/^/gm, '+').replace(/\+$/, '')}*** Update File: ${existing}\n@@\n-original line\n+edited by ${KEY}\n kept line\n*** End Patch\nEOF\n`,
});

describe('e2e interop: codex-acp 2 (current) does whole turns, MCP, Stop and resume through the extension, and signs in with an API key', function () {
  this.timeout(180_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;
  /** @type {string} */
  let folder;
  /** @type {import('../fixtures/modelStub/loopback.js').LoopbackStub<any>} */
  let stub;
  /** @type {string} */
  let mcpRecord;
  /** @type {string} */
  let mcpTmp;
  /** @type {string} the signing-in agent's CODEX_HOME */
  let signInHome;

  before(async function () {
    stub = await startOpenAiStub();
    const dir = ensureCurrentAgents();
    mcpTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-interop-codex2-mcp-'));
    mcpRecord = path.join(mcpTmp, 'record.jsonl');
    wb = await openWorkbench({
      prefix: 'acp-interop-codex2',
      agents: (tmp) => {
        const signingIn = codexCurrentSigningIn(dir, tmp, stub.url);
        signInHome = /** @type {string} */ (signingIn.env?.CODEX_HOME);
        // The same adapter once more, over ACP v2 (the entry's protocolVersion): a CODEX_HOME and a stored key of its own.
        const overV2 = { ...codexCurrentSigningIn(dir, tmp, stub.url, 'codex-current-v2'), name: V2_LABEL, protocolVersion: '2' };
        const stubV2 = { ...codexCurrentWithModelStub(dir, tmp, stub.url, 'codex-current-v2-stub'), name: V2_STUB_LABEL, protocolVersion: '2' };
        return [codexCurrentWithModelStub(dir, tmp, stub.url), signingIn, overV2, stubV2];
      },
      viewport: { width: 1280, height: 900 },
      settings: { 'acpAgents.mcpServers': { 'acp-test': { command: ensureNode(), args: [MCP_FIXTURE, mcpRecord] } }, 'acpAgents.trace': 'verbose' },
    });
    page = wb.page;
    // Each cell records the version the agent itself reported (its log's "Initialized:" line).
    AGENT.reported = () => reportedAgentVersion(wb.server.userDataDir, LABEL);
    AGENT_V2.reported = () => reportedAgentVersion(wb.server.userDataDir, V2_STUB_LABEL);
    folder = path.join(wb.tmp, 'workspace');
    fs.writeFileSync(path.join(folder, `${KEY}-edit.txt`), ORIGINAL);
    fs.writeFileSync(path.join(folder, `${KEY}v2-edit.txt`), ORIGINAL);
  });

  after(async function () {
    await wb?.close();
    await stub?.close();
    if (mcpTmp) fs.rmSync(mcpTmp, { recursive: true, force: true });
  });

  const frame = () => webviewFrame(page);

  /** @param {string} text */
  async function send(text) {
    const input = frame().locator('#input');
    await input.click();
    await input.fill(text);
    await input.press('Enter');
  }

  /**
   * Waits for `done`, answering every permission asked on the way with its allow-once option, as a person
   * would click it; returns the asking cards' texts.
   * @param {import('playwright-core').Locator} done
   * @param {(card: string, index: number) => void} [onAsk]
   */
  async function answerUntil(done, onAsk) {
    /** @type {string[]} */
    const asked = [];
    const option = frame().locator('.permission-option.kind-allow_once:not([disabled])').first();
    for (const deadline = Date.now() + 90_000; ; ) {
      if (await done.isVisible()) return asked;
      if (await option.isVisible()) {
        const text = (await frame().locator('.item', { has: option }).last().textContent()) ?? '';
        onAsk?.(text, asked.length);
        asked.push(text);
        await option.click();
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${done}`);
      await page.waitForTimeout(200);
    }
  }

  /** The extension's log files (its log, the agents' logs, the ACP trace), as text. */
  function extensionLogs() {
    /** @type {string[]} */
    const found = [];
    const walk = (/** @type {string} */ d) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.log')) found.push(fs.readFileSync(p, 'utf8'));
      }
    };
    walk(path.join(wb.server.userDataDir, 'logs'));
    return found.join('\n');
  }

  /**
   * @param {string} text
   * @param {number} [timeout]
   */
  async function waitForLog(text, timeout = 15_000) {
    for (const deadline = Date.now() + timeout; !extensionLogs().includes(text); await page.waitForTimeout(250)) {
      if (Date.now() > deadline) throw new Error(`the extension's logs never said: ${text}`);
    }
  }

  const mcpLines = () => (fs.existsSync(mcpRecord) ? fs.readFileSync(mcpRecord, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

  /**
   * One row's cells: the adapter over ACP v1 (LABEL) or v2 (V2_STUB_LABEL); `tag` names its files and messages.
   * @typedef {{ agent: typeof AGENT, label: string, tag: string, v2?: true }} Row
   */
  /** @type {Row} */
  const V1 = { agent: AGENT, label: LABEL, tag: KEY };
  /** @type {Row} */
  const V2 = { agent: AGENT_V2, label: V2_STUB_LABEL, tag: `${KEY}v2`, v2: true };
  const promptOf = (/** @type {Row} */ row) => `Create notes/${row.tag}-new.md and edit ${row.tag}-edit.txt`;

  /** The turn cell: in "Workspace access" (picked in the panel), a file created and another edited: diff, Changes, Undo. @param {Row} row */
  const turnCell = (row) =>
    interopCell(row.agent, 'turn', async () => {
      const newFile = path.join(folder, 'notes', `${row.tag}-new.md`);
      const existing = path.join(folder, `${row.tag}-edit.txt`);
      const done = `${row.tag} finished both files.`;
      stub.setScript([
        { text: ['I will create ', 'the new file ', 'and edit the other.'], call: { name: 'exec_command', arguments: patchCommand(`notes/${row.tag}-new.md`, `${row.tag}-edit.txt`) }, delayMs: 20 },
        { text: [done] },
      ]);
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'ACP: New Session');
      await pick(page, row.label);
      await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
      if (row.v2) await waitForLog(`auth methods api-key (agent), chat-gpt (agent), chat-gpt-device-code (agent); ACP v2`);
      // Codex starts in its model-reviewed mode; the user picks the asking one in the Mode list (over v2, its "mode" config option).
      const mode = frame().locator('#cfg-mode');
      await mode.waitFor({ timeout: 30_000 });
      assert.equal(await mode.inputValue(), 'agent', 'Codex 2 starts in "Auto review"');
      await mode.selectOption({ label: 'Workspace access' });
      // The header is drawn again from the agent's answer: the mode it reports.
      for (const deadline = Date.now() + 15_000; (await mode.inputValue()) !== 'workspace-write'; await page.waitForTimeout(200)) {
        if (Date.now() > deadline) throw new Error(`the mode did not change: ${await mode.inputValue()}`);
      }
      await send(promptOf(row));
      await frame().locator('.msg-agent', { hasText: 'I will create the new file and edit the other.' }).waitFor({ timeout: 60_000 });
      // "Workspace access" lets Codex edit the workspace's files without asking (it asks before writing outside
      // it, for the network and for MCP tools: the mcp cell); should it ask here, the question is answered.
      const asked = await answerUntil(frame().locator('.msg-agent', { hasText: done }), (card, index) => {
        if (index > 0) return;
        assert.equal(fs.existsSync(newFile), false, 'nothing is written before the answer');
        assert.ok(card.includes('Written through ACP.'), `the question shows the new file's content: ${card}`);
      });
      assert.equal(fs.readFileSync(newFile, 'utf8'), NEW_CONTENT, 'the new file is on disk');
      assert.equal(fs.readFileSync(existing, 'utf8'), EDITED, 'the existing file is edited on disk');
      await frame().locator('.diff', { has: frame().locator('.diff-path', { hasText: `${row.tag}-new.md` }) }).first().waitFor({ state: 'attached', timeout: 10_000 });
      await frame().locator('.diff', { has: frame().locator('.diff-path', { hasText: `${row.tag}-edit.txt` }) }).first().waitFor({ state: 'attached', timeout: 10_000 });
      const added = frame().locator('.change', { hasText: `${row.tag}-new.md` });
      const modified = frame().locator('.change', { hasText: `${row.tag}-edit.txt` });
      await added.waitFor({ timeout: 15_000 });
      await modified.waitFor({ timeout: 15_000 });
      assert.match(await added.innerText(), /added/);
      assert.match(await modified.innerText(), /modified/);
      await screenshot(page, `interop-${row.tag}-turn`);
      const note = asked.length === 0 ? 'in "Workspace access" the workspace edits were made without asking' : undefined;
      await modified.locator('.change-revert').click();
      await modified.waitFor({ state: 'detached', timeout: 15_000 });
      assert.equal(fs.readFileSync(existing, 'utf8'), ORIGINAL, 'Undo put the edited file back');
      assert.equal(fs.readFileSync(newFile, 'utf8'), NEW_CONTENT, 'the other change is still there');
      await added.locator('.change-revert').click();
      await added.waitFor({ state: 'detached', timeout: 15_000 });
      assert.equal(fs.existsSync(newFile), false, 'Undo removed the created file');
      assert.ok(stub.requests.some((r) => r.kind === 'turn' && r.headers.authorization === 'Bearer sk-offline-dummy-key'), 'the agent talked to the stub with its own provider key');
      return note;
    });

  /** The mcp cell: the user's stdio MCP server, offered as a namespace, called and answering in the panel. @param {Row} row */
  const mcpCell = (row) =>
    interopCell(row.agent, 'mcp', async () => {
      const nonce = `interop-${row.tag}-${Date.now().toString(36)}`;
      // As a model does with a namespace tool: `name` is the tool's own name, `namespace` the server's.
      stub.setScript([{ text: ['Asking the MCP server.'], call: { name: 'echo', namespace: 'mcp__acp_test', arguments: { text: nonce } } }, { text: [`The MCP server answered ${row.tag}.`] }]);
      const before = stub.requests.length;
      await send(`Ask the acp-test MCP server to echo ${nonce}`);
      const asked = await answerUntil(frame().locator('.msg-agent', { hasText: `The MCP server answered ${row.tag}.` }).last());
      if (row.v2) return v2McpCancelled(row, nonce, asked);
      assert.ok(asked.length >= 1, 'in "Workspace access", Codex asked before calling the MCP tool');
      const lines = mcpLines();
      const call = lines.findIndex((m) => m.method === 'tools/call' && m.params?.arguments?.text === nonce);
      assert.ok(call >= 0, `the tool was called with the nonce: ${JSON.stringify(lines.filter((m) => m.method === 'tools/call'))}`);
      assert.equal(lines[call].params.name, 'echo');
      const init = lines.slice(0, call).findLastIndex((m) => m.method === 'initialize');
      assert.ok(init >= 0 && lines.slice(init, call).some((m) => m.method === 'tools/list'), 'the agent started the server and listed its tools first');
      const turns = stub.requests.slice(before).filter((r) => r.kind === 'turn');
      const offered = (turns[0]?.body?.tools ?? []).find((/** @type {any} */ t) => t.type === 'namespace' && t.name === 'mcp__acp_test');
      assert.ok(turns.length >= 2 && offered?.tools?.some((/** @type {any} */ x) => x.name === 'echo'), `the model was offered the MCP tool in its namespace (${turns.length} turns)`);
      // The tool's answer went back to the model, and the panel shows the call and its answer.
      assert.match(JSON.stringify(turns[1]?.body?.input ?? []), new RegExp(`echo: .*${nonce}`));
      await frame().locator('.item.tool', { hasText: `echo: ${nonce}` }).first().waitFor({ state: 'attached', timeout: 10_000 });
    });

  /**
   * codex-acp 2.6 over ACP v2 cancels its own question before an MCP tool (its v2 permission request has no title; the
   * quirk v2-mcp-approval-cancelled): nothing is asked, the tool does not run, the session says why and what works.
   * Pinned as the row's limitation, so that the test fails (and the table is redone) once the agent asks. Then what
   * the notice offers is checked: in "Full access", which asks nothing, the tool runs.
   * @param {Row} row @param {string} nonce @param {string[]} asked
   */
  async function v2McpCancelled(row, nonce, asked) {
    assert.deepEqual(asked, [], 'nothing was asked');
    await frame().locator('.item.tool', { hasText: 'user cancelled MCP tool call' }).last().waitFor({ state: 'attached', timeout: 10_000 });
    await frame().locator('.item.notice', { hasText: 'The agent cancelled its own question before an MCP tool' }).waitFor({ timeout: 10_000 });
    assert.equal(mcpLines().some((m) => m.method === 'tools/call' && m.params?.arguments?.text === nonce), false, 'the tool did not run');
    await waitForLog("'session/request_permission' request has no title to send on ACP v2");
    await screenshot(page, `interop-${row.tag}-mcp-cancelled`);
    const mode = frame().locator('#cfg-mode');
    await mode.selectOption({ label: 'Full access' });
    for (const deadline = Date.now() + 15_000; (await mode.inputValue()) !== 'agent-full-access'; await page.waitForTimeout(200)) {
      if (Date.now() > deadline) throw new Error(`the mode did not change: ${await mode.inputValue()}`);
    }
    const again = `${nonce}-full`;
    stub.setScript([{ text: ['Asking the MCP server again.'], call: { name: 'echo', namespace: 'mcp__acp_test', arguments: { text: again } } }, { text: [`The MCP server answered ${row.tag} in Full access.`] }]);
    await send(`Ask the acp-test MCP server to echo ${again}`);
    await answerUntil(frame().locator('.msg-agent', { hasText: `The MCP server answered ${row.tag} in Full access.` }));
    assert.ok(mcpLines().some((m) => m.method === 'tools/call' && m.params?.arguments?.text === again), 'in Full access the tool ran');
    await frame().locator('.item.tool', { hasText: `echo: ${again}` }).first().waitFor({ state: 'attached', timeout: 10_000 });
    await mode.selectOption({ label: 'Workspace access' });
    return { limitation: 'codex-acp 2.6.0 over v2 cancels its own question before an MCP tool (its v2 permission request has no title); the panel says so; in Full access the tool runs' };
  }

  /** The cancel cell: Stop while the model's stream is held ends the turn; the agent answers the next prompt. @param {Row} row */
  const cancelCell = (row) =>
    interopCell(row.agent, 'cancel', async () => {
      stub.setScript([{ text: ['Thinking ', 'very slowly'], hold: true }, { text: [`${row.tag} is still here after the stop.`] }]);
      const cancelled = frame().locator('.item.turn-end.reason-cancelled');
      const cancelledBefore = await cancelled.count();
      await send('Take your time');
      await frame().locator('.msg-agent', { hasText: 'Thinking very slowly' }).last().waitFor({ timeout: 60_000 });
      const stop = frame().locator('#stop');
      await stop.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(stub.holding, 1, 'the stub holds the stream');
      await stop.click();
      await cancelled.nth(cancelledBefore).waitFor({ timeout: 30_000 });
      await stop.waitFor({ state: 'hidden', timeout: 10_000 });
      assert.equal(await frame().locator('#input').isEditable(), true, 'the input is usable');
      stub.release();
      await send('Are you still there?');
      await frame().locator('.msg-agent', { hasText: `${row.tag} is still here after the stop.` }).waitFor({ timeout: 60_000 });
    });

  it(`codex ${version}: turn — in "Workspace access" (picked in the panel) creates a file and edits another: diff, permission, Changes, Undo`, async function () {
    await turnCell(V1);
  });

  it(`codex ${version}: mcp — the user's stdio MCP server, offered as a namespace, is called and answers in the panel`, async function () {
    await mcpCell(V1);
  });

  it(`codex ${version}: cancel — Stop while the model's stream is held ends the turn; the agent answers the next prompt`, async function () {
    await cancelCell(V1);
  });

  it(`codex ${version} over ACP v2: turn — in "Workspace access" (a config option over v2) creates a file and edits another: the v2 diffs, Changes, Undo`, async function () {
    await turnCell(V2);
  });

  it(`codex ${version} over ACP v2: mcp — the agent cancels its own MCP approval (a known fault): nothing asked, the panel says why; in Full access the tool runs`, async function () {
    await mcpCell(V2);
  });

  it(`codex ${version} over ACP v2: cancel — Stop ends the turn (its idle state_update, cancelled); the agent answers the next prompt`, async function () {
    await cancelCell(V2);
  });

  it(`codex ${version} with no model provider: "Authentication required", the api-key method asks once (masked), keeps the key, reuses it; Sign Out forgets it`, async function () {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: New Session');
    await pick(page, SIGN_IN_LABEL);
    // session/new answered "Authentication required": the sign-in question, the agent's methods.
    const quick = page.locator('.quick-input-widget');
    await quick.locator('.quick-input-list .monaco-list-row', { hasText: 'API Key' }).waitFor({ timeout: 90_000 });
    await quick.locator('.quick-input-list .monaco-list-row[aria-label^="ChatGPT"]').first().waitFor({ state: 'attached', timeout: 10_000 }); // its other methods too
    await pick(page, 'API Key');
    // The key's own box, titled with the method (the method pick's filter box is a text box in the same place).
    await quick.locator('.quick-input-title', { hasText: ': API Key' }).waitFor({ timeout: 20_000 });
    const box = quick.locator('.quick-input-box input');
    assert.equal(await box.getAttribute('type'), 'password', 'the key is typed into a masked box');
    await box.fill(API_KEY);
    await box.press('Enter');
    await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
    assert.ok(fs.existsSync(path.join(signInHome, 'auth.json')), 'Codex took the key (its auth.json)');
    // A turn against the stub, through Codex's built-in provider moved by openai_base_url, with the typed key.
    stub.setScript([{ text: ['Signed in ', 'with a key.'] }]);
    await send('Hello after signing in');
    await frame().locator('.msg-agent', { hasText: 'Signed in with a key.' }).waitFor({ timeout: 90_000 });
    assert.ok(stub.requests.some((r) => r.headers.authorization === `Bearer ${API_KEY}`), 'the model request carried the typed key');
    await waitForLog('Signed in with "API Key" (api-key).');
    // The trace shows authenticate with the key redacted.
    await waitForLog('"methodId":"api-key","_meta":{"api-key":{"apiKey":"«redacted»"}}');

    // A second connect: Codex forgot its own copy (auth.json) and restarts; the extension signs in with the
    // stored key, nothing asked.
    fs.rmSync(path.join(signInHome, 'auth.json'));
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: Restart Agent');
    await pick(page, SIGN_IN_LABEL);
    await runCommand(page, 'ACP: New Session');
    await pick(page, SIGN_IN_LABEL);
    await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
    assert.equal(await quick.isVisible(), false, 'nothing was asked');
    await waitForLog('Signed in with the stored key of "API Key" (api-key).');
    assert.ok(fs.existsSync(path.join(signInHome, 'auth.json')), 'Codex took the stored key');

    // Sign Out: Codex logs out and the extension forgets the key; the next connect asks again.
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: Sign Out');
    await pick(page, SIGN_IN_LABEL);
    await waitForLog(`${SIGN_IN_LABEL} → request logout`);
    await runCommand(page, 'ACP: New Session');
    await pick(page, SIGN_IN_LABEL);
    await quick.locator('.quick-input-list .monaco-list-row', { hasText: 'API Key' }).waitFor({ timeout: 90_000 });
    // Escape closes the question, when the question has the keyboard. The panel opened by New Session can
    // take the focus after the question is shown (its webview gets ready late on a loaded machine; the
    // question stays, as it ignores focus out): three Escapes then all went to the composer, in three clean
    // runs. A person clicks the question first; so does the test, and says when it had to.
    // Once (CI, a loaded machine) three Escapes with the keyboard in the question left it open; each try now
    // says what was focused and which question was shown, and clicks into it first, as a person would.
    const focusedIn = () => page.evaluate(() => (document.activeElement?.closest('.quick-input-widget') ? 'the question' : document.activeElement?.tagName ?? 'nothing'));
    const shown = async () => ((await quick.locator('.quick-input-title').innerText({ timeout: 1_000 }).catch(() => '')) || (await quick.locator('.quick-input-box input').getAttribute('placeholder', { timeout: 1_000 }).catch(() => '')) || '?').replace(/\s+/g, ' ').slice(0, 120);
    const tries = [];
    for (let i = 0; i < 5 && (await quick.isVisible()); i++) {
      if (i > 0 || (await focusedIn()) !== 'the question') await quick.locator('.quick-input-box input').click({ timeout: 5_000 }).catch(() => {});
      tries.push(`${await focusedIn()} / "${await shown()}"`);
      await page.keyboard.press('Escape');
      await quick.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
    }
    if (tries.length > 1) console.log(`      [sign-in] Escape ${tries.length} times (keyboard / question shown): ${tries.join('; ')}`);
    assert.equal(await quick.isVisible(), false, `the sign-in question closed (tries, keyboard / question shown: ${tries.join('; ')})`);
    await runCommand(page, 'View: Close All Editors');
    assert.equal(extensionLogs().includes(API_KEY), false, 'the key is in no log');
  });

  it(`codex ${version} over ACP v2 (the entry's protocolVersion "2"): signs in with its api-key method (auth/login), does a turn that its idle state ends, signs out (auth/logout)`, async function () {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: New Session');
    await pick(page, V2_LABEL);
    // Over v2 too, session/new is "Authentication required" and the methods come as v2 names them (methodId).
    const quick = page.locator('.quick-input-widget');
    await quick.locator('.quick-input-list .monaco-list-row', { hasText: 'API Key' }).waitFor({ timeout: 90_000 });
    await pick(page, 'API Key');
    await quick.locator('.quick-input-title', { hasText: ': API Key' }).waitFor({ timeout: 20_000 });
    const box = quick.locator('.quick-input-box input');
    await box.fill(API_KEY);
    await box.press('Enter');
    await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
    // The version in use, and the sign-in methods read from the v2 answer.
    await waitForLog('auth methods api-key (agent), chat-gpt (agent), chat-gpt-device-code (agent); ACP v2');
    // v2's name for authenticate, with the key redacted in the trace.
    await waitForLog('"method":"auth/login","params":{"methodId":"api-key","_meta":{"api-key":{"apiKey":"«redacted»"}}}');
    stub.setScript([{ text: ['Hello ', 'over ACP v2.'] }]);
    const ends = frame().locator('.item.turn-end');
    const endsBefore = await ends.count();
    await send('Hello over v2');
    await frame().locator('.msg-agent', { hasText: 'Hello over ACP v2.' }).waitFor({ timeout: 90_000 });
    // The acknowledgement does not end the turn; the agent's idle state_update does.
    await ends.nth(endsBefore).waitFor({ state: 'attached', timeout: 30_000 });
    await frame().locator('#stop').waitFor({ state: 'hidden', timeout: 10_000 });
    assert.ok(stub.requests.some((r) => r.headers.authorization === `Bearer ${API_KEY}`), 'the model request carried the typed key');
    await screenshot(page, `interop-${KEY}-v2`);
    await runCommand(page, 'View: Close All Editors');
    // Sign Out: v2's auth/logout (sign-in methods advertise it).
    await runCommand(page, 'ACP: Sign Out');
    await pick(page, V2_LABEL);
    await waitForLog(`${V2_LABEL} → request auth/logout`);
    assert.equal(extensionLogs().includes(API_KEY), false, 'the key is in no log');
  });

  it(`codex ${version}: resume — after a window reload the session is in the sidebar and a click replays it`, async function () {
    await interopCell(AGENT, 'resume', async () => {
      await reloadToSessions(page);
      await openSessionReplaying(page, LABEL, TURN_PROMPT);
      // The local archive holds the same prompt and answer: only the agent's own answer, and a live panel, make it a resume.
      await assertResumed(frame(), wb.server.userDataDir, LABEL);
      await frame().locator('.msg-agent', { hasText: DONE }).first().waitFor({ timeout: 30_000 });
      await frame().locator('.msg-agent', { hasText: `${KEY} is still here after the stop.` }).first().waitFor({ timeout: 30_000 });
      await screenshot(page, `interop-${KEY}-resumed`);
      await runCommand(page, 'View: Close All Editors');
    });
  });

  it(`codex ${version} over ACP v2: resume — after the same reload, a click resumes the session replaying its history (session/resume from the start)`, async function () {
    await interopCell(AGENT_V2, 'resume', async () => {
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'ACP Agents: Focus on Sessions View');
      await openSessionReplaying(page, V2_STUB_LABEL, promptOf(V2));
      const open = await assertResumed(frame(), wb.server.userDataDir, V2_STUB_LABEL);
      assert.equal(open.method, 'session/resume', 'v2 has no session/load');
      await waitForLog('"replayFrom":{"type":"start"}');
      await frame().locator('.msg-agent', { hasText: `${V2.tag} finished both files.` }).first().waitFor({ timeout: 30_000 });
      await frame().locator('.msg-agent', { hasText: `${V2.tag} is still here after the stop.` }).first().waitFor({ timeout: 30_000 });
      assert.equal(await frame().locator('.notice', { hasText: 'Archived history' }).count(), 0, 'the agent’s replay, not the archive');
      await screenshot(page, `interop-${V2.tag}-resumed`);
      await runCommand(page, 'View: Close All Editors');
    });
  });
});
