// The session folders part: the cwd (a scratch folder when none is open),
// the roots sent (the boundary for requests), MCP servers and instructions in
// the session parameters, and the skipped-MCP notice shown once.
import { diskIo } from '../../../../src/node/storeIo';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import { McpStatus } from '../../../../src/sessions/parts/mcpStatus';
import { parseFolderFile, parseFolders, SessionFolders } from '../../../../src/sessions/parts/sessionFolders';
import { fakeCore } from './fakeCore';

function setup(cwd: string | undefined, caps: { dirs?: boolean; systemPrompt?: boolean } = {}, agent: { name?: string; env?: Record<string, string> } = {}) {
  const f = fakeCore({
    scratchRoot: () => '/scratch',
    additionalDirectories: () => ['/other'],
    mcpServers: async () => ({ servers: [{ name: 'db', command: 'db', args: [], env: [] }], skipped: [{ name: 'web', reason: 'http is not supported' }] }),
    settings: { instructions: () => 'Be brief.' },
  });
  const rt = {
    capabilities: { supportsAdditionalDirectories: () => caps.dirs ?? false, supportsSystemPrompt: () => caps.systemPrompt ?? false, declinesMcpStdio: () => false },
    initializeResult: { agentInfo: { name: agent.name ?? 'fake', version: '1.0.0' } },
    process: { spec: { env: agent.env ?? {} } },
  } as unknown as AgentRuntime;
  const mcp = new McpStatus(f.core);
  return { f, rt, folders: new SessionFolders(f.core, cwd, (sel, r, at) => mcp.offer(sel, r, at)) };
}

describe('sessions/parts: session folders', () => {
  it('a session without a folder works in a scratch folder; the roots are its folder until some are sent', async () => {
    const { rt, folders } = setup(undefined, { dirs: true });
    assert.equal(folders.workingFolder, '/scratch');
    assert.deepEqual(folders.roots(), ['/scratch']);
    const p = await folders.params(rt);
    assert.equal(p.cwd, '/scratch');
    assert.equal(p.additionalDirectories, undefined, 'no other folders for a session without one');
  });

  it('sends the other folders and the instructions where the agent takes them; skipped MCP servers are said once', async () => {
    const { f, rt, folders } = setup('/ws', { dirs: true, systemPrompt: true });
    const p = await folders.params(rt);
    assert.deepEqual(p.additionalDirectories, ['/other']);
    assert.deepEqual(folders.roots(), ['/ws', '/other']);
    assert.deepEqual(p.systemPrompt, { mode: 'append', content: [{ type: 'text', text: 'Be brief.' }] });
    assert.deepEqual(p.mcpServers.map((s) => s.name), ['db']);
    await folders.params(rt);
    assert.equal(f.transcript.items.filter((i) => i.kind === 'notice').length, 1);
  });

  it('says in the session when the agent is known to leave the MCP servers handed to it unstarted (gemini-cli, untrusted)', async () => {
    const untrusted = setup('/ws', {}, { name: 'gemini-cli', env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } });
    await untrusted.folders.params(untrusted.rt);
    const warnings = untrusted.f.transcript.items.filter((i) => i.kind === 'notice' && i.severity === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(untrusted.f.transcript.items));
    const trusted = setup('/ws', {}, { name: 'gemini-cli', env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } });
    await trusted.folders.params(trusted.rt);
    assert.equal(trusted.f.transcript.items.filter((i) => i.kind === 'notice' && i.severity === 'warning').length, 0);
  });

  it('the scratch folder goes with the session, unless the session is kept alive on the agent; a folder session releases nothing', () => {
    for (const [cwd, keep, released] of [
      [undefined, false, ['/scratch']],
      [undefined, true, []],
      ['/ws', false, []],
    ] as const) {
      const gone: string[] = [];
      const f = fakeCore({ scratchRoot: () => '/scratch', releaseScratch: (d: string) => void gone.push(d), settings: { keepSessionsAlive: () => keep } });
      const folders = new SessionFolders(f.core, cwd);
      void folders.workingFolder;
      folders.dispose();
      assert.deepEqual(gone, released, `cwd ${String(cwd)}, kept alive ${String(keep)}`);
    }
  });
});

describe('sessions/parts: the scratch folder waits for its agents', () => {
  it('is released with the exits of every agent process it was handed to (a restarted agent too); a folder session hands none', async () => {
    const released: [string, readonly Promise<unknown>[]][] = [];
    const f = fakeCore({
      scratchRoot: () => '/scratch',
      releaseScratch: (d: string, holders: readonly Promise<unknown>[]) => void released.push([d, holders]),
      additionalDirectories: () => [],
      mcpServers: async () => ({ servers: [], skipped: [] }),
      settings: { instructions: () => '', keepSessionsAlive: () => false },
    });
    const runtime = (exited: Promise<unknown>) =>
      ({
        capabilities: { supportsAdditionalDirectories: () => false, supportsSystemPrompt: () => false },
        initializeResult: { agentInfo: { name: 'fake', version: '1.0.0' } },
        process: { spec: { env: {} }, exited },
      }) as unknown as AgentRuntime;
    const first = new Promise<unknown>(() => undefined);
    const second = new Promise<unknown>(() => undefined);
    const folders = new SessionFolders(f.core, undefined);
    await folders.params(runtime(first));
    await folders.params(runtime(first));
    await folders.params(runtime(second));
    folders.dispose();
    assert.equal(released.length, 1);
    assert.equal(released[0]![0], '/scratch');
    assert.deepEqual(released[0]![1], [first, second]);
    const withFolder = new SessionFolders(f.core, '/ws');
    await withFolder.params(runtime(first));
    withFolder.dispose();
    assert.equal(released.length, 1);
  });
});

describe('sessions/parts: context folders (added by the user)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-folders-'));
    fs.mkdirSync(path.join(dir, 'ws'));
    fs.mkdirSync(path.join(dir, 'extra'));
    fs.mkdirSync(path.join(dir, 'store'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function open(dirs: boolean, sessionId = 's1') {
    return fakeCoreFor(dirs, [], sessionId);
  }

  function fakeCoreFor(dirs: boolean, workspace: string[], sessionId = 's1') {
    const f = fakeCore({
      scratchRoot: () => '/scratch',
      additionalDirectories: () => workspace,
      mcpServers: async () => ({ servers: [], skipped: [] }),
      settings: { instructions: () => '' },
      archive: { sidecarFile: (_agent: string, sid: string, kind: string) => path.join(dir, 'store', `${sid}.${kind}.json`), io: diskIo },
    });
    const rt = {
      capabilities: { supportsAdditionalDirectories: () => dirs, supportsSystemPrompt: () => false },
      initializeResult: { agentInfo: { name: 'fake', version: '1.0.0' } },
      process: { spec: { env: {} } },
    } as unknown as AgentRuntime;
    f.state.runtime = rt;
    f.state.sessionId = sessionId;
    return { f, rt, folders: new SessionFolders(f.core, path.join(dir, 'ws')) };
  }

  it('an added folder is inside the boundary at once, shows as a chip, is kept next to the archive and sent on the next load', async () => {
    const { f, rt, folders } = open(true);
    const extra = path.join(dir, 'extra');
    assert.equal(await folders.add(extra), undefined);
    assert.ok(folders.roots().includes(extra));
    assert.deepEqual(f.transcript.header.folders, { canAdd: true, list: [{ path: extra, name: 'extra', missing: false }] });
    assert.ok(f.emitted.some((c) => c.c === 'header'));
    assert.ok(f.transcript.items.some((i) => i.kind === 'notice' && /next time this session is loaded or resumed/.test(i.description ?? '')));
    await folders.flushed();
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'store', 's1.folders.json'), 'utf8')), { v: 1, folders: [extra], real: { [extra]: fs.realpathSync.native(extra) } });
    // Another panel loads the same session: the folder is read back and sent.
    const again = open(true);
    const p = await again.folders.params(again.rt);
    assert.deepEqual(p.additionalDirectories, [extra]);
    assert.ok(again.folders.roots().includes(extra));
    // Removed after it was sent: out of the boundary at once.
    assert.equal(again.folders.remove(extra), true);
    assert.equal(again.folders.roots().includes(extra), false);
    // A session of another id has none.
    const other = open(true, 's2');
    assert.equal((await other.folders.params(other.rt)).additionalDirectories, undefined);
    void rt;
  });

  it('is refused, with the reason, for an agent without additionalDirectories; for a file, a relative path, a folder already inside', async () => {
    const refused = open(false);
    assert.match((await refused.folders.add(path.join(dir, 'extra')))!, /does not take additional folders \(it does not advertise additionalDirectories\)/);
    assert.deepEqual(refused.folders.roots(), [path.join(dir, 'ws')]);
    const { folders } = open(true);
    fs.writeFileSync(path.join(dir, 'file.txt'), 'x');
    assert.match((await folders.add(path.join(dir, 'file.txt')))!, /is not a folder/);
    assert.match((await folders.add('relative/dir'))!, /full path/);
    assert.match((await folders.add(path.join(dir, 'ws')))!, /already among the session's folders/);
    assert.match((await folders.add(path.join(dir, 'nowhere')))!, /is not a folder/);
    assert.deepEqual(folders.list(), []);
  });

  it('refuses the home folder, the filesystem root, a folder around the session\'s own, and a link to any of them (issue 34)', async () => {
    const { f, folders } = open(true);
    const link = path.join(dir, 'extra', 'home-link');
    fs.symlinkSync(os.homedir(), link);
    for (const [folder, why] of [
      [os.homedir(), /is your home folder: a session may not be given it/],
      [link, /is your home folder/],
      [path.parse(dir).root, /is the root of a drive or of the file system/],
      [dir, new RegExp(`holds ${path.join(dir, 'ws').replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}, a folder of this session or workspace`)],
    ] as const) {
      assert.match((await folders.add(folder)) ?? 'added', why, folder);
    }
    assert.deepEqual(folders.list(), []);
    assert.deepEqual(folders.roots(), [path.join(dir, 'ws')]);
    assert.equal(f.transcript.header.folders?.list.length ?? 0, 0);
    // A workspace folder other than the session's own: a folder around it is refused as well.
    const other = fakeCoreFor(true, [path.join(dir, 'extra', 'ws2')]);
    fs.mkdirSync(path.join(dir, 'extra', 'ws2'));
    assert.match((await other.folders.add(path.join(dir, 'extra'))) ?? 'added', /holds .*ws2, a folder of this session or workspace/);
    // Beside them: added (and saved before the folder is removed after the test).
    assert.equal(await folders.add(path.join(dir, 'extra')), undefined);
    await folders.flushed();
  });

  it('a refusal names the folder escaped: a folder named like a command link is no link in the notification', async () => {
    const { folders } = open(true);
    const evil = path.join(dir, 'extra', '[x](command:workbench.action.terminal.new)');
    fs.writeFileSync(evil, 'a file, not a folder');
    const refused = (await folders.add(evil)) ?? '';
    assert.match(refused, /is not a folder/);
    assert.equal(/\[[^\]]+\]\(command:[^)\s]+\)/.test(refused), false, refused);
    assert.equal(refused.replace(/\u200b/g, ''), `${evil} is not a folder.`, 'the name reads the same');
  });

  it('pins the real path when added and keeps the pin with the folder: another window finds the name swapped for a link', async () => {
    const { folders } = open(true);
    const extra = path.join(dir, 'extra');
    assert.equal(await folders.add(extra), undefined);
    await folders.flushed();
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'store', 's1.folders.json'), 'utf8')), { v: 1, folders: [extra], real: { [extra]: fs.realpathSync.native(extra) } });
    // Swapped for a link to somewhere else before another window opens the session.
    fs.renameSync(extra, path.join(dir, 'extra-was'));
    fs.symlinkSync(path.join(dir, 'store'), extra);
    const again = open(true);
    const p = await again.folders.params(again.rt);
    assert.equal(p.additionalDirectories, undefined, 'not sent');
    assert.equal(again.folders.roots().includes(extra), false, 'not inside the boundary');
    assert.equal(again.folders.list()[0]?.missing, true);
    // A file written before pins were kept: pinned when first seen (as before).
    fs.writeFileSync(path.join(dir, 'store', 'old.folders.json'), JSON.stringify({ v: 1, folders: [extra] }));
    const old = open(true, 'old');
    await old.folders.params(old.rt);
    assert.ok(old.folders.roots().includes(extra));
  });

  it('attached: Add Folder shows at once (capability), the stored chips once read', async () => {
    const first = open(true);
    await first.folders.add(path.join(dir, 'extra'));
    await first.folders.flushed();
    const { f, rt, folders } = open(true, 'other');
    folders.attached(rt, 'other');
    assert.deepEqual(f.transcript.header.folders, { canAdd: true, list: [] }, 'synchronously');
    folders.attached(rt, 's1');
    await folders.flushed();
    assert.deepEqual(f.transcript.header.folders, { canAdd: true, list: [{ path: path.join(dir, 'extra'), name: 'extra', missing: false }] });
  });

  it('not open yet: refused with a clear sentence', async () => {
    const { f, folders } = open(true);
    f.state.runtime = undefined;
    assert.match((await folders.add(path.join(dir, 'extra')))!, /not open yet/);
  });

  it('a folder deleted while in use: the chip says it is missing, and it is not sent again; remove takes it out', async () => {
    const { f, folders } = open(true);
    const extra = path.join(dir, 'extra');
    await folders.add(extra);
    fs.rmSync(extra, { recursive: true });
    folders.turnEnded();
    assert.deepEqual(f.transcript.header.folders?.list, [{ path: extra, name: 'extra', missing: true }]);
    await folders.flushed();
    const again = open(true);
    assert.equal((await again.folders.params(again.rt)).additionalDirectories, undefined, 'a missing folder is not sent');
    assert.equal(again.folders.list()[0]?.missing, true);
    assert.equal(folders.remove(extra), true);
    assert.equal(folders.roots().includes(extra), false, 'out of the boundary at once');
    assert.equal(folders.remove(extra), false);
    assert.deepEqual(f.transcript.header.folders?.list, []);
    await folders.flushed();
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'store', 's1.folders.json'), 'utf8')).folders, []);
  });

  it('a folder deleted mid-turn leaves the boundary at once (the chip says so at the turn\'s end); one put back as a link elsewhere stays out', async () => {
    const { f, folders } = open(true);
    const extra = path.join(dir, 'extra');
    await folders.add(extra);
    assert.ok(folders.roots().includes(extra));
    fs.rmSync(extra, { recursive: true });
    // No turn boundary yet: the chip still shows it, but requests under it are outside (a write cannot recreate it).
    assert.equal(f.transcript.header.folders?.list[0]?.missing, false);
    assert.equal(folders.roots().includes(extra), false);
    // Its path now a link to another folder: the grant was for the folder, not the path.
    const elsewhere = path.join(dir, 'store');
    fs.symlinkSync(elsewhere, extra);
    assert.equal(folders.roots().includes(extra), false);
    folders.turnEnded();
    assert.equal(f.transcript.header.folders?.list[0]?.missing, true);
    // The same folder back where it was: in again.
    fs.unlinkSync(extra);
    fs.mkdirSync(extra);
    assert.ok(folders.roots().includes(extra));
    // Removed and added again: the user chose it as it is now.
    fs.rmSync(extra, { recursive: true });
    fs.symlinkSync(elsewhere, extra);
    assert.equal(folders.remove(extra), true);
    assert.equal(await folders.add(extra), undefined);
    assert.ok(folders.roots().includes(extra));
    await folders.flushed();
  });

  it('a fork keeps the source\'s added folders: sent with the fork, saved under the new id', async () => {
    const src = open(true);
    const extra = path.join(dir, 'extra');
    await src.folders.add(extra);
    await src.folders.flushed();
    const { f, rt, folders } = open(true, 'fork-1');
    f.state.sessionId = undefined; // a fork has no id until the agent answers
    await folders.inherit('s1');
    assert.ok(folders.roots().includes(extra), 'inside the boundary from the start');
    const p = await folders.params(rt);
    assert.deepEqual(p.additionalDirectories, [extra]);
    f.state.sessionId = 'fork-1';
    folders.attached(rt, 'fork-1');
    await folders.flushed();
    assert.deepEqual(f.transcript.header.folders?.list, [{ path: extra, name: 'extra', missing: false }]);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'store', 'fork-1.folders.json'), 'utf8')).folders, [extra]);
    // The source keeps its own.
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'store', 's1.folders.json'), 'utf8')).folders, [extra]);
    // A source with none: none, and no file written.
    const bare = open(true, 'fork-2');
    bare.f.state.sessionId = undefined;
    await bare.folders.inherit('never-had-any');
    bare.folders.attached(bare.rt, 'fork-2');
    await bare.folders.flushed();
    assert.equal(fs.existsSync(path.join(dir, 'store', 'fork-2.folders.json')), false);
  });

  it('the folders file is read tolerantly', () => {
    assert.deepEqual(parseFolders('not json'), []);
    assert.deepEqual(parseFolders(JSON.stringify({ v: 2, folders: ['/a'] })), []);
    assert.deepEqual(parseFolders(JSON.stringify({ v: 1, folders: ['/a', 'rel', 7, '/a', '/b/../c', '/x\u0000y'] })), [path.resolve('/a'), path.resolve('/c')]);
    // Pins: only for a listed folder, only an absolute path.
    assert.deepEqual([...parseFolderFile(JSON.stringify({ v: 1, folders: ['/a', '/b', '/c'], real: { '/a': '/real/a', '/b': 'rel', '/z': '/real/z', '/c': 7 } })).real], [[path.resolve('/a'), path.resolve('/real/a')]]);
    assert.equal(parseFolderFile(JSON.stringify({ v: 1, folders: ['/a'], real: ['/x'] })).real.size, 0);
    assert.equal(parseFolders(JSON.stringify({ v: 1, folders: Array.from({ length: 50 }, (_, i) => `/f${i}`) })).length, 20);
  });
});
