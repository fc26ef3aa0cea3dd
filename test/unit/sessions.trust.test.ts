// Approval semantics, workspace MCP servers and their trust, and log redaction.
import * as assert from 'node:assert/strict';
import { allowOption, alwaysScope, autoApproves, permissionKey, type CallShape } from '../../src/sessions/permissionPolicy';
import { definitionHash, selectMcpServers, withoutUntrusted } from '../../src/sessions/mcpServers';
import { McpTrust } from '../../src/sessions/mcpTrust';
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
