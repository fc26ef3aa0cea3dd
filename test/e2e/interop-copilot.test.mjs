// The interop row of GitHub Copilot CLI, `@github/copilot` (CURRENT_AGENT_PACKAGES in
// test/harness/realAgents.mjs), `copilot --acp --stdio` run offline through the installed .vsix in the
// real workbench: its BYOK provider variables point it at the loopback Responses stub
// (test/fixtures/modelStub/openai.ts; test/harness/currentAgentsCopilot.mjs), so no GitHub sign-in.
// The same four cells as the other rows, in one workbench:
//   turn   — in Copilot's default mode (Agent, Allow All off: it asks) a whole turn creates a file and
//            edits another with one `apply_patch` (a freeform tool, hence the Responses wire API): the
//            permission asked before anything is written, the diffs, the Changes list, Undo (the files
//            on disk checked each time);
//   mcp    — the user's stdio MCP server from acpAgents.mcpServers: Copilot refuses stdio servers, so the
//            extension serves it over loopback Streamable HTTP (the MCP status says so); Copilot offers its
//            tool to the model as `<server>-<tool>`, the stub calls it, the permission is answered, the
//            server gets tools/call and the panel shows the answer;
//   cancel — Stop while the stub holds the model's stream; the next prompt gets its own answer;
//   resume — after a window reload, a click in the sidebar loads the session (session/load): the panel
//            is live, shows the replayed turn, and the model's next request holds the loaded conversation.
// Each cell appends its result to out/interop/results.jsonl (interopResults.mjs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copilotWithModelStub } from '../harness/currentAgentsCopilot.mjs';
import { CURRENT_AGENT_PACKAGES, ensureCurrentAgents, splitSpec } from '../harness/realAgents.mjs';
import { ensureNode } from '../harness/tools.mjs';
import { MCP_FIXTURE, answerUntil, compiledStub, mcpLines, openSessionReplaying, reloadToSessions, send } from './interopPanel.mjs';
import { assertResumed, interopCell, reportedAgentVersion } from './interopResults.mjs';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

/** @type {typeof import('../fixtures/modelStub/openai.js')} */
const { startOpenAiStub } = await compiledStub('openai');

const [pkg, version] = splitSpec(CURRENT_AGENT_PACKAGES.copilot);
/** @type {{ pkg: string, version: string, reported?: () => string | undefined }} */
const AGENT = { pkg, version };
const LABEL = 'Copilot (model stub)';
/** What the panel says once the agent answered initialize: its agentInfo title and version. */
const CONNECTED = `Connected to Copilot ${version}.`;
/** The MCP server as the user names it, and its `echo` tool as Copilot offers it to the model. */
const MCP_SERVER = 'acp-test';
const MCP_TOOL = `${MCP_SERVER}-echo`;
const ORIGINAL = 'original line\nkept line\n';
const NEW_CONTENT = '# Hello from copilot\n\nWritten through ACP.\n';
const EDITED = 'edited by copilot\nkept line\n';
const DONE = 'copilot finished both files.';
const TURN_PROMPT = 'Create notes/copilot-new.md and edit copilot-edit.txt';
const AFTER_STOP = 'copilot is still here after the stop.';

/** One patch that adds the new file and edits the existing one (apply_patch's own format, paths relative to the workspace). */
const PATCH = `*** Begin Patch\n*** Add File: notes/copilot-new.md\n${NEW_CONTENT.replace(/^/gm, '+').replace(/\+$/, '')}*** Update File: copilot-edit.txt\n@@\n-original line\n+edited by copilot\n kept line\n*** End Patch\n`;

/** @typedef {import('../fixtures/modelStub/loopback.js').LoopbackRequest} StubRequest */

/** The text of a Responses request's input, for finding what the agent told the model. */
const inputText = (/** @type {StubRequest | undefined} */ r) => JSON.stringify(r?.body?.input ?? []);
const toolNames = (/** @type {StubRequest | undefined} */ r) => (r?.body?.tools ?? []).map((/** @type {any} */ t) => t.name);

describe(`e2e interop: ${pkg} ${version} does whole turns, MCP over loopback HTTP, Stop and resume through the extension`, function () {
  this.timeout(180_000);
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;
  /** @type {import('../fixtures/modelStub/openai.js').OpenAiStub} */
  let stub;
  /** @type {string} */
  let folder;
  /** @type {string} */
  let mcpTmp;
  /** @type {string} */
  let mcpRecord;
  const frame = () => webviewFrame(page);
  const turns = (/** @type {number} */ from) => stub.requests.slice(from).filter((r) => r.kind === 'turn');

  before(async function () {
    stub = await startOpenAiStub();
    const dir = ensureCurrentAgents();
    mcpTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-interop-copilot-mcp-'));
    mcpRecord = path.join(mcpTmp, 'record.jsonl');
    wb = await openWorkbench({
      prefix: 'acp-interop-copilot',
      agents: (tmp) => [copilotWithModelStub(dir, tmp, stub.url)],
      viewport: { width: 1280, height: 900 },
      settings: { 'acpAgents.mcpServers': { [MCP_SERVER]: { command: ensureNode(), args: [MCP_FIXTURE, mcpRecord] } }, 'acpAgents.trace': 'verbose' },
    });
    page = wb.page;
    // Each cell records the version the agent itself reported (its log's "Initialized:" line).
    AGENT.reported = () => reportedAgentVersion(wb.server.userDataDir, LABEL);
    folder = path.join(wb.tmp, 'workspace');
    fs.writeFileSync(path.join(folder, 'copilot-edit.txt'), ORIGINAL);
  });

  after(async function () {
    await wb?.close();
    await stub?.close();
    if (mcpTmp) fs.rmSync(mcpTmp, { recursive: true, force: true });
  });

  it(`copilot ${version}: turn — creates a file and edits another with one patch: permission, diff, Changes, Undo`, async function () {
    await interopCell(AGENT, 'turn', async () => {
      const newFile = path.join(folder, 'notes', 'copilot-new.md');
      const existing = path.join(folder, 'copilot-edit.txt');
      stub.setScript([{ text: ['I will create ', 'the new file ', 'and edit the other.'], call: { name: 'apply_patch', arguments: PATCH }, delayMs: 20 }, { text: [DONE] }]);
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'ACP: New Session');
      await pick(page, LABEL);
      // agentInfo as the panel shows it: the title and version the agent reported.
      await frame().locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
      assert.equal((await frame().locator('.status-text').innerText()).trim(), CONNECTED);
      await send(page, TURN_PROMPT);
      await frame().locator('.msg-agent', { hasText: 'I will create the new file and edit the other.' }).waitFor({ timeout: 60_000 });
      // Copilot's default mode (Agent, Allow All off) asks before it writes.
      const asked = await answerUntil(page, frame().locator('.msg-agent', { hasText: DONE }), (_card, index) => {
        if (index === 0) assert.equal(fs.existsSync(newFile), false, 'nothing is written before the answer');
      });
      assert.ok(asked.length >= 1, 'the agent asked before writing');
      assert.equal(fs.readFileSync(newFile, 'utf8'), NEW_CONTENT, 'the new file is on disk');
      assert.equal(fs.readFileSync(existing, 'utf8'), EDITED, 'the existing file is edited on disk');
      await frame().locator('.diff', { has: frame().locator('.diff-path', { hasText: 'copilot-new.md' }) }).first().waitFor({ state: 'attached', timeout: 10_000 });
      await frame().locator('.diff', { has: frame().locator('.diff-path', { hasText: 'copilot-edit.txt' }) }).first().waitFor({ state: 'attached', timeout: 10_000 });
      const added = frame().locator('.change', { hasText: 'copilot-new.md' });
      const modified = frame().locator('.change', { hasText: 'copilot-edit.txt' });
      await added.waitFor({ timeout: 15_000 });
      await modified.waitFor({ timeout: 15_000 });
      assert.match(await added.innerText(), /added/);
      assert.match(await modified.innerText(), /modified/);
      await screenshot(page, 'interop-copilot-turn');
      await modified.locator('.change-revert').click();
      await modified.waitFor({ state: 'detached', timeout: 15_000 });
      assert.equal(fs.readFileSync(existing, 'utf8'), ORIGINAL, 'Undo put the edited file back');
      assert.equal(fs.readFileSync(newFile, 'utf8'), NEW_CONTENT, 'the other change is still there');
      await added.locator('.change-revert').click();
      await added.waitFor({ state: 'detached', timeout: 15_000 });
      assert.equal(fs.existsSync(newFile), false, 'Undo removed the created file');
      // Offline: the stub was its provider, with the dummy key.
      assert.ok(turns(0).length >= 2 && turns(0).every((r) => r.headers.authorization === 'Bearer sk-offline-dummy-key'), 'the agent talked to the stub with the dummy key');
    });
  });

  it(`copilot ${version}: mcp — the user's stdio MCP server, served to Copilot over loopback HTTP, is started and its tool called`, async function () {
    await interopCell(AGENT, 'mcp', async () => {
      const nonce = `interop-copilot-${Date.now().toString(36)}`;
      stub.setScript([{ text: ['Asking the MCP server.'], call: { name: MCP_TOOL, arguments: { text: nonce } } }, { text: ['The MCP server answered copilot.'] }]);
      const before = stub.requests.length;
      await send(page, `Ask the ${MCP_SERVER} MCP server to echo ${nonce}`);
      const asked = await answerUntil(page, frame().locator('.msg-agent', { hasText: 'The MCP server answered copilot.' }));
      const [first, second] = turns(before);
      assert.ok(toolNames(first).includes(MCP_TOOL), `the model was offered ${MCP_TOOL}: ${toolNames(first)}`);
      // The fixture's record: the agent started it (through the bridge), listed its tools, and called echo with the nonce.
      const lines = mcpLines(mcpRecord);
      const call = lines.findIndex((m) => m.method === 'tools/call' && m.params?.arguments?.text === nonce);
      assert.ok(call >= 0, `the tool was called with the nonce: ${JSON.stringify(lines.filter((m) => m.method === 'tools/call'))}`);
      assert.equal(lines[call].params.name, 'echo');
      const init = lines.slice(0, call).findLastIndex((m) => m.method === 'initialize');
      assert.ok(init >= 0 && lines.slice(init, call).some((m) => m.method === 'tools/list'), 'the agent started the server and listed its tools first');
      assert.equal(lines[init].params?.clientInfo?.name, 'copilot-cli', 'Copilot itself is the MCP client (over the bridge)');
      assert.ok(asked.some((card) => card.includes('echo')), `Copilot asked before the MCP call: ${JSON.stringify(asked)}`);
      // The tool's answer went back to the model, and the panel shows the call and its answer.
      assert.match(inputText(second), new RegExp(`echo: .*${nonce}`));
      await frame().locator('.item.tool', { hasText: `echo: ${nonce}` }).first().waitFor({ state: 'attached', timeout: 10_000 });
      // The MCP status: the server listed its tools, and the note says how it reached the agent.
      const server = frame().locator(`.mcp-server[data-name="${MCP_SERVER}"]`);
      await frame().locator(`.mcp-server[data-name="${MCP_SERVER}"][data-state="listed"]`).waitFor({ state: 'attached', timeout: 15_000 });
      assert.match((await server.textContent()) ?? '', /echo/);
      assert.match((await frame().locator('.mcp-note').textContent()) ?? '', /offered to it over loopback HTTP/);
      return 'over loopback HTTP (Copilot refuses stdio servers)';
    });
  });

  it(`copilot ${version}: cancel — Stop while the model's stream is held ends the turn; the next prompt gets its own answer`, async function () {
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
      const ends = frame().locator('.item.turn-end');
      const endsBefore = await ends.count();
      const before = stub.requests.length;
      await send(page, 'Are you still there?');
      // Its own answer, in its own turn (no stale end_turn: the turn does not end before the answer).
      const answer = frame().locator('.msg-agent', { hasText: AFTER_STOP });
      await answer.waitFor({ timeout: 60_000 });
      await ends.nth(endsBefore).waitFor({ state: 'attached', timeout: 30_000 });
      assert.equal(await ends.count(), endsBefore + 1, 'one turn ended, with the answer');
      assert.equal(await frame().locator('.item.turn-end.reason-cancelled').count(), 1, 'only the stopped turn was cancelled');
      const asked = turns(before);
      assert.equal(asked.length, 1, 'one model request answered the prompt');
      assert.ok(inputText(asked[0]).includes('Are you still there?'), 'the model was asked the prompt after the Stop');
      assert.equal(await frame().locator('.item.notice', { hasText: 'ended this turn at once' }).count(), 0, 'no late-answer notice');
      await screenshot(page, 'interop-copilot-stopped');
    });
  });

  it(`copilot ${version}: resume — after a window reload a click loads the session: live, replayed, and the agent remembers it`, async function () {
    await interopCell(AGENT, 'resume', async () => {
      await reloadToSessions(page);
      await openSessionReplaying(page, LABEL, TURN_PROMPT);
      // Live (session/load answered), not the read-only archive.
      await assertResumed(frame(), wb.server.userDataDir, LABEL);
      await frame().locator('.status-text', { hasText: CONNECTED }).waitFor({ timeout: 60_000 });
      await frame().locator('.msg-agent', { hasText: DONE }).first().waitFor({ timeout: 30_000 });
      await frame().locator('.msg-agent', { hasText: AFTER_STOP }).first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'interop-copilot-resumed');
      // The agent itself has the conversation: the model's next request carries the first turn.
      stub.setScript([{ text: ['copilot remembers the notes.'] }]);
      const before = stub.requests.length;
      await send(page, 'What did I ask first?');
      await frame().locator('.msg-agent', { hasText: 'copilot remembers the notes.' }).waitFor({ timeout: 60_000 });
      const next = turns(before).at(-1);
      assert.ok(inputText(next).includes(TURN_PROMPT) && inputText(next).includes('What did I ask first?'), 'the model request after the load holds the loaded conversation');
      await runCommand(page, 'View: Close All Editors');
    });
  });
});
