// terminal/* from a fake agent, in the real host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

describe('Client terminals (terminal/*)', function () {
  this.timeout(60_000);

  after(async () => {
    const a = await api();
    a.testing.setOutsideAnswer(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('byte limit cut at a character boundary, kill keeps the terminal, release frees it, exit code and signal, cwd held to the roots; output shown in the tool call', async () => {
    const a = await api();
    a.testing.setOutsideAnswer(async () => false);
    const panel = a.openChat('fake-terminal-ops');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('run things'), 'end_turn');
    const rec = readRecord('terminal-ops').filter((r) => r.dir === 'in' && r.msg?.id?.startsWith?.('agent-') && r.msg.method === undefined);
    const [t1, exit1, out1, t2, kill2, exit2, out2, rel2, out2b, t3] = rec.map((r) => r.msg.result ?? { error: r.msg.error });

    assert.match(t1.terminalId, /^term-/);
    assert.deepEqual(exit1, { exitCode: 0, signal: null });
    assert.equal(out1.truncated, true);
    assert.ok(Buffer.byteLength(out1.output) <= 101, `${Buffer.byteLength(out1.output)} bytes`);
    assert.ok(!out1.output.includes('\uFFFD'), 'cut at a character boundary');
    assert.match(out1.output, /é+ERR-LINE\n$/, 'stdout and stderr together, the newest kept');
    assert.deepEqual(out1.exitStatus, { exitCode: 0, signal: null });

    assert.match(t2.terminalId, /^term-/);
    assert.deepEqual(kill2, {});
    assert.equal(exit2.signal, 'SIGTERM');
    assert.match(out2.output, /sleeping/, 'output still works after kill');
    assert.equal(out2.exitStatus.signal, 'SIGTERM');
    assert.deepEqual(rel2, {});
    assert.equal(out2b.error.code, -32002, 'output after release fails');
    assert.match(t3.error.message, /outside the session's folders/, 'a cwd outside the roots is refused');

    // The tool call shows the terminal's output (kept after release).
    const tool = panel.session.transcript.items.find((i) => i.kind === 'tool' && i.toolCallId === 'run-1') as any;
    const term = tool.content.find((c: any) => c.type === 'terminal');
    assert.match(term.output, /ERR-LINE/);
    assert.deepEqual(term.exitStatus, { exitCode: 0, signal: null });

    // The output is mirrored into a VS Code terminal, named after the tool call that shows it
    // (the agent created it before the tool call referenced it).
    await waitFor('a VS Code terminal named after the tool call', () => vscode.window.terminals.find((t) => t.name === 'Fake: terminal-ops: Print accents'), 5000).catch((err) => {
      throw new Error(`${String(err)}; terminals: ${vscode.window.terminals.map((t) => t.name).join(' | ')}`);
    });
    const others = vscode.window.terminals.map((t) => t.name).filter((n) => n.startsWith('Fake: terminal-ops: '));
    assert.ok(others.some((n) => /sleep|node/.test(n)), `terminals without a tool call keep the command's name: ${others.join(' | ')}`);
  });
});
