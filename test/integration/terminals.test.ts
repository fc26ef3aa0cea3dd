// terminal/* from a fake agent, in the real host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import { api, closeAllEditors, connected, isAlive, readRecord, waitFor, waitForStatus } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');

/** The pid a lingering terminal printed, as its tool call shows it. */
async function lingeringPid(panel: ChatPanel): Promise<number> {
  const seen = () => {
    const tool = panel.session.transcript.items.find((i) => i.kind === 'tool' && i.toolCallId === 'serve-1') as any;
    const out: string | undefined = tool?.content.find((c: any) => c.type === 'terminal')?.output;
    const m = /LINGERING-PID (\d+)/.exec(out ?? '');
    return m ? Number(m[1]) : undefined;
  };
  return await waitFor('the terminal’s pid in its tool call', seen);
}

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
  it('acpAgents.terminals.outputLimitMB set by the user (0.01 MB): a terminal without outputByteLimit keeps that much, the newest, not the default 1 MB', async () => {
    const a = await api();
    await cfg().update('terminals.outputLimitMB', 0.01, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the setting to reach the extension host', () => cfg().get('terminals.outputLimitMB') === 0.01 || undefined);
      const flood = a.openChat('fake-terminal-flood');
      await waitForStatus(flood, 'connected', connected);
      const before = readRecord('terminal-flood').length;
      assert.equal(await flood.session.prompt('flood'), 'end_turn');
      const out = readRecord('terminal-flood').slice(before).filter((r) => r.dir === 'in' && r.msg?.result?.output !== undefined).at(-1)?.msg.result;
      const limit = Math.round(0.01 * 1024 * 1024);
      assert.equal(out?.truncated, true);
      const bytes = Buffer.byteLength(out.output);
      assert.ok(bytes <= limit && bytes > limit / 2, `${bytes} bytes kept, the limit ${limit}`);
      assert.match(out.output, /FLOOD-END\n$/, 'the newest output kept');
      flood.panel.dispose();
    } finally {
      await cfg().update('terminals.outputLimitMB', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a terminal left running is killed when its session closes: by the user (panel closed), and when the agent exits', async () => {
    const a = await api();
    // The agent exits (its second prompt): the terminal it left running goes with it.
    const panel = a.openChat('fake-terminal-lingering');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('serve'), 'end_turn');
    const first = await lingeringPid(panel);
    assert.ok(isAlive(first), `the terminal (pid ${first}) outlives the turn`);
    await panel.session.prompt('exit').catch(() => undefined);
    await waitFor(`the terminal process ${first} to be gone after the agent exited`, () => !isAlive(first) || undefined, 10_000);
    panel.panel.dispose();

    // The user closes the panel while the agent runs on: the terminal goes, the agent stays.
    const second = a.openChat('fake-terminal-lingering');
    await waitForStatus(second, 'connected', connected);
    assert.equal(await second.session.prompt('serve'), 'end_turn');
    const pid = await lingeringPid(second);
    assert.ok(pid !== first && isAlive(pid), `a new terminal (pid ${pid}) outlives the turn`);
    second.panel.dispose();
    await waitFor(`the terminal process ${pid} to be gone after the panel closed`, () => !isAlive(pid) || undefined, 10_000);
    assert.equal(a.agentStatus('fake-terminal-lingering'), 'running', 'the agent itself was not what stopped it');
  });
});
