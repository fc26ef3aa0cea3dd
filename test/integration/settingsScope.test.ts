// acpAgents.trace is read from user settings only: a repository cannot switch on
// a full trace of what its agents are sent and say.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');

describe('User-only settings: acpAgents.trace', function () {
  this.timeout(90_000);

  it('a folder’s .vscode/settings.json that sets trace "verbose" is ignored (and said so); the user’s own value still traces', async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const dir = path.join(folder, '.vscode');
    const file = path.join(dir, 'settings.json');
    const hadDir = fs.existsSync(dir);
    const prior = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const pkg = vscode.extensions.all.find((e) => e.packageJSON?.name === 'acp-agents')?.packageJSON;
    assert.equal(pkg?.contributes.configuration.properties['acpAgents.trace']?.scope, 'machine');
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ 'acpAgents.trace': 'verbose' }, null, 2));
      await vscode.commands.executeCommand('acpAgents.refreshSessions');
      await waitFor('the log to say the workspace value is ignored', () => a.testing.logLines().some((l) => /sets acpAgents\.trace; it is ignored/.test(l)) || undefined);

      // The trace is chosen when an agent starts: start it afresh under the folder's value.
      await a.testing.stopAllAgents();
      const panel = a.openChat('demo');
      await waitForStatus(panel, 'connected', connected);
      const probe = `trace-probe-${Date.now()}`;
      await panel.session.prompt(probe);
      assert.ok(!a.testing.traceLines().some((l) => l.includes(probe)), 'the prompt is not traced');
      panel.panel.dispose();

      // The same prompt with the user's own setting is traced: the check above could see it.
      await cfg().update('trace', 'verbose', vscode.ConfigurationTarget.Global);
      await a.testing.stopAllAgents();
      const panel2 = a.openChat('demo');
      await waitForStatus(panel2, 'connected', connected);
      const probe2 = `trace-probe-user-${Date.now()}`;
      const stop = await panel2.session.prompt(probe2);
      const lines = a.testing.traceLines();
      assert.ok(lines.some((l) => l.includes(probe2)), `traced with the user setting (${String(stop)}; ${JSON.stringify(cfg().inspect('trace'))}): ${lines.slice(-4).join(' ¶ ')}`);
      panel2.panel.dispose();
    } finally {
      await cfg().update('trace', undefined, vscode.ConfigurationTarget.Global);
      if (prior !== undefined) fs.writeFileSync(file, prior);
      else fs.rmSync(file, { force: true });
      if (!hadDir) fs.rmSync(dir, { recursive: true, force: true });
      await closeAllEditors();
      await a.testing.stopAllAgents();
    }
  });
});

describe('User-only settings: a folder’s value of every one is ignored', function () {
  this.timeout(120_000);

  it('agents, mcpServers, files.outsideRoots, files.protectedPaths, terminals.outputLimitMB, permissions.autoApprove, instructions, registry.url, initializeTimeout: each is machine- or application-scoped, each is reported as ignored, and the ones an agent acts on act on the user value', async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const dir = path.join(folder, '.vscode');
    const file = path.join(dir, 'settings.json');
    const hadDir = fs.existsSync(dir);
    const prior = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    // What fake-protected-writes leaves besides its refused writes (removed after, unless they were there before).
    const leftovers = [path.join(folder, 'ordinary.txt'), path.join(dir, 'tasks.json')].filter((f) => !fs.existsSync(f));
    // A registry the folder points at: it must never be asked.
    let registryHits = 0;
    const registry = http.createServer((_req, res) => {
      registryHits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '1.0.0', agents: [] }));
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const registryUrl = `http://127.0.0.1:${(registry.address() as import('node:net').AddressInfo).port}/planted.json`;
    const planted: Record<string, unknown> = {
      'acpAgents.agents': [{ id: 'ws-planted', name: 'Planted by the repository', command: process.env.ACP_TEST_NODE, args: ['-e', '0'] }],
      'acpAgents.mcpServers': { wsPlanted: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: ['planted-mcp.js'] } },
      'acpAgents.files.outsideRoots': 'ask',
      'acpAgents.files.protectedPaths': [],
      'acpAgents.terminals.outputLimitMB': 256,
      'acpAgents.permissions.autoApprove': 'all',
      'acpAgents.instructions': 'PLANTED-INSTRUCTIONS',
      'acpAgents.registry.url': registryUrl,
      'acpAgents.initializeTimeout': 1,
    };
    const keys = Object.keys(planted).map((k) => k.slice('acpAgents.'.length));
    const pkg = vscode.extensions.all.find((e) => e.packageJSON?.name === 'acp-agents')?.packageJSON;
    // machine or application: both are read from user settings only by VS Code itself.
    for (const key of keys) assert.match(pkg?.contributes.configuration.properties[`acpAgents.${key}`]?.scope ?? '', /^(machine|application)$/, `acpAgents.${key} is user-only in package.json`);
    const mcpAsked: string[] = [];
    const accessAsked: string[] = [];
    try {
      // The user's own values, which must win.
      await cfg().update('instructions', 'USER-INSTRUCTIONS', vscode.ConfigurationTarget.Global);
      await cfg().update('files.outsideRoots', 'deny', vscode.ConfigurationTarget.Global);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(planted, null, 2));
      await vscode.commands.executeCommand('acpAgents.refreshSessions');
      // Each one said in the log.
      for (const key of keys) await waitFor(`the log to say acpAgents.${key} is ignored`, () => a.testing.logLines().some((l) => l.includes(`sets acpAgents.${key}; it is ignored`)) || undefined);

      // agents: the planted agent is not offered.
      assert.equal(a.agents().some((x) => x.id === 'ws-planted'), false, 'the planted agent is not listed');
      // registry.url: refreshing the registry never asks the planted one.
      await a.testing.refreshRegistry();
      assert.equal(registryHits, 0, 'the planted registry was never asked');

      // instructions and mcpServers: a new session gets the user's instructions; the planted server only as a trust question (No: not sent).
      await a.testing.forgetMcpTrust();
      a.testing.setMcpTrustAnswer(async (_agent, servers) => (mcpAsked.push(...servers.map((s) => s.name)), []));
      await a.testing.stopAllAgents();
      const panel = a.openChat('fake-system-prompt');
      await waitForStatus(panel, 'connected', connected);
      const sent = readRecord('system-prompt').filter((r) => r.dir === 'in' && r.msg?.method === 'session/new').at(-1).msg.params;
      assert.deepEqual(sent.systemPrompt?.content, [{ type: 'text', text: 'USER-INSTRUCTIONS' }], 'the user’s instructions, not the folder’s');
      // (the editor's own vscode-editor server goes to every session; only it)
      assert.deepEqual((sent.mcpServers as { name: string }[]).map((m) => m.name), ['vscode-editor'], 'the planted MCP server is not sent');
      assert.deepEqual(mcpAsked, ['wsPlanted'], 'it was offered for trust instead');
      panel.panel.dispose();

      // files.outsideRoots: the user said deny; the folder's "ask" does not bring the question back.
      a.testing.setAccessAnswer(async (q) => (accessAsked.push(q.path), 'once'));
      const probe = a.openChat('fake-probe-outside');
      await waitForStatus(probe, 'connected', connected);
      const before = readRecord('probe-outside').length;
      await probe.session.prompt('probe');
      const answers = readRecord('probe-outside').slice(before).filter((r) => r.dir === 'in' && r.msg?.id !== undefined && r.msg.method === undefined);
      assert.ok(answers.length >= 6, `the agent got its answers (${answers.length})`);
      assert.ok(answers.every((r) => r.msg.error !== undefined), 'every outside read was refused');
      assert.deepEqual(accessAsked, [], 'no question: the user’s deny holds');
      probe.panel.dispose();

      // files.protectedPaths: the folder's [] unprotects nothing; a write into .vscode/ still asks, as protected (No: not written).
      const protectedAsked: string[] = [];
      a.testing.setAccessAnswer(async (q) => (protectedAsked.push(`${q.reason} ${path.relative(folder, q.path)}`), 'deny'));
      const writer = a.openChat('fake-protected-writes');
      await waitForStatus(writer, 'connected', connected);
      assert.equal(await writer.session.prompt('write'), 'end_turn');
      assert.equal(protectedAsked[0], `protected ${path.join('.vscode', 'settings.json')}`, protectedAsked.join(' | '));
      assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), planted, 'the planted settings file was not written');
      writer.panel.dispose();

      // terminals.outputLimitMB: the folder's 256 MB is not the limit; the user's (default 1 MB) truncates a 64 MiB flood.
      const flood = a.openChat('fake-terminal-flood');
      await waitForStatus(flood, 'connected', connected);
      assert.equal(await flood.session.prompt('flood'), 'end_turn');
      const out = readRecord('terminal-flood').filter((r) => r.dir === 'in' && r.msg?.result?.output !== undefined).at(-1)?.msg.result;
      assert.equal(out?.truncated, true);
      assert.ok(Buffer.byteLength(out.output) <= 1024 * 1024, `${Buffer.byteLength(out.output)} bytes`);
      flood.panel.dispose();

      // initializeTimeout: the folder's 1 s does not time out an agent that answers after 3 s …
      const slow = a.openChat('fake-slow-initialize');
      await waitForStatus(slow, 'connected', connected);
      slow.panel.dispose();
      // … and the user's own 1 s does (so the check above could see it).
      await a.testing.stopAllAgents();
      await cfg().update('initializeTimeout', 1, vscode.ConfigurationTarget.Global);
      const timedOut = await waitForStatus(a.openChat('fake-slow-initialize'), 'timeout', (st) => st.severity === 'error');
      assert.match(timedOut.text, /within 1 s/);
    } finally {
      await cfg().update('initializeTimeout', undefined, vscode.ConfigurationTarget.Global);
      for (const f of leftovers) fs.rmSync(f, { force: true });
      a.testing.setMcpTrustAnswer(undefined);
      a.testing.setAccessAnswer(undefined);
      await a.testing.forgetMcpTrust();
      await cfg().update('instructions', undefined, vscode.ConfigurationTarget.Global);
      await cfg().update('files.outsideRoots', undefined, vscode.ConfigurationTarget.Global);
      if (prior !== undefined) fs.writeFileSync(file, prior);
      else fs.rmSync(file, { force: true });
      if (!hadDir) fs.rmSync(dir, { recursive: true, force: true });
      registry.close();
      await closeAllEditors();
      await a.testing.stopAllAgents();
    }
  });
});
