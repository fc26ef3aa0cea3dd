// Trust boundaries in the real host: a cloned repository or the agent itself
// can never widen what the agent may do.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AccessQuestion } from '../../src/sessions/policy/accessGate';
import type { PermissionItem, ToolItem } from '../../src/shared/transcriptTypes';
import { api, backdate, closeAllEditors, connected, endSessions, nextLogLine, readRecord, recordFile, waitFor, waitForStatus } from './helpers';

const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const cfg = () => vscode.workspace.getConfiguration('acpAgents');
const insideAnyFolder = (p: string) => (vscode.workspace.workspaceFolders ?? []).some((f) => p === f.uri.fsPath || p.startsWith(`${f.uri.fsPath}${path.sep}`));

/** The agent's answers to its own requests, by the name the scenario stored them under (in order). */
function answers(scenario: string): any[] {
  return readRecord(scenario)
    .filter((r) => r.dir === 'in' && typeof r.msg?.id === 'string' && r.msg.id.startsWith('agent-') && r.msg.method === undefined)
    .map((r) => r.msg.result ?? { error: r.msg.error });
}

function lastSessionNew(scenario: string): any {
  return readRecord(scenario)
    .filter((r) => r.dir === 'in' && r.msg?.method === 'session/new')
    .at(-1)?.msg.params;
}

/** Writes JSON with comments stripped by nobody: a plain settings file VS Code watches. */
function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

describe('Trust boundaries: a repository or the agent cannot widen what the agent may do', function () {
  this.timeout(120_000);

  afterEach(async () => {
    const a = await api();
    a.testing.setOutsideAnswer(undefined);
    a.testing.setAccessAnswer(undefined);
    a.testing.setMcpTrustAnswer(undefined);
    await endSessions();
  });

  it('workspace settings with autoApprove "all" are ignored (and said so in the log): the edit permission prompt stays on screen', async () => {
    const a = await api();
    const wsFile = vscode.workspace.workspaceFile!.fsPath;
    const original = fs.readFileSync(wsFile, 'utf8');
    const folderSettings = path.join(folder(), '.vscode', 'settings.json');
    try {
      writeJson(wsFile, { ...JSON.parse(original), settings: { 'acpAgents.permissions.autoApprove': 'all' } });
      writeJson(folderSettings, { 'acpAgents.permissions.autoApprove': 'all', 'acpAgents.files.outsideRoots': 'ask' });
      await vscode.commands.executeCommand('acpAgents.refreshSessions');
      await waitFor('the log to say the workspace value is ignored', () => a.testing.logLines().some((l) => /sets acpAgents\.permissions\.autoApprove; it is ignored/.test(l)) || undefined);
      const panel = a.openChat('fake-perm-names');
      await waitForStatus(panel, 'connected', connected);
      const asking = nextLogLine(a, (l) => /permission .*: asking the user/.test(l));
      const turn = panel.session.prompt('edit');
      const pending = await waitFor('a permission prompt', () => panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission'));
      // The decision, logged when the request came: an automatic answer is given in the same tick, never later.
      await asking.wait('the log to say it asks the user');
      assert.equal(pending.state, 'pending', 'not answered automatically');
      assert.equal(panel.session.permissions.answer(pending.id, 'no'), true);
      for (const next of ['no', 'no']) {
        const p = await waitFor('the next prompt', () => panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.state === 'pending'));
        panel.session.permissions.answer(p.id, next);
      }
      assert.equal(await turn, 'end_turn');
    } finally {
      fs.writeFileSync(wsFile, original);
      fs.rmSync(path.join(folder(), '.vscode'), { recursive: true, force: true });
    }
  });

  it('"Allow always" for one tool does not approve a differently named tool with the same title; an option without a kind is never taken for an allow', async () => {
    const a = await api();
    try {
      const panel = a.openChat('fake-perm-names');
      await waitForStatus(panel, 'connected', connected);
      const turn = panel.session.prompt('edit twice');
      const first = await waitFor('the first prompt', () => panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.state === 'pending'));
      panel.session.permissions.answer(first.id, 'always');
      // Same title, another tool: asked again (the agent-chosen title is not the key).
      const second = await waitFor('the second prompt', () => panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.state === 'pending' && i.id !== first.id));
      assert.equal(second.toolCallId, 'a-2');
      assert.equal(second.options.find((o) => o.optionId === 'kindless')?.kind, 'unknown');
      panel.session.permissions.answer(second.id, 'no');
      // The first tool again: allowed always, without a prompt.
      assert.equal(await turn, 'end_turn');
      const [p1, p2, p3] = answers('perm-names').slice(-3);
      assert.deepEqual(p1.outcome, { outcome: 'selected', optionId: 'always' });
      assert.deepEqual(p2.outcome, { outcome: 'selected', optionId: 'no' });
      assert.deepEqual(p3.outcome, { outcome: 'selected', optionId: 'always' });
      const third = panel.session.transcript.items.filter((i): i is PermissionItem => i.kind === 'permission').at(-1)!;
      assert.equal(third.toolCallId, 'a-3');
      assert.equal(third.state, 'auto');

      // autoApprove "all": an option without a kind is still not an allow; the explicit allow is picked.
      await cfg().update('permissions.autoApprove', 'all', vscode.ConfigurationTarget.Global);
      const panel2 = a.openChat('fake-perm-names');
      await waitForStatus(panel2, 'connected', connected);
      assert.equal(await panel2.session.prompt('again'), 'end_turn');
      const auto = answers('perm-names').slice(-3);
      assert.deepEqual(auto.map((x) => x.outcome.optionId), ['once', 'always', 'always']);
    } finally {
      await cfg().update('permissions.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('under autoApprove "edits", an edit of a relative .vscode/settings.json and of ~/.bashrc named only in rawInput is asked, not answered; a plain edit inside still is', async () => {
    const a = await api();
    try {
      await cfg().update('permissions.autoApprove', 'edits', vscode.ConfigurationTarget.Global);
      const panel = a.openChat('fake-perm-paths');
      await waitForStatus(panel, 'connected', connected);
      const turn = panel.session.prompt('edit');
      // An automatic answer settles the request as it is added: seen pending, it was asked.
      for (const id of ['pp-1', 'pp-2']) {
        const asked = await waitFor(`the question for ${id}`, () => panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.toolCallId === id));
        assert.equal(asked.state, 'pending', `${id} is asked, not answered automatically`);
        assert.equal(panel.session.permissions.answer(asked.id, 'no'), true);
      }
      assert.equal(await turn, 'end_turn');
      const [p1, p2, p3] = answers('perm-paths').slice(-3);
      assert.deepEqual([p1.outcome, p2.outcome], [{ outcome: 'selected', optionId: 'no' }, { outcome: 'selected', optionId: 'no' }]);
      assert.deepEqual(p3.outcome, { outcome: 'selected', optionId: 'once' }, 'the plain edit inside the folder is still approved by "edits"');
      const third = panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.toolCallId === 'pp-3');
      assert.equal(third?.state, 'auto');
      const log = a.testing.logLines();
      assert.ok(log.some((l) => /"\.vscode\/settings\.json" \(locations\) resolves to .*, a protected path \(\.vscode\/\*\*\)/.test(l)), 'the log says which path and which rule');
      assert.ok(log.some((l) => l.includes(`"~/.bashrc" (rawInput.file_path) resolves to ${path.join(os.homedir(), '.bashrc')}, outside the session's folders`)));
    } finally {
      await cfg().update('permissions.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('under autoApprove "read", a Glob of ~/.ssh/* and a read whose include is rooted outside the folder are asked, not answered; a Grep inside still is', async () => {
    const a = await api();
    try {
      await cfg().update('permissions.autoApprove', 'read', vscode.ConfigurationTarget.Global);
      const panel = a.openChat('fake-perm-globs');
      await waitForStatus(panel, 'connected', connected);
      const turn = panel.session.prompt('look around');
      for (const id of ['pg-1', 'pg-2']) {
        const asked = await waitFor(`the question for ${id}`, () => panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.toolCallId === id));
        assert.equal(asked.state, 'pending', `${id} is asked, not answered automatically`);
        assert.equal(panel.session.permissions.answer(asked.id, 'no'), true);
      }
      assert.equal(await turn, 'end_turn');
      const [g1, g2, g3] = answers('perm-globs').slice(-3);
      assert.deepEqual([g1.outcome, g2.outcome], [{ outcome: 'selected', optionId: 'no' }, { outcome: 'selected', optionId: 'no' }]);
      assert.deepEqual(g3.outcome, { outcome: 'selected', optionId: 'once' }, 'the Grep inside the folder is still approved by "read"');
      assert.equal(panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.toolCallId === 'pg-3')?.state, 'auto');
      const log = a.testing.logLines();
      assert.ok(log.some((l) => l.includes(`"~/.ssh/*" (rawInput.pattern (glob)) resolves to ${path.join(os.homedir(), '.ssh')}, outside the session's folders`)), 'the log names the glob and where it leads');
    } finally {
      await cfg().update('permissions.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a workspace .vscode/mcp.json server is not in session/new until the user trusts it (shown its command line), and is after; ${env:…} is never expanded in it', async () => {
    const a = await api();
    const mcpFile = path.join(folder(), '.vscode', 'mcp.json');
    writeJson(mcpFile, { servers: { repoServer: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: ['repo-mcp.js', '--token=${env:HOME}'] } } });
    await a.testing.forgetMcpTrust();
    const shown: string[] = [];
    try {
      a.testing.setMcpTrustAnswer(async (_agent, servers) => {
        shown.push(...servers.map((s) => `${s.name}: ${s.display}`));
        return [];
      });
      const panel = a.openChat('fake-default');
      await waitForStatus(panel, 'connected', connected);
      assert.deepEqual(lastSessionNew('default').mcpServers.map((s: any) => s.name), ['vscode-editor'], 'not trusted: not sent');
      assert.equal(shown.length, 1);
      assert.ok(shown[0]!.includes(`repoServer: ${process.env.ACP_TEST_NODE} repo-mcp.js --token=\${env:HOME}`), shown[0]);
      assert.ok(panel.session.transcript.items.some((i) => i.kind === 'notice' && JSON.stringify(i).includes('repoServer') && JSON.stringify(i).includes('not trusted')), 'the panel names it as skipped');
      // A refusal is not asked again in this window.
      const again = a.openChat('fake-default');
      await waitForStatus(again, 'connected', connected);
      assert.equal(shown.length, 1);

      await a.testing.forgetMcpTrust();
      a.testing.setMcpTrustAnswer(async (_agent, servers) => servers.map((s) => s.hash));
      const trusted = a.openChat('fake-default');
      await waitForStatus(trusted, 'connected', connected);
      const sent = lastSessionNew('default').mcpServers;
      assert.deepEqual(sent.map((s: any) => s.name), ['repoServer', 'vscode-editor']);
      // (after the MCP relay's own: its script, "--", the server's command)
      assert.deepEqual(sent[0].args.slice(3), ['repo-mcp.js', '--token=${env:HOME}'], 'no environment value reaches a workspace-defined server');

      // A changed definition needs trust again.
      let askedAgain = 0;
      a.testing.setMcpTrustAnswer(async () => {
        askedAgain++;
        return [];
      });
      writeJson(mcpFile, { servers: { repoServer: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: ['other.js'] } } });
      const changed = a.openChat('fake-default');
      await waitForStatus(changed, 'connected', connected);
      assert.equal(askedAgain, 1);
      assert.deepEqual(lastSessionNew('default').mcpServers.map((s: any) => s.name), ['vscode-editor']);
    } finally {
      fs.rmSync(path.join(folder(), '.vscode'), { recursive: true, force: true });
      await a.testing.forgetMcpTrust();
    }
  });

  it('Manage Trusted Workspace MCP Servers lists a trusted workspace server checked; unchecked, it is revoked (the next session asks again and, declined, does not get it); checked again, it is sent; its definition gone, Forget Them forgets it', async () => {
    const a = await api();
    const mcpFile = path.join(folder(), '.vscode', 'mcp.json');
    writeJson(mcpFile, { servers: { repoServer: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: ['repo-mcp.js'] } } });
    await a.testing.forgetMcpTrust();
    await a.testing.forgetGeminiTrust();
    const sentNames = () => lastSessionNew('default').mcpServers.map((s: any) => s.name);
    const offered: { label: string; picked?: boolean }[][] = [];
    const manage = async (keep: (label: string) => boolean) => {
      a.testing.setTrustPicker(async (items) => (offered.push([...items]), items.map((i) => i.label).filter(keep)));
      await vscode.commands.executeCommand('acpAgents.manageMcpTrust');
      return offered.at(-1)!.map((i) => `${i.label}${i.picked ? ' (checked)' : ''}`);
    };
    let asked = 0;
    try {
      a.testing.setMcpTrustAnswer(async (_agent, servers) => (asked++, servers.map((s) => s.hash)));
      const first = a.openChat('fake-default');
      await waitForStatus(first, 'connected', connected);
      assert.deepEqual([asked, sentNames()], [1, ['repoServer', 'vscode-editor']], 'trusted at the question');

      // Listed, checked; left unchecked: revoked.
      assert.deepEqual(await manage(() => false), ['repoServer (checked)']);
      a.testing.setMcpTrustAnswer(async () => (asked++, []));
      const revoked = a.openChat('fake-default');
      await waitForStatus(revoked, 'connected', connected);
      assert.deepEqual([asked, sentNames()], [2, ['vscode-editor']], 'asked again, and declined: not sent');

      // Checked again in the command: trusted, sent without a question.
      assert.deepEqual(await manage(() => true), ['repoServer']);
      const again = a.openChat('fake-default');
      await waitForStatus(again, 'connected', connected);
      assert.deepEqual([asked, sentNames()], [2, ['repoServer', 'vscode-editor']], 'trusted from the command');

      // The definition removed: the command offers to forget the trust left over; Forget Them forgets it.
      fs.rmSync(mcpFile);
      const shown: string[] = [];
      a.testing.setMessageAnswer(async (m) => (shown.push(m.message), m.actions.find((x) => x === 'Forget Them')));
      await vscode.commands.executeCommand('acpAgents.manageMcpTrust');
      await vscode.commands.executeCommand('acpAgents.manageMcpTrust');
      assert.equal(shown.length, 2, shown.join(' | '));
      assert.match(shown[0]!, /defines no MCP servers now; 1 earlier definition\(s\) are still trusted/);
      assert.match(shown[1]!, /defines no MCP servers, and none is trusted/, 'forgotten');
      assert.equal(offered.length, 2, 'no checklist without servers');
    } finally {
      a.testing.setTrustPicker(undefined);
      a.testing.setMessageAnswer(undefined);
      fs.rmSync(path.join(folder(), '.vscode'), { recursive: true, force: true });
      await a.testing.forgetMcpTrust();
    }
  });

  it('the agent’s fs/write_text_file to .vscode/settings.json and .git/hooks/pre-commit asks, naming the agent and path — whatever autoApprove says — and nothing is written on Deny; its own change there is flagged "sensitive"', async () => {
    const a = await api();
    await cfg().update('permissions.autoApprove', 'all', vscode.ConfigurationTarget.Global);
    fs.mkdirSync(path.join(folder(), '.git', 'hooks'), { recursive: true });
    // A repository has its .vscode folder already (a file in a folder made mid-turn can escape the watcher).
    fs.mkdirSync(path.join(folder(), '.vscode'), { recursive: true });
    const asked: AccessQuestion[] = [];
    a.testing.setAccessAnswer(async (q) => {
      asked.push(q);
      return 'deny';
    });
    try {
      const panel = a.openChat('fake-protected-writes');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('write'), 'end_turn');
      const [w1, w2, w3] = answers('protected-writes').slice(-3);
      assert.match(w1.error.message, /protected path \(\.vscode\/\*\*\)/);
      assert.match(w2.error.message, /protected path \(\.git\/\*\*\)/);
      assert.deepEqual(w3, {});
      assert.deepEqual(asked.map((q) => `${q.reason} ${q.action} ${path.relative(folder(), q.path)} ${q.agentName}`), [
        'protected write .vscode/settings.json Fake: protected-writes',
        `protected write ${path.join('.git', 'hooks', 'pre-commit')} Fake: protected-writes`,
      ]);
      assert.equal(fs.existsSync(path.join(folder(), '.vscode', 'settings.json')), false);
      assert.equal(fs.existsSync(path.join(folder(), '.git', 'hooks', 'pre-commit')), false);
      // The agent wrote .vscode/tasks.json on its own: listed, and flagged.
      const tasks = await waitFor('tasks.json in the Changes list', () => panel.session.checkpoints.changes.list().find((c) => c.name === 'tasks.json'));
      assert.equal(tasks.sensitive, '.vscode/**');
      assert.equal(panel.session.checkpoints.changes.list().find((c) => c.name === 'ordinary.txt')?.sensitive, undefined);

      // Allowed once: written.
      asked.length = 0;
      a.testing.setAccessAnswer(async (q) => {
        asked.push(q);
        return 'once';
      });
      assert.equal(await panel.session.prompt('again'), 'end_turn');
      assert.equal(asked.length, 2);
      assert.ok(fs.readFileSync(path.join(folder(), '.git', 'hooks', 'pre-commit'), 'utf8').startsWith('#!/bin/sh'));
    } finally {
      await cfg().update('permissions.autoApprove', undefined, vscode.ConfigurationTarget.Global);
      for (const d of ['.vscode', '.git', 'ordinary.txt']) fs.rmSync(path.join(folder(), d), { recursive: true, force: true });
    }
  });

  it('six probes outside the folders at once raise one question at a time, not a storm; "Deny all for this turn" refuses the rest; the next turn asks again', async () => {
    const a = await api();
    let open = 0;
    let maxOpen = 0;
    const asked: string[] = [];
    a.testing.setAccessAnswer(async (q) => {
      open++;
      maxOpen = Math.max(maxOpen, open);
      asked.push(q.path);
      await new Promise((r) => setTimeout(r, 100));
      open--;
      return 'deny-turn';
    });
    const panel = a.openChat('fake-probe-outside');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('probe'), 'end_turn');
    assert.equal(maxOpen, 1, 'never two questions at once');
    assert.equal(asked.length, 1, `one question, then the rest refused: ${asked.join(', ')}`);
    const six = answers('probe-outside').slice(-6);
    assert.equal(six.filter((x) => /outside the session's folders/.test(x.error?.message ?? '')).length, 6);
    assert.equal(await panel.session.prompt('probe again'), 'end_turn');
    assert.equal(asked.length, 2, 'a new turn asks again');
  });

  it('a package runner (npx) starts outside the workspace; the session still gets the workspace folder', async () => {
    const a = await api();
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-npx-'));
    const npx = path.join(bin, 'npx');
    fs.writeFileSync(npx, `#!/bin/sh\nexec "${process.env.ACP_TEST_NODE}" "${path.join(process.env.ACP_TEST_FIXTURES!, 'agents', 'fake-agent.mjs')}" default\n`, { mode: 0o755 });
    const agents = cfg().inspect<unknown[]>('agents')!.globalValue ?? [];
    const record = recordFile('via-npx');
    await cfg().update('agents', [...agents, { id: 'via-npx', name: 'Via npx', command: npx, args: ['-y', 'some-agent'], env: { ACP_FAKE_RECORD: record } }], vscode.ConfigurationTarget.Global);
    try {
      const panel = a.openChat('via-npx');
      await waitForStatus(panel, 'connected', connected);
      const start = readRecord('via-npx').find((r) => r.dir === 'start');
      assert.ok(!insideAnyFolder(start.cwd), `started in ${start.cwd}`);
      assert.match(start.cwd, /acp-agents[\\/]run$/);
      assert.equal(lastSessionNew('via-npx').cwd, folder());
    } finally {
      await cfg().update('agents', agents, vscode.ConfigurationTarget.Global);
    }
  });

  it('a session with no folder gets an empty scratch folder in global storage as its root, never the host’s cwd', async () => {
    const a = await api();
    const panel = a.testing.openChatWithoutFolder('fake-default');
    await waitForStatus(panel, 'connected', connected);
    const cwd = lastSessionNew('default').cwd as string;
    assert.match(cwd, /acp-agents[\\/]scratch[\\/]/);
    assert.notEqual(cwd, process.cwd());
    assert.ok(!insideAnyFolder(cwd));
    assert.deepEqual(fs.readdirSync(cwd), []);
  });

  it('fs/read_text_file refuses a FIFO and a directory with a clear error (nothing hangs) and reads a regular file', async () => {
    const a = await api();
    const fifo = path.join(folder(), 'pipe-read.fifo');
    execFileSync('mkfifo', [fifo]);
    try {
      const panel = a.openChat('fake-reads-edge');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('read'), 'end_turn');
      const [r1, r2, r3] = answers('reads-edge').slice(-3);
      assert.match(r1.error.message, /not a regular file \(a FIFO\)/);
      assert.match(r2.error.message, /not a regular file \(a directory\)/);
      assert.match(r3.content, /greet/);
    } finally {
      fs.rmSync(fifo, { force: true });
    }
  });

  it('Revert restores a Latin-1 file byte for byte, and a file rewritten by sed -i (a new inode) is "modified" — restored from git when it was clean, never deleted', async () => {
    const a = await api();
    const root = folder();
    const latin1 = path.join(root, 'latin1.txt');
    const tracked = path.join(root, 'tracked.txt');
    const untracked = path.join(root, 'untracked.txt');
    const latinBytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6c, 0x64, 0x0a]); // "café old\n" in Latin-1
    fs.writeFileSync(latin1, latinBytes);
    fs.writeFileSync(tracked, 'tracked old line\n');
    fs.writeFileSync(untracked, 'untracked old line\n');
    const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'base');
    git('add', 'tracked.txt');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'tracked');
    // The repository's hooks and config too: the watcher reports those, and git init's late events once fell inside the turn.
    backdate(latin1, tracked, untracked, path.join(root, '.git', 'hooks'), path.join(root, '.git', 'config'));
    const inode = fs.statSync(tracked).ino;
    try {
      const panel = a.openChat('fake-rewrites');
      await waitForStatus(panel, 'connected', connected);
      assert.equal(await panel.session.prompt('rewrite'), 'end_turn');
      assert.notEqual(fs.statSync(tracked).ino, inode, 'sed -i made a new inode');
      await waitFor('three changes', () => (panel.session.checkpoints.changes.list().length >= 3 ? true : undefined));
      await waitFor('tracked.txt revertable', () => panel.session.checkpoints.changes.list().find((c) => c.name === 'tracked.txt')?.canRevert || undefined);
      const list = panel.session.checkpoints.changes.list().map((c) => `${c.name}:${c.added ? 'added' : 'modified'}:${c.canRevert}`).sort();
      assert.deepEqual(list, ['latin1.txt:modified:true', 'tracked.txt:modified:true', 'untracked.txt:modified:false']);
      assert.equal(await panel.session.checkpoints.changes.revert(latin1), true);
      assert.deepEqual(fs.readFileSync(latin1), latinBytes, 'byte for byte');
      assert.equal(await panel.session.checkpoints.changes.revert(tracked), true);
      assert.equal(fs.readFileSync(tracked, 'utf8'), 'tracked old line\n');
      assert.equal(fs.existsSync(untracked), true, 'never deleted');
    } finally {
      await closeAllEditors();
      for (const f of [latin1, tracked, untracked, path.join(root, '.git')]) fs.rmSync(f, { recursive: true, force: true });
    }
  });

  it('64 MiB of terminal output: the agent gets at most the limit, the panel at most the limit, in throttled deltas; the host stays responsive', async () => {
    const a = await api();
    const panel = a.openChat('fake-terminal-flood');
    await waitForStatus(panel, 'connected', connected);
    const limit = 1024 * 1024;
    let panelChars = 0;
    let deltas = 0;
    let maxDelta = 0;
    // The call's card whole: its first output, and its exit (a flood can fit in one flush between them).
    let wholes = 0;
    const sub = panel.session.onDidChangeTranscript((changes) => {
      for (const c of changes) {
        if (c.c === 'term') {
          deltas++;
          panelChars += c.text.length;
          maxDelta = Math.max(maxDelta, c.text.length);
        } else if (c.c === 'put' && c.item.kind === 'tool' && c.item.toolCallId === 'flood-1' && c.item.content.some((x) => x.type === 'terminal')) wholes++;
      }
    });
    let lag = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      lag = Math.max(lag, now - last - 20);
      last = now;
    }, 20);
    const started = Date.now();
    try {
      assert.equal(await panel.session.prompt('flood'), 'end_turn');
    } finally {
      clearInterval(ticker);
      sub.dispose();
    }
    const seconds = (Date.now() - started) / 1000;
    const out = answers('terminal-flood').at(-1);
    assert.equal(out.truncated, true);
    assert.ok(Buffer.byteLength(out.output) <= limit, `${Buffer.byteLength(out.output)} bytes`);
    assert.ok(out.output.endsWith('FLOOD-END\n'));
    const tool = panel.session.transcript.items.find((i): i is ToolItem => i.kind === 'tool' && i.toolCallId === 'flood-1')!;
    const held = () => (tool.content.find((c) => c.type === 'terminal') as { output?: string }).output ?? '';
    await waitFor('the end of the output in the panel', () => held().endsWith('FLOOD-END\n') || undefined);
    assert.ok(held().length <= limit, `the panel holds ${held().length} characters`);
    assert.ok(maxDelta <= 32 * 1024, `the largest delta was ${maxDelta} characters`);
    assert.ok(deltas + wholes >= 2, `the panel heard of the output (${deltas} deltas, ${wholes} whole updates)`);
    const report = { outputMiB: 64, seconds, panelDeltas: deltas, panelWholes: wholes, panelChars, maxDeltaChars: maxDelta, maxHostLagMs: lag };
    console.log(`  [terminal flood] ${JSON.stringify(report)}`);
    if (process.env.ACP_BENCH_OUT) fs.writeFileSync(process.env.ACP_BENCH_OUT, JSON.stringify(report));
    // "Responsive": the host's event loop never stalled for as long as a person notices a frozen window (the bench's
    // budget is far tighter; this bound is loose so that a shared, slow CI machine does not make it flaky).
    assert.ok(lag < 2000, `the extension host stalled for ${lag} ms while 64 MiB went by`);
  });

  it('secrets in MCP args, URL userinfo and agent stderr never reach the log or the trace', async () => {
    const a = await api();
    await cfg().update('trace', 'verbose', vscode.ConfigurationTarget.Global);
    await cfg().update('mcpServers', { s: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: ['srv.js', '--api-key', 'arg-secret-123456'] }, h: { type: 'http', url: 'https://someone:url-pass-456789@mcp.example/x?token=query-secret-777' } }, vscode.ConfigurationTarget.Global);
    try {
      const mcp = a.openChat('fake-mcp-http');
      await waitForStatus(mcp, 'connected', connected);
      const sent = lastSessionNew('mcp-http').mcpServers;
      assert.deepEqual(sent.map((s: any) => s.name), ['s', 'h', 'vscode-editor'], 'the agent gets the real values');
      const leaky = a.openChat('fake-leaky');
      await waitForStatus(leaky, 'connected', connected);
      assert.equal(await leaky.session.prompt('go'), 'end_turn');
      await waitFor('the stderr line in the log', () => a.testing.logLines().some((l) => l.includes('debug: using')) || undefined);
      const all = [...a.testing.logLines(), ...a.testing.traceLines()].join('\n');
      for (const secret of ['arg-secret-123456', 'url-pass-456789', 'query-secret-777', 'leaky-secret-value-31337']) assert.ok(!all.includes(secret), `${secret} reached a log`);
      assert.ok(all.includes('«redacted»'));
      assert.ok(all.includes('mcp.example/x'), 'the rest of the URL is kept');
    } finally {
      await cfg().update('trace', undefined, vscode.ConfigurationTarget.Global);
      await cfg().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
