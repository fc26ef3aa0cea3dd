// The editor's own MCP server (vscode-editor), called by a real agent: Claude
// Code behind @zed-industries/claude-agent-acp, driven by the Anthropic model
// stub, starts the shim the extension hands it, and calls each editor-context
// tool; what comes back is this VS Code's actual state. Nothing reaches the network.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToolItem } from '../../src/shared/transcriptTypes';
import { startAnthropicStub, type AnthropicStub } from '../fixtures/modelStub/anthropic';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus, allowOnce } from './helpers';

const AGENT = 'claude-editor-context';
const TOOL = (name: string) => `mcp__vscode-editor__${name}`;

describe('Editor context: a real agent reads the editor through the extension’s MCP server', function () {
  this.timeout(180_000);
  let stub: AnthropicStub;
  const disposables: vscode.Disposable[] = [];
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  let original: unknown;
  let harnessValue: unknown;

  before(async () => {
    stub = await startAnthropicStub();
    const cfg = vscode.workspace.getConfiguration('acpAgents');
    original = cfg.inspect('agents')?.globalValue;
    assert.equal(cfg.inspect('editorContext')?.defaultValue, true);
    harnessValue = cfg.inspect('editorContext')?.globalValue;
    await cfg.update('editorContext', true, vscode.ConfigurationTarget.Global);
    const agents = cfg.get<{ id: string; env?: Record<string, string> }[]>('agents') ?? [];
    const claude = agents.find((x) => x.id === 'real-claude');
    assert.ok(claude, 'the harness configures real-claude');
    const env = { ...claude.env, ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_KEY: 'sk-ant-offline-dummy-key', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' };
    await cfg.update('agents', [...agents, { ...claude, id: AGENT, name: 'Claude (editor context)', env }], vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('acpAgents').update('agents', original, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('acpAgents').update('editorContext', harnessValue, vscode.ConfigurationTarget.Global);
    await stub?.close();
  });
  afterEach(async () => {
    while (disposables.length) disposables.pop()?.dispose();
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  it('claude-agent-acp calls each tool and gets the selection, the open editors, the problems, the symbols and the visible ranges', async () => {
    const a = await api();
    const dir = path.join(folder(), 'editor-context');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'probe.ts');
    fs.writeFileSync(file, 'export class EditorContextProbe {\n  selectedWords = 42;\n}\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 2, 1, 15);
    // A problem and a symbol of our own, so that the answers are known.
    const problems = vscode.languages.createDiagnosticCollection('editor-context-test');
    problems.set(doc.uri, [new vscode.Diagnostic(new vscode.Range(0, 13, 0, 31), 'Probe problem: class is unused', vscode.DiagnosticSeverity.Error)]);
    disposables.push(problems);
    disposables.push(
      vscode.languages.registerWorkspaceSymbolProvider({
        provideWorkspaceSymbols: (q) => (q.includes('Probe') ? [new vscode.SymbolInformation('EditorContextProbe', vscode.SymbolKind.Class, 'probe', new vscode.Location(doc.uri, new vscode.Position(0, 13)))] : []),
      }),
    );
    // What the outside of the folders would show must never be answered: a file outside is not opened here,
    // the unit tests cover the filter; this test is about the real path.
    stub.setScript([
      { toolUse: { name: TOOL('get_selection'), input: {} } },
      { toolUse: { name: TOOL('get_open_editors'), input: {} } },
      { toolUse: { name: TOOL('get_diagnostics'), input: { severity: 'error' } } },
      { toolUse: { name: TOOL('search_workspace_symbols'), input: { query: 'Probe' } } },
      { toolUse: { name: TOOL('get_visible_ranges'), input: {} } },
      { text: ['I have looked at your editor.'] },
    ]);

    const panel = a.openChat(AGENT);
    await waitForStatus(panel, 'connected', connected, 90_000);
    // The session got the server next to the user's (none here).
    assert.ok(a.testing.logLines().some((l) => /MCP servers sent: .*vscode-editor/.test(l)), 'vscode-editor is handed to the agent');
    // The panel took the focus: bring the probe back, with its selection, as the user would see it.
    await vscode.window.showTextDocument(doc, { preserveFocus: false, viewColumn: editor.viewColumn });
    vscode.window.activeTextEditor!.selection = new vscode.Selection(1, 2, 1, 15);
    const perms = allowOnce(panel);
    let stop: string | undefined;
    try {
      stop = await panel.session.prompt('What am I looking at?');
    } finally {
      perms.stop();
    }
    assert.equal(stop, 'end_turn');

    // What the model was given back for each call: the tool_result texts, in order.
    const turns = stub.requests.filter((r) => r.kind === 'turn');
    const offered: string[] = (turns[0]?.body.tools ?? []).map((t: { name: string }) => t.name);
    for (const name of ['get_selection', 'get_open_editors', 'get_diagnostics', 'search_workspace_symbols', 'get_visible_ranges']) assert.ok(offered.includes(TOOL(name)), `the model was offered ${TOOL(name)}: ${offered.join(', ')}`);
    const results = toolResults(turns.at(-1)?.body.messages ?? []);
    assert.equal(results.length, 5, `five tool results: ${JSON.stringify(results).slice(0, 2000)}`);
    const [selection, open, diagnostics, symbols, visible] = results.map((t) => JSON.parse(t));
    assert.equal(selection.file, file);
    assert.deepEqual(selection.selections, [{ startLine: 2, startColumn: 3, endLine: 2, endColumn: 16, text: 'selectedWords' }]);
    assert.equal(open.active.file, file);
    assert.ok(open.openEditors.some((o: { file: string }) => o.file === file), JSON.stringify(open));
    assert.deepEqual(
      diagnostics.diagnostics.filter((d: { file: string }) => d.file === file).map((d: { message: string; severity: string; startLine: number; startColumn: number }) => [d.severity, d.message, d.startLine, d.startColumn]),
      [['error', 'Probe problem: class is unused', 1, 14]],
    );
    assert.ok(symbols.symbols.some((s: { name: string; file: string; line: number }) => s.name === 'EditorContextProbe' && s.file === file && s.line === 1), JSON.stringify(symbols));
    const probe = visible.editors.find((e: { file: string }) => e.file === file);
    assert.ok(probe?.ranges.length >= 1 && probe.ranges[0].startLine === 1, JSON.stringify(visible));

    // The calls show in the panel as the agent's tool calls.
    const calls = panel.session.transcript.items.filter((i): i is ToolItem => i.kind === 'tool');
    assert.ok(calls.length >= 5, `tool calls in the panel: ${JSON.stringify(calls.map((c) => c.title))}`);
    assert.ok(calls.every((c) => c.status === 'completed'), JSON.stringify(calls.map((c) => [c.title, c.status])));
  });

  it('a file outside the folders, opened through a link inside them, is not served: its real path is outside, as for fs reads', async () => {
    const a = await api();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ec-outside-'));
    const dir = path.join(folder(), 'editor-context-link');
    const link = path.join(dir, 'linked-secret.ts');
    const mine = path.join(dir, 'mine.ts');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.ts'), 'export const outsideSecret = "not for agents";\n');
    fs.writeFileSync(mine, 'export const mine = 1;\n');
    fs.symlinkSync(path.join(outside, 'secret.ts'), link);
    let shim: ReturnType<typeof startShim> | undefined;
    try {
      const panel = a.openChat('fake-default');
      await waitForStatus(panel, 'connected', connected);
      const created = readRecord('default').filter((r) => r.dir === 'in' && r.msg?.method === 'session/new').at(-1)?.msg.params;
      const entry = created?.mcpServers.find((s: { name: string }) => s.name === 'vscode-editor');
      assert.ok(entry, 'the fake agent was handed vscode-editor');
      const mineDoc = await vscode.workspace.openTextDocument(mine);
      await vscode.window.showTextDocument(mineDoc, { preview: false });
      const doc = await vscode.workspace.openTextDocument(link);
      assert.equal(doc.uri.fsPath, link, 'VS Code names the document by the link');
      const problems = vscode.languages.createDiagnosticCollection('editor-context-link-test');
      disposables.push(problems);
      const problem = () => [new vscode.Diagnostic(new vscode.Range(0, 0, 0, 6), 'Link probe problem', vscode.DiagnosticSeverity.Error)];
      problems.set(doc.uri, problem());
      problems.set(mineDoc.uri, problem());
      shim = startShim(entry);

      // The file inside, active and selected: served (the calls reach this VS Code's editor).
      vscode.window.activeTextEditor!.selection = new vscode.Selection(0, 13, 0, 17);
      assert.equal((await shim.call('get_selection')).file, mine);
      // The linked file, active and selected: not served, nor listed, nor its problems.
      const editor = await vscode.window.showTextDocument(doc, { preview: false });
      editor.selection = new vscode.Selection(0, 0, 0, 30);
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, link);
      const sel = await shim.call('get_selection');
      assert.equal(sel.file, null, JSON.stringify(sel).slice(0, 500));
      const open = await shim.call('get_open_editors');
      assert.deepEqual(open.openEditors.map((o: { file: string }) => o.file), [mine], JSON.stringify(open).slice(0, 500));
      assert.equal(open.active, null);
      const all = await shim.call('get_diagnostics', { severity: 'error' });
      const files = all.diagnostics.filter((d: { message: string }) => d.message === 'Link probe problem').map((d: { file: string }) => d.file);
      assert.deepEqual(files, [mine]);
      const one = await shim.call('get_diagnostics', { file: link }, true);
      assert.match(one, /not a file inside the session folders/);
      const visible = await shim.call('get_visible_ranges');
      assert.ok(!visible.editors.some((e: { file: string }) => e.file === link), JSON.stringify(visible).slice(0, 500));
      // No text of the file outside anywhere.
      assert.ok(!JSON.stringify([sel, open, all, visible]).includes('not for agents'));
    } finally {
      shim?.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('the focus in the chat panel: get_selection answers the editor last focused, marked not active; its tab closed: no editor', async () => {
    const a = await api();
    const dir = path.join(folder(), 'editor-context-focus');
    const file = path.join(dir, 'focused.ts');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, 'export const focusedWords = 7;\n');
    let shim: ReturnType<typeof startShim> | undefined;
    try {
      const panel = a.openChat('fake-default');
      await waitForStatus(panel, 'connected', connected);
      const created = readRecord('default').filter((r) => r.dir === 'in' && r.msg?.method === 'session/new').at(-1)?.msg.params;
      shim = startShim(created?.mcpServers.find((s: { name: string }) => s.name === 'vscode-editor'));
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: false });
      editor.selection = new vscode.Selection(0, 13, 0, 25);
      const text = [{ startLine: 1, startColumn: 14, endLine: 1, endColumn: 26, text: 'focusedWords' }];
      const focused = await shim.call('get_selection');
      assert.deepEqual([focused.file, focused.active, focused.selections], [file, undefined, text], 'the active editor, as before');
      // The user goes back to the chat to type: no text editor is active any more.
      panel.panel.reveal(undefined, false);
      await waitFor('the chat panel to take the focus', () => (panel.panel.active && vscode.window.activeTextEditor === undefined ? true : undefined));
      const sel = await shim.call('get_selection');
      assert.equal(sel.file, file, JSON.stringify(sel).slice(0, 500));
      assert.equal(sel.active, false, 'marked as not the active editor');
      assert.match(sel.note, /last focused/);
      assert.deepEqual(sel.selections, text);
      // Its tab closed: no editor, as before.
      const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === file);
      assert.ok(tab, 'the file has its tab');
      await vscode.window.tabGroups.close(tab);
      const none = await shim.call('get_selection');
      assert.equal(none.file, null, JSON.stringify(none).slice(0, 500));
    } finally {
      shim?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('acpAgents.editorTools on: read_file answers unsaved text, write_file is a change in Changes that Undo takes back (a protected path asks), run_command runs in a VS Code terminal; off, even with a folder’s true: not offered', async () => {
    const a = await api();
    const cfg = vscode.workspace.getConfiguration('acpAgents');
    const pkg = vscode.extensions.all.find((e) => e.packageJSON?.name === 'acp-agents')?.packageJSON;
    assert.equal(pkg?.contributes.configuration.properties['acpAgents.editorTools']?.scope, 'application');
    assert.equal(pkg?.contributes.configuration.properties['acpAgents.editorTools']?.default, false);
    const prior = cfg.inspect('editorTools')?.globalValue;
    const dir = path.join(folder(), 'editor-tools');
    const draft = path.join(dir, 'draft.txt');
    const made = path.join(dir, 'made.txt');
    const guarded = path.join(folder(), '.vscode', 'editor-tools-probe.json');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(draft, 'on disk\n');
    const asked: { path: string; reason?: string }[] = [];
    a.testing.setAccessAnswer(async (q) => (asked.push(q), 'deny'));
    const shims: ReturnType<typeof startShim>[] = [];
    let doc: vscode.TextDocument | undefined;
    const folderSettings = path.join(folder(), '.vscode', 'settings.json');
    const hadVscodeDir = fs.existsSync(path.dirname(folderSettings));
    const priorSettings = fs.existsSync(folderSettings) ? fs.readFileSync(folderSettings, 'utf8') : undefined;
    const handed = () => readRecord('default').filter((r) => r.dir === 'in' && r.msg?.method === 'session/new').at(-1)?.msg.params.mcpServers.find((x: { name: string }) => x.name === 'vscode-editor');
    try {
      await cfg.update('editorTools', true, vscode.ConfigurationTarget.Global);
      const panel = a.openChat('fake-default');
      await waitForStatus(panel, 'connected', connected);
      const shim = startShim(handed());
      shims.push(shim);
      const names = await shim.list();
      for (const t of ['read_file', 'write_file', 'run_command']) assert.ok(names.includes(t), `offered: ${names.join(', ')}`);

      // read_file: the editor's unsaved text, not the disk's.
      doc = await vscode.workspace.openTextDocument(draft);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), 'unsaved text\n');
      assert.equal(await vscode.workspace.applyEdit(edit), true);
      assert.equal(await shim.callText('read_file', { path: 'editor-tools/draft.txt' }), 'unsaved text\n');

      // write_file: written, listed in the session's Changes as added, and Undo removes it.
      assert.equal(await shim.callText('write_file', { path: made, content: 'made by the tool\n' }), `Wrote ${made} (17 bytes).`);
      assert.equal(fs.readFileSync(made, 'utf8'), 'made by the tool\n');
      const listed = await waitFor('made.txt in Changes', () => panel.session.checkpoints.changes.list().find((c) => c.path === made));
      assert.equal(listed.added, true);
      assert.equal(await panel.session.checkpoints.changes.revert(made), true);
      assert.equal(fs.existsSync(made), false, 'Undo removed the file the tool made');

      // A protected path asks the user; the no is the tool's error, and nothing is written.
      const refused = await shim.callText('write_file', { path: guarded, content: '{}' }, true);
      assert.ok(asked.some((q) => q.path === guarded), `asked about ${guarded}: ${JSON.stringify(asked)}`);
      assert.ok(!fs.existsSync(guarded), 'nothing written');
      assert.match(refused, /editor-tools-probe\.json|denied|declined|not allowed|refused/i, refused);

      // run_command: a program in a VS Code terminal, its output and exit code answered.
      const opened = new Promise<vscode.Terminal>((resolve) => {
        const sub = vscode.window.onDidOpenTerminal((t) => (sub.dispose(), resolve(t)));
      });
      const ran = await shim.call('run_command', { command: process.execPath, args: ['-e', 'console.log("ran " + (6 * 7)); process.exit(4)'], cwd: 'editor-tools', timeoutSeconds: 60 });
      assert.equal(ran.exitCode, 4, JSON.stringify(ran));
      assert.match(ran.output, /ran 42/);
      const terminal = await opened;
      assert.ok(terminal.name.startsWith('Fake: default: '), `shown as the agent's VS Code terminal: ${terminal.name}`);
      panel.panel.dispose();
      await a.testing.stopAllAgents();

      // Off (the default), and a folder that sets it true: ignored (and said so); the same server offers only the editor's views.
      await cfg.update('editorTools', prior, vscode.ConfigurationTarget.Global);
      fs.mkdirSync(path.dirname(folderSettings), { recursive: true });
      fs.writeFileSync(folderSettings, JSON.stringify({ ...(priorSettings ? JSON.parse(priorSettings) : {}), 'acpAgents.editorTools': true }, null, 2));
      await vscode.commands.executeCommand('acpAgents.refreshSessions');
      await waitFor('the log to say the folder’s value is ignored', () => a.testing.logLines().some((l) => /sets acpAgents\.editorTools; it is ignored/.test(l)) || undefined);
      const off = a.openChat('fake-default');
      await waitForStatus(off, 'connected', connected);
      const plain = startShim(handed());
      shims.push(plain);
      const offered = await plain.list();
      assert.ok(offered.includes('get_selection') && !offered.some((t: string) => ['read_file', 'write_file', 'run_command'].includes(t)), offered.join(', '));
      assert.match(await plain.callText('read_file', { path: draft }, true), /acpAgents\.editorTools/);
      off.panel.dispose();
    } finally {
      for (const sh of shims) sh.close();
      a.testing.setAccessAnswer(undefined);
      await cfg.update('editorTools', prior, vscode.ConfigurationTarget.Global);
      if (doc?.isDirty) {
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(guarded, { force: true });
      if (priorSettings !== undefined) fs.writeFileSync(folderSettings, priorSettings);
      else fs.rmSync(folderSettings, { force: true });
      if (!hadVscodeDir) fs.rmSync(path.dirname(folderSettings), { recursive: true, force: true });
    }
  });

  it('acpAgents.editorContext: a folder’s value is ignored (and said so); the user’s false leaves the server out; the secret never shows in the trace', async () => {
    const a = await api();
    const cfg = vscode.workspace.getConfiguration('acpAgents');
    const pkg = vscode.extensions.all.find((e) => e.packageJSON?.name === 'acp-agents')?.packageJSON;
    assert.equal(pkg?.contributes.configuration.properties['acpAgents.editorContext']?.scope, 'application');
    const dir = path.join(folder(), '.vscode');
    const file = path.join(dir, 'settings.json');
    const hadDir = fs.existsSync(dir);
    const prior = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const sent = (from: number) => a.testing.logLinesSince(from).filter((l) => /MCP servers sent: .*vscode-editor/.test(l)).length;
    try {
      await cfg.update('trace', 'verbose', vscode.ConfigurationTarget.Global);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ 'acpAgents.editorContext': false }, null, 2));
      await vscode.commands.executeCommand('acpAgents.refreshSessions');
      await waitFor('the log to say the folder’s value is ignored', () => a.testing.logLines().some((l) => /sets acpAgents\.editorContext; it is ignored/.test(l)) || undefined);
      await a.testing.stopAllAgents();
      let from = a.testing.logMark();
      const panel = a.openChat('demo');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(sent(from), 1, 'handed despite the folder’s false');
      // The editor server's env (its token) travels inside the relay's settings (ACP_MCP_RELAY), whose value
      // the trace redacts whole, as every env value.
      const trace = a.testing.traceLines().filter((l) => l.includes('session/new') && l.includes('vscode-editor') && l.includes('ACP_MCP_RELAY'));
      assert.ok(trace.length > 0, 'session/new is traced');
      assert.ok(!trace.some((l) => /[0-9a-f]{64}/.test(l)), `the session's secret is redacted: ${trace[0]?.slice(0, 600)}`);
      panel.panel.dispose();

      await cfg.update('editorContext', false, vscode.ConfigurationTarget.Global);
      from = a.testing.logMark();
      const off = a.openChat('demo');
      await waitForStatus(off, 'connected', connected);
      assert.equal(sent(from), 0, 'the user turned it off');
      off.panel.dispose();
    } finally {
      await cfg.update('editorContext', true, vscode.ConfigurationTarget.Global);
      await cfg.update('trace', undefined, vscode.ConfigurationTarget.Global);
      if (prior !== undefined) fs.writeFileSync(file, prior);
      else fs.rmSync(file, { force: true });
      if (!hadDir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});


/** The text of every tool_result the agent sent back to the model, in order. */
function toolResults(messages: { role: string; content: unknown }[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const block of m.content as { type: string; content?: unknown }[]) {
      if (block.type !== 'tool_result') continue;
      const c = block.content;
      out.push(typeof c === 'string' ? c : Array.isArray(c) ? (c as { type: string; text?: string }[]).filter((x) => x.type === 'text').map((x) => x.text ?? '').join('') : '');
    }
  }
  return out;
}


/**
 * The vscode-editor server as an agent starts it: the entry's command, arguments and environment,
 * MCP on stdio. `call` answers a tool's JSON data, or (`error`) its error text.
 */
function startShim(entry: { command: string; args: string[]; env: { name: string; value: string }[] }) {
  const env = Object.fromEntries(entry.env.map((e) => [e.name, e.value]));
  const child = spawn(entry.command, entry.args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const answers = new Map<number, any>();
  let buf = '';
  let id = 0;
  child.stdout.on('data', (c: Buffer) => {
    buf += c.toString();
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      answers.set(msg.id, msg);
    }
  });
  const send = (method: string, params: unknown) => {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })}\n`);
    const mine = id;
    return waitFor(`the answer to ${method} #${mine}`, () => answers.get(mine));
  };
  const ready = send('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } });
  const callText = async (name: string, args: Record<string, unknown> = {}, error = false): Promise<string> => {
    await ready;
    const msg = await send('tools/call', { name, arguments: args });
    const text = msg.result?.content?.[0]?.text;
    assert.equal(msg.result?.isError === true, error, `${name}: ${JSON.stringify(msg).slice(0, 500)}`);
    return text;
  };
  return {
    async call(name: string, args: Record<string, unknown> = {}, error = false): Promise<any> {
      const text = await callText(name, args, error);
      return error ? text : JSON.parse(text);
    },
    /** The tool's answer as text (read_file and write_file answer text, not JSON). */
    callText,
    async list(): Promise<string[]> {
      await ready;
      return (await send('tools/list', {})).result.tools.map((t: { name: string }) => t.name);
    },
    close: () => child.kill(),
  };
}
