// The editor-context MCP server without VS Code: the tools over a plain editor
// port (folders, files.exclude, bounds), the dispatcher against garbage, huge
// lines and floods, and the socket with its secret, through the real shim.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Diagnostic, EditorPort, EditorView, WorkspaceSymbol } from '../../../src/services/editorContext/editorPort';
import { MAX_IN_FLIGHT, MAX_LINE_BYTES, MAX_TOOLS_LINE_BYTES, McpDispatcher } from '../../../src/services/editorContext/mcpDispatcher';
import { EditorContextServer, MAX_PER_GRANT, SERVER_NAME } from '../../../src/services/editorContext/server';
import type { ClientRequestHandler } from '../../../src/acp/clientRequests';
import { CLIENT_TOOLS, EditorTools, MAX_ANSWER_CHARS, MAX_COMMAND_OUTPUT_BYTES, MAX_READ_CHARS, MAX_SELECTION_CHARS, TOOLS } from '../../../src/services/editorContext/tools';
import { closedWith } from '../../support/sockets';

const WS = path.resolve(os.tmpdir(), 'ec-ws');
const OTHER = path.resolve(os.tmpdir(), 'ec-other');
const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

function editor(file: string, text = 'hello world\nsecond line\n', over: Partial<EditorView> = {}): EditorView {
  return { file, languageId: 'typescript', dirty: false, selections: [r(0, 6, 0, 11)], visibleRanges: [r(0, 0, 1, 0)], text: (x) => (x.start.line === 0 ? text.slice(x.start.character, x.end.line === 0 ? x.end.character : undefined) : text), ...over };
}

function port(over: Partial<EditorPort> = {}): EditorPort {
  return {
    enabled: () => true,
    activeEditor: () => editor(path.join(WS, 'src', 'a.ts')),
    lastFocused: () => [],
    visibleEditors: () => [editor(path.join(WS, 'src', 'a.ts')), editor(path.join(OTHER, 'secret.ts'))],
    openEditors: () => [
      { file: path.join(WS, 'src', 'a.ts'), dirty: false, active: true, group: 1 },
      { file: path.join(WS, 'dist', 'out.js'), dirty: false, active: false, group: 1 },
      { file: path.join(OTHER, 'secret.ts'), dirty: true, active: false, group: 2 },
    ],
    diagnostics: () => [],
    symbols: () => Promise.resolve([]),
    excludes: () => ({ '**/dist': true, '**/*.js': { when: '$(basename).ts' } }),
    exists: (f) => f === path.join(WS, 'src', 'gen.ts'),
    ...over,
  };
}

const call = async (tools: EditorTools, name: string, args?: unknown) => {
  const res = await tools.call(name, args);
  if ('error' in res) throw new Error(res.error);
  return ('data' in res ? res.data : res.text) as any;
};

describe('editor context: the tools', () => {
  it('answers only for files inside the session folders that files.exclude does not hide', async () => {
    const tools = new EditorTools(() => [WS], port());
    const open = await call(tools, 'get_open_editors');
    assert.deepEqual(open.openEditors.map((o: { file: string }) => o.file), [path.join(WS, 'src', 'a.ts')], 'dist/ is excluded, the other folder is outside');
    assert.equal(open.active.file, path.join(WS, 'src', 'a.ts'));
    const visible = await call(tools, 'get_visible_ranges');
    assert.deepEqual(visible.editors, [{ file: path.join(WS, 'src', 'a.ts'), active: true, ranges: [{ startLine: 1, endLine: 2 }] }]);
    // Another session, on the other folder, sees only that folder.
    const other = await call(new EditorTools(() => [OTHER], port()), 'get_open_editors');
    assert.deepEqual(other.openEditors.map((o: { file: string }) => o.file), [path.join(OTHER, 'secret.ts')]);
    assert.equal(other.active, null);
  });

  it('the selection: file, 1-based range and text; nothing for an active editor outside the folders', async () => {
    const sel = await call(new EditorTools(() => [WS], port()), 'get_selection');
    assert.equal(sel.file, path.join(WS, 'src', 'a.ts'));
    assert.deepEqual(sel.selections, [{ startLine: 1, startColumn: 7, endLine: 1, endColumn: 12, text: 'world' }]);
    const outside = await call(new EditorTools(() => [WS], port({ activeEditor: () => editor(path.join(OTHER, 'x.ts')) })), 'get_selection');
    assert.equal(outside.file, null);
    const hidden = await call(new EditorTools(() => [WS], port({ activeEditor: () => editor(path.join(WS, 'src', 'gen.js')) })), 'get_selection');
    assert.equal(hidden.file, null, 'gen.js is hidden next to gen.ts (a files.exclude "when" clause)');
    const shown = await call(new EditorTools(() => [WS], port({ activeEditor: () => editor(path.join(WS, 'src', 'lone.js')) })), 'get_selection');
    assert.equal(shown.file, path.join(WS, 'src', 'lone.js'), 'no sibling .ts: not hidden');
  });

  it('no text editor active (the focus in the chat): the editor last focused inside the folders, marked not active', async () => {
    const inside = editor(path.join(WS, 'src', 'b.ts'), 'hello world\n');
    const recent = [editor(path.join(OTHER, 'x.ts')), inside];
    const sel = await call(new EditorTools(() => [WS], port({ activeEditor: () => undefined, lastFocused: () => recent })), 'get_selection');
    assert.equal(sel.file, inside.file, 'the most recent one inside the folders (the other folder’s is skipped)');
    assert.equal(sel.active, false);
    assert.match(sel.note, /last focused/);
    assert.deepEqual(sel.selections, [{ startLine: 1, startColumn: 7, endLine: 1, endColumn: 12, text: 'world' }]);
    // The active one answers as before, unmarked; none focused (or all closed): no editor.
    const active = await call(new EditorTools(() => [WS], port({ lastFocused: () => recent })), 'get_selection');
    assert.equal(active.file, path.join(WS, 'src', 'a.ts'));
    assert.equal(active.active, undefined);
    assert.equal((await call(new EditorTools(() => [WS], port({ activeEditor: () => undefined })), 'get_selection')).file, null);
    // An active editor outside the folders is what the user looks at: not replaced by an older one.
    assert.equal((await call(new EditorTools(() => [WS], port({ activeEditor: () => recent[0], lastFocused: () => recent })), 'get_selection')).file, null);
  });

  it('bounds the selected text and the number of selections', async () => {
    const big = 'x'.repeat(100_000);
    const e = editor(path.join(WS, 'big.ts'), big, { selections: Array.from({ length: 50 }, () => r(1, 0, 5, 0)) });
    const sel = await call(new EditorTools(() => [WS], port({ activeEditor: () => e })), 'get_selection');
    assert.equal(sel.selections.length, 20);
    assert.equal(sel.moreSelections, 30);
    assert.equal(sel.selections[0].text.length, MAX_SELECTION_CHARS);
    assert.equal(sel.selections[0].truncated, true);
    assert.equal(sel.selections[0].length, 100_000);
    assert.ok(JSON.stringify(sel).length <= MAX_ANSWER_CHARS);
  });

  it('holds the whole selection answer to MAX_ANSWER_CHARS, however JSON escapes the text, and says when it cut', async () => {
    // A control character is six characters of JSON (\u0001): 16,000 of them were ~96,000.
    const nasty = '\u0001'.repeat(50_000);
    const e = editor(path.join(WS, 'ctl.ts'), nasty, { selections: [r(1, 0, 2, 0), r(3, 0, 4, 0), r(5, 0, 6, 0)] });
    const res = await new EditorTools(() => [WS], port({ activeEditor: () => e })).call('get_selection', {});
    assert.ok('data' in res);
    const sel = res.data as any;
    const json = JSON.stringify(sel);
    assert.ok(json.length <= MAX_ANSWER_CHARS, `the answer is ${json.length} characters`);
    assert.ok(json.length > MAX_ANSWER_CHARS - 1_000, 'the budget is used, not given up');
    assert.equal(sel.truncated, true);
    assert.equal(sel.selections[0].truncated, true);
    assert.equal(sel.selections[0].length, 50_000);
    assert.ok(sel.selections[0].text.length > 4_000 && /^\u0001+$/.test(sel.selections[0].text));
    assert.deepEqual({ text: sel.selections[2].text, truncated: sel.selections[2].truncated }, { text: '', truncated: true }, 'a selection left without room says so');
    // Surrogate pairs are never split at the cut.
    const emoji = editor(path.join(WS, 'e.ts'), '"\u{1F600}'.repeat(20_000), { selections: [r(1, 0, 2, 0)] });
    const esel = await call(new EditorTools(() => [WS], port({ activeEditor: () => emoji })), 'get_selection');
    assert.ok(JSON.stringify(esel).length <= MAX_ANSWER_CHARS);
    assert.ok(!/[\uD800-\uDBFF]$/.test(esel.selections[0].text), 'no half pair at the end');
    // Plain text within the bounds: whole, not marked.
    const plain = await call(new EditorTools(() => [WS], port()), 'get_selection');
    assert.equal(plain.truncated, undefined);
  });

  it('a link inside the folders to a file outside them is outside, as for fs reads', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ec-link-'));
    try {
      const ws = path.join(tmp, 'ws');
      const out = path.join(tmp, 'outside');
      fs.mkdirSync(ws);
      fs.mkdirSync(out);
      fs.writeFileSync(path.join(out, 'secret.ts'), 'secret\n');
      fs.writeFileSync(path.join(ws, 'mine.ts'), 'mine\n');
      fs.symlinkSync(path.join(out, 'secret.ts'), path.join(ws, 'link.ts'));
      fs.symlinkSync(out, path.join(ws, 'dirlink'));
      const viaLink = path.join(ws, 'link.ts');
      const viaDir = path.join(ws, 'dirlink', 'secret.ts');
      const mine = path.join(ws, 'mine.ts');
      const diag: Diagnostic = { range: r(0, 0, 0, 1), severity: 'error', message: 'x' };
      const p = port({
        activeEditor: () => editor(viaLink),
        visibleEditors: () => [editor(viaLink), editor(viaDir), editor(mine)],
        openEditors: () => [viaLink, viaDir, mine].map((file) => ({ file, dirty: false, active: false, group: 1 })),
        diagnostics: (f) => (f ? [[f, [diag]]] : [viaLink, viaDir, mine].map((file) => [file, [diag]] as const)),
        excludes: () => ({}),
      });
      const tools = new EditorTools(() => [ws], p);
      assert.equal((await call(tools, 'get_selection')).file, null);
      assert.deepEqual((await call(tools, 'get_open_editors')).openEditors.map((o: { file: string }) => o.file), [mine]);
      assert.deepEqual((await call(tools, 'get_visible_ranges')).editors.map((o: { file: string }) => o.file), [mine]);
      assert.deepEqual((await call(tools, 'get_diagnostics')).diagnostics.map((o: { file: string }) => o.file), [mine]);
      for (const file of [viaLink, 'dirlink/secret.ts']) {
        const res = await tools.call('get_diagnostics', { file });
        assert.ok('error' in res && /not a file inside the session folders/.test(res.error), file);
      }
      // A file swapped for a link between two calls (the scope is reused): the second answer does not name it.
      const swap = path.join(ws, 'swap.ts');
      fs.writeFileSync(swap, 'inside\n');
      const swapTools = new EditorTools(() => [ws], port({ ...p, activeEditor: () => editor(swap), diagnostics: () => [[swap, [diag]], [mine, [diag]]] }));
      assert.deepEqual((await call(swapTools, 'get_diagnostics')).diagnostics.map((o: { file: string }) => o.file), [swap, mine]);
      assert.equal((await call(swapTools, 'get_selection')).file, swap);
      fs.rmSync(swap);
      fs.symlinkSync(path.join(out, 'secret.ts'), swap);
      assert.deepEqual((await call(swapTools, 'get_diagnostics')).diagnostics.map((o: { file: string }) => o.file), [mine]);
      assert.equal((await call(swapTools, 'get_selection')).file, null);
      // A link that stays inside is followed (its target is not hidden): served.
      fs.symlinkSync(mine, path.join(ws, 'alias.ts'));
      assert.equal((await call(new EditorTools(() => [ws], port({ ...p, activeEditor: () => editor(path.join(ws, 'alias.ts')) })), 'get_selection')).file, path.join(ws, 'alias.ts'));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('diagnostics: filtered by severity and file, sorted most severe first, bounded in count and size', async () => {
    const d = (severity: Diagnostic['severity'], line: number, message = `m${line}`): Diagnostic => ({ range: r(line, 0, line, 1), severity, message, source: 'ts' });
    const diags: [string, Diagnostic[]][] = [
      [path.join(WS, 'a.ts'), [d('hint', 1), d('error', 2), d('warning', 3)]],
      [path.join(WS, 'dist', 'b.ts'), [d('error', 4)]],
      [path.join(OTHER, 'c.ts'), [d('error', 5)]],
      [path.join(WS, 'huge.ts'), Array.from({ length: 5_000 }, (_, i) => d('information', i, 'y'.repeat(5_000)))],
    ];
    const tools = new EditorTools(() => [WS], port({ diagnostics: (file) => (file ? diags.filter(([f]) => f === file) : diags) }));
    const errors = await call(tools, 'get_diagnostics', { severity: 'warning' });
    assert.deepEqual(errors.diagnostics.map((x: { startLine: number; severity: string }) => [x.severity, x.startLine]), [['error', 3], ['warning', 4]]);
    assert.equal(errors.total, 2);
    const one = await call(tools, 'get_diagnostics', { file: 'a.ts' });
    assert.deepEqual(one.diagnostics.map((x: { severity: string }) => x.severity), ['error', 'warning', 'hint']);
    const all = await call(tools, 'get_diagnostics', { limit: 200 });
    assert.equal(all.total, 5_003);
    assert.equal(all.truncated, true);
    assert.ok(JSON.stringify(all).length <= MAX_ANSWER_CHARS, `${JSON.stringify(all).length} chars`);
    assert.ok(all.diagnostics.every((x: { message: string }) => x.message.length <= 1_001), 'long messages are cut');
    const res = await tools.call('get_diagnostics', { file: path.join(OTHER, 'c.ts') });
    assert.ok('error' in res && /not a file inside the session folders/.test(res.error));
    await assert.rejects(tools.call('get_diagnostics', { severity: 'fatal' }), /severity/);
    await assert.rejects(tools.call('get_diagnostics', { limit: 10_000 }), /limit/);
  });

  it('symbols: inside the folders only, bounded, the query checked', async () => {
    const syms: WorkspaceSymbol[] = Array.from({ length: 1_000 }, (_, i) => ({ name: `Sym${i}`, kind: 'Class', file: path.join(i % 2 ? OTHER : WS, `f${i}.ts`), range: r(i, 2, i, 5) }));
    const tools = new EditorTools(() => [WS], port({ symbols: (q) => Promise.resolve(syms.filter((s) => s.name.startsWith(q))) }));
    const found = await call(tools, 'search_workspace_symbols', { query: 'Sym', limit: 100 });
    assert.equal(found.symbols.length, 100);
    assert.equal(found.truncated, true);
    assert.ok(found.symbols.every((s: { file: string }) => s.file.startsWith(WS + path.sep)));
    assert.deepEqual(found.symbols[0], { name: 'Sym0', kind: 'Class', file: path.join(WS, 'f0.ts'), line: 1, column: 3 });
    await assert.rejects(tools.call('search_workspace_symbols', {}), /query/);
    await assert.rejects(tools.call('search_workspace_symbols', { query: 'q'.repeat(201) }), /query/);
  });

  it('turned off: every tool says so', async () => {
    const res = await new EditorTools(() => [WS], port({ enabled: () => false })).call('get_selection', {});
    assert.ok('error' in res && /turned off/.test(res.error));
  });
});

/** Polls `ok` until it holds (at most 2 s). */
async function waitUntil(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 2_000; !ok(); await new Promise((r) => setTimeout(r, 5))) if (Date.now() > end) throw new Error('timed out');
}

describe('editor context: the file and terminal tools (acpAgents.editorTools)', () => {
  /** A session's request handler that records what it was asked and answers from `answers`. */
  function client(answers: Partial<Record<string, (req: any) => unknown>> = {}) {
    const asked: any[] = [];
    const handler: ClientRequestHandler = async (req) => {
      asked.push(req);
      const answer = answers[req.method];
      return answer ? await answer(req) : {};
    };
    return { asked, handler };
  }

  /** The answers of a terminal whose program runs until it is killed (then exits with SIGTERM, having printed `output`). */
  function untilKilled(terminalId: string, output: { output: string; truncated: boolean }) {
    let exited: (v: unknown) => void = () => undefined;
    const exit = new Promise((r) => (exited = r));
    return {
      'terminal/create': () => ({ terminalId }),
      'terminal/wait_for_exit': () => exit,
      'terminal/kill': () => (exited({ exitCode: null, signal: 'SIGTERM' }), {}),
      'terminal/output': () => ({ ...output, exitStatus: { exitCode: null, signal: 'SIGTERM' } }),
    };
  }

  it('offered only while the session lends its handler (the setting on); asked for anyway, they say they are off', async () => {
    let on = false;
    const c = client();
    const tools = new EditorTools(() => [WS], port(), () => (on ? c.handler : undefined));
    assert.deepEqual(tools.definitions().map((t) => t.name), TOOLS.map((t) => t.name));
    const off = await tools.call('read_file', { path: 'a.ts' });
    assert.ok('error' in off && /acpAgents\.editorTools/.test(off.error));
    assert.deepEqual(c.asked, []);
    on = true;
    assert.deepEqual(tools.definitions().map((t) => t.name), [...TOOLS, ...CLIENT_TOOLS].map((t) => t.name));
    assert.deepEqual(CLIENT_TOOLS.map((t) => t.name), ['read_file', 'write_file', 'run_command']);
  });

  it('read_file and write_file are the session’s fs requests: a relative path from the first folder, line and limit passed, long text cut with where to read on', async () => {
    const c = client({ 'fs/read_text_file': (req) => ({ content: req.path.endsWith('big.txt') ? `${'x'.repeat(10)}\n`.repeat(MAX_READ_CHARS / 5) : 'hello\n' }) });
    const tools = new EditorTools(() => [WS, OTHER], port(), () => c.handler);
    assert.equal(await call(tools, 'read_file', { path: 'src/a.ts' }), 'hello\n');
    await call(tools, 'read_file', { path: path.join(OTHER, 'b.ts'), line: 3, limit: 2 });
    const big = await call(tools, 'read_file', { path: 'big.txt' });
    // 200,000 characters of 11-character lines: 18,181 whole lines, so the next read starts at line 18,182.
    assert.ok(big.length < MAX_READ_CHARS + 200 && big.endsWith('… (cut at 200000 characters: read on with line 18182)'), big.slice(-100));
    assert.equal(await call(tools, 'write_file', { path: 'new/c.ts', content: 'export {};\n' }), `Wrote ${path.join(WS, 'new', 'c.ts')} (11 bytes).`);
    assert.deepEqual(c.asked, [
      { method: 'fs/read_text_file', path: path.join(WS, 'src', 'a.ts') },
      { method: 'fs/read_text_file', path: path.join(OTHER, 'b.ts'), line: 3, limit: 2 },
      { method: 'fs/read_text_file', path: path.join(WS, 'big.txt') },
      { method: 'fs/write_text_file', path: path.join(WS, 'new', 'c.ts'), content: 'export {};\n' },
    ]);
    for (const bad of [{}, { path: '' }, { path: 7 }, { path: 'a\0b' }, { path: 'a', line: 0 }, { path: 'a', limit: 1.5 }]) {
      await assert.rejects(tools.call('read_file', bad), /must be/);
    }
    await assert.rejects(tools.call('write_file', { path: 'a' }), /"content" must be a string/);
    assert.equal(c.asked.length, 4, 'bad arguments reach no handler');
  });

  it('read_file cut: never half a surrogate pair; one line longer than the limit is said so, not offered again', async () => {
    const texts: Record<string, string> = { '/ws/emoji.txt': `${'a'.repeat(MAX_READ_CHARS - 1)}😀tail`, '/ws/long.txt': 'y'.repeat(MAX_READ_CHARS + 10) };
    const c = client({ 'fs/read_text_file': (req) => ({ content: texts[req.path] ?? '' }) });
    const tools = new EditorTools(() => ['/ws'], port(), () => c.handler);
    const emoji = await call(tools, 'read_file', { path: '/ws/emoji.txt' });
    assert.equal(emoji.split('\n')[0], 'a'.repeat(MAX_READ_CHARS - 1), 'the pair is left out whole');
    const long = await call(tools, 'read_file', { path: '/ws/long.txt', line: 7 });
    assert.ok(long.endsWith('… (cut at 200000 characters: line 7 alone is longer than that, and is not read whole)'), long.slice(-120));
  });

  it('write_file over 64 KB reaches the handler when the tools are on (a connection takes longer lines then); a run_command still running when the connection closes is killed', async () => {
    const c = client(untilKilled('t9', { output: '', truncated: false }));
    const tools = new EditorTools(() => [WS], port(), () => c.handler);
    const out: any[] = [];
    const d = new McpDispatcher({ tools, version: '1', write: (l) => out.push(JSON.parse(l)), log: () => undefined, maxLineBytes: MAX_TOOLS_LINE_BYTES });
    const content = 'ü'.repeat(200_000);
    d.receive(Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write_file', arguments: { path: 'big.txt', content } } })}\n`));
    await waitUntil(() => out.length === 1);
    assert.equal(out[0].result.content[0].text, `Wrote ${path.join(WS, 'big.txt')} (400000 bytes).`);
    assert.equal(c.asked[0].content, content);
    // A command that never ends, and its caller gone.
    void tools.call('run_command', { command: 'sleep', args: ['1000'] });
    await waitUntil(() => c.asked.some((r) => r.method === 'terminal/wait_for_exit'));
    tools.close();
    await waitUntil(() => c.asked.some((r) => r.method === 'terminal/kill'));
    assert.deepEqual(c.asked.find((r) => r.method === 'terminal/kill'), { method: 'terminal/kill', terminalId: 't9' });
    await waitUntil(() => c.asked.some((r) => r.method === 'terminal/release'));
  });

  it('run_command cancelled by the client (notifications/cancelled): killed at once, answered as cancelled, released; other calls go on', async () => {
    const c = client(untilKilled('t3', { output: 'partial', truncated: false }));
    const out: any[] = [];
    const d = new McpDispatcher({ tools: new EditorTools(() => [WS], port(), () => c.handler), version: '1', write: (l) => out.push(JSON.parse(l)), log: () => undefined });
    const started = Date.now();
    d.receive(Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'run_command', arguments: { command: 'sleep', args: ['1000'], timeoutSeconds: 600 } } })}\n`));
    await waitUntil(() => c.asked.some((r) => r.method === 'terminal/wait_for_exit'));
    // A cancel for another id changes nothing.
    d.receive(Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'other' } })}\n`));
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(!c.asked.some((r) => r.method === 'terminal/kill'));
    d.receive(Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long', reason: 'the user stopped the turn' } })}\n`));
    await waitUntil(() => out.length === 1);
    assert.ok(Date.now() - started < 2_000, 'not at the 600 s timeout');
    assert.deepEqual(JSON.parse(out[0].result.content[0].text), { exitCode: null, signal: 'SIGTERM', cancelled: true, output: 'partial', truncated: false });
    assert.deepEqual(c.asked.map((r) => r.method), ['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
  });

  it('a refusal of the handler (outside the folders, the user’s no) is the tool’s error, said as it was', async () => {
    const c = client({
      'fs/write_text_file': () => {
        throw Object.assign(new Error('The user declined the write to .vscode/settings.json'), { code: -32000 });
      },
    });
    const res = await new EditorTools(() => [WS], port(), () => c.handler).call('write_file', { path: '.vscode/settings.json', content: '{}' });
    assert.deepEqual(res, { error: 'The user declined the write to .vscode/settings.json' });
  });

  it('run_command: a terminal created with bounded output, waited for, its output and exit answered, then released', async () => {
    const c = client({
      'terminal/create': () => ({ terminalId: 't1' }),
      'terminal/wait_for_exit': () => ({ exitCode: 3, signal: null }),
      'terminal/output': () => ({ output: 'built\n', truncated: false, exitStatus: { exitCode: 3, signal: null } }),
    });
    const tools = new EditorTools(() => [WS], port(), () => c.handler);
    assert.deepEqual(await call(tools, 'run_command', { command: 'npm', args: ['run', 'build'], cwd: 'pkg' }), { exitCode: 3, signal: null, output: 'built\n', truncated: false });
    assert.deepEqual(c.asked.map((r) => r.method), ['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
    assert.deepEqual(c.asked[0], { method: 'terminal/create', command: 'npm', args: ['run', 'build'], env: {}, cwd: path.join(WS, 'pkg'), outputByteLimit: MAX_COMMAND_OUTPUT_BYTES });
    for (const bad of [{}, { command: '' }, { command: 'x', args: 'y' }, { command: 'x', args: [1] }, { command: 'x', timeoutSeconds: 0 }, { command: 'x', timeoutSeconds: 601 }]) {
      await assert.rejects(tools.call('run_command', bad), /must be/);
    }
    assert.equal(c.asked.length, 4);
  });

  it('run_command past its timeout: killed, answered as timed out with what it printed, released', async () => {
    const c = client(untilKilled('t2', { output: 'still going', truncated: true }));
    const tools = new EditorTools(() => [WS], port(), () => c.handler);
    const started = Date.now();
    assert.deepEqual(await call(tools, 'run_command', { command: 'sleep', args: ['100'], timeoutSeconds: 1 }), { exitCode: null, signal: 'SIGTERM', timedOut: true, output: 'still going', truncated: true });
    assert.ok(Date.now() - started < 5_000);
    assert.deepEqual(c.asked.map((r) => r.method), ['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
  });
});

describe('editor context: the MCP dispatcher', () => {
  function dispatcher(tools = new EditorTools(() => [WS], port())) {
    const out: any[] = [];
    const d = new McpDispatcher({ tools, version: '1.2.3', write: (l) => out.push(JSON.parse(l)), log: () => undefined });
    const send = async (...lines: string[]) => {
      d.receive(Buffer.from(lines.map((l) => `${l}\n`).join('')));
      await new Promise((res) => setImmediate(res));
    };
    return { out, send, d };
  }

  it('initialize, notifications/initialized, ping, tools/list and tools/call', async () => {
    const { out, send } = dispatcher();
    await send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      JSON.stringify({ jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'get_selection', arguments: {} } }),
    );
    assert.equal(out.length, 4, 'the notification gets no answer');
    assert.equal(out[0].result.protocolVersion, '2025-06-18');
    assert.deepEqual(out[0].result.capabilities, { tools: { listChanged: false } });
    assert.deepEqual(out[1], { jsonrpc: '2.0', id: 2, result: {} });
    assert.deepEqual(out[2].result.tools.map((t: { name: string }) => t.name), TOOLS.map((t) => t.name));
    assert.equal(out[3].id, 'c');
    assert.equal(JSON.parse(out[3].result.content[0].text).selections[0].text, 'world');
  });

  it('garbage gets clear JSON-RPC errors, and the connection keeps working', async () => {
    const { out, send } = dispatcher();
    await send('not json', '[1,2]', '{"id":1}', JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'nope' }), JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'rm_rf' } }), JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: 'x' }), JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }));
    // tools/call answers after a tick: compare in id order.
    const key = (x: unknown[]) => String(x[0]);
    assert.deepEqual(
      out.map((m) => [m.id, m.error?.code]).sort((a, b) => key(a).localeCompare(key(b))),
      [
        [null, -32700],
        [null, -32600],
        [null, -32600],
        [5, -32601],
        [6, -32602],
        [7, -32602],
        [null, -32600],
      ].sort((a, b) => key(a).localeCompare(key(b))),
    );
    await send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }));
    assert.deepEqual(out.at(-1), { jsonrpc: '2.0', id: 8, result: {} });
  });

  it('a line over the size limit is refused without being held, in pieces or whole; the next line is served', async () => {
    const { out, send, d } = dispatcher();
    const huge = Buffer.alloc(MAX_LINE_BYTES * 4, 'a');
    for (let i = 0; i < huge.length; i += 1000) d.receive(huge.subarray(i, i + 1000));
    await send('', JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }));
    assert.deepEqual(out[0].error.code, -32600);
    assert.match(out[0].error.message, /too large/);
    assert.equal(out.length, 2, 'one error for the long line, then the ping');
    assert.deepEqual(out[1], { jsonrpc: '2.0', id: 9, result: {} });
  });

  it('a flood of slow calls: at most MAX_IN_FLIGHT run, the rest are refused at once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r2) => (release = r2));
    const slow = new EditorTools(() => [WS], port({ symbols: async () => (await gate, []) }));
    const { out, send } = dispatcher(slow);
    await send(...Array.from({ length: 40 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_workspace_symbols', arguments: { query: 'x' } } })));
    assert.equal(out.length, 40 - MAX_IN_FLIGHT);
    assert.ok(out.every((m) => m.error?.code === -32000));
    release();
    await new Promise((res) => setTimeout(res, 10));
    assert.equal(out.length, 40);
    assert.equal(out.filter((m) => m.result).length, MAX_IN_FLIGHT);
  });
});

describe('editor context: the socket, its secret and the shim', function () {
  const shim = path.resolve(__dirname, '../../../src/services/editorContext/shim.js');
  let server: EditorContextServer;
  beforeEach(() => {
    server = new EditorContextServer({ port: port(), shim, node: process.execPath, version: '0.0.1', log: () => undefined });
  });
  afterEach(() => server.dispose());

  const socketOf = (g: { entry: { env: { name: string; value: string }[] } }) => g.entry.env.find((e) => e.name === 'ACP_EDITOR_CONTEXT_SOCKET')!.value;



  it('a wrong or missing secret: the connection is closed and nothing is written', async () => {
    const g = await server.grant(() => [WS]);
    assert.equal(g.entry.name, SERVER_NAME);
    if (process.platform !== 'win32') assert.equal(fs.statSync(path.dirname(socketOf(g))).mode & 0o777, 0o700, 'the socket folder is private');
    const ping = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`;
    assert.equal(await closedWith(socketOf(g), `${'0'.repeat(64)}\n${ping}`), '');
    assert.equal(await closedWith(socketOf(g), ping), '');
    assert.equal(await closedWith(socketOf(g), 'x'.repeat(10_000)), '', 'a long first line without a newline');
    const revoked = await server.grant(() => [WS]);
    revoked.dispose();
    assert.equal(await closedWith(socketOf(g), `${revoked.token}\n${ping}`), '', 'a disposed grant');
  });

  it('one session holds at most its share of the connections: the one over it is closed unanswered, other sessions are still served', async () => {
    const cap = 8;
    const a = await server.grant(() => [WS]);
    const b = await server.grant(() => [WS]);
    const ping = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`;
    /** A connection that logged in and got its answer (kept open). */
    const served = (token: string) =>
      new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(socketOf(a), () => s.write(`${token}\n${ping}`));
        s.on('error', () => undefined);
        s.once('data', () => resolve(s));
        s.once('close', () => reject(new Error('closed unanswered')));
      });
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < cap; i++) open.push(await served(a.token));
      // One more of the same session: closed (or, wrongly, answered: either ends the wait).
      const over = await new Promise<string>((resolve) => {
        const s = net.connect(socketOf(a), () => s.write(`${a.token}\n${ping}`));
        s.on('error', () => undefined);
        s.once('data', () => (s.destroy(), resolve('answered')));
        s.once('close', () => resolve('closed'));
      });
      assert.equal(over, 'closed', 'one more of the same session');
      open.push(await served(b.token));
      assert.equal(MAX_PER_GRANT, cap);
    } finally {
      for (const s of open) s.destroy();
    }
  });

  it('the shim, started as an agent starts it, serves MCP on stdio with the session’s folders', async () => {
    const g = await server.grant(() => [WS]);
    const env = Object.fromEntries(g.entry.env.map((e) => [e.name, e.value]));
    const child = spawn(g.entry.command, g.entry.args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: any[] = [];
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        lines.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_open_editors' } })}\n`);
    const deadline = Date.now() + 10_000;
    while (lines.length < 2 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    assert.equal(lines[0].result.serverInfo.name, 'vscode-editor');
    assert.deepEqual(JSON.parse(lines[1].result.content[0].text).openEditors.map((o: { file: string }) => o.file), [path.join(WS, 'src', 'a.ts')]);
    const exited = new Promise((res) => child.on('exit', res));
    g.dispose();
    assert.equal(await exited, 0, 'the shim exits when its grant goes');
  });
});
