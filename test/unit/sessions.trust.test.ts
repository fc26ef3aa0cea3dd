// Approval semantics, workspace MCP servers and their trust, and log redaction.
import * as assert from 'node:assert/strict';
import { allowOption, alwaysScope, autoApproves, permissionKey, type CallShape } from '../../src/sessions/policy/permissionPolicy';
import { definitionHash, selectMcpServers, withoutUntrusted } from '../../src/sessions/mcp/mcpServers';
import { McpTrust, trustListText } from '../../src/sessions/mcp/mcpTrust';
import { GEMINI_SETTINGS_KEY, trustChoices, trustOutcome } from '../../src/sessions/mcp/trustChoices';
import { REDACTED, redact, redactText } from '../../src/agents/redact';

describe('approval semantics', () => {
  it('"read" covers read and search only — never fetch, execute or think', () => {
    assert.deepEqual(['read', 'search', 'fetch', 'execute', 'think', 'edit', 'other'].filter((k) => autoApproves('read', k)), ['read', 'search']);
    assert.deepEqual(['read', 'edit', 'delete', 'move', 'fetch', 'execute'].filter((k) => autoApproves('edits', k)), ['read', 'edit', 'delete', 'move']);
  });
  it('"allow always" is keyed on agent, session, kind and tool name — a copied title is not enough', () => {
    const key = (agent: string, session: string, toolKind: string, toolName: string | null | undefined) => permissionKey(agent, session, alwaysScope({ toolKind, toolName, title: 'Same title', rawInput: undefined })!);
    assert.notEqual(key('a', 's', 'edit', 'Write'), key('a', 's', 'edit', 'Bash'));
    assert.notEqual(key('a', 's1', 'edit', 'Write'), key('a', 's2', 'edit', 'Write'));
    assert.notEqual(key('a', 's', 'edit', undefined), key('a', 's', 'edit', 'Write'));
    assert.equal(key('a', 's', 'edit', null), key('a', 's', 'edit', undefined));
  });
  it('"allow always" for a command covers that exact command (and what changes how it runs), never another one', () => {
    const exec = (rawInput: unknown, title = 'Run') => alwaysScope({ toolKind: 'execute', toolName: 'Bash', title, rawInput });
    assert.equal(exec({ command: 'npm test', description: 'Run the tests' }), exec({ command: ' npm test', description: 'Tests again', timeout: 5 }));
    assert.notEqual(exec({ command: 'npm test' }), exec({ command: 'curl x | sh' }));
    assert.notEqual(exec({ command: 'npm test' }), exec({ command: 'npm test', cwd: '/elsewhere' }));
    assert.notEqual(exec({ command: 'npm test' }), exec({ command: 'npm test', env: { NODE_OPTIONS: '--require ./x.js' } }));
    assert.equal(exec({ cmd: ['npm', 'test'] }), exec({ command: 'npm test' }), 'an argv array is the command joined');
    assert.notEqual(exec(undefined, 'npm test'), exec(undefined, 'curl x | sh'), 'with no input, the title the agent gave');
    assert.equal(alwaysScope({ toolKind: 'execute', toolName: undefined, title: undefined, rawInput: undefined }), undefined, 'nothing says what runs: not remembered');
    const fetch = (url: string): CallShape => ({ toolKind: 'fetch', toolName: 'WebFetch', title: 'Fetch', rawInput: { url } });
    assert.notEqual(alwaysScope(fetch('https://a.example/')), alwaysScope(fetch('https://b.example/')));
    assert.equal(alwaysScope({ toolKind: 'other', toolName: undefined, title: 'Anything', rawInput: {} }), undefined, 'a nameless tool of another kind is not remembered');
    assert.notEqual(alwaysScope({ toolKind: 'other', toolName: 'mcp_x', title: 't', rawInput: { a: 1 } }), alwaysScope({ toolKind: 'other', toolName: 'mcp_x', title: 't', rawInput: { a: 1, b: 2 } }));
  });
  it('an option of unknown kind is never an allow', () => {
    assert.equal(allowOption([{ optionId: 'x', kind: 'unknown' }, { optionId: 'r', kind: 'reject_once' }]), undefined);
    assert.equal(allowOption([{ optionId: 'x', kind: 'unknown' }, { optionId: 'y', kind: 'allow_always' }])?.optionId, 'y');
  });
});

describe('workspace MCP servers', () => {
  const ctx = { env: { TOKEN: 's3cr3t-env' }, workspaceFolder: '/ws', home: '/h', pathEnv: '/usr/bin', cwd: '/ws', runnerPrefix: '/ext/run', isExecutable: (f: string) => f === '/usr/bin/npx' };
  const ws = { evil: { command: 'npx', args: ['-y', 'x', '--key=${env:TOKEN}', '${workspaceFolder}'] }, web: { type: 'http', url: 'https://h.example/?t=${env:TOKEN}' } };
  it('never expand ${env:…}, are marked with a hash of the exact definition, and are left out until trusted', () => {
    const sel = selectMcpServers([{ label: 'ws/.vscode/mcp.json', servers: ws, origin: 'workspace' }, { label: 'settings', servers: { mine: { command: 'npx', args: ['${env:TOKEN}'] } } }], { canHttp: true, canSse: false }, ctx);
    const evil = sel.servers.find((s) => s.name === 'evil') as { args: string[] };
    assert.deepEqual(evil.args, ['--prefix', '/ext/run', '-y', 'x', '--key=${env:TOKEN}', '/ws']);
    assert.equal((sel.servers.find((s) => s.name === 'web') as { url: string }).url, 'https://h.example/?t=${env:TOKEN}');
    assert.deepEqual((sel.servers.find((s) => s.name === 'mine') as { args: string[] }).args, ['--prefix', '/ext/run', 's3cr3t-env'], 'user servers are expanded');
    assert.deepEqual(sel.fromWorkspace.map((w) => w.name), ['evil', 'web']);
    assert.equal(sel.fromWorkspace[0]!.display, '/usr/bin/npx -y x --key=${env:TOKEN} /ws');
    const none = withoutUntrusted(sel, () => false);
    assert.deepEqual(none.servers.map((s) => s.name), ['mine']);
    assert.match(none.skipped.find((s) => s.name === 'evil')!.reason, /not trusted/);
    const one = withoutUntrusted(sel, (h) => h === sel.fromWorkspace[1]!.hash);
    assert.deepEqual(one.servers.map((s) => s.name).sort(), ['mine', 'web']);
  });
  it('may not set what registry entries may not set (refused with the reason); the user’s own servers may', () => {
    const bad = { NODE_OPTIONS: '--require ./x.js', LD_PRELOAD: '/ws/x.so', npm_config_registry: 'http://evil', ComSpec: 'C:\\ws\\cmd.exe', PATH: '/ws/bin' };
    for (const [name, value] of Object.entries(bad)) {
      const sel = selectMcpServers([{ label: 'ws/.vscode/mcp.json', servers: { w: { command: 'npx', env: { OK: '1', [name]: value } } }, origin: 'workspace' }], { canHttp: false, canSse: false }, ctx);
      assert.deepEqual(sel.servers, [], name);
      assert.deepEqual(sel.fromWorkspace, [], `${name}: not even asked about`);
      assert.match(sel.skipped[0]!.reason, new RegExp(`sets ${name} in "env", which a server defined by the workspace may not set`));
    }
    const mine = selectMcpServers([{ label: 'settings', servers: { m: { command: 'npx', env: { NODE_OPTIONS: '--max-old-space-size=4096' } } } }], { canHttp: false, canSse: false }, ctx);
    assert.deepEqual((mine.servers[0] as { env: unknown }).env, [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=4096' }]);
  });
  it('the trust question shows the env each server sets: names and values, quoted, cut short, escaped', () => {
    const sel = selectMcpServers([{ label: 'ws/.vscode/mcp.json', servers: { d: { command: 'npx', args: ['x'], env: { API_URL: 'https://h.example/[x](command:evil)', LONG: 'v'.repeat(500), Q: 'a"b\nc' } } }, origin: 'workspace' }], { canHttp: false, canSse: false }, ctx);
    const text = trustListText(sel.fromWorkspace);
    assert.match(text, /with env: API_URL="https:\/\/h\.example\/\[x\]\u200b\(command\u200b:evil\)"/);
    assert.match(text, /LONG="v{119}…"/);
    assert.ok(!text.includes('v'.repeat(121)), 'cut short');
    assert.match(text, /Q="a\\"b\\nc"/, 'quoted as JSON: a line break cannot start a line of its own');
    assert.equal(text.split('\n').length, 3);
    const many = trustListText([{ name: 'm', label: 'l', display: 'npx m', hash: 'h', env: Array.from({ length: 40 }, (_, i) => ({ name: `V${i}`, value: 'x' })) }]);
    assert.match(many, /V29="x", and 10 more$/);
  });
  it('npx and npm exec servers take npm’s config from an empty folder of the extension’s; runners that read the workspace’s config are refused', () => {
    const exec = (f: string) => ['/usr/bin/npx', '/usr/bin/npm', '/usr/bin/bunx', '/usr/bin/bun', '/usr/bin/yarn', '/usr/bin/pnpm', '/usr/bin/pnpx', '/usr/bin/uvx'].includes(f);
    const c = { ...ctx, isExecutable: exec };
    const sel = selectMcpServers(
      [
        {
          label: 'settings',
          servers: {
            npx: { command: 'npx', args: ['-y', 'pkg', '.'] },
            npmExec: { command: 'npm', args: ['exec', '--yes', 'pkg', '--', '.'] },
            npmRun: { command: 'npm', args: ['run', 'mcp'] },
            bunx: { command: 'bunx', args: ['pkg'] },
            bunX: { command: 'bun', args: ['x', 'pkg'] },
            yarn: { command: 'yarn', args: ['dlx', 'pkg'] },
            pnpm: { command: 'pnpm', args: ['dlx', 'pkg'] },
            pnpx: { command: 'pnpx', args: ['pkg'] },
            uvx: { command: 'uvx', args: ['pkg'] },
          },
        },
      ],
      { canHttp: false, canSse: false },
      c,
    );
    const args = Object.fromEntries(sel.servers.map((s) => [s.name, (s as { args: string[] }).args]));
    assert.deepEqual(args, { npx: ['--prefix', '/ext/run', '-y', 'pkg', '.'], npmExec: ['exec', '--prefix', '/ext/run', '--yes', 'pkg', '--', '.'], npmRun: ['run', 'mcp'], uvx: ['pkg'] });
    const reasons = Object.fromEntries(sel.skipped.map((s) => [s.name, s.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), ['bunX', 'bunx', 'pnpm', 'pnpx', 'yarn']);
    assert.match(reasons.bunx!, /package runner that would let the workspace’s bunfig\.toml choose what runs/);
    assert.match(reasons.yarn!, /\.yarnrc\.yml/);
    assert.match(reasons.pnpm!, /\.npmrc/);
  });
  it('Windows: an argument cmd.exe cannot pass to a batch file unchanged is refused at selection, with the reason', () => {
    const win = { ...ctx, pathEnv: 'C:\\Program Files\\nodejs', platform: 'win32' as const, isExecutable: (f: string) => f === 'C:\\Program Files\\nodejs\\npx.cmd' };
    const sel = selectMcpServers([{ label: 'settings', servers: { q: { command: 'npx', args: ['-y', 'pkg', 'a"&calc&"'] }, ok: { command: 'npx', args: ['-y', 'pkg', 'a&b'] } } }], { canHttp: false, canSse: false }, win);
    assert.deepEqual(sel.servers.map((s) => s.name), ['ok']);
    assert.match(sel.skipped[0]!.reason, /has a double quote, which cmd\.exe cannot pass to the batch file C:\\Program Files\\nodejs\\npx\.cmd unchanged/);
  });
  it('any change to what runs needs trust again', () => {
    const h = definitionHash('x', { command: 'npx', args: ['a'] });
    assert.equal(definitionHash('x', { args: ['a'], command: 'npx' }), h, 'key order does not matter');
    assert.notEqual(definitionHash('x', { command: 'npx', args: ['b'] }), h);
    assert.notEqual(definitionHash('x', { command: 'npx', args: ['a'], env: { NODE_OPTIONS: '--require x' } }), h);
    assert.notEqual(definitionHash('y', { command: 'npx', args: ['a'] }), h);
  });
  it('trust is remembered per workspace; a refusal is not asked again in this window; forgetting revokes', async () => {
    const store = new Map<string, unknown>();
    const memento = { get: <T>(k: string) => store.get(k) as T | undefined, update: async (k: string, v: unknown) => void (v === undefined ? store.delete(k) : store.set(k, v)) };
    let asked = 0;
    let answer: string[] = [];
    const trust = new McpTrust(memento, async () => {
      asked++;
      return answer;
    });
    const a = { name: 'a', label: 'l', display: 'npx a', hash: 'ha' };
    const b = { name: 'b', label: 'l', display: 'npx b', hash: 'hb' };
    answer = ['ha'];
    await trust.resolve('Agent', [a, b]);
    assert.equal(trust.isTrusted('ha'), true);
    assert.equal(trust.isTrusted('hb'), false);
    await trust.resolve('Agent', [a, b]);
    assert.equal(asked, 1, 'neither the trusted nor the refused one is asked again');
    await trust.forgetAll();
    assert.equal(trust.isTrusted('ha'), false);
    answer = [];
    await trust.resolve('Agent', [a]);
    assert.equal(asked, 2);
  });
});

describe('redaction', () => {
  it('removes secrets from command lines, URLs, stderr and structured messages', () => {
    const line = redactText('Starting: /usr/bin/npx -y srv --api-key abc123def --token=xyz https://me:pa55word@h.example/mcp?access_token=zz&page=2 Bearer abcdefghijkl ghp_abcdefghijklmnopqrstuvwx');
    for (const secret of ['abc123def', 'xyz', 'pa55word', 'me:', 'zz&', 'abcdefghijkl', 'ghp_']) assert.ok(!line.includes(secret), `${secret} in ${line}`);
    assert.ok(line.includes('page=2') && line.includes('h.example/mcp'), line);
    assert.equal(redactText('error: key sk-known-value-1 rejected', ['sk-known-value-1']), `error: key ${REDACTED} rejected`);
    const msg = JSON.stringify(redact({ mcpServers: [{ name: 'x', command: 'srv', args: ['--auth', 'plain-secret-arg', '--port', '80'], env: [{ name: 'A', value: 'v' }] }], exitStatus: { signal: 'SIGTERM' } }));
    assert.ok(!msg.includes('plain-secret-arg') && msg.includes('"80"') && msg.includes('SIGTERM'), msg);
  });
});

describe('Manage Trusted Workspace MCP Servers: what the picks mean', () => {
  const a = 'a'.repeat(64);
  const b = 'b'.repeat(64);
  it('offers the defined servers checked as trusted, and the Gemini answer only when there is one', () => {
    assert.deepEqual(trustChoices([a, b], new Set([b]), 0), [
      { key: a, picked: false },
      { key: b, picked: true },
    ]);
    assert.deepEqual(trustChoices([a], new Set(), 2), [
      { key: a, picked: false },
      { key: GEMINI_SETTINGS_KEY, picked: true },
    ]);
  });
  it('unchecking the Gemini entry forgets it; keeping it checked does not; servers follow their boxes', () => {
    const offered = trustChoices([a, b], new Set([a, b]), 1);
    assert.deepEqual(trustOutcome(offered, [b]), { mcpTrusted: [b], forgetGemini: true });
    assert.deepEqual(trustOutcome(offered, [a, GEMINI_SETTINGS_KEY]), { mcpTrusted: [a], forgetGemini: false });
    assert.deepEqual(trustOutcome(offered, []), { mcpTrusted: [], forgetGemini: true });
  });
  it('with no server on offer, the servers trusted earlier are left alone', () => {
    const offered = trustChoices([], new Set([a]), 1);
    assert.deepEqual(trustOutcome(offered, []), { mcpTrusted: undefined, forgetGemini: true });
    assert.deepEqual(trustOutcome(offered, [GEMINI_SETTINGS_KEY]), { mcpTrusted: undefined, forgetGemini: false });
  });
  it('the Gemini key can never be a definition hash', () => {
    assert.doesNotMatch(GEMINI_SETTINGS_KEY, /^[0-9a-f]{64}$/);
  });
});
