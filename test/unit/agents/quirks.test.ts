import * as assert from 'node:assert/strict';
import { codexSandboxHelperNote, codexSandboxHelperTarget, GEMINI_TRUST_ENV, inRange, isCodexAcp, isGeminiCli, launchEnvQuirks, mcpServersIgnored, parseVersion, QUIRKS, quirksFor, quirksLine, SessionQuirks, trustPassedNote, type LaunchInfo } from '../../../src/agents/quirks';

describe('agents: interop quirks table', () => {
  it('every entry names its agents, each with a readable version range, and its upstream issue', () => {
    for (const q of QUIRKS) {
      assert.ok(q.agents.length && q.does, q.id);
      for (const m of q.agents) {
        assert.ok(m.name, q.id);
        assert.ok(parseVersion(m.from), `${q.id}: from ${m.from}`);
        if (m.below !== undefined) assert.ok(parseVersion(m.below) && !inRange(m.below, m.from, m.below) && inRange(m.from, m.from, m.below), `${q.id}: ${m.from} below ${m.below}`);
      }
      // The upstream issue, or (none filed yet) the upstream source that has the fault.
      assert.match(q.issue, /^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues\/\d+|blob\/[^/]+\/\S+)$/);
    }
  });

  it('late-answer-after-cancel (claude-agent-acp#551): the 0.23 releases under the old name and 0.24.0 under the new one; not the fixed 0.24.1 on, nor before 0.23.0', () => {
    const ids = (name: string, version: string) => quirksFor({ name, version }).map((q) => q.id);
    assert.deepEqual(ids('@zed-industries/claude-agent-acp', '0.23.1'), ['late-answer-after-cancel']);
    assert.deepEqual(ids('@zed-industries/claude-agent-acp', '0.23.0'), ['late-answer-after-cancel']);
    assert.deepEqual(ids('@agentclientprotocol/claude-agent-acp', '0.24.0'), ['late-answer-after-cancel'], 'the renamed package before the fix');
    assert.deepEqual(ids('@agentclientprotocol/claude-agent-acp', '0.24.1'), [], 'fixed in 0.24.1 (#480)');
    assert.deepEqual(ids('@agentclientprotocol/claude-agent-acp', '0.101.0'), [], 'the current adapter (checked live)');
    assert.deepEqual(ids('@zed-industries/claude-agent-acp', '0.22.0'), [], 'before #463 brought it');
    assert.deepEqual(ids('@agentclientprotocol/claude-agent-acp', '0.23.1'), [], 'each name has its own range');
    assert.deepEqual(ids('claude-agent-acp', '0.23.1'), [], 'an unscoped name is not matched');
    const [q] = quirksFor({ name: '@agentclientprotocol/claude-agent-acp', version: '0.24.0' });
    assert.deepEqual(q!.match, { name: '@agentclientprotocol/claude-agent-acp', from: '0.24.0', below: '0.24.1' });
  });

  it('the line at connect says which entries apply to the agent, or that none do', () => {
    assert.equal(quirksLine({ name: '@agentclientprotocol/claude-agent-acp', version: '0.101.0' }), 'compatibility: no interop workarounds apply to "@agentclientprotocol/claude-agent-acp" 0.101.0');
    assert.match(quirksLine({ name: '@agentclientprotocol/claude-agent-acp', version: '0.24.0' }), /interop workarounds for "@agentclientprotocol\/claude-agent-acp" 0\.24\.0: late-answer-after-cancel \(@agentclientprotocol\/claude-agent-acp ≥ 0\.24\.0 < 0\.24\.1; https:\/\/github\.com\/agentclientprotocol\/claude-agent-acp\/issues\/551\)$/);
    assert.match(quirksLine({ name: 'gemini-cli', version: '0.61.0' }), /missing-file-read-as-empty \(gemini-cli ≥ 0\.1\.0; /);
    assert.equal(quirksLine(undefined), 'compatibility: no agentInfo, so no interop workarounds apply');
    assert.ok(quirksLine({ name: 'x'.repeat(10_000), version: '1'.repeat(10_000) }).length < 200, 'bounded');
  });

  it('reads versions leniently and compares them numerically', () => {
    assert.deepEqual(parseVersion('0.61.0'), [0, 61, 0]);
    assert.deepEqual(parseVersion('v1.2.3-nightly.20260101'), [1, 2, 3]);
    assert.equal(parseVersion('latest'), undefined);
    assert.equal(parseVersion(61), undefined);
    assert.equal(inRange('0.61.0', '0.1.0'), true);
    assert.equal(inRange('0.10.0', '0.9.0', '0.11.0'), true, '10 > 9, not as strings');
    assert.equal(inRange('0.11.0', '0.9.0', '0.11.0'), false, 'below is exclusive');
    assert.equal(inRange('0.0.9', '0.1.0'), false);
    assert.equal(inRange(undefined, '0.0.0'), false, 'an unreadable version matches nothing');
  });

  it('gemini-cli 0.61.0 gets the missing-file answer; other agents, and gemini-cli without a readable version, do not', () => {
    assert.deepEqual(
      quirksFor({ name: 'gemini-cli', version: '0.61.0' }).map((q) => q.id),
      ['missing-file-read-as-empty'],
    );
    assert.deepEqual(quirksFor({ name: 'qwen-code', version: '0.61.0' }), []);
    assert.deepEqual(quirksFor({ name: 'Gemini-CLI', version: '0.61.0' }), [], 'the name is matched exactly');
    assert.deepEqual(quirksFor({ name: 'gemini-cli', version: 'dev' }), []);
    assert.deepEqual(quirksFor({ name: 42, version: '0.61.0' }), []);
    assert.deepEqual(quirksFor(undefined), []);
  });

  it('a session applies a quirk only for its agent and logs it once, with the issue', () => {
    const logs: string[] = [];
    let info: { name: string; version: string } | undefined;
    const s = new SessionQuirks(() => info, (m) => logs.push(m));
    assert.equal(s.use('missing-file-read-as-empty'), undefined, 'no agent known yet');
    info = { name: 'claude-agent-acp', version: '0.23.1' };
    assert.equal(s.use('missing-file-read-as-empty'), undefined);
    info = { name: 'gemini-cli', version: '0.61.0' };
    const applied = s.use('missing-file-read-as-empty');
    assert.ok(applied);
    applied();
    applied();
    s.use('missing-file-read-as-empty')!();
    assert.equal(logs.length, 1, logs.join('\n'));
    assert.match(logs[0]!, /gemini-cli 0\.61\.0: .*empty content.*issues\/9280/);
  });
});

describe('agents: launch quirks (gemini-cli folder trust)', () => {
  const launch = (over: Partial<LaunchInfo>): LaunchInfo => ({ id: 'mine', source: 'settings', command: 'gemini', args: ['--acp'], ...over });

  it('recognises gemini-cli in ACP mode by registry id, program name or npx package, and nothing else', () => {
    assert.equal(isGeminiCli(launch({})), true);
    assert.equal(isGeminiCli(launch({ command: '/opt/x/node_modules/.bin/gemini', args: ['--experimental-acp'] })), true);
    assert.equal(isGeminiCli(launch({ command: 'C:\\tools\\gemini.cmd' })), true);
    assert.equal(isGeminiCli(launch({ command: 'npx', args: ['--yes', '@google/gemini-cli@0.61.0', '--acp'] })), true);
    assert.equal(isGeminiCli(launch({ source: 'registry', id: 'gemini', command: 'npx', args: [] })), true);
    assert.equal(isGeminiCli(launch({ args: [] })), false, 'not in ACP mode');
    assert.equal(isGeminiCli(launch({ command: 'qwen', args: ['--acp'] })), false);
    assert.equal(isGeminiCli(launch({ command: 'npx', args: ['@google/gemini-cli-core', '--acp'] })), false);
    assert.equal(isGeminiCli(launch({ id: 'gemini', source: 'settings', command: 'my-agent', args: [] })), false, 'a settings id is the user’s name, not the registry’s');
  });

  const TRUSTED = { trusted: true, allowed: true };

  it('passes the VS Code trust on to gemini-cli, unless its environment already says something', () => {
    const set = launchEnvQuirks(launch({}), { PATH: '/bin' }, TRUSTED);
    assert.deepEqual(set.env, { [GEMINI_TRUST_ENV]: 'true' });
    assert.match(set.notes.join('\n'), /GEMINI_CLI_TRUST_WORKSPACE=true/);
    const kept = launchEnvQuirks(launch({}), { [GEMINI_TRUST_ENV]: 'false' }, TRUSTED);
    assert.deepEqual(kept.env, {});
    assert.match(kept.notes.join('\n'), /already set \(false\).*starts none of the MCP servers/);
    assert.doesNotMatch(launchEnvQuirks(launch({}), { [GEMINI_TRUST_ENV]: 'true' }, TRUSTED).notes.join('\n'), /MCP/);
    assert.deepEqual(launchEnvQuirks(launch({ command: 'claude-agent-acp', args: [] }), {}, TRUSTED), { env: {}, notes: [] });
  });

  it('never passes the trust on for an untrusted workspace, nor when the user turned it off for the agent (logged)', () => {
    const untrusted = launchEnvQuirks(launch({}), {}, { trusted: false, allowed: true });
    assert.deepEqual(untrusted.env, {});
    assert.match(untrusted.notes.join('\n'), /not trusted; GEMINI_CLI_TRUST_WORKSPACE is not set/);
    const off = launchEnvQuirks(launch({}), {}, { trusted: true, allowed: false });
    assert.deepEqual(off.env, {});
    assert.match(off.notes.join('\n'), /turned off for this agent \(acpAgents\.passWorkspaceTrust\)/);
    assert.deepEqual(launchEnvQuirks(launch({}), {}, { trusted: false, allowed: false }).env, {});
  });

  it('does not pass the trust on when the user did not accept the Gemini settings the folders hold (accepted or none: it does)', () => {
    const declined = launchEnvQuirks(launch({}), {}, { ...TRUSTED, repository: 'declined' });
    assert.deepEqual(declined.env, {});
    assert.match(declined.notes.join('\n'), /Gemini settings .* the user did not trust; GEMINI_CLI_TRUST_WORKSPACE is not set/);
    assert.deepEqual(launchEnvQuirks(launch({}), {}, { ...TRUSTED, repository: 'trusted' }).env, { [GEMINI_TRUST_ENV]: 'true' });
    assert.deepEqual(launchEnvQuirks(launch({}), {}, { ...TRUSTED, repository: 'none' }).env, { [GEMINI_TRUST_ENV]: 'true' });
    // The user's own value still wins, and an untrusted workspace still gets nothing.
    assert.deepEqual(launchEnvQuirks(launch({}), { [GEMINI_TRUST_ENV]: 'true' }, { ...TRUSTED, repository: 'declined' }).env, {});
    assert.deepEqual(launchEnvQuirks(launch({}), {}, { trusted: false, allowed: true, repository: 'trusted' }).env, {});
    const gemini = { name: 'gemini-cli', version: '0.61.0' };
    assert.match(mcpServersIgnored(gemini, {}, true, true)!.reason, /Gemini settings .* that you did not trust/);
    assert.equal(mcpServersIgnored(gemini, { [GEMINI_TRUST_ENV]: 'true' }, true, true), undefined);
  });

  it('says why gemini-cli will not start MCP servers when its environment does not pass the trust on', () => {
    const gemini = { name: 'gemini-cli', version: '0.61.0' };
    assert.equal(mcpServersIgnored(gemini, { [GEMINI_TRUST_ENV]: 'true' }), undefined);
    assert.match(mcpServersIgnored(gemini, { [GEMINI_TRUST_ENV]: 'false' })!.reason, /only in folders it trusts.*"false"/);
    assert.match(mcpServersIgnored(gemini, {})!.reason, /not told that this workspace is trusted/);
    assert.equal(mcpServersIgnored(gemini, {})!.action, 'agentSettings');
    const off = mcpServersIgnored(gemini, {}, false)!;
    assert.match(off.reason, /turned off for it \(acpAgents\.passWorkspaceTrust\)/);
    assert.equal(off.action, 'trustSetting');
    assert.equal(mcpServersIgnored({ name: 'qwen-code' }, {}), undefined);
    assert.equal(mcpServersIgnored(undefined, {}), undefined);
  });

  it('says that pi-acp and cline never start the MCP servers they are given (checked live: pi-acp 0.0.34, cline 3.0.65)', () => {
    const pi = mcpServersIgnored({ name: 'pi-acp', version: '0.0.34' }, {})!;
    assert.match(pi.reason, /pi-acp does not pass the MCP servers it is given on to pi.*pi-mcp-adapter/);
    assert.equal(pi.action, undefined, 'nothing in the editor changes it');
    const cline = mcpServersIgnored({ name: 'cline', version: '3.0.65' }, {})!;
    assert.match(cline.reason, /Cline in ACP mode keeps the MCP servers it is given but never starts them.*cline mcp/);
    assert.equal(cline.action, undefined);
    assert.equal(mcpServersIgnored({ name: 'cline', version: '2.5.0' }, {}), undefined, 'only the versions checked on');
    assert.equal(mcpServersIgnored({ name: 'cline-acp', version: '3.0.65' }, {}), undefined, 'matched exactly');
  });

  it('notes in the MCP status when the trust was passed on', () => {
    assert.match(trustPassedNote({ name: 'gemini-cli' }, { [GEMINI_TRUST_ENV]: 'true' })!, /passed on to Gemini CLI.*acpAgents\.passWorkspaceTrust/);
    assert.equal(trustPassedNote({ name: 'gemini-cli' }, {}), undefined);
    assert.equal(trustPassedNote({ name: 'qwen-code' }, { [GEMINI_TRUST_ENV]: 'true' }), undefined);
  });
});

describe('agents: launch quirks (codex-acp sandbox helper on Linux)', () => {
  const nm = '/home/u/.npm-global/lib/node_modules';
  const wrapper = `${nm}/@zed-industries/codex-acp/bin/codex-acp.js`;
  const sibling = `${nm}/@zed-industries/codex-acp-linux-x64/bin/codex-acp`;
  const nested = `${nm}/@zed-industries/codex-acp/node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp`;
  const launch = (command: string, args: string[] = [], extra: Partial<LaunchInfo> = {}): LaunchInfo => ({ id: 'codex', source: 'settings', command, args, ...extra });
  const host = (files: string[], opts: { platform?: string; arch?: string; onPath?: boolean } = {}) => ({
    platform: opts.platform ?? 'linux',
    arch: opts.arch ?? 'x64',
    exists: (f: string) => files.includes(f),
    onPath: () => opts.onPath ?? false,
  });

  it('finds the native binary next to the npm wrapper (sibling or nested platform package), or the native binary itself', () => {
    assert.equal(codexSandboxHelperTarget(launch('codex-acp'), wrapper, host([sibling])), sibling);
    assert.equal(codexSandboxHelperTarget(launch('/usr/local/bin/codex-acp'), wrapper, host([nested])), nested);
    assert.equal(codexSandboxHelperTarget(launch('codex-acp'), sibling, host([])), sibling);
    assert.equal(codexSandboxHelperTarget(launch('npx', ['-y', '@zed-industries/codex-acp@0.16.0']), wrapper, host([sibling])), sibling);
    assert.equal(codexSandboxHelperTarget(launch('x', [], { id: 'codex-acp', source: 'registry' }), sibling, host([])), sibling);
    assert.equal(codexSandboxHelperTarget(launch('codex-acp'), wrapper.replace('x64', 'arm64'), host([sibling.replace('x64', 'arm64')], { arch: 'arm64' })), sibling.replace('x64', 'arm64'));
  });

  it('does nothing for other agents, other platforms, an alias already on PATH, or no native binary', () => {
    assert.equal(isCodexAcp(launch('gemini', ['--acp'])), false);
    assert.equal(codexSandboxHelperTarget(launch('gemini', ['--acp']), sibling, host([sibling])), undefined);
    assert.equal(codexSandboxHelperTarget(launch('codex-acp'), wrapper, host([sibling], { platform: 'darwin' })), undefined);
    assert.equal(codexSandboxHelperTarget(launch('codex-acp'), wrapper, host([sibling], { onPath: true })), undefined);
    assert.equal(codexSandboxHelperTarget(launch('codex-acp'), wrapper, host([])), undefined);
    assert.equal(codexSandboxHelperTarget(launch('codex-acp'), '/opt/other/codex-acp.sh', host([sibling])), undefined);
    assert.match(codexSandboxHelperNote(sibling, '/s/codex-sandbox-helper/abc'), /codex-linux-sandbox → .*codex-acp-linux-x64.*issues\/24873/);
  });
});
