// One interop row for an agent that runs offline against the loopback Chat Completions stub
// (test/fixtures/modelStub/openaiChat.ts) and never starts the client's MCP servers: pi (pi-acp) and
// Cline's CLI (interop-pi.test.mjs, interop-cline.test.mjs; one workbench per file). The same four
// cells as the other rows, each appended to out/interop/results.jsonl (interopResults.mjs):
//   turn   — a whole turn creates a file and edits another through the agent's own tools (the stub calls
//            them as a model does): the permission where the agent asks, the files on disk, the diffs where
//            the agent sends them, the Changes list, Undo;
//   mcp    — the user's stdio MCP server is handed over and never started, the model is offered none of its
//            tools, and the panel's MCP status says why at once (quirks.ts, MCP_NEVER_STARTED): recorded as
//            the agent's documented limitation (the cell fails once the agent starts it, so that the table is
//            redone);
//   cancel — Stop while the stub holds the model's stream; the same agent answers the next prompt;
//   resume — after a window reload the session is in the sidebar, a click loads it (session/load answered,
//            the panel live, the turn replayed), and the agent answers a prompt knowing the conversation.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CURRENT_AGENT_PACKAGES, ensureCurrentAgents, splitSpec } from '../harness/realAgents.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { MCP_FIXTURE, answerUntil, compiledStub, mcpLines, openSessionReplaying, reloadToSessions, send } from './interopPanel.mjs';
import { assertResumed, interopCell, reportedAgentVersion } from './interopResults.mjs';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

/** @type {typeof import('../fixtures/modelStub/openaiChat.js')} */
const { startOpenAiChatStub } = await compiledStub('openaiChat');

/**
 * @typedef {object} ChatStubRow
 * @property {keyof typeof CURRENT_AGENT_PACKAGES} pkgKey the row's package (its version is the pinned one)
 * @property {string} key the files' and messages' tag
 * @property {string} label the agent's name in acpAgents.agents
 * @property {(dir: string, tmp: string, url: string) => import('../harness/testEnv.mjs').AgentSetting} agent
 * @property {(newFile: string, existing: string, content: string, from: string, to: string) => import('../fixtures/modelStub/openaiChat.js').ChatTurn[]} writes
 *   the model's turns that create `newFile` with `content` and replace `from` by `to` in `existing` (paths relative to the workspace)
 * @property {boolean} asks whether the agent asks before writing (answered allow-once in the panel)
 * @property {boolean | 'edit'} diffs whether its tool calls carry diffs ('edit': only its edits do)
 * @property {RegExp} mcpReason what the MCP status says about the agent
 * @property {string} mcpLimitation the MCP cell's note
 * @property {string} [turnNote] the turn cell's note
 */

/** @param {ChatStubRow} row */
export function chatStubRow(row) {
  const [pkg, version] = splitSpec(CURRENT_AGENT_PACKAGES[row.pkgKey]);
  const { key: KEY, label: LABEL } = row;
  /** @type {{ pkg: string, version: string, reported?: () => string | undefined }} */
  const AGENT = { pkg, version };
  const ORIGINAL = 'original line\nkept line\n';
  const NEW_CONTENT = `# Hello from ${KEY}\n\nWritten through ACP.\n`;
  const EDITED = `edited by ${KEY}\nkept line\n`;
  const DONE = `${KEY} finished both files.`;
  const TURN_PROMPT = `Create notes/${KEY}-new.md and edit ${KEY}-edit.txt`;
  const AFTER_STOP = `${KEY} is still here after the stop.`;

  describe(`e2e interop: ${pkg} ${version} does whole turns, Stop and resume through the extension; it never starts the user's MCP servers, and the panel says so`, function () {
    this.timeout(180_000);
    /** @type {import('./workbench.mjs').Workbench} */
    let wb;
    /** @type {import('./workbench.mjs').Page} */
    let page;
    /** @type {import('../fixtures/modelStub/openaiChat.js').ChatStub} */
    let stub;
    /** @type {string} */
    let folder;
    /** @type {string} */
    let mcpTmp;
    /** @type {string} */
    let mcpRecord;
    const frame = () => webviewFrame(page);
    const turns = (/** @type {number} */ from) => stub.requests.slice(from).filter((r) => r.kind === 'turn');
    const messagesText = (/** @type {any} */ r) => JSON.stringify(r?.body?.messages ?? []);
    const toolNames = (/** @type {any} */ r) => (r?.body?.tools ?? []).map((/** @type {any} */ t) => t.function?.name ?? t.name);

    before(async function () {
      stub = await startOpenAiChatStub();
      const dir = ensureCurrentAgents();
      mcpTmp = fs.mkdtempSync(path.join(os.tmpdir(), `acp-interop-${KEY}-mcp-`));
      mcpRecord = path.join(mcpTmp, 'record.jsonl');
      wb = await openWorkbench({
        prefix: `acp-interop-${KEY}`,
        agents: (tmp) => [row.agent(dir, tmp, stub.url)],
        viewport: { width: 1280, height: 900 },
        settings: { 'acpAgents.mcpServers': { probe: { command: ensureNode(), args: [MCP_FIXTURE, mcpRecord] } }, 'acpAgents.trace': 'verbose' },
      });
      page = wb.page;
      AGENT.reported = () => reportedAgentVersion(wb.server.userDataDir, LABEL);
      folder = path.join(wb.tmp, 'workspace');
      fs.writeFileSync(path.join(folder, `${KEY}-edit.txt`), ORIGINAL);
      // A repository, as a user's folder usually is: these agents write files themselves, and an edited file's
      // bytes before the turn come from git's HEAD (TurnBaseline) when no whole old text was reported first.
      const git = (/** @type {string[]} */ ...args) => execFileSync('git', ['-C', folder, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { stdio: 'pipe' });
      git('init', '-q');
      git('add', '-A');
      git('commit', '-q', '-m', 'the folder before the turn');
    });

    after(async function () {
      await wb?.close();
      await stub?.close();
      if (mcpTmp) fs.rmSync(mcpTmp, { recursive: true, force: true });
    });

    it(`${KEY} ${version}: turn — creates a file and edits another: ${row.asks ? 'permission, ' : ''}${row.diffs ? 'diffs, ' : ''}Changes, Undo`, async function () {
      await interopCell(AGENT, 'turn', async () => {
        const newFile = path.join(folder, 'notes', `${KEY}-new.md`);
        const existing = path.join(folder, `${KEY}-edit.txt`);
        const [first, ...rest] = row.writes(`notes/${KEY}-new.md`, `${KEY}-edit.txt`, NEW_CONTENT, 'original line', `edited by ${KEY}`);
        stub.setScript([{ ...first, text: ['I will create ', 'the new file ', 'and edit the other.'], delayMs: 20 }, ...rest, { text: [DONE] }]);
        await runCommand(page, 'View: Close All Editors');
        await runCommand(page, 'ACP: New Session');
        await pick(page, LABEL);
        await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
        await send(page, TURN_PROMPT);
        await frame().locator('.msg-agent', { hasText: 'I will create the new file and edit the other.' }).waitFor({ timeout: 60_000 });
        const asked = await answerUntil(page, frame().locator('.msg-agent', { hasText: DONE }), (_card, index) => {
          if (index === 0) assert.equal(fs.existsSync(newFile), false, 'nothing is written before the answer');
        });
        if (row.asks) assert.ok(asked.length >= 1, `the agent asked before writing: ${JSON.stringify(asked)}`);
        else assert.deepEqual(asked, [], 'the agent asks nothing before its tools');
        // Cline's apply_patch writes the lines without the final newline: compared without it.
        const text = (/** @type {string} */ f) => fs.readFileSync(f, 'utf8').replace(/\n$/, '');
        assert.equal(text(newFile), NEW_CONTENT.replace(/\n$/, ''), 'the new file is on disk');
        assert.equal(text(existing), EDITED.replace(/\n$/, ''), 'the existing file is edited on disk');
        if (row.diffs === true) await frame().locator('.diff', { has: frame().locator('.diff-path', { hasText: `${KEY}-new.md` }) }).first().waitFor({ state: 'attached', timeout: 10_000 });
        if (row.diffs) await frame().locator('.diff', { has: frame().locator('.diff-path', { hasText: `${KEY}-edit.txt` }) }).first().waitFor({ state: 'attached', timeout: 10_000 });
        const added = frame().locator('.change', { hasText: `${KEY}-new.md` });
        const modified = frame().locator('.change', { hasText: `${KEY}-edit.txt` });
        await added.waitFor({ timeout: 15_000 });
        await modified.waitFor({ timeout: 15_000 });
        // Seen with pi 1.6.0 (no permission gate): its write can land before the extension hears of the tool,
        // and the Changes list then calls the created file "modified"; said in the cell's note.
        const addedLabel = (await added.innerText()).match(/added|modified/)?.[0];
        assert.ok(addedLabel, `the created file is listed: ${await added.innerText()}`);
        assert.match(await modified.innerText(), /modified/);
        await screenshot(page, `interop-${KEY}-turn`);
        await modified.locator('.change-revert').click();
        await modified.waitFor({ state: 'detached', timeout: 15_000 });
        assert.equal(fs.readFileSync(existing, 'utf8'), ORIGINAL, 'Undo put the edited file back');
        assert.equal(text(newFile), NEW_CONTENT.replace(/\n$/, ''), 'the other change is still there');
        await added.locator('.change-revert').click();
        await added.waitFor({ state: 'detached', timeout: 15_000 });
        assert.equal(fs.existsSync(newFile), false, 'Undo removed the created file');
        assert.ok(stub.requests.some((r) => r.kind === 'turn' && r.headers.authorization === 'Bearer sk-offline-dummy-key'), 'the agent talked to the stub with its configured key');
        return [row.turnNote, addedLabel === 'added' ? '' : 'the created file was listed as modified'].filter(Boolean).join('; ');
      });
    });

    it(`${KEY} ${version}: mcp — the user's stdio MCP server is never started, and the MCP status says why`, async function () {
      await interopCell(AGENT, 'mcp', async () => {
        const nonce = `interop-${KEY}-${Date.now().toString(36)}`;
        stub.setScript([{ text: [`${KEY} has no probe tool to call.`] }]);
        const before = stub.requests.length;
        await send(page, `Ask the probe MCP server to echo ${nonce}`);
        await frame().locator('.msg-agent', { hasText: `${KEY} has no probe tool to call.` }).waitFor({ timeout: 60_000 });
        // The status says it at once, from who the agent is; the server stays unstarted for the whole turn.
        const server = frame().locator('#mcp-status .mcp-server[data-name="probe"]');
        await server.waitFor({ state: 'attached', timeout: 15_000 });
        assert.equal(await server.getAttribute('data-state'), 'notStarted');
        assert.match((await server.locator('.mcp-text').textContent()) ?? '', row.mcpReason);
        await frame().locator('.item.notice', { hasText: 'may not start your MCP servers' }).first().waitFor({ state: 'attached', timeout: 10_000 });
        const offered = turns(before).flatMap(toolNames);
        assert.ok(offered.length > 0 && !offered.some((/** @type {string} */ n) => /echo|probe/.test(n)), `the model was offered none of the server's tools: ${offered.join(', ')}`);
        assert.deepEqual(mcpLines(mcpRecord), [], 'the server was never started');
        return { limitation: row.mcpLimitation };
      });
    });

    it(`${KEY} ${version}: cancel — Stop while the model's stream is held ends the turn; the agent answers the next prompt`, async function () {
      await interopCell(AGENT, 'cancel', async () => {
        stub.setScript([{ text: ['Thinking ', 'very slowly'], hold: true }, { text: [AFTER_STOP] }]);
        await send(page, 'Take your time');
        await frame().locator('.msg-agent', { hasText: 'Thinking very slowly' }).waitFor({ timeout: 60_000 });
        const stop = frame().locator('#stop');
        await stop.waitFor({ state: 'visible', timeout: 10_000 });
        assert.equal(stub.holding, 1, 'the stub holds the stream');
        await stop.click();
        await frame().locator('.item.turn-end.reason-cancelled').last().waitFor({ timeout: 30_000 });
        await stop.waitFor({ state: 'hidden', timeout: 10_000 });
        assert.equal(await frame().locator('#input').isEditable(), true, 'the input is usable');
        stub.release();
        const before = stub.requests.length;
        await send(page, 'Are you still there?');
        await frame().locator('.msg-agent', { hasText: AFTER_STOP }).waitFor({ timeout: 60_000 });
        assert.ok(messagesText(turns(before).at(-1)).includes('Are you still there?'), 'the model was asked the prompt after the Stop');
      });
    });

    it(`${KEY} ${version}: resume — after a window reload a click loads the session: live, replayed, and the agent remembers it`, async function () {
      await interopCell(AGENT, 'resume', async () => {
        await reloadToSessions(page);
        await openSessionReplaying(page, LABEL, TURN_PROMPT);
        // Live (session/load answered), not the read-only archive.
        await assertResumed(frame(), wb.server.userDataDir, LABEL);
        await frame().locator('.msg-agent', { hasText: DONE }).first().waitFor({ timeout: 30_000 });
        await frame().locator('.msg-agent', { hasText: AFTER_STOP }).first().waitFor({ timeout: 30_000 });
        await screenshot(page, `interop-${KEY}-resumed`);
        // The agent itself has the conversation: the model's next request carries the first turn.
        stub.setScript([{ text: [`${KEY} remembers the notes.`] }]);
        const before = stub.requests.length;
        await send(page, 'What did I ask first?');
        await frame().locator('.msg-agent', { hasText: `${KEY} remembers the notes.` }).waitFor({ timeout: 60_000 });
        const next = turns(before).at(-1);
        assert.ok(messagesText(next).includes(TURN_PROMPT) && messagesText(next).includes('What did I ask first?'), 'the model request after the load holds the loaded conversation');
        await runCommand(page, 'View: Close All Editors');
      });
    });
  });
}
