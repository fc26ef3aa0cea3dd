import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentRegistry } from '../../../src/agents/registry/agentRegistry';
import { parseRegistry, type RegistryAgent } from '../../../src/agents/registry/format';
import { AgentInstaller } from '../../../src/agents/registry/installer';
import { dueMove, installedPackage, moveOf, packageName, PACKAGE_MOVES, withMoves } from '../../../src/agents/registry/moved';
import type { RegistryList, RegistrySource } from '../../../src/agents/registry/registrySource';

const ROOT = path.resolve(__dirname, '../../../..');
const SNAPSHOT = path.join(ROOT, 'media', 'registry-snapshot.json');
const snapshot = () => parseRegistry(fs.readFileSync(SNAPSHOT, 'utf8')).agents;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'acp-moves-'));
const npxAgent = (id: string, name: string, spec: string): RegistryAgent => ({ id, name, version: spec.slice(spec.lastIndexOf('@') + 1), description: 'd', authors: [], npx: { package: spec, args: [], env: {} } });
const list = (agents: readonly RegistryAgent[]): RegistryList => ({ agents, problems: [], from: 'registry' });

describe('registry: packages that moved', () => {
  it('the table is keyed on package names: both old Claude names and the old codex package (and its binary releases) move; a display name does not', () => {
    const claude = moveOf(npxAgent('x', 'X', '@zed-industries/claude-code-acp@0.16.0'));
    assert.equal(claude?.to, '@agentclientprotocol/claude-agent-acp');
    assert.equal(claude?.version, '0.101.0');
    assert.equal(moveOf(npxAgent('y', 'Y', '@zed-industries/claude-agent-acp@0.23.1')), claude);
    assert.equal(moveOf(npxAgent('c', 'C', '@zed-industries/codex-acp@0.16.0'))?.to, '@agentclientprotocol/codex-acp');
    assert.equal(moveOf(npxAgent('c', 'C', '@zed-industries/codex-acp@0.16.0'))?.version, '2.6.0');
    const binary: RegistryAgent = { id: 'b', name: 'B', version: '0.9.2', description: '', authors: [], binary: { 'linux-x86_64': { archive: 'https://github.com/zed-industries/codex-acp/releases/download/v0.9.2/codex-acp-0.9.2-x86_64-unknown-linux-gnu.tar.gz', cmd: './codex-acp', args: [], env: {} } } };
    assert.equal(moveOf(binary)?.to, '@agentclientprotocol/codex-acp');
    // Named like the old adapters, running something else: no move. The new packages do not move again.
    assert.equal(moveOf(npxAgent('claude-code-acp', 'Claude Code', '@someone/claude-code-acp@0.16.0')), undefined);
    assert.equal(moveOf(npxAgent('codex-acp', 'Codex CLI', '@zed-industries/codex-acp-fork@1.0.0')), undefined);
    for (const m of PACKAGE_MOVES) {
      assert.equal(moveOf(npxAgent('n', 'N', `${m.to}@${m.version}`)), undefined, m.to);
      assert.match(m.version, /^\d+\.\d+\.\d+$/);
    }
    assert.equal(packageName('@a/b@1.2.3'), '@a/b');
    assert.equal(packageName('plain@1.0.0'), 'plain');
    assert.equal(packageName('@a/b'), '@a/b');
  });

  it('the shipped snapshot as the install list shows it: the old Claude entry says where it moved and the new package is offered; codex is offered as the new package under its id', () => {
    const raw = snapshot();
    const { agents, marks } = withMoves(raw);
    const ids = agents.map((a) => a.id);
    assert.deepEqual(marks.get('claude-code-acp')?.role, 'old');
    assert.equal(marks.get('claude-code-acp')?.move.to, '@agentclientprotocol/claude-agent-acp');
    assert.equal(ids.indexOf('claude-acp'), ids.indexOf('claude-code-acp') + 1, 'listed right after the old one');
    assert.equal(agents.find((a) => a.id === 'claude-acp')?.npx?.package, '@agentclientprotocol/claude-agent-acp@0.101.0');
    assert.equal(marks.get('codex-acp')?.role, 'replaced');
    const codex = agents.filter((a) => a.id === 'codex-acp');
    assert.equal(codex.length, 1, 'one entry per id');
    assert.equal(codex[0]?.npx?.package, '@agentclientprotocol/codex-acp@2.6.0');
    assert.equal(codex[0]?.binary, undefined);
    // Everything else is as listed.
    const others = raw.filter((a) => !marks.has(a.id));
    assert.equal(others.length, raw.length - 2);
    for (const a of others) assert.equal(agents.find((x) => x.id === a.id), a, a.id);
    assert.equal(agents.length, raw.length + 1);
  });

  it('a list that names the new package already: nothing is made up, its own entry (and version) is the one offered', () => {
    const newer = npxAgent('claude-agent', 'Claude Agent', '@agentclientprotocol/claude-agent-acp@0.120.0');
    const { agents, marks } = withMoves([npxAgent('claude-code-acp', 'Claude Code', '@zed-industries/claude-code-acp@0.16.0'), newer]);
    assert.deepEqual(agents.map((a) => a.id), ['claude-code-acp', 'claude-agent']);
    assert.equal(agents[1], newer);
    assert.equal(marks.get('claude-code-acp')?.role, 'old');
  });

  describe('with an installer', () => {
    let root: string;
    let installer: AgentInstaller;
    let registry: AgentRegistry;
    beforeEach(() => {
      root = tmp();
      installer = new AgentInstaller(path.join(root, 'agents'), () => undefined);
      registry = new AgentRegistry({ current: () => list(snapshot()) } as unknown as RegistrySource, installer, path.join(root, 'icons'), () => undefined);
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('entries: the old one is marked "moved to", the one under the old id "moved from"; an installed old Claude is due to move to claude-acp, not pinned', async () => {
      const entries = await registry.entries(list(snapshot()));
      const byId = (id: string) => entries.find((e) => e.agent.id === id);
      assert.equal(byId('claude-code-acp')?.movedTo, '@agentclientprotocol/claude-agent-acp');
      assert.equal(byId('claude-acp')?.movedTo, undefined);
      assert.equal(byId('codex-acp')?.movedFrom, '@zed-industries/codex-acp');
      assert.equal(byId('gemini')?.movedTo ?? byId('gemini')?.movedFrom, undefined);
      assert.deepEqual(await registry.moves(list(snapshot())), [], 'nothing installed, nothing to move');

      const old = snapshot().find((a) => a.id === 'claude-code-acp')!;
      const record = await installer.install(old, { kind: 'npx', target: old.npx! });
      assert.equal(installedPackage(record), '@zed-industries/claude-code-acp@0.16.0');
      const moves = await registry.moves(list(snapshot()));
      assert.deepEqual(
        moves.map((m) => [m.installed.id, m.from, m.installed.version, m.to.agent.id, m.toPackage, m.to.agent.version]),
        [['claude-code-acp', '@zed-industries/claude-code-acp', '0.16.0', 'claude-acp', '@agentclientprotocol/claude-agent-acp', '0.101.0']],
      );
      assert.deepEqual(await registry.moves(list(snapshot()), { 'claude-code-acp': '0.16.0' }), [], 'pinned: left as it is');
      // Once the new package is installed, the old one is not offered the move again.
      const next = (await registry.entries(list(snapshot()))).find((e) => e.agent.id === 'claude-acp')!;
      await registry.install(next);
      assert.deepEqual(await registry.moves(list(snapshot())), []);
    });

    it('an installed codex-acp binary of the old releases moves to the npm package under the same id, as a move and not as an update', async () => {
      const state = { version: 1, agents: { 'codex-acp': { id: 'codex-acp', name: 'Codex CLI', version: '0.9.2', description: '', authors: [], kind: 'binary', command: path.join(root, 'agents', 'codex-acp', '0.9.2', 'codex-acp'), args: [], env: {}, installedAt: 1 } } };
      fs.mkdirSync(path.join(root, 'agents'), { recursive: true });
      fs.writeFileSync(path.join(root, 'agents', 'installed.json'), JSON.stringify(state));
      const installed = installer.get('codex-acp')!;
      assert.equal(dueMove(installed, snapshot())?.from, '@zed-industries/codex-acp');
      const entry = (await registry.entries(list(snapshot()))).find((e) => e.agent.id === 'codex-acp')!;
      assert.equal(entry.update, false, 'not offered as a plain update');
      assert.deepEqual(await registry.updates(list(snapshot())), []);
      const [move] = await registry.moves(list(snapshot()));
      assert.deepEqual([move?.to.agent.id, move?.toPackage, move?.to.agent.version], ['codex-acp', '@agentclientprotocol/codex-acp', '2.6.0']);
      await registry.install(move!.to);
      assert.equal(installedPackage(installer.get('codex-acp')!), '@agentclientprotocol/codex-acp@2.6.0');
      assert.deepEqual(await registry.moves(list(snapshot())), [], 'moved');
      // A binary of another release address is not the old adapter.
      assert.equal(dueMove({ ...installed, id: 'opencode' }, snapshot()), undefined);
    });
  });
});
