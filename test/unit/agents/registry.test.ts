import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { archiveKind, extractArchive, UnsafeArchiveError } from '../../../src/agents/registry/archive';
import { chooseDistribution, parseRegistry, platformKey, type RegistryAgent } from '../../../src/agents/registry/format';
import { compareVersions, isNewerVersion } from '../../../src/shared/versions';
import { checkUrl, download, getText, HttpError } from '../../../src/agents/registry/http';
import { AgentInstaller, ChecksumError, isUnverified, UnverifiedError } from '../../../src/agents/registry/installer';
import { RegistrySource } from '../../../src/agents/registry/registrySource';
import { isRefusedEnvName } from '../../../src/node/envPolicy';
import { binaryEntry, fakeAgentEntries, sha256, startLocalRegistry, tarGz, zip, type ArchiveEntry, type LocalRegistry } from '../../support/registryFixture';

const ROOT = path.resolve(__dirname, '../../../..');
const SAMPLE = path.join(ROOT, '..', 'shared', 'acp', 'registry.sample.json');
const SNAPSHOT = path.join(ROOT, 'media', 'registry-snapshot.json');
const FIXTURES = path.join(ROOT, 'test', 'fixtures');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'acp-reg-'));

function parsedOne(entry: unknown): RegistryAgent {
  const r = parseRegistry(JSON.stringify({ version: '1.0.0', agents: [entry] }));
  assert.deepEqual(r.problems, []);
  return r.agents[0]!;
}

describe('registry: format', () => {
  it('parses the real sample and the shipped snapshot without a problem', () => {
    for (const file of [SAMPLE, SNAPSHOT].filter((f) => fs.existsSync(f))) {
      const r = parseRegistry(fs.readFileSync(file, 'utf8'));
      assert.deepEqual(r.problems, [], file);
      assert.ok(r.agents.length >= 11, `${file}: ${r.agents.length}`);
      const codex = r.agents.find((a) => a.id === 'codex-acp');
      assert.equal(codex?.binary?.['linux-x86_64']?.cmd, './codex-acp');
      assert.match(r.agents.find((a) => a.id === 'gemini')?.npx?.package ?? '', /^@google\/gemini-cli@\d/);
    }
    assert.ok(fs.existsSync(SNAPSHOT), 'the snapshot ships in media/');
  });

  it('skips each malformed entry with a reason and keeps the rest', () => {
    const good = { id: 'good', name: 'Good', version: '1.0.0', description: 'd', distribution: { npx: { package: 'good@1.0.0' } } };
    const r = parseRegistry(
      JSON.stringify({
        version: '1.0.0',
        agents: [
          { ...good, id: 'Bad_Id' },
          { ...good, id: 'no-dist', distribution: {} },
          { ...good, id: 'flag', distribution: { npx: { package: '--registry=http://evil' } } },
          { ...good, id: 'bad-sha', distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.tgz', cmd: './a', sha256: 'xyz' } } } },
          { ...good, id: 'bad-env', distribution: { npx: { package: 'p@1', env: { X: 1 } } } },
          { ...good, id: 'no-name', name: undefined },
          'not an object',
          good,
          { ...good, name: 'Twice' },
          { ...good, id: 'extra', preview: { whatever: true }, distribution: { npx: { package: 'extra@1.0.0', args: ['--acp'] }, futureKind: {} } },
        ],
      }),
    );
    assert.deepEqual(
      r.agents.map((a) => a.id),
      ['good', 'extra'],
    );
    assert.equal(r.problems.length, 8);
    for (const id of ['"Bad_Id"', '"no-dist"', '"flag"', '"bad-sha"', '"bad-env"', '"no-name"', '#6']) assert.ok(r.problems.some((p) => p.includes(id)), id);
    assert.ok(r.problems.some((p) => /listed twice/.test(p)));
    assert.throws(() => parseRegistry('{"agents": 3}'), /no "agents" list/);
    // What decides which program or package runs is not the entry's to set; packages are pinned to the entry's version.
    const refused = parseRegistry(
      JSON.stringify({
        agents: [
          ...['PATH', 'NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'npm_config_registry', 'UV_INDEX_URL', 'PIP_INDEX_URL'].map((k, i) => ({ ...good, id: `env-${i}`, distribution: { npx: { package: 'good@1.0.0', env: { [k]: 'x' } } } })),
          ...['good', 'good@latest', 'good@^1.0.0', 'file:../x', 'github:a/b', 'https://x/y.tgz', 'good@2.0.0'].map((p, i) => ({ ...good, id: `pkg-${i}`, distribution: { npx: { package: p } } })),
          { ...good, id: 'uv-unpinned', distribution: { uvx: { package: 'fast-agent-acp>=1.0.0' } } },
          { ...good, id: 'uv-ok', distribution: { uvx: { package: 'fast-agent-acp[extra]==1.0.0' } } },
          { ...good, id: 'scoped-ok', distribution: { npx: { package: '@scope/good@1.0.0' } } },
        ],
      }),
    );
    // Names that decide what runs are stripped from env (the entry stays, the rest of its env too).
    assert.deepEqual(refused.agents.map((a) => a.id), ['env-0', 'env-1', 'env-2', 'env-3', 'env-4', 'env-5', 'env-6', 'uv-ok', 'scoped-ok']);
    for (const [i, k] of ['PATH', 'NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'npm_config_registry', 'UV_INDEX_URL', 'PIP_INDEX_URL'].entries()) {
      const t = refused.agents[i]!.npx!;
      assert.deepEqual([t.env, t.strippedEnv], [{}, [k]], k);
    }
    const mixed = parsedOne({ ...good, id: 'mixed', distribution: { npx: { package: 'good@1.0.0', env: { PATH: '/evil', ACME_MODE: 'acp', BASH_ENV: '/x', dyld_library_path: '/y' } } } });
    assert.deepEqual(mixed.npx!.env, { ACME_MODE: 'acp' });
    assert.deepEqual(mixed.npx!.strippedEnv, ['PATH', 'BASH_ENV', 'dyld_library_path']);
    assert.ok(refused.problems.some((p) => /pins 2\.0\.0, not the entry's version 1\.0\.0/.test(p)));
    assert.throws(() => parseRegistry('<html>'), /not JSON/);
  });

  it('strips from env what changes where traffic goes, which config, shell or git program is used (issue 34), and keeps ordinary names', () => {
    const refused = [
      'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL', 'OPENAI_API_BASE', 'AWS_ENDPOINT_URL', 'OLLAMA_HOST',
      'HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'https_proxy', 'http_proxy', 'all_proxy', 'NO_PROXY', 'GLOBAL_AGENT_HTTP_PROXY',
      'NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'SSLKEYLOGFILE',
      'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_GLOBAL', 'GIT_EXEC_PATH', 'GIT_ASKPASS', 'GIT_PROXY_COMMAND',
      'HOME', 'USERPROFILE', 'APPDATA', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'xdg_cache_home',
      'COMSPEC', 'ComSpec', 'SHELL', 'BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND', 'EDITOR', 'PAGER',
      'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONWARNINGS', 'PYTHONBREAKPOINT', 'PYTHONINSPECT',
      'NODE_REPL_EXTERNAL_MODULE', 'YARN_NPM_REGISTRY_SERVER', 'BUN_CONFIG_REGISTRY', 'COREPACK_NPM_REGISTRY', 'GOPROXY', 'CARGO_HOME', 'RUSTC_WRAPPER',
      'DOTNET_STARTUP_HOOKS', 'CORECLR_PROFILER_PATH', '_JAVA_OPTIONS', 'PSModulePath', 'ELECTRON_RUN_AS_NODE', 'VSCODE_IPC_HOOK', 'DOCKER_HOST',
    ];
    for (const k of refused) {
      const t = parsedOne({ id: 'env', name: 'Env', version: '1.0.0', description: 'd', distribution: { npx: { package: 'good@1.0.0', env: { [k]: 'x', ACME_MODE: 'acp' } } } }).npx!;
      assert.deepEqual([t.env, t.strippedEnv], [{ ACME_MODE: 'acp' }, [k]], k);
    }
    for (const k of ['refused', ...refused]) assert.equal(isRefusedEnvName(k), k !== 'refused', k);
    // Ordinary names are kept: what the shipped entries set, modes, keys, and the harmless names under a refused prefix.
    const kept = ['ACME_MODE', 'AUGMENT_DISABLE_AUTO_UPDATE', 'DROID_DISABLE_AUTO_UPDATE', 'FACTORY_DROID_AUTO_UPDATE_ENABLED', 'NODE_ENV', 'NODE_NO_WARNINGS', 'PYTHONUNBUFFERED', 'PYTHONIOENCODING', 'PYTHONUTF8', 'DEBUG', 'LOG_LEVEL', 'TERM', 'LANG', 'HOMEBREW_NO_AUTO_UPDATE', 'GITHUB_ACTIONS', 'CI'];
    for (const k of kept) {
      const t = parsedOne({ id: 'env', name: 'Env', version: '1.0.0', description: 'd', distribution: { npx: { package: 'good@1.0.0', env: { [k]: '1' } } } }).npx!;
      assert.deepEqual([t.env, t.strippedEnv], [{ [k]: '1' }, undefined], k);
      assert.equal(isRefusedEnvName(k), false, k);
    }
  });

  it('maps this machine to a platform key and picks binary, then npx, then uvx', () => {
    assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
    assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformKey('win32', 'arm64'), 'windows-aarch64');
    assert.equal(platformKey('freebsd', 'x64'), undefined);
    const t = { archive: 'https://x/a.tgz', cmd: './a' };
    const both = parsedOne({ id: 'a', name: 'A', version: '1.0.0', description: '', distribution: { binary: { 'darwin-x86_64': t, 'linux-x86_64': t }, npx: { package: 'a@1.0.0' } } });
    const on = (platform: ReturnType<typeof platformKey>, hasNpx = true, hasUvx = true) => chooseDistribution(both, { platform, hasNpx, hasUvx });
    assert.equal((on('linux-x86_64') as { kind: string }).kind, 'binary');
    const rosetta = on('darwin-aarch64') as { kind: string; platform: string };
    assert.deepEqual([rosetta.kind, rosetta.platform], ['binary', 'darwin-x86_64']);
    assert.equal((on('linux-aarch64') as { kind: string }).kind, 'npx');
    assert.deepEqual(on('linux-aarch64', false), { unavailable: 'needs Node.js (npx)' });
    const uv = parsedOne({ id: 'u', name: 'U', version: '0.6.12', description: '', distribution: { uvx: { package: 'fast-agent-acp==0.6.12' } } });
    assert.deepEqual(chooseDistribution(uv, { platform: 'linux-x86_64', hasNpx: true, hasUvx: false }), { unavailable: 'needs uv' });
    const binOnly = parsedOne({ id: 'b', name: 'B', version: '1.0.0', description: '', distribution: { binary: { 'darwin-aarch64': t } } });
    assert.deepEqual(chooseDistribution(binOnly, { platform: 'linux-x86_64', hasNpx: true, hasUvx: true }), { unavailable: 'no build for this platform (linux-x86_64)' });
  });

  it('compares versions numerically', () => {
    assert.ok(compareVersions('1.10.0', '1.9.2') > 0);
    assert.ok(compareVersions('0.9.2', '0.10.0') < 0);
    assert.equal(compareVersions('2.0.0', '2.0.0'), 0);
    assert.ok(compareVersions('1.0.0-rc.1', '1.0.0') < 0, 'a pre-release is below its release');
  });

  it('a registry that lies about versions offers no update: lower, equal or malformed', () => {
    assert.equal(isNewerVersion('1.3.0', '1.2.0'), true);
    assert.equal(isNewerVersion('1.0.0', '1.0.0-rc.1'), true);
    assert.equal(isNewerVersion('1.0.1a2', '1.0.0'), true, 'a PEP 440 pre-release of a later version');
    assert.equal(isNewerVersion('1.1.0', '1.2.0'), false, 'lower');
    assert.equal(isNewerVersion('1.2.0', '1.2.0'), false, 'equal');
    for (const bad of ['latest', 'zzz', 'v9', '', 'x.1', '9'.repeat(200)]) assert.equal(isNewerVersion(bad, '1.0.0'), false, bad);
    assert.equal(isNewerVersion('2.0.0', 'unknown'), false, 'an installed version that is not one');
    assert.ok(compareVersions('1.0.0-rc.2', '1.0.0-rc.10') < 0);
  });

  it('fetches over https only, or http from this machine', () => {
    assert.ok(checkUrl('https://cdn.example/registry.json'));
    assert.ok(checkUrl('http://127.0.0.1:9/registry.json'));
    assert.ok(checkUrl('http://[::1]:9/x'));
    // A redirect may not turn https into plain http, not even to this machine.
    assert.throws(() => checkUrl('http://127.0.0.1:9/x', new URL('https://cdn.example/registry.json')), /refused/);
    assert.ok(checkUrl('http://127.0.0.1:9/x', new URL('http://localhost:8/registry.json')));
    for (const bad of ['http://example.com/registry.json', 'http://127.0.0.1.evil.com/x', 'file:///etc/passwd', 'ftp://x/y', 'nonsense']) {
      assert.throws(() => checkUrl(bad), (e: unknown) => e instanceof HttpError && e.reason === 'refused', bad);
    }
  });
});

describe('registry: archives', () => {
  const extract = async (name: string, buf: Buffer, rawName = 'agent') => {
    const dir = tmp();
    const file = path.join(dir, name);
    fs.writeFileSync(file, buf);
    const dest = path.join(dir, 'out');
    await extractArchive(file, archiveKind(name), dest, rawName);
    return dest;
  };
  const refused = async (name: string, buf: Buffer, why: RegExp) => {
    const dir = tmp();
    const file = path.join(dir, name);
    fs.writeFileSync(file, buf);
    const dest = path.join(dir, 'out');
    await assert.rejects(extractArchive(file, archiveKind(name), dest, 'agent'), (e: unknown) => e instanceof UnsafeArchiveError && why.test((e as Error).message));
    assert.equal(fs.existsSync(dest), false, 'nothing is left of a refused archive');
    assert.deepEqual(fs.readdirSync(dir), [name], 'nothing was written beside it');
  };
  const honest: ArchiveEntry[] = [{ name: 'bin/', dir: true }, { name: 'bin/agent', content: '#!/bin/sh\n', mode: 0o755 }, { name: 'lib/data.txt', content: 'x' }, { name: 'bin/alias', link: 'agent' }, { name: 'lib/up', link: '../bin/agent' }];

  it('names the format from the URL', () => {
    assert.equal(archiveKind('https://x/a-1.0.tar.gz?sig=1'), 'tar.gz');
    assert.equal(archiveKind('https://x/a.TGZ'), 'tar.gz');
    assert.equal(archiveKind('https://x/a.tar.bz2'), 'tar.bz2');
    assert.equal(archiveKind('https://x/a.tbz2'), 'tar.bz2');
    assert.equal(archiveKind('https://x/a.zip'), 'zip');
    assert.equal(archiveKind('https://x/agent-linux-x64'), 'raw');
    assert.equal(archiveKind('https://x/agent.exe'), 'raw');
    for (const installer of ['a.dmg', 'a.pkg', 'a.deb', 'a.rpm', 'a.msi', 'a.tar.xz', 'a.gz', 'a.7z']) assert.equal(archiveKind(`https://x/${installer}`), 'unsupported', installer);
  });

  it('unpacks .tar.gz and .zip with files, folders, modes and inner links', async () => {
    for (const [name, buf] of [
      ['a.tar.gz', await tarGz(honest)],
      ['a.zip', await zip(honest.filter((e) => !e.dir).map((e) => (e.mode ? { ...e, mode: 0o100755 } : e)))],
    ] as const) {
      const out = await extract(name, buf);
      assert.equal(fs.readFileSync(path.join(out, 'bin', 'agent'), 'utf8'), '#!/bin/sh\n', name);
      assert.equal(fs.statSync(path.join(out, 'bin', 'agent')).mode & 0o100, 0o100, `${name}: executable bit kept`);
      assert.equal(fs.readlinkSync(path.join(out, 'bin', 'alias')), 'agent', name);
      assert.equal(fs.readFileSync(path.join(out, 'lib', 'up'), 'utf8'), '#!/bin/sh\n', name);
    }
  });

  it('copies a raw executable under the name of its cmd', async () => {
    const out = await extract('agent-linux', Buffer.from('\x7fELF'), 'my-agent');
    assert.deepEqual(fs.readdirSync(out), ['my-agent']);
  });

  it('refuses `../` entries, absolute paths and links out, leaving nothing behind', async () => {
    await refused('a.tar.gz', await tarGz([{ name: 'ok', content: '1' }, { name: '../evil', content: 'x' }]), /outside/);
    await refused('a.tar.gz', await tarGz([{ name: 'a/../../evil', content: 'x' }]), /outside/);
    await refused('a.tar.gz', await tarGz([{ name: '/tmp/evil', content: 'x' }]), /absolute|outside|stripping/i);
    await refused('a.tar.gz', await tarGz([{ name: 'link', link: '/etc/passwd' }]), /absolute/);
    await refused('a.tar.gz', await tarGz([{ name: 'link', link: '../../outside' }]), /outside/);
    // Each link looks inside by its name; together they lead out.
    await refused('a.tar.gz', await tarGz([{ name: 'here', link: '.' }, { name: 'up', link: 'here/..' }]), /outside/);
    await refused('a.zip', await zip([{ name: 'link', link: '../../etc' }]), /outside/);
    await refused('a.zip', await zip([{ name: 'link', link: '/etc' }]), /absolute/);
  });

  it('unpacks .tar.bz2 in a child process; a bzip2 bomb costs that process, not this one', async function () {
    this.timeout(60_000);
    const archives = path.join(FIXTURES, 'archives');
    const out = await extract('a.tar.bz2', fs.readFileSync(path.join(archives, 'honest.tar.bz2')));
    assert.equal(fs.readFileSync(path.join(out, 'bin', 'agent'), 'utf8'), '#!/bin/sh\necho bz2\n');
    // 320 bytes that unpack to 300 MB of zeros.
    let lag = 0;
    let last = Date.now();
    const timer = setInterval(() => {
      lag = Math.max(lag, Date.now() - last - 20);
      last = Date.now();
    }, 20);
    try {
      await refused('a.tar.bz2', fs.readFileSync(path.join(archives, 'bomb.tar.bz2')), /bomb/);
    } finally {
      clearInterval(timer);
    }
    assert.ok(lag < 2000, `this process stayed responsive (longest stall ${lag} ms)`);
  });

  it('refuses installers and formats agents are not shipped in', async () => {
    await refused('a.dmg', Buffer.from('x'), /installer or an archive format/);
  });

  it('refuses a zip with a `../` entry (crafted past the zip writer)', async () => {
    const good = await zip([{ name: 'xxevil', content: 'x' }]);
    // Same length name, patched in both the local header and the central directory.
    const crafted = Buffer.from(good.toString('latin1').split('xxevil').join('../evl'), 'latin1');
    await refused('a.zip', crafted, /outside|invalid relative path|cannot be read/);
  });
});

describe('registry: installs', () => {
  let reg: LocalRegistry;
  before(async () => (reg = await startLocalRegistry()));
  after(async () => await reg.close());

  const agentFrom = (entry: unknown) => parsedOne(entry);
  const dist = (a: RegistryAgent) => {
    const d = chooseDistribution(a, { platform: platformKey(), hasNpx: true, hasUvx: true });
    assert.ok(!('unavailable' in d), JSON.stringify(d));
    return d;
  };

  it('installs a checked binary, switches versions, removes the old one, and uninstalls', async function () {
    if (process.platform === 'win32') this.skip(); // the archived agent is a shell script
    const v1 = await tarGz(fakeAgentEntries(FIXTURES));
    const v2 = await zip(fakeAgentEntries(FIXTURES));
    reg.put('v1.tar.gz', v1);
    reg.put('v2.zip', v2);
    const root = tmp();
    const lines: string[] = [];
    const inst = new AgentInstaller(root, (m) => lines.push(m));
    const progress: number[] = [];
    const a1 = agentFrom(binaryEntry(reg, { id: 'fake', version: '1.0.0', archive: 'v1.tar.gz', sha256: sha256(v1).toUpperCase(), env: { A: '1' }, args: ['default'] }));
    const r1 = await inst.install(a1, dist(a1), (n) => progress.push(n));
    assert.equal(r1.command, path.join(root, 'fake', '1.0.0', 'agent'));
    assert.equal(fs.statSync(r1.command).mode & 0o111, 0o111, 'cmd is executable');
    assert.deepEqual([r1.args, r1.env], [['default'], { A: '1' }]);
    assert.equal(progress.at(-1), v1.length);
    const def = AgentInstaller.definition(r1);
    assert.deepEqual([def.source, def.version], ['registry', '1.0.0']);

    const a2 = agentFrom(binaryEntry(reg, { id: 'fake', version: '1.1.0', archive: 'v2.zip', sha256: sha256(v2) }));
    const r2 = await inst.install(a2, dist(a2));
    assert.deepEqual(fs.readdirSync(path.join(root, 'fake')), ['1.1.0'], 'the old version is gone');
    assert.equal(new AgentInstaller(root, () => {}).get('fake')?.version, '1.1.0', 'installed.json says so');
    assert.ok(fs.existsSync(r2.command));

    assert.equal(inst.uninstall('fake'), true);
    assert.equal(fs.existsSync(path.join(root, 'fake')), false);
    assert.deepEqual(new AgentInstaller(root, () => {}).installed(), []);
  });

  it('refuses a download whose SHA-256 differs, naming both hashes, and leaves nothing', async () => {
    const buf = await tarGz(fakeAgentEntries(FIXTURES));
    reg.put('tampered.tar.gz', buf);
    const wrong = 'ab'.repeat(32);
    const a = agentFrom(binaryEntry(reg, { id: 'tampered', version: '1.0.0', archive: 'tampered.tar.gz', sha256: wrong }));
    const root = tmp();
    const inst = new AgentInstaller(root, () => {});
    await assert.rejects(inst.install(a, dist(a)), (e: unknown) => e instanceof ChecksumError && (e as Error).message.includes(wrong) && (e as Error).message.includes(sha256(buf)));
    assert.deepEqual(fs.readdirSync(root), [], 'no folder, no download, no installed.json');
  });

  it('refuses a binary without a checksum unless the user allowed it, before downloading anything', async function () {
    if (process.platform === 'win32') this.skip(); // the archived agent is a shell script
    reg.put('unchecked.tar.gz', await tarGz(fakeAgentEntries(FIXTURES)));
    const a = agentFrom(binaryEntry(reg, { id: 'unchecked', version: '1.0.0', archive: 'unchecked.tar.gz' }));
    const d = dist(a);
    assert.equal(isUnverified(d), true);
    const root = tmp();
    const inst = new AgentInstaller(root, () => {});
    const before = reg.requests.length;
    await assert.rejects(inst.install(a, d), (e: unknown) => e instanceof UnverifiedError && /gives no SHA-256 checksum/.test((e as Error).message));
    assert.equal(reg.requests.length, before, 'nothing was downloaded');
    assert.deepEqual(fs.readdirSync(root), [], 'nothing was written');
    const lines: string[] = [];
    const allowed = await new AgentInstaller(root, (m) => lines.push(m)).install(a, d, undefined, undefined, { allowUnverified: true });
    assert.ok(fs.existsSync(allowed.command), 'installed once allowed');
    assert.ok(lines.some((l) => /gives no checksum; the archive's SHA-256 is [0-9a-f]{64}/.test(l)), 'and the hash it got is logged');
    const checked = agentFrom(binaryEntry(reg, { id: 'checked', version: '1.0.0', archive: 'unchecked.tar.gz', sha256: 'ab'.repeat(32) }));
    assert.equal(isUnverified(dist(checked)), false);
    assert.equal(isUnverified({ kind: 'npx', target: { package: 'x@1', args: [], env: {} } }), false, 'npx pins a package; no archive to check');
  });

  it('refuses an archive without its cmd, and a 404, keeping the installed version', async () => {
    const root = tmp();
    const inst = new AgentInstaller(root, () => {});
    const good = await tarGz(fakeAgentEntries(FIXTURES));
    reg.put('good.tar.gz', good);
    const unchecked = { allowUnverified: true };
    const a1 = agentFrom(binaryEntry(reg, { id: 'keep', version: '1.0.0', archive: 'good.tar.gz' }));
    await inst.install(a1, dist(a1), undefined, undefined, unchecked);
    reg.put('nocmd.tar.gz', await tarGz([{ name: 'other', content: 'x' }]));
    const a2 = agentFrom(binaryEntry(reg, { id: 'keep', version: '2.0.0', archive: 'nocmd.tar.gz' }));
    await assert.rejects(inst.install(a2, dist(a2), undefined, undefined, unchecked), /has no "\.\/agent" to run/);
    const a3 = agentFrom(binaryEntry(reg, { id: 'keep', version: '3.0.0', archive: 'missing.tar.gz' }));
    await assert.rejects(inst.install(a3, dist(a3), undefined, undefined, unchecked), /HTTP 404/);
    assert.deepEqual(fs.readdirSync(path.join(root, 'keep')), ['1.0.0']);
    assert.equal(inst.get('keep')?.version, '1.0.0');
  });

  it('re-reads installed.json written by another window, ignores damaged records, and sweeps leftovers', async () => {
    const root = tmp();
    const a = new AgentInstaller(root, () => {});
    const b = new AgentInstaller(root, () => {});
    const n = agentFrom({ id: 'n', name: 'N', version: '1.0.0', description: '', distribution: { npx: { package: 'n@1.0.0' } } });
    assert.deepEqual(a.installed(), []);
    await b.install(n, { kind: 'npx', target: n.npx! });
    assert.deepEqual(a.installed().map((x) => x.id), ['n'], 'window A sees what window B installed');
    const state = JSON.parse(fs.readFileSync(path.join(root, 'installed.json'), 'utf8'));
    state.agents.broken = { id: 'broken', name: 7 };
    fs.writeFileSync(path.join(root, 'installed.json'), JSON.stringify(state));
    const lines: string[] = [];
    const c = new AgentInstaller(root, (m) => lines.push(m));
    assert.deepEqual(c.installed().map((x) => x.id), ['n']);
    assert.ok(lines.some((l) => /"broken" is damaged/.test(l)));
    for (const left of ['.downloads/x', 'n/.staging-1234', 'n/0.9.0', 'gone/1.0.0']) fs.mkdirSync(path.join(root, left), { recursive: true });
    c.sweep();
    assert.deepEqual(fs.readdirSync(root).sort(), ['installed.json', 'n']);
    assert.deepEqual(fs.readdirSync(path.join(root, 'n')), ['.npm-prefix']);
  });

  it('records npx and uvx agents as pinned package runs with their own npm prefix', async () => {
    const root = tmp();
    const inst = new AgentInstaller(root, () => {});
    const n = agentFrom({ id: 'n', name: 'N', version: '0.15.0', description: '', distribution: { npx: { package: '@x/n@0.15.0', args: ['--acp'], env: { NO_UPDATE: '1' } } } });
    const r = await inst.install(n, { kind: 'npx', target: n.npx! });
    assert.deepEqual([r.command, r.args, r.env], ['npx', ['--yes', '--prefix', path.join(root, 'n', '.npm-prefix'), '@x/n@0.15.0', '--acp'], { NO_UPDATE: '1' }]);
    assert.ok(fs.statSync(path.join(root, 'n', '.npm-prefix')).isDirectory());
    const u = agentFrom({ id: 'u', name: 'U', version: '0.6.12', description: '', distribution: { uvx: { package: 'fast-agent-acp==0.6.12', args: ['-x'] } } });
    const ru = await inst.install(u, { kind: 'uvx', target: u.uvx! });
    assert.deepEqual([ru.command, ru.args], ['uvx', ['fast-agent-acp==0.6.12', '-x']]);
  });
});

describe('registry: http', () => {
  it('limits size, redirects and time, and refuses a redirect to plain http', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/big') return void res.writeHead(200, { 'content-length': 5000 }).end(Buffer.alloc(5000));
      if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/drip') {
        res.writeHead(200);
        const t = setInterval(() => res.write('x'), 50);
        res.on('close', () => clearInterval(t));
        return;
      }
      if (req.url === '/to-remote') return void res.writeHead(302, { location: 'http://example.com/x' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = tmp();
    try {
      await assert.rejects(download(`${base}/big`, path.join(dir, 'f'), { idleTimeoutMs: 2000, maxBytes: 1000 }), /over the limit/);
      await assert.rejects(getText(`${base}/loop`, { idleTimeoutMs: 2000, maxBytes: 1000 }), /Too many redirects/);
      await assert.rejects(getText(`${base}/to-remote`, { idleTimeoutMs: 2000, maxBytes: 1000 }), /refused/);
      await assert.rejects(getText(`${base}/drip`, { idleTimeoutMs: 2000, deadlineMs: 400, maxBytes: 1e6 }), /took longer than/);
      let cancel: (() => void) | undefined;
      const token = { isCancellationRequested: false, onCancellationRequested: (l: () => void) => ((cancel = l), { dispose() {} }) };
      const p = download(`${base}/drip`, path.join(dir, 'g'), { idleTimeoutMs: 2000, maxBytes: 1e6, token });
      setTimeout(() => cancel?.(), 200);
      await assert.rejects(p, /Cancelled/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('registry: the list', () => {
  let reg: LocalRegistry;
  before(async () => (reg = await startLocalRegistry()));
  after(async () => await reg.close());

  it('fetches, caches with the ETag, and falls back to the cache, then the snapshot', async () => {
    const dir = tmp();
    const cacheFile = path.join(dir, 'registry', 'registry.json');
    let url = reg.url;
    const logs: string[] = [];
    const src = () => new RegistrySource({ url: () => url, cacheFile, snapshotFile: SNAPSHOT, log: (m) => logs.push(m), timeoutMs: 2000 });
    reg.put('registry.json', JSON.stringify({ version: '1.0.0', agents: [binaryEntry(reg, { id: 'one', version: '1.0.0', archive: 'x.tgz' }), { id: 'Broken' }] }));
    const s1 = src();
    assert.equal(s1.current().from, 'snapshot', 'before any fetch: the snapshot');
    const l1 = await s1.refresh();
    assert.deepEqual([l1.from, l1.agents.map((a) => a.id)], ['registry', ['one']]);
    assert.ok(logs.some((l) => /"Broken" skipped/.test(l)), 'the malformed entry is logged');
    const l2 = await src().refresh();
    assert.equal(l2.from, 'registry');
    assert.ok(reg.requests.at(-1)?.ifNoneMatch, 'the second fetch is conditional');
    assert.deepEqual(l2.agents.map((a) => a.id), ['one'], '304: the cached copy');
    // Offline: the cache.
    const s3 = new RegistrySource({ url: () => reg.url.replace(/:\d+\//, ':9/'), cacheFile, snapshotFile: SNAPSHOT, log: () => {}, timeoutMs: 2000 });
    assert.equal((await s3.refresh()).from, 'snapshot', 'a cache of another URL is not used');
    await reg.close();
    url = reg.url;
    const l4 = await src().refresh();
    assert.deepEqual([l4.from, l4.agents.map((a) => a.id)], ['cache', ['one']]);
    assert.match(l4.error ?? '', /could not be read/);
    fs.rmSync(cacheFile);
    const l5 = await src().refresh();
    assert.equal(l5.from, 'snapshot');
    assert.ok(l5.agents.some((a) => a.id === 'gemini'));
    reg = await startLocalRegistry();
  });
});
