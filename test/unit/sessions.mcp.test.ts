import * as assert from 'node:assert/strict';
import { mcpJsonProblem, parseMcpJson, selectMcpServers } from '../../src/sessions/mcp/mcpServers';
import { jsoncProblem } from '../../src/shared/jsonc';
import { unreachableFromRemote } from '../../src/sessions/mcp/mcpOverHttp';

const ctx = { env: { TOKEN: 't0k3n', HOME: '/home/u' }, workspaceFolder: '/ws', home: '/home/u', pathEnv: '/usr/bin', cwd: '/ws', runnerPrefix: '/ext/run', isExecutable: (f: string) => f === '/usr/bin/npx' || f === '/usr/bin/uvx' };

const servers = {
  fs: { type: 'stdio', command: 'npx', args: ['-y', 'server-fs', '${workspaceFolder}'], env: { KEY: '${env:TOKEN}' } },
  implicit: { command: 'uvx', args: ['mcp-x'] },
  docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
  legacy: { type: 'sse', url: 'https://old.example/sse' },
  missing: { command: 'not-installed-anywhere' },
  prompted: { type: 'http', url: 'https://x.example', headers: { Authorization: '${input:token}' } },
  broken: 'nope',
  weird: { type: 'carrier-pigeon' },
};

describe('MCP servers for an agent', () => {
  it('stdio always (absolute command, env as name/value, no type field); http/sse only when the agent supports them', () => {
    const none = selectMcpServers([{ label: 'settings', servers }], { canHttp: false, canSse: false }, ctx);
    assert.deepEqual(none.servers, [
      { name: 'fs', command: '/usr/bin/npx', args: ['--prefix', '/ext/run', '-y', 'server-fs', '/ws'], env: [{ name: 'KEY', value: 't0k3n' }] },
      { name: 'implicit', command: '/usr/bin/uvx', args: ['mcp-x'], env: [] },
    ]);
    assert.deepEqual(none.skipped.map((s) => s.name).sort(), ['broken', 'docs', 'legacy', 'missing', 'prompted', 'weird']);
    assert.match(none.skipped.find((s) => s.name === 'docs')!.reason, /does not support HTTP/);

    const http = selectMcpServers([{ label: 'settings', servers }], { canHttp: true, canSse: false }, ctx);
    assert.deepEqual(http.servers.map((s) => s.name), ['fs', 'implicit', 'docs']);
    assert.deepEqual(http.servers[2], { type: 'http', name: 'docs', url: 'https://docs.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer t0k3n' }] });

    const both = selectMcpServers([{ label: 'settings', servers }], { canHttp: true, canSse: true }, ctx);
    assert.deepEqual(both.servers.map((s) => s.name), ['fs', 'implicit', 'docs', 'legacy']);
    assert.match(both.skipped.find((s) => s.name === 'prompted')!.reason, /\$\{input:/);
    assert.match(both.skipped.find((s) => s.name === 'missing')!.reason, /not found on PATH/);
  });

  it('later sources override earlier ones by name', () => {
    const r = selectMcpServers(
      [
        { label: 'user mcp.json', servers: { fs: { command: 'uvx' } } },
        { label: 'settings', servers: { fs: { command: 'npx' } } },
      ],
      { canHttp: false, canSse: false },
      ctx,
    );
    assert.deepEqual(r.servers.map((s) => (s as { command: string }).command), ['/usr/bin/npx']);
  });

  it('reads mcp.json with comments and trailing commas', () => {
    const v = parseMcpJson('{\n // my servers\n "servers": { "a": { "command": "npx", /* x */ "args": ["//not-a-comment"], }, },\n "inputs": [] }');
    assert.deepEqual(v, { a: { command: 'npx', args: ['//not-a-comment'] } });
  });

  it('keeps strings that contain ",]", ",}" or comment markers as they are', () => {
    // A regex that drops trailing commas rewrote these strings ("x,]" became "x]").
    const server = { command: 'run', args: ['x,]', 'y,}', '/* z */', '"q,]', '// w'], env: { K: 'v ,\n}' } };
    const text = `{ "servers": { "a": ${JSON.stringify(server).replace(/}$/, ', }')}, } }`;
    assert.deepEqual(parseMcpJson(text), { a: server });
  });

  it('says where an mcp.json breaks (line and column) and shows it with the skipped servers', () => {
    const text = '{\n  // mine\n  "servers": {\n    "a": { "command": "npx" }\n    "b": { "command": "uvx" }\n  }\n}';
    assert.deepEqual(jsoncProblem(text), { line: 5, column: 5, what: 'comma expected' });
    assert.deepEqual(jsoncProblem('{\r\n"x": 1,\r\n"y" 2}'), { line: 3, column: 5, what: 'colon expected' });
    assert.equal(jsoncProblem('{ "a": [1, 2,], } // fine'), undefined);
    assert.equal(mcpJsonProblem('{ "servers": {} }'), undefined);
    const problem = mcpJsonProblem(text);
    assert.match(problem ?? '', /line 5, column 5 \(comma expected\)/);
    const sel = selectMcpServers([{ label: 'user mcp.json', servers: parseMcpJson(text), problem }], { canHttp: true, canSse: true }, ctx);
    assert.deepEqual(sel.skipped, [{ name: 'user mcp.json', reason: problem }]);
    // Still read as VS Code reads it: both servers.
    assert.deepEqual(sel.servers.map((s) => s.name), ['a', 'b']);
  });

  it('reads what VS Code reads from a slightly broken file instead of giving up', () => {
    // VS Code parses mcp.json and settings tolerantly; a missing comma must not hide a server from us.
    const v = parseMcpJson('{ "servers": { "a": { "command": "npx" } "b": { "command": "uvx" } } }');
    assert.deepEqual(v, { a: { command: 'npx' }, b: { command: 'uvx' } });
  });
});

describe('MCP servers for an agent by URL', () => {
  it('stdio servers and http/sse ones on this machine\'s loopback are left out, each saying why; others are offered', () => {
    const out = unreachableFromRemote(
      [
        { name: 'vscode-editor', command: '/usr/bin/node', args: ['shim.js'], env: [] },
        { type: 'http', name: 'local', url: 'http://127.0.0.1:7000/mcp', headers: [] },
        { type: 'sse', name: 'local6', url: 'http://[::1]:7000/sse', headers: [] },
        { type: 'http', name: 'named', url: 'http://localhost:7000/mcp', headers: [] },
        { type: 'http', name: 'docs', url: 'https://docs.example/mcp', headers: [] },
        { type: 'http', name: 'lan', url: 'http://10.0.0.5:7000/mcp', headers: [] },
      ],
      'Build box',
      'wss://build.example/acp',
    );
    assert.deepEqual(out.map((s) => s.name), ['vscode-editor', 'local', 'local6', 'named']);
    assert.match(out[0]!.reason, /Build box runs elsewhere \(wss:\/\/build\.example\/acp\): it cannot start a stdio MCP server of this machine/);
    assert.match(out[1]!.reason, /127\.0\.0\.1 is this machine's loopback, which it cannot reach/);
    assert.match(out[2]!.reason, /\[::1\] is this machine's loopback/);
    assert.match(out[3]!.reason, /localhost is this machine's loopback/);
  });
});
