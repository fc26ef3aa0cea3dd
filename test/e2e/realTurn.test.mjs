// A real agent doing whole turns through the installed .vsix, offline:
// @zed-industries/claude-agent-acp (Claude Code) talks to a loopback stub of the
// Anthropic Messages API (test/fixtures/modelStub) that scripts the model's side —
// streamed text, then a Write tool call. Everything between the model and the
// file on disk is the real agent and the real extension in a real VS Code.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../harness/testEnv.mjs';
import { claudeWithModelStub, codexWithModelStub, ensureRealAgents } from '../harness/realAgents.mjs';
import { openWorkbench, pick, runCommand, screenshot, webviewFrame } from './workbench.mjs';

// The model stubs as `node esbuild.mjs --tests` compiled them into out/ (CommonJS), typed
// from their sources (a path the type checker does not follow, so out/ need not exist for it).
/** @param {string} name */
const compiledStub = async (name) => (await import(pathToFileURL(path.join(ROOT, 'out', 'test', 'fixtures', 'modelStub', `${name}.js`)).href)).default;
/** @type {typeof import('../fixtures/modelStub/anthropic.js')} */
const { startAnthropicStub } = await compiledStub('anthropic');
/** @type {typeof import('../fixtures/modelStub/openai.js')} */
const { startOpenAiStub } = await compiledStub('openai');

describe('e2e: real agents (claude-agent-acp 0.23.1, codex-acp 0.16.0) do whole turns against loopback model stubs', function () {
  this.timeout(180_000);
  /** @type {import('../fixtures/modelStub/anthropic.js').AnthropicStub} */
  let stub;
  /** @type {import('../fixtures/modelStub/openai.js').OpenAiStub} */
  let openai;
  /** @type {import('./workbench.mjs').Workbench} */
  let wb;
  /** @type {import('./workbench.mjs').Page} */
  let page;
  /** @type {import('./workbench.mjs').FrameLocator} */
  let frame;
  /** @type {string} */
  let folder;

  before(async function () {
    stub = await startAnthropicStub();
    openai = await startOpenAiStub();
    const agents = ensureRealAgents();
    wb = await openWorkbench({
      prefix: 'acp-real-turn',
      agents: (tmp) => [claudeWithModelStub(agents, tmp, stub.url), codexWithModelStub(agents, tmp, openai.url)],
      viewport: { width: 1280, height: 900 },
    });
    page = wb.page;
    folder = path.join(wb.tmp, 'workspace');
    assert.ok(fs.existsSync(folder), `the sample workspace is at ${folder}`);
  });

  after(async function () {
    await wb?.close();
    await stub?.close();
    await openai?.close();
  });

  /** @param {string} text */
  async function send(text) {
    const input = frame.locator('#input');
    await input.click();
    await input.fill(text);
    await input.press('Enter');
  }

  it('Claude: streams the reply, shows the Write call with its diff, asks permission, writes the file on Allow, lists it in Changes, and reverts it', async function () {
    const target = path.join(folder, 'notes', 'hello.md');
    stub.setScript([
      {
        text: ['I will create ', '`notes/hello.md` ', 'with a greeting.'],
        toolUse: { name: 'Write', input: { file_path: target, content: '# Hello\n\nWritten by Claude Code through ACP.\n' } },
        delayMs: 30,
      },
      { text: ['Created ', 'notes/hello.md ', '— anything else?'], delayMs: 30 },
    ]);
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Claude Agent (model stub)');
    frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });

    await send('Create notes/hello.md with a greeting');
    // Streamed text from the model, through Claude Code and the agent, in the panel.
    await frame.locator('.msg-agent', { hasText: 'I will create notes/hello.md with a greeting.' }).waitFor({ timeout: 60_000 });
    // The permission prompt, showing the Write call and its diff.
    const allow = frame.locator('.permission-option', { hasText: /^Allow$/ });
    await allow.waitFor({ timeout: 60_000 });
    // On the Write call's own card (one card per tool call): its diff, then the options.
    const card = frame.locator('.item.tool', { hasText: 'Write notes/hello.md' }).last();
    assert.deepEqual(await card.locator('.permission-options button').allTextContents(), ['Always Allow', 'Allow', 'Reject']);
    const toolText = await card.innerText();
    assert.ok(toolText.includes('Written by Claude Code through ACP.'), `the Write call shows its diff: ${toolText}`);
    assert.equal(fs.existsSync(target), false, 'nothing is written before the answer');
    await screenshot(page, 'real-turn-permission');

    await allow.click();
    await frame.locator('.msg-agent', { hasText: 'Created notes/hello.md — anything else?' }).waitFor({ timeout: 60_000 });
    assert.equal(fs.readFileSync(target, 'utf8'), '# Hello\n\nWritten by Claude Code through ACP.\n', 'Claude Code wrote the file');
    await frame.locator('.permission-verdict', { hasText: 'Allow' }).first().waitFor({ timeout: 5000 });

    // The model saw the tool's result: the second turn request carries a tool_result.
    const turns = stub.requests.filter((r) => r.kind === 'turn');
    assert.equal(turns.length, 2, `turn requests: ${turns.length}`);
    const last = turns[1].body.messages.at(-1);
    assert.ok(JSON.stringify(last).includes('tool_result'), 'the second request answers the tool call');
    assert.equal(turns[0].headers['x-api-key'], 'sk-ant-offline-dummy-key');

    // The agent wrote the file itself; the Changes list has it, and Revert removes it.
    const change = frame.locator('.change', { hasText: 'hello.md' });
    await change.waitFor({ timeout: 15_000 });
    assert.match(await change.innerText(), /added/);
    await screenshot(page, 'real-turn-changes');
    await change.locator('.change-revert').click();
    await change.waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal(fs.existsSync(target), false, 'Revert removed the created file');
  });

  it('Claude: a Reject is honoured: the file is not written and the model is told', async function () {
    const target = path.join(folder, 'rejected.txt');
    stub.setScript([
      { text: ['Writing ', 'rejected.txt.'], toolUse: { name: 'Write', input: { file_path: target, content: 'should never exist\n' } } },
      { text: ['Understood, ', 'I did not write it.'] },
    ]);
    await send('Write rejected.txt');
    const reject = frame.locator('.permission-option', { hasText: /^Reject$/ });
    await reject.waitFor({ timeout: 60_000 });
    await reject.click();
    await frame.locator('.msg-agent', { hasText: 'Understood, I did not write it.' }).waitFor({ timeout: 60_000 });
    assert.equal(fs.existsSync(target), false);
    const turns = stub.requests.filter((r) => r.kind === 'turn');
    const last = turns.at(-1);
    assert.ok(last, 'the agent sent the model a turn');
    const result = JSON.stringify(last.body.messages.at(-1));
    assert.ok(result.includes('tool_result'), result.slice(0, 500));
    assert.equal(await frame.locator('.change', { hasText: 'rejected.txt' }).count(), 0);
  });

  it('Codex: streams the reply, asks before applying its patch, applies it on Yes, lists the new file in Changes, and reverts it', async function () {
    const target = path.join(folder, 'notes', 'codex.md');
    openai.setScript([
      {
        text: ['Adding ', '`notes/codex.md` ', 'as asked.'],
        call: { name: 'apply_patch', arguments: `*** Begin Patch\n*** Add File: ${target}\n+# From Codex\n+Applied through ACP.\n*** End Patch\n` },
        delayMs: 30,
      },
      { text: ['Patched ', 'notes/codex.md.'], delayMs: 30 },
    ]);
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Codex (model stub)');
    frame = webviewFrame(page);
    await frame.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 90_000 });
    await send('Create notes/codex.md');
    await frame.locator('.msg-agent', { hasText: 'Adding notes/codex.md as asked.' }).waitFor({ timeout: 60_000 });
    const yes = frame.locator('.permission-option', { hasText: /^Yes$/ });
    await yes.waitFor({ timeout: 60_000 });
    assert.match(await frame.locator('.item.tool', { has: frame.locator('.permission-option', { hasText: /^Yes$/ }) }).last().innerText(), /codex\.md/);
    assert.ok((await frame.locator('.item.tool', { hasText: 'codex.md' }).last().innerText()).includes('Applied through ACP.'), 'the patch shows as a diff');
    assert.equal(fs.existsSync(target), false, 'nothing is written before the answer');
    await yes.click();
    await frame.locator('.msg-agent', { hasText: 'Patched notes/codex.md.' }).waitFor({ timeout: 60_000 });
    assert.equal(fs.readFileSync(target, 'utf8'), '# From Codex\nApplied through ACP.\n');
    const change = frame.locator('.change', { hasText: 'codex.md' });
    await change.waitFor({ timeout: 15_000 });
    assert.match(await change.innerText(), /added/);
    const turns = openai.requests.filter((r) => r.kind === 'turn');
    assert.equal(turns.length, 2);
    assert.ok(JSON.stringify(turns[1].body.input).includes('custom_tool_call_output'), 'the second request carries the patch result');
    assert.equal(turns[0].headers.authorization, 'Bearer sk-offline-dummy-key');
    await screenshot(page, 'real-turn-codex');
    await change.locator('.change-revert').click();
    await change.waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal(fs.existsSync(target), false, 'Revert removed the file Codex created');
  });
});
