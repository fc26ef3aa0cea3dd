// The interop row of the Claude adapter people install today: `@agentclientprotocol/claude-agent-acp`
// (CURRENT_AGENT_PACKAGES in test/harness/realAgents.mjs), run offline through the installed .vsix in
// the real workbench against the loopback Anthropic Messages stub (test/fixtures/modelStub/anthropic.ts),
// which plays the model as a model would. The same four cells as the older adapter's row
// (interop-claude-codex-opencode.test.mjs), in one workbench:
//   turn   — the user picks the asking mode ("Manual") in the panel's Mode list, as the agent starts
//            in "Auto", where a model-side classifier decides what needs asking; then a whole turn
//            that creates a file and edits another: the permission asked first, the diffs, the
//            Changes list, Undo (the files on disk checked each time);
//   mcp    — Claude Code defers MCP tools: the model is not offered the user's tool until it loads it
//            with ToolSearch ("select:mcp__probe__echo"); the stub does that, calls the tool once a
//            request offers it, and the MCP fixture records the call;
//   cancel — Stop while the stub holds the model's stream; the next prompt gets its own answer (the
//            older adapter's late answer, claude-agent-acp#551, was fixed in 0.24.1);
//   resume — after a window reload, a click in the sidebar loads the session (session/load): the
//            panel is live, shows the replayed turn, and the agent answers a prompt knowing it.
// Each cell appends its result to out/interop/results.jsonl (interopResults.mjs).
// The same adapter again over ACP v2 (its entry's protocolVersion "2"), a row of its own: the same four
// cells, where Claude Code writes with its own tools (v2 has no client fs), its diffs come as v2 git
// patches (shown as diffs, Open Diff rebuilding the file's text before), the Mode list comes from its
// config options, and its resume is session/resume replaying the history (replayFrom start).
// Beside the rows: the same adapter in a git worktree of its own (New Session in a Worktree, then Merge Back);
// and the same adapter as an agent by URL, behind the tests' stdio-to-WebSocket bridge
// (test/fixtures/ws/ws-bridge.mjs) on 127.0.0.1, with a pathMap naming the workspace by its own path, so
// its file tools come back through the client: a whole turn over the socket, its write reviewed here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claudeCurrentWithModelStub } from '../harness/currentAgents.mjs';
import { CURRENT_AGENT_PACKAGES, ensureCurrentAgents, splitSpec } from '../harness/realAgents.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { MCP_FIXTURE, answerUntil, compiledStub, mcpLines, openSessionReplaying, reloadToSessions, send } from './interopPanel.mjs';
import { assertResumed, interopCell, reportedAgentVersion } from './interopResults.mjs';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';
import { startBridge } from './wsBridge.mjs';

/** @type {typeof import('../fixtures/modelStub/anthropic.js')} */
const { startAnthropicStub } = await compiledStub('anthropic');

const [pkg, version] = splitSpec(CURRENT_AGENT_PACKAGES.claude);
/** @type {{ pkg: string, version: string, protocol?: '2', reported?: () => string | undefined }} */
const AGENT = { pkg, version };
const LABEL = 'Claude Agent current (model stub)';
/** What the panel says once the agent answered initialize: its agentInfo title and version. */
const CONNECTED = `Connected to Claude Agent ${version}.`;
const MCP_TOOL = 'mcp__probe__echo';
const ORIGINAL = 'original line\nkept line\n';
const NEW_CONTENT = '# Hello from claude\n\nWritten through ACP.\n';
const EDITED = 'edited by claude\nkept line\n';
const DONE = 'claude finished both files.';
const TURN_PROMPT = 'Create notes/claude-new.md and edit claude-edit.txt';
const AFTER_STOP = 'claude is still here after the stop.';
const URL_LABEL = 'Claude by URL (model stub)';
const V2_LABEL = 'Claude Agent current over ACP v2 (model stub)';
/** @type {typeof AGENT} */
const AGENT_V2 = { pkg, version, protocol: '2' };
const V2_PROMPT = 'Over v2: create notes/claude-v2-new.md and edit claude-v2-edit.txt';
const V2_DONE = 'claude finished both files over v2.';
const V2_AFTER_STOP = 'claude is still here after the stop over v2.';
const URL_DONE = 'claude wrote it over the socket.';

/** @typedef {import('../fixtures/modelStub/loopback.js').LoopbackRequest} StubRequest */

/** The text of a model request's messages, for finding what the agent told the model. */
const messagesText = (/** @type {StubRequest | undefined} */ r) => JSON.stringify(r?.body?.messages ?? []);
const toolNames = (/** @type {StubRequest | undefined} */ r) => (r?.body?.tools ?? []).map((/** @type {any} */ t) => t.name);

describe(`e2e interop: ${pkg} ${version} does whole turns, MCP, Stop and resume through the extension`, function () {
  this.timeout(180_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;
  /** @type {import('../fixtures/modelStub/anthropic.js').AnthropicStub} */
  let stub;
  /** @type {string} */
  let folder;
  /** @type {string} */
  let mcpTmp;
  /** @type {string} */
  let mcpRecord;
  const frame = () => webviewFrame(page);
  /** The agent's own log channel ("ACP: <label>"), as written so far. @param {string} label */
  const agentLog = (label) =>
    fs
      .readdirSync(path.join(wb.server.userDataDir, 'logs'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name === `ACP ${label}.log`)
      .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8'))
      .join('\n');
  const turns = (/** @type {number} */ from) => stub.requests.slice(from).filter((r) => r.kind === 'turn');

  /** @type {import('node:child_process').ChildProcess | undefined} */
  let bridge;
  /** @type {string} */
  let bridgeUrl;

  before(async function () {
    stub = await startAnthropicStub();
    const dir = ensureCurrentAgents();
    // The adapter behind the bridge: a process per connection, with its own HOME.
    const byUrl = claudeCurrentWithModelStub(dir, fs.mkdtempSync(path.join(os.tmpdir(), 'acp-interop-cc-url-')), stub.url, 'claude-by-url');
    const remote = await startBridge([byUrl.command, ...byUrl.args], byUrl.env);
    bridge = remote.child;
    bridgeUrl = remote.url;
    mcpTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-interop-cc-mcp-'));
    mcpRecord = path.join(mcpTmp, 'record.jsonl');
    wb = await openWorkbench({
      prefix: 'acp-interop-cc',
      agents: (tmp) => [
        claudeCurrentWithModelStub(dir, tmp, stub.url),
        { ...claudeCurrentWithModelStub(dir, tmp, stub.url, 'claude-current-v2'), name: V2_LABEL, protocolVersion: '2' },
        { id: 'claude-by-url', name: URL_LABEL, url: bridgeUrl, pathMap: { [path.join(tmp, 'workspace')]: '${workspaceFolder}' } },
      ],
      viewport: { width: 1280, height: 900 },
      settings: { 'acpAgents.mcpServers': { probe: { command: ensureNode(), args: [MCP_FIXTURE, mcpRecord] } }, 'acpAgents.trace': 'verbose' },
    });
    page = wb.page;
    // Each cell records the version the agent itself reported (its log's "Initialized:" line).
    AGENT.reported = () => reportedAgentVersion(wb.server.userDataDir, LABEL);
    AGENT_V2.reported = () => reportedAgentVersion(wb.server.userDataDir, V2_LABEL);
    folder = path.join(wb.tmp, 'workspace');
    fs.writeFileSync(path.join(folder, 'claude-edit.txt'), ORIGINAL);
    fs.writeFileSync(path.join(folder, 'claude-v2-edit.txt'), ORIGINAL);
  });

  after(async function () {
    await wb?.close();
    bridge?.kill();
    await stub?.close();
    if (mcpTmp) fs.rmSync(mcpTmp, { recursive: true, force: true });
  });

  /**
   * One row's cells: the adapter over ACP v1 (LABEL), or over v2 (V2_LABEL), each with files and texts of its own.
   * @typedef {{ agent: typeof AGENT, label: string, prompt: string, done: string, afterStop: string, newName: string, editName: string, v2?: true }} Row
   */
  /** @type {Row} */
  const V1 = { agent: AGENT, label: LABEL, prompt: TURN_PROMPT, done: DONE, afterStop: AFTER_STOP, newName: 'claude-new.md', editName: 'claude-edit.txt' };
  /** @type {Row} */
  const V2 = { agent: AGENT_V2, label: V2_LABEL, prompt: V2_PROMPT, done: V2_DONE, afterStop: V2_AFTER_STOP, newName: 'claude-v2-new.md', editName: 'claude-v2-edit.txt', v2: true };

  /** The turn cell: in the Manual mode picked in the panel, a file created and another edited; permission, diff, Changes, Undo. @param {Row} row */
  const turnCell = (row) =>
    interopCell(row.agent, 'turn', async () => {
      const newFile = path.join(folder, 'notes', row.newName);
      const existing = path.join(folder, row.editName);
      // Claude Code edits only a file it has read in the conversation: Write, Read, Edit.
      stub.setScript([
        { text: ['I will create ', 'the new file ', 'and edit the other.'], toolUse: { name: 'Write', input: { file_path: newFile, content: NEW_CONTENT } }, delayMs: 20 },
        { toolUse: { name: 'Read', input: { file_path: existing } } },
        { toolUse: { name: 'Edit', input: { file_path: existing, old_string: 'original line', new_string: 'edited by claude' } } },
        { text: [row.done] },
      ]);
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'ACP: New Session');
      await pick(page, row.label);
      // agentInfo as the panel shows it: the title and version the agent reported.
      await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
      assert.equal((await frame().locator('.status-text').innerText()).trim(), CONNECTED);
      if (row.v2) assert.match(agentLog(row.label), /; ACP v2\b/, 'the agent answered initialize over v2');
      // The Mode list (over v2, the agent's "mode" config option): it starts in Auto (its classifier decides); the user picks Manual, which asks.
      const mode = frame().getByRole('combobox', { name: /Mode$/ });
      await mode.waitFor({ timeout: 30_000 });
      const modes = await mode.locator('option').evaluateAll((os) => os.map((o) => `${/** @type {HTMLOptionElement} */ (o).value}=${o.textContent}`));
      for (const m of ['auto=Auto', 'default=Manual', 'acceptEdits=Accept edits', 'plan=Plan']) assert.ok(modes.includes(m), `the agent offers ${m}: ${modes.join(', ')}`);
      assert.equal(await mode.inputValue(), 'auto', 'the agent starts in Auto');
      await mode.selectOption({ label: 'Manual' });
      await send(page, row.prompt);
      await frame().locator('.msg-agent', { hasText: 'I will create the new file and edit the other.' }).waitFor({ timeout: 60_000 });
      const asked = await answerUntil(page, frame().locator('.msg-agent', { hasText: row.done }), (_card, index) => {
        if (index === 0) assert.equal(fs.existsSync(newFile), false, 'nothing is written before the answer');
      });
      assert.ok(asked.length >= 1, 'the agent asked before writing (Manual)');
      assert.ok(asked[0]?.includes('Written through ACP.'), `the first question shows the new file's content: ${asked[0]}`);
      assert.equal(await mode.inputValue(), 'default', 'the Mode list still says Manual');
      assert.equal(fs.readFileSync(newFile, 'utf8'), NEW_CONTENT, 'the new file is on disk');
      assert.equal(fs.readFileSync(existing, 'utf8'), EDITED, 'the existing file is edited on disk');
      const diffOf = (/** @type {string} */ name) => frame().locator('.diff', { has: frame().locator('.diff-path', { hasText: name }) }).first();
      await diffOf(row.newName).waitFor({ state: 'attached', timeout: 10_000 });
      await diffOf(row.editName).waitFor({ state: 'attached', timeout: 10_000 });
      if (row.v2) {
        // v2's diffs are git patches (no whole texts): the hunks inline, and Open Diff shows the whole file, before and after.
        assert.match(await diffOf(row.newName).locator('.diff-stats').innerText(), /new file, \+3 −0/);
        assert.equal(await diffOf(row.editName).locator('.diff-lines .del').first().innerText(), '- original line');
        await diffOf(row.editName).locator('.open-diff').click();
        const tab = page.locator('.tabs-container .tab', { hasText: `${row.editName} (agent’s change)` });
        await tab.waitFor({ timeout: 15_000 });
        const sides = page.locator('.editor-instance .monaco-diff-editor .view-lines');
        await page.waitForFunction(() => document.querySelectorAll('.editor-instance .monaco-diff-editor .view-lines').length >= 2, undefined, { timeout: 15_000 });
        const [left, right] = [await sides.nth(0).innerText(), await sides.nth(1).innerText()].map((t) => t.replace(/\u00a0/g, ' '));
        assert.match(left ?? '', /original line\s+kept line/, `the left side is the file before the change: ${left}`);
        assert.match(right ?? '', /edited by claude\s+kept line/, `the right side is the file now: ${right}`);
        // The diff alone is closed: the panel stays.
        await runCommand(page, 'View: Close Editor');
        await tab.waitFor({ state: 'detached', timeout: 10_000 });
      }
      const added = frame().locator('.change', { hasText: row.newName });
      const modified = frame().locator('.change', { hasText: row.editName });
      await added.waitFor({ timeout: 15_000 });
      await modified.waitFor({ timeout: 15_000 });
      assert.match(await added.innerText(), /added/);
      assert.match(await modified.innerText(), /modified/);
      await screenshot(page, `interop-claude-current${row.v2 ? '-v2' : ''}-turn`);
      await modified.locator('.change-revert').click();
      await modified.waitFor({ state: 'detached', timeout: 15_000 });
      assert.equal(fs.readFileSync(existing, 'utf8'), ORIGINAL, 'Undo put the edited file back');
      assert.equal(fs.readFileSync(newFile, 'utf8'), NEW_CONTENT, 'the other change is still there');
      await added.locator('.change-revert').click();
      await added.waitFor({ state: 'detached', timeout: 15_000 });
      assert.equal(fs.existsSync(newFile), false, 'Undo removed the created file');
    });

  /** The mcp cell: the user's MCP tool, deferred by Claude Code, loaded with ToolSearch and called. @param {Row} row */
  const mcpCell = (row) =>
    interopCell(row.agent, 'mcp', async () => {
      const nonce = `interop-claude-current${row.v2 ? '-v2' : ''}-${Date.now().toString(36)}`;
      // What a model does with a deferred tool: load it by name, then call it once it is offered.
      stub.setScript([
        { text: ['Loading the MCP tool.'], toolUse: { name: 'ToolSearch', input: { query: `select:${MCP_TOOL}` } } },
        { text: ['Asking the MCP server.'], toolUse: { name: MCP_TOOL, input: { text: nonce }, onlyIfOffered: true } },
        { text: [`The MCP server answered claude${row.v2 ? ' over v2' : ''}.`] },
      ]);
      const before = stub.requests.length;
      await send(page, `Ask the probe MCP server to echo ${nonce}`);
      const asked = await answerUntil(page, frame().locator('.msg-agent', { hasText: `The MCP server answered claude${row.v2 ? ' over v2' : ''}.` }));
      const [first, second] = turns(before);
      // Deferred: the first request names the tool (for ToolSearch) but does not offer it; the next one does.
      assert.ok(first && !toolNames(first).includes(MCP_TOOL) && toolNames(first).includes('ToolSearch'), `the first request does not offer ${MCP_TOOL}: ${toolNames(first)}`);
      assert.ok(messagesText(first).includes(MCP_TOOL), 'the first request names the deferred tool');
      assert.ok(toolNames(second).includes(MCP_TOOL), `once loaded, ${MCP_TOOL} is offered: ${toolNames(second)}`);
      assert.match(messagesText(second), /"type":"tool_reference","tool_name":"mcp__probe__echo"/, 'ToolSearch answered with a tool_reference');
      // The fixture's record: the agent started it, listed its tools, and called echo with the nonce.
      const lines = mcpLines(mcpRecord);
      const init = lines.findIndex((m) => m.method === 'initialize');
      assert.ok(init >= 0, 'the agent started the MCP server');
      assert.ok(lines.slice(init).some((m) => m.method === 'tools/list'), 'its tools were listed');
      const call = lines.find((m) => m.method === 'tools/call' && m.params?.arguments?.text === nonce);
      assert.ok(call, `the tool was called with the nonce: ${JSON.stringify(lines.filter((m) => m.method === 'tools/call'))}`);
      assert.equal(call.params.name, 'echo');
      assert.ok(asked.some((card) => card.includes('echo')), `Manual asked before the MCP call: ${JSON.stringify(asked)}`);
      // The panel shows the call's answer.
      await frame().locator('.item.tool', { hasText: `echo: ${nonce}` }).first().waitFor({ state: 'attached', timeout: 10_000 });
      return `ToolSearch loads the deferred tool`;
    });

  /** The cancel cell: Stop while the model's stream is held ends the turn; the next prompt gets its own answer. @param {Row} row */
  const cancelCell = (row) =>
    interopCell(row.agent, 'cancel', async () => {
      stub.setScript([{ text: ['Thinking ', 'very slowly'], hold: true }, { text: [row.afterStop] }]);
      const cancelled = frame().locator('.item.turn-end.reason-cancelled');
      const cancelledBefore = await cancelled.count();
      await send(page, 'Take your time');
      await frame().locator('.msg-agent', { hasText: 'Thinking very slowly' }).last().waitFor({ timeout: 60_000 });
      const stop = frame().locator('#stop');
      await stop.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(stub.holding, 1, 'the stub holds the stream');
      await stop.click();
      await cancelled.nth(cancelledBefore).waitFor({ timeout: 30_000 });
      await stop.waitFor({ state: 'hidden', timeout: 10_000 });
      assert.equal(await frame().locator('#input').isEditable(), true, 'the input is usable');
      stub.release();
      const ends = frame().locator('.item.turn-end');
      const endsBefore = await ends.count();
      const before = stub.requests.length;
      await send(page, 'Are you still there?');
      // Its own answer, in its own turn (no stale end_turn: the turn does not end before the answer).
      const answer = frame().locator('.msg-agent', { hasText: row.afterStop });
      await answer.waitFor({ timeout: 60_000 });
      await ends.nth(endsBefore).waitFor({ state: 'attached', timeout: 30_000 });
      assert.equal(await ends.count(), endsBefore + 1, 'one turn ended, with the answer');
      assert.equal(await cancelled.count(), cancelledBefore + 1, 'only the stopped turn was cancelled');
      const asked = turns(before);
      assert.equal(asked.length, 1, 'one model request answered the prompt');
      assert.ok(messagesText(asked[0]).includes('Are you still there?'), 'the model was asked the prompt after the Stop');
      assert.equal(await frame().locator('.item.notice', { hasText: 'ended this turn at once' }).count(), 0, 'no late-answer notice');
      await screenshot(page, `interop-claude-current${row.v2 ? '-v2' : ''}-stopped`);
    });

  it(`claude ${version}: turn — in the Manual mode picked in the panel, creates a file and edits another: permission, diff, Changes, Undo`, async function () {
    await turnCell(V1);
  });

  it(`claude ${version}: mcp — the user's MCP tool, deferred by Claude Code, is loaded with ToolSearch and called`, async function () {
    await mcpCell(V1);
  });

  it(`claude ${version}: cancel — Stop while the model's stream is held ends the turn; the next prompt gets its own answer`, async function () {
    await cancelCell(V1);
  });

  it(`claude ${version} over ACP v2: turn — its own tools write (no client fs in v2), asked first in Manual (a config option); the v2 patches shown as diffs; Changes, Undo`, async function () {
    await turnCell(V2);
  });

  it(`claude ${version} over ACP v2: mcp — the deferred MCP tool loaded with ToolSearch and called`, async function () {
    await mcpCell(V2);
  });

  it(`claude ${version} over ACP v2: cancel — Stop ends the turn (its idle state_update, cancelled); the next prompt gets its own answer`, async function () {
    await cancelCell(V2);
  });

  it(`claude ${version} as an agent by URL (a WebSocket to the bridge on 127.0.0.1, with a pathMap): a whole turn whose write comes back through the client, asked first and listed in Changes`, async function () {
    const written = path.join(folder, 'notes', 'over-the-socket.md');
    stub.setScript([{ text: ['Writing over ', 'the socket.'], toolUse: { name: 'Write', input: { file_path: written, content: 'Over the socket.\n' } } }, { text: [URL_DONE] }]);
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: New Session');
    await pick(page, URL_LABEL);
    await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
    assert.equal((await frame().locator('.status-text').innerText()).trim(), CONNECTED);
    const mode = frame().getByRole('combobox', { name: /Mode$/ });
    await mode.waitFor({ timeout: 30_000 });
    await mode.selectOption({ label: 'Manual' });
    await send(page, 'Write a note over the socket');
    const asked = await answerUntil(page, frame().locator('.msg-agent', { hasText: URL_DONE }), (_card, index) => {
      if (index === 0) assert.equal(fs.existsSync(written), false, 'nothing is written before the answer');
    });
    assert.ok(asked.length >= 1 && asked[0]?.includes('Over the socket.'), `asked before writing, with the content: ${asked[0]}`);
    assert.equal(fs.readFileSync(written, 'utf8'), 'Over the socket.\n');
    await frame().locator('.change', { hasText: 'over-the-socket.md' }).waitFor({ timeout: 15_000 });
    // Over the socket, declared the file system through its pathMap; the stdio MCP server is left out with the reason.
    const log = agentLog(URL_LABEL);
    assert.match(log, /Connecting: ws:\/\/127\.0\.0\.1:\d+\/acp; an agent by URL with a pathMap/);
    assert.match(log, /MCP: probe, vscode-editor left out: Claude by URL \(model stub\) runs elsewhere/);
    await screenshot(page, 'interop-claude-current-by-url');
    await frame().locator('.change', { hasText: 'over-the-socket.md' }).locator('.change-revert').click();
    await frame().locator('.change', { hasText: 'over-the-socket.md' }).waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal(fs.existsSync(written), false, 'Undo removed the file the agent created over the socket');
  });

  it(`claude ${version} in a git worktree of its own (New Session in a Worktree): its edit lands in the worktree, not the checkout, and Merge Back clicked brings it into the checkout`, async function () {
    /** @param {string[]} args */
    const git = (...args) => execFileSync('git', ['-C', folder, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { encoding: 'utf8', stdio: 'pipe' });
    const shared = path.join(folder, 'claude-worktree.txt');
    const done = 'claude edited it in the worktree.';
    fs.writeFileSync(shared, ORIGINAL);
    git('init', '-q', '-b', 'main');
    git('add', 'claude-worktree.txt');
    git('commit', '-q', '-m', 'base');
    try {
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'ACP: New Session in a Worktree');
      await pick(page, LABEL);
      const widget = page.locator('.quick-input-widget');
      await widget.locator('.quick-input-message', { hasText: 'The new branch the session works on' }).waitFor({ timeout: 20_000 });
      await widget.locator('input').fill('acp/claude');
      await widget.locator('input').press('Enter');
      await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
      await frame().locator('.notice', { hasText: 'In a git worktree on branch acp/claude' }).waitFor({ timeout: 10_000 });
      const listed = git('worktree', 'list', '--porcelain').split('\n\n').find((w) => w.includes('branch refs/heads/acp/claude'));
      const dir = /^worktree (.+)$/m.exec(listed ?? '')?.[1];
      assert.ok(dir && !dir.startsWith(folder), `the worktree is outside the checkout: ${dir}`);
      const inWorktree = path.join(dir, 'claude-worktree.txt');
      // Claude Code edits only a file it has read in the conversation: Read, then Edit, in the worktree.
      stub.setScript([
        { toolUse: { name: 'Read', input: { file_path: inWorktree } } },
        { toolUse: { name: 'Edit', input: { file_path: inWorktree, old_string: 'original line', new_string: 'edited by claude' } } },
        { text: [done] },
      ]);
      const mode = frame().getByRole('combobox', { name: /Mode$/ });
      await mode.waitFor({ timeout: 30_000 });
      await mode.selectOption({ label: 'Manual' });
      await send(page, 'Edit claude-worktree.txt');
      await answerUntil(page, frame().locator('.msg-agent', { hasText: done }));
      assert.equal(fs.readFileSync(inWorktree, 'utf8'), EDITED, 'edited in the worktree');
      assert.equal(fs.readFileSync(shared, 'utf8'), ORIGINAL, 'the checkout is untouched');
      await frame().locator('.change', { hasText: 'claude-worktree.txt' }).waitFor({ timeout: 15_000 });

      // Finish, on the active panel: Merge Back, confirmed in the modal.
      await runCommand(page, 'ACP: Finish Worktree Session');
      await pick(page, 'Merge Back');
      const box = page.locator('.monaco-dialog-box', { hasText: 'Merge branch acp/claude into the checkout at' });
      await box.waitFor({ timeout: 20_000 });
      assert.match(await box.locator('.dialog-message-detail').innerText(), /Its uncommitted changes \(claude-worktree\.txt\) are committed on acp\/claude first/);
      await box.locator('.dialog-buttons .monaco-button', { hasText: /^\s*Merge Back\s*$/ }).click();
      for (const deadline = Date.now() + 30_000; fs.readFileSync(shared, 'utf8') !== EDITED; await page.waitForTimeout(200)) {
        if (Date.now() > deadline) throw new Error('the merge never reached the checkout');
      }
      assert.equal(git('rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ').length, 3, 'a merge commit');
      await screenshot(page, 'interop-claude-current-worktree');
      // Discard: the worktree, its branch and its panel go (the resume cells that follow reload the window).
      await runCommand(page, 'ACP: Finish Worktree Session');
      await pick(page, 'Discard');
      const discard = page.locator('.monaco-dialog-box', { hasText: 'Discard the worktree' });
      await discard.waitFor({ timeout: 20_000 });
      assert.match(await discard.locator('.dialog-message-detail').innerText(), /no uncommitted changes.*Every commit on acp\/claude is merged already/s);
      await discard.locator('.dialog-buttons .monaco-button', { hasText: /^\s*Discard\s*$/ }).click();
      for (const deadline = Date.now() + 30_000; fs.existsSync(dir); await page.waitForTimeout(200)) {
        if (Date.now() > deadline) throw new Error('the worktree was not removed');
      }
      assert.doesNotMatch(git('branch', '--list'), /acp\/claude/);
    } finally {
      fs.rmSync(path.join(folder, '.git'), { recursive: true, force: true });
      fs.rmSync(shared, { force: true });
    }
  });

  it(`claude ${version}: resume — after a window reload a click loads the session: live, replayed, and the agent remembers it`, async function () {
    await interopCell(AGENT, 'resume', async () => {
      await reloadToSessions(page);
      await openSessionReplaying(page, LABEL, TURN_PROMPT);
      // Live (session/load answered), not the read-only archive.
      await assertResumed(frame(), wb.server.userDataDir, LABEL);
      await frame().locator('.status-text', { hasText: CONNECTED }).waitFor({ timeout: 60_000 });
      await frame().locator('.msg-agent', { hasText: DONE }).first().waitFor({ timeout: 30_000 });
      await frame().locator('.msg-agent', { hasText: AFTER_STOP }).first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'interop-claude-current-resumed');
      // The agent itself has the conversation: the model's next request carries the first turn.
      stub.setScript([{ text: ['claude remembers the notes.'] }]);
      const before = stub.requests.length;
      await send(page, 'What did I ask first?');
      await frame().locator('.msg-agent', { hasText: 'claude remembers the notes.' }).waitFor({ timeout: 60_000 });
      const next = turns(before).at(-1);
      assert.ok(messagesText(next).includes(TURN_PROMPT) && messagesText(next).includes('What did I ask first?'), 'the model request after the load holds the loaded conversation');
      // agentInfo in the agent diagnostics: the name the agent reported (the panel shows the title).
      await runCommand(page, 'ACP: Show Agent Diagnostics');
      const doc = page.locator('.editor-instance .monaco-editor .view-lines').last();
      let text = '';
      for (const deadline = Date.now() + 15_000; !text.includes('agentInfo.version') && Date.now() < deadline; await page.waitForTimeout(250)) {
        // The editor wraps long lines: the text without the breaks (a wrapped line keeps its spaces).
        text = ((await doc.innerText().catch(() => '')) ?? '').replace(/\u00a0/g, ' ').replace(/\n/g, '');
      }
      const v = version.replace(/\./g, '\\.');
      assert.match(text, new RegExp(`agentInfo\\.name: @agentclientprotocol/claude-agent-acpagentInfo\\.title: Claude AgentagentInfo\\.version: ${v}protocolVersion`), text.slice(0, 800));
      // …and the load was the agent's answer, not an error (the archive shown instead).
      assert.match(text, /`session\/load` \| 1 \| 0 \|/, 'session/load was called once and answered without error');
      await runCommand(page, 'View: Close All Editors');
    });
  });

  it(`claude ${version} over ACP v2: resume — after the same reload, a click resumes the session replaying its history (session/resume from the start): live, and the agent remembers it`, async function () {
    await interopCell(AGENT_V2, 'resume', async () => {
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'ACP Agents: Focus on Sessions View');
      await openSessionReplaying(page, V2_LABEL, V2_PROMPT);
      const open = await assertResumed(frame(), wb.server.userDataDir, V2_LABEL);
      assert.equal(open.method, 'session/resume', 'v2 has no session/load');
      assert.match(agentLog('Trace'), new RegExp(`${V2_LABEL.replace(/[()]/g, '\\$&')} → request session/resume #\\S+ .*"replayFrom":\\{"type":"start"\\}`), 'the whole history asked for');
      await frame().locator('.status-text', { hasText: CONNECTED }).waitFor({ timeout: 60_000 });
      await frame().locator('.msg-agent', { hasText: V2_DONE }).first().waitFor({ timeout: 30_000 });
      await frame().locator('.msg-agent', { hasText: V2_AFTER_STOP }).first().waitFor({ timeout: 30_000 });
      assert.equal(await frame().locator('.notice', { hasText: 'Archived history' }).count(), 0, 'the agent’s replay, not the archive');
      await screenshot(page, 'interop-claude-current-v2-resumed');
      stub.setScript([{ text: ['claude remembers the notes over v2.'] }]);
      const before = stub.requests.length;
      await send(page, 'What did I ask first?');
      await frame().locator('.msg-agent', { hasText: 'claude remembers the notes over v2.' }).waitFor({ timeout: 60_000 });
      const next = turns(before).at(-1);
      assert.ok(messagesText(next).includes(V2_PROMPT) && messagesText(next).includes('What did I ask first?'), 'the model request after the resume holds the conversation');
      await runCommand(page, 'View: Close All Editors');
    });
  });
});
