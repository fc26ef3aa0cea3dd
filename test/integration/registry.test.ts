import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../src/agents/agentDefinition';
import type { RegistryPickItem } from '../../src/ui/registryPicker';
import { binaryEntry, fakeAgentEntries, sha256, startLocalRegistry, tarGz, zip, type LocalRegistry } from '../support/registryFixture';
import { api, connected, readRecord, recordFile, waitFor, waitForStatus, type TestApi } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');
const fixtures = () => process.env.ACP_TEST_FIXTURES!;
const REPLY = 'Hello from an agent installed from the registry';
const SCENARIO = {
  description: 'The registry test agent: one reply per prompt.',
  on: { 'session/prompt': [{ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: REPLY } } }, { respond: { stopReason: 'end_turn' } }] },
};
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="currentColor"/></svg>';
/** A platform key that is not this machine's. */
const ELSEWHERE = process.platform === 'win32' ? 'linux-aarch64' : 'windows-aarch64';

describe('ACP Registry (a local registry on 127.0.0.1)', function () {
  this.timeout(60_000);
  let reg: LocalRegistry;
  let a: TestApi;
  let agentsDir: string;
  let v1Hash: string;
  let priorUrl: unknown;
  const env = () => ({ ACP_FAKE_RECORD: recordFile('registry-fake') });

  let published: [string, string, Buffer] | undefined;
  function publish(fakeVersion: string, archive: string, archiveBytes: Buffer, extra: object[] = []) {
    published = [fakeVersion, archive, archiveBytes];
    reg.put(
      'registry.json',
      JSON.stringify({
        version: '1.0.0',
        agents: [
          binaryEntry(reg, { id: 'fake-registry', name: 'Fake Registry Agent', version: fakeVersion, archive, sha256: sha256(archiveBytes), env: env(), args: ['default'] }),
          binaryEntry(reg, { id: 'elsewhere', name: 'Elsewhere Agent', version: '1.0.0', archive: 'none.tar.gz', platforms: [ELSEWHERE] }),
          binaryEntry(reg, { id: 'tampered', name: 'Tampered Agent', version: '1.0.0', archive: 'tampered.tar.gz', sha256: 'ab'.repeat(32) }),
          binaryEntry(reg, { id: 'dots', name: 'Dots Agent', version: '1.0.0', archive: 'dots.tar.gz' }),
          binaryEntry(reg, { id: 'link-out', name: 'Link Agent', version: '1.0.0', archive: 'link-out.zip' }),
          { id: 'Broken!', name: 'Broken', version: '1', description: 'x', distribution: {} },
          binaryEntry(reg, { id: 'fresh', name: 'Fresh Agent', version: '2.0.0', archive: 'fresh.tar.gz', env: env(), args: ['default'] }),
          { id: 'npx-agent', name: 'Npx Agent', version: '3.1.4', description: 'through npx', distribution: { npx: { package: '@acme/some-acp-agent@3.1.4', args: ['--acp'], env: { ACME_NO_UPDATE: '1' } } } },
          ...extra,
        ],
      }),
    );
  }

  before(async function () {
    if (process.platform === 'win32') this.skip(); // the archived agent is a shell script
    a = await api();
    agentsDir = path.join(a.testing.storagePath(), 'agents');
    reg = await startLocalRegistry();
    const v1 = await tarGz(fakeAgentEntries(fixtures(), SCENARIO));
    reg.put('fake-1.0.0.tar.gz', v1);
    v1Hash = sha256(v1);
    reg.put('fresh.tar.gz', await tarGz(fakeAgentEntries(fixtures(), SCENARIO)));
    reg.put('tampered.tar.gz', v1);
    reg.put('dots.tar.gz', await tarGz([...fakeAgentEntries(fixtures()), { name: '../escaped.txt', content: 'outside' }]));
    reg.put('link-out.zip', await zip([...fakeAgentEntries(fixtures()), { name: 'lib/up', link: '../../../../outside' }]));
    reg.put('fake-registry.svg', ICON);
    publish('1.0.0', 'fake-1.0.0.tar.gz', v1);
    priorUrl = cfg().inspect('registry.url')?.globalValue;
    await cfg().update('registry.url', reg.url, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    a?.testing.watchRegistryPicks(undefined);
    a?.testing.setConfirm(undefined);
    await cfg().update('registry.url', priorUrl, vscode.ConfigurationTarget.Global);
    await reg?.close();
  });

  const lastMessage = (re: RegExp) => a.testing.messages().filter((m) => re.test(m.message)).at(-1);

  it('installs from the quick pick (icon, version, unavailable platform, malformed entry skipped), then runs a whole turn', async () => {
    let qp: vscode.QuickPick<RegistryPickItem> | undefined;
    a.testing.watchRegistryPicks((p) => (qp = p));
    const installing = vscode.commands.executeCommand<AgentDefinition | undefined>('acpAgents.installAgent');
    const item = (label: string) => qp?.items.find((i) => i.label === label);
    // Filled from the local registry, the icon fetched and cached.
    const fake = await waitFor('the registry in the quick pick, with its icon', () => (qp && !qp.busy && item('Fake Registry Agent')?.iconPath instanceof vscode.Uri ? item('Fake Registry Agent') : undefined));
    assert.match(fake.description ?? '', /^1\.0\.0 · download/);
    assert.match(fake.detail ?? '', /a fake agent from a local registry — by The ACP Agents tests/);
    assert.equal(fs.readFileSync((fake.iconPath as vscode.Uri).fsPath, 'utf8'), ICON);
    const elsewhere = item('Elsewhere Agent');
    assert.match(elsewhere?.description ?? '', /no build for this platform/);
    const labels = qp!.items.map((i) => i.label);
    assert.ok(labels.indexOf('Cannot run here') < labels.indexOf('Elsewhere Agent') && labels.indexOf('Available') < labels.indexOf('Fake Registry Agent'), labels.join(', '));
    assert.ok(!labels.includes('Broken'), 'the malformed entry is skipped');
    assert.ok(labels.includes('Tampered Agent'), 'the rest load');
    assert.ok(a.testing.logLines().some((l) => /registry entry "Broken!" skipped/.test(l)), 'and it is logged');

    // As a person would: type to filter, then Enter on the one match.
    qp!.value = 'Fake Registry';
    qp!.activeItems = [fake];
    await new Promise((r) => setTimeout(r, 300));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const def = await installing;
    assert.deepEqual([def?.id, def?.source, def?.version], ['fake-registry', 'registry', '1.0.0'], JSON.stringify(a.testing.messages().slice(-2)));
    assert.ok(fs.statSync(path.join(agentsDir, 'fake-registry', '1.0.0', 'agent')).isFile());
    assert.deepEqual(lastMessage(/^Installed Fake Registry Agent 1\.0\.0\./)?.actions, ['New Session']);
    assert.ok(a.agents().some((x) => x.id === 'fake-registry' && x.source === 'registry'), 'a first-class agent');

    const spec = await a.testing.launchSpec('fake-registry');
    assert.equal(spec.command, path.join(agentsDir, 'fake-registry', '1.0.0', 'agent'));
    assert.equal(spec.env.ACP_FAKE_RECORD, recordFile('registry-fake'), "the entry's env is applied");
    const panel = a.openChat('fake-registry');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('hello'), 'end_turn');
    assert.ok(panel.session.transcript.items.some((i) => i.kind === 'agent' && i.text.includes(REPLY)), 'the reply is in the transcript');
    const start = readRecord('registry-fake').filter((r) => r.dir === 'start').at(-1);
    assert.ok(start, 'the installed agent recorded its start');
    const sessionNew = readRecord('registry-fake').filter((r) => r.msg?.method === 'session/new').at(-1);
    assert.equal(sessionNew.msg.params.cwd, vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'the session works in the workspace folder');
    panel.panel.dispose();
  });

  it('refuses a download with the wrong SHA-256, naming both hashes, and leaves nothing', async () => {
    const def = await vscode.commands.executeCommand('acpAgents.installAgent', 'tampered');
    assert.equal(def, undefined);
    const msg = lastMessage(/Tampered Agent 1\.0\.0 was not installed/);
    assert.ok(msg, JSON.stringify(a.testing.messages().slice(-3)));
    assert.ok(msg.message.includes(`expected SHA-256 ${'ab'.repeat(32)}, got ${v1Hash}`), msg.message);
    assert.equal(fs.existsSync(path.join(agentsDir, 'tampered')), false);
    assert.ok(!a.agents().some((x) => x.id === 'tampered'));
  });

  it('refuses an archive with a ../ entry and one with a link out', async () => {
    a.testing.setConfirm(async () => true); // neither has a checksum: allowed, so the archive is what is refused
    for (const [id, why] of [
      ['dots', /"\.\.\/escaped\.txt" points outside/],
      ['link-out', /"lib\/up" points outside/],
    ] as const) {
      assert.equal(await vscode.commands.executeCommand('acpAgents.installAgent', id), undefined, id);
      assert.ok(a.testing.messages().some((m) => m.severity === 'error' && why.test(m.message)), `${id}: ${JSON.stringify(a.testing.messages().slice(-2))}`);
      assert.equal(fs.existsSync(path.join(agentsDir, id)), false, id);
    }
    assert.equal(fs.existsSync(path.join(agentsDir, 'escaped.txt')), false);
    assert.equal(fs.existsSync(path.join(path.dirname(agentsDir), 'escaped.txt')), false);
    a.testing.setConfirm(undefined);
  });

  it('a binary without a checksum: a confirmation says so first; declined, nothing is downloaded or installed', async () => {
    const asked: string[] = [];
    a.testing.setConfirm(async (message, detail, action) => (asked.push(`${message} | ${detail} | ${action}`), false));
    const downloads = () => reg.requests.filter((r) => r.path === '/fresh.tar.gz').length;
    const before = downloads();
    assert.equal(await vscode.commands.executeCommand('acpAgents.installAgent', 'fresh'), undefined);
    a.testing.setConfirm(undefined);
    assert.equal(asked.length, 1, asked.join('\n'));
    assert.match(asked[0]!, /gives no checksum for Fresh Agent 2\.0\.0/);
    assert.match(asked[0]!, /cannot be checked/);
    assert.match(asked[0]!, /\| Install Without Checksum$/);
    assert.equal(downloads(), before, 'nothing downloaded');
    assert.equal(fs.existsSync(path.join(agentsDir, 'fresh')), false);
    assert.ok(!a.agents().some((x) => x.id === 'fresh'));
    // One with a checksum is not asked about.
    a.testing.setConfirm(async (message) => (asked.push(message), false));
    assert.equal((await vscode.commands.executeCommand<AgentDefinition | undefined>('acpAgents.installAgent', 'fake-registry'))?.id, 'fake-registry', 'already installed');
    assert.equal(asked.length, 1);
    a.testing.setConfirm(undefined);
  });

  it('shows an unavailable platform as such when installing by id', async () => {
    assert.equal(await vscode.commands.executeCommand('acpAgents.installAgent', 'elsewhere'), undefined);
    assert.match(lastMessage(/Elsewhere Agent cannot be installed/)?.message ?? '', /no build for this platform/);
  });

  it('New Session with a registry id installs it first (allowed without a checksum)', async () => {
    a.testing.setFolderPicker(async () => vscode.workspace.workspaceFolders![0]);
    const asked: string[] = [];
    a.testing.setConfirm(async (message) => (asked.push(message), true));
    await vscode.commands.executeCommand('acpAgents.newSession', 'fresh');
    a.testing.setFolderPicker(undefined);
    a.testing.setConfirm(undefined);
    assert.equal(asked.length, 1, 'the user allowed the unchecked binary');
    const panel = await waitFor('a panel for the fresh agent', () => a.panels().find((p) => p.agentId === 'fresh')).catch((err: Error) => {
      throw new Error(`${err.message}; messages: ${JSON.stringify(a.testing.messages().slice(-2))}`);
    });
    await waitForStatus(panel, 'connected', connected);
    assert.ok(fs.existsSync(path.join(agentsDir, 'fresh', '2.0.0', 'agent')));
    panel.panel.dispose();
  });

  it('an npx agent runs its pinned package with its own prefix, outside the workspace', async () => {
    const def = await vscode.commands.executeCommand<AgentDefinition | undefined>('acpAgents.installAgent', 'npx-agent');
    assert.equal(def?.source, 'registry', JSON.stringify(a.testing.messages().slice(-2)));
    const spec = await a.testing.launchSpec('npx-agent');
    assert.match(path.basename(spec.command), /^npx(\.cmd)?$/);
    assert.deepEqual(spec.args, ['--yes', '--prefix', path.join(agentsDir, 'npx-agent', '.npm-prefix'), '@acme/some-acp-agent@3.1.4', '--acp']);
    assert.equal(spec.env.ACME_NO_UPDATE, '1');
    assert.match(spec.cwd, /acp-agents[\\/]run$/, 'started outside the workspace');
    for (const f of vscode.workspace.workspaceFolders ?? []) assert.ok(!spec.cwd.startsWith(f.uri.fsPath));
  });

  it('updates to a new version, replacing the old folder', async () => {
    const v2 = await zip(fakeAgentEntries(fixtures(), SCENARIO).map((e) => (e.name === 'agent' ? { ...e, mode: 0o100755 } : e)));
    reg.put('fake-1.1.0.zip', v2);
    publish('1.1.0', 'fake-1.1.0.zip', v2);
    // The daily check announces it, once a day.
    const day = 24 * 60 * 60 * 1000;
    const first = Date.now() + 2 * day;
    assert.deepEqual(await a.testing.checkForUpdates(first), ['Fake Registry Agent 1.0.0 → 1.1.0']);
    assert.deepEqual(lastMessage(/^Updates from the ACP Registry/)?.actions, ['Update']);
    assert.deepEqual(await a.testing.checkForUpdates(first + day / 2), [], 'not twice in a day');
    const updated = await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents');
    assert.deepEqual(updated, ['fake-registry'], JSON.stringify(a.testing.messages().slice(-2)));
    assert.deepEqual(fs.readdirSync(path.join(agentsDir, 'fake-registry')), ['1.1.0']);
    assert.match(lastMessage(/^Updated /)?.message ?? '', /Fake Registry Agent 1\.0\.0 → 1\.1\.0/);
    assert.equal((await a.testing.launchSpec('fake-registry')).command, path.join(agentsDir, 'fake-registry', '1.1.0', 'agent'));
    const panel = a.openChat('fake-registry');
    await waitForStatus(panel, 'connected with 1.1.0', connected);
    panel.panel.dispose();
    assert.deepEqual(await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents'), [], 'nothing newer the second time');
  });

  it('a registry that lies about versions, or cannot be reached: no update offered, none installed, no hang', async () => {
    const [version, archive, bytes] = published!;
    assert.equal(version, '1.1.0', 'after the update above');
    const day = 24 * 60 * 60 * 1000;
    let now = Date.now() + 10 * day;
    for (const lie of ['1.0.9', '1.1.0', 'latest', '1.1.0-rc.9']) {
      publish(lie, archive, bytes);
      now += 2 * day;
      assert.deepEqual(await a.testing.checkForUpdates(now), [], lie);
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents'), [], lie);
    }
    // Unreachable: the check says nothing and is done (the cached list is current).
    const url = cfg().inspect('registry.url')?.globalValue;
    await cfg().update('registry.url', 'http://127.0.0.1:9/registry.json', vscode.ConfigurationTarget.Global);
    try {
      now += 2 * day;
      // Each call tried the unreachable URL (the log names it) and came back with nothing.
      const mark = a.testing.logMark();
      const tried = () => a.testing.logLinesSince(mark).filter((l) => l.includes('The ACP Registry (http://127.0.0.1:9/registry.json) could not be read')).length;
      assert.deepEqual(await a.testing.checkForUpdates(now), []);
      assert.equal(tried(), 1, 'the update check tried it');
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents'), []);
      assert.equal(tried(), 2, 'Update Agents tried it');
    } finally {
      await cfg().update('registry.url', url, vscode.ConfigurationTarget.Global);
    }
    publish(version, archive, bytes);
    assert.deepEqual(fs.readdirSync(path.join(agentsDir, 'fake-registry')), ['1.1.0'], 'still the version installed');
  });

  it('Pin Version: a pinned agent stays put (the daily check and Update Agents leave it); Unpin offers the update again', async () => {
    const [version, archive, bytes] = published!;
    const day = 24 * 60 * 60 * 1000;
    let now = Date.now() + 40 * day;
    const pins = await vscode.commands.executeCommand<Record<string, string>>('acpAgents.pinAgentVersion', 'fake-registry');
    try {
      assert.deepEqual(pins, { 'fake-registry': '1.1.0' });
      assert.deepEqual(cfg().inspect('registry.pinnedVersions')?.globalValue, { 'fake-registry': '1.1.0' }, 'kept in user settings');
      publish('1.2.0', archive, bytes);
      assert.deepEqual(await a.testing.checkForUpdates((now += 2 * day)), []);
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents'), []);
      assert.deepEqual(fs.readdirSync(path.join(agentsDir, 'fake-registry')), ['1.1.0']);
      assert.deepEqual(await vscode.commands.executeCommand<Record<string, string>>('acpAgents.unpinAgentVersion', 'fake-registry'), {});
      assert.deepEqual(await a.testing.checkForUpdates((now += 2 * day)), ['Fake Registry Agent 1.1.0 → 1.2.0']);
    } finally {
      await cfg().update('registry.pinnedVersions', undefined, vscode.ConfigurationTarget.Global);
      publish(version, archive, bytes);
    }
  });

  it('an entry whose env sets PATH, NODE_OPTIONS, LD_PRELOAD…: stripped, and the confirmation shows what is left and what was left out', async () => {
    const [version, archive, bytes] = published!;
    const v1 = await tarGz(fakeAgentEntries(fixtures(), SCENARIO));
    reg.put('stripped.tar.gz', v1);
    publish(version, archive, bytes, [
      binaryEntry(reg, { id: 'stripped', name: 'Stripped Agent', version: '1.0.0', archive: 'stripped.tar.gz', sha256: sha256(v1), args: ['default'], env: { ...env(), PATH: '/evil/bin', NODE_OPTIONS: '--require /evil.js', LD_PRELOAD: '/evil.so', npm_config_registry: 'https://evil.example', ACME_MODE: 'acp' } }),
    ]);
    const asked: string[] = [];
    a.testing.setConfirm(async (message, detail) => (asked.push(`${message} | ${detail}`), true));
    try {
      assert.equal((await vscode.commands.executeCommand<AgentDefinition | undefined>('acpAgents.installAgent', 'stripped'))?.id, 'stripped', JSON.stringify(a.testing.messages().slice(-2)));
    } finally {
      a.testing.setConfirm(undefined);
    }
    assert.equal(asked.length, 1, asked.join('\n'));
    assert.match(asked[0]!, /sets environment variables that are left out/);
    assert.match(asked[0]!, /ACME_MODE=acp/);
    assert.match(asked[0]!, /Left out of its environment.*PATH, NODE_OPTIONS, LD_PRELOAD, npm_config_registry/);
    const spec = await a.testing.launchSpec('stripped');
    assert.equal(spec.env.ACME_MODE, 'acp');
    // Not set, nor merged into the variable the agent gets (a PATH with /evil/bin prepended would pass a plain !==).
    for (const name of ['PATH', 'NODE_OPTIONS', 'LD_PRELOAD', 'npm_config_registry']) assert.ok(!spec.env[name]?.includes('evil'), `${name}=${spec.env[name]}`);
    a.testing.setConfirm(async () => true);
    try {
      assert.equal(await vscode.commands.executeCommand('acpAgents.uninstallAgent', 'stripped'), 'stripped');
    } finally {
      a.testing.setConfirm(undefined);
    }
    publish(version, archive, bytes);
  });

  it('an install or update that sets env shows it (names and values, a secret-looking value redacted, escaped); one that sets none shows nothing more', async () => {
    const [version, archive, bytes] = published!;
    const tgz = await tarGz(fakeAgentEntries(fixtures(), SCENARIO));
    reg.put('env-shown.tar.gz', tgz);
    const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
    const entryEnv = (mode: string) => ({ ...env(), ACME_MODE: mode, ACME_TOKEN: 'tok9f8e7d6c5b4a3210', ACME_NOTE: '[x](command:workbench.action.terminal.new)' });
    const entries = (envVersion: string, mode: string) => [
      binaryEntry(reg, { id: 'env-shown', name: 'Env Agent', version: envVersion, archive: 'env-shown.tar.gz', sha256: sha256(tgz), args: ['default'], env: entryEnv(mode) }),
      binaryEntry(reg, { id: 'env-none', name: 'Plain Agent', version: '1.0.0', archive: 'env-shown.tar.gz', sha256: sha256(tgz), args: ['default'] }),
    ];
    publish(version, archive, bytes, entries('1.0.0', 'first'));
    const asked: string[] = [];
    a.testing.setConfirm(async (message) => (asked.push(message), true));
    const envNotice = (from: number) => a.testing.messages().slice(from).filter((m) => /is started with these environment variables/.test(m.message));
    try {
      let from = a.testing.messages().length;
      assert.equal((await vscode.commands.executeCommand<AgentDefinition | undefined>('acpAgents.installAgent', 'env-shown'))?.id, 'env-shown', JSON.stringify(a.testing.messages().slice(-2)));
      assert.deepEqual(asked, [], 'a checked download whose env had nothing stripped is not a question');
      const shown = envNotice(from);
      assert.equal(shown.length, 1, JSON.stringify(a.testing.messages().slice(from)));
      const text = shown[0]!.message;
      assert.match(text, /^Env Agent 1\.0\.0 from the ACP Registry is started with these environment variables: /);
      assert.match(text, /ACME_MODE=first/);
      assert.match(text, /ACME_TOKEN=«redacted»/);
      assert.ok(!text.includes('tok9f8e7d6c5b4a3210'), text);
      assert.deepEqual([...text.matchAll(LINK)].map((m) => m[0]), [], `a live link: ${text}`);
      assert.match(text.replace(/\u200b/g, ''), /ACME_NOTE=\[x\]\(command:workbench\.action\.terminal\.new\)/, 'the value is there, as text');
      assert.equal((await a.testing.launchSpec('env-shown')).env.ACME_TOKEN, 'tok9f8e7d6c5b4a3210', 'the agent gets the value');

      from = a.testing.messages().length;
      assert.equal((await vscode.commands.executeCommand<AgentDefinition | undefined>('acpAgents.installAgent', 'env-none'))?.id, 'env-none');
      assert.deepEqual(envNotice(from), [], 'no env, nothing more');
      assert.ok(a.testing.messages().slice(from).some((m) => /^Installed Plain Agent 1\.0\.0\./.test(m.message)));

      // An update shows the env of the version it installs.
      publish(version, archive, bytes, entries('1.1.0', 'second'));
      from = a.testing.messages().length;
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents'), ['env-shown']);
      const updated = envNotice(from);
      assert.equal(updated.length, 1, JSON.stringify(a.testing.messages().slice(from)));
      assert.match(updated[0]!.message, /^Env Agent 1\.1\.0 .*ACME_MODE=second/);
      assert.deepEqual(asked, []);
      for (const id of ['env-shown', 'env-none']) assert.equal(await vscode.commands.executeCommand('acpAgents.uninstallAgent', id), id);
    } finally {
      a.testing.setConfirm(undefined);
      publish(version, archive, bytes);
    }
  });

  it('a package that moved: the install list says so and offers the new one; Update Agents asks, naming both; declined, nothing changes; confirmed, the new entry replaces the old', async () => {
    const [version, archive, bytes] = published!;
    publish(version, archive, bytes, [{ id: 'claude-code-acp', name: 'Claude Code', version: '0.16.0', description: 'the old adapter', distribution: { npx: { package: '@zed-industries/claude-code-acp@0.16.0' } } }]);
    const asked: string[] = [];
    try {
      let qp: vscode.QuickPick<RegistryPickItem> | undefined;
      a.testing.watchRegistryPicks((p) => (qp = p));
      const picking = vscode.commands.executeCommand<AgentDefinition | undefined>('acpAgents.installAgent');
      const item = (label: string) => qp?.items.find((i) => i.label === label);
      const old = await waitFor('the old adapter in the list', () => (qp && !qp.busy ? item('Claude Code') : undefined));
      assert.match(old.detail ?? '', /^Moved to @agentclientprotocol\/claude-agent-acp \(listed too\)\. the old adapter/);
      assert.match(item('Claude Agent')?.description ?? '', /^0\.101\.0 · npx/);
      qp!.hide();
      assert.equal(await picking, undefined);
      a.testing.watchRegistryPicks(undefined);

      assert.equal((await vscode.commands.executeCommand<AgentDefinition | undefined>('acpAgents.installAgent', 'claude-code-acp'))?.id, 'claude-code-acp');
      const oldArgs = (await a.testing.launchSpec('claude-code-acp')).args;
      a.testing.setConfirm(async (message, detail, action) => (asked.push(`${message} | ${detail} | ${action}`), false));
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents'), [], 'declined');
      assert.equal(asked.length, 1, asked.join('\n'));
      assert.match(asked[0]!, /^Move Claude Code from @zed-industries\/claude-code-acp 0\.16\.0 to @agentclientprotocol\/claude-agent-acp 0\.101\.0\? \| /);
      assert.match(asked[0]!, /Claude Agent is installed and Claude Code is uninstalled\. \| Move$/);
      assert.deepEqual((await a.testing.launchSpec('claude-code-acp')).args, oldArgs, 'declined: the old one as it was');
      assert.ok(oldArgs.includes('@zed-industries/claude-code-acp@0.16.0'));
      assert.ok(!a.agents().some((x) => x.id === 'claude-acp'), 'and nothing new');

      a.testing.setConfirm(async (message) => (asked.push(message), true));
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents'), ['claude-acp'], JSON.stringify(a.testing.messages().slice(-2)));
      assert.equal(asked.length, 2);
      assert.ok((await a.testing.launchSpec('claude-acp')).args.includes('@agentclientprotocol/claude-agent-acp@0.101.0'));
      assert.ok(!a.agents().some((x) => x.id === 'claude-code-acp'), 'the old one is gone');
      assert.equal(fs.existsSync(path.join(agentsDir, 'claude-code-acp')), false);
      assert.match(lastMessage(/^Moved /)?.message ?? '', /Claude Code \(@zed-industries\/claude-code-acp 0\.16\.0\) to Claude Agent \(@agentclientprotocol\/claude-agent-acp 0\.101\.0\)/);
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('acpAgents.updateAgents'), [], 'not asked again');
      assert.equal(asked.length, 2);
    } finally {
      a.testing.watchRegistryPicks(undefined);
      a.testing.setConfirm(async () => true);
      for (const id of ['claude-acp', 'claude-code-acp']) if (a.agents().some((x) => x.id === id && x.source === 'registry')) await vscode.commands.executeCommand('acpAgents.uninstallAgent', id);
      a.testing.setConfirm(undefined);
      publish(version, archive, bytes);
    }
  });

  it('a configured agent with the same id wins', async () => {
    const agents = cfg().inspect<unknown[]>('agents')!.globalValue ?? [];
    await cfg().update('agents', [...agents, { id: 'fake-registry', name: 'Mine', command: 'node', args: [] }], vscode.ConfigurationTarget.Global);
    try {
      const mine = a.agents().filter((x) => x.id === 'fake-registry');
      assert.deepEqual(
        mine.map((x) => [x.name, x.source]),
        [['Mine', 'settings']],
      );
    } finally {
      await cfg().update('agents', agents, vscode.ConfigurationTarget.Global);
    }
    assert.equal(a.agents().find((x) => x.id === 'fake-registry')?.source, 'registry');
  });

  it('offline: the cached copy, then the snapshot shipped in the extension', async () => {
    const online = await a.testing.refreshRegistry();
    assert.equal(online.from, 'registry');
    await reg.close();
    const cached = await a.testing.refreshRegistry();
    assert.equal(cached.from, 'cache');
    assert.match(cached.error ?? '', /could not be read/);
    assert.ok(cached.ids.includes('fake-registry') && cached.ids.includes('tampered'));
    fs.rmSync(path.join(a.testing.storagePath(), 'registry', 'registry.json'));
    const snapshot = await a.testing.refreshRegistry();
    assert.equal(snapshot.from, 'snapshot');
    assert.ok(snapshot.ids.includes('gemini') && snapshot.ids.includes('codex-acp'), snapshot.ids.join(', '));
    reg = await startLocalRegistry();
  });

  it('uninstalls: the files and the entry go', async () => {
    a.testing.setConfirm(async () => true);
    for (const id of ['fake-registry', 'fresh', 'npx-agent']) {
      assert.equal(await vscode.commands.executeCommand('acpAgents.uninstallAgent', id), id);
      assert.equal(fs.existsSync(path.join(agentsDir, id)), false);
      assert.ok(!a.agents().some((x) => x.id === id));
    }
  });
});
