import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { MethodStats } from '../../../src/acp/methodStats';
import { AgentCapabilityView } from '../../../src/acp/capabilities';
import { clientCapabilities } from '../../../src/sessions/clientMethods';
import { capabilityUse, type AgentDiagnostics } from '../../../src/agents/diagnostics';
import { diagnosticsMarkdown, fence, REPORT_LIMITS, scrub, type ReportContext } from '../../../src/agents/diagnosticsMarkdown';
import { quirksFor } from '../../../src/agents/quirks';
import { redactText } from '../../../src/agents/redact';

const ctx: ReportContext = { secrets: ['hunter2-known-secret'], extensionVersion: '9.9.9', host: 'Code 1.100.0', platform: 'linux x64', generated: '2026-01-01T00:00:00.000Z' };

function diag(over: Partial<AgentDiagnostics> = {}): AgentDiagnostics {
  const stats = new MethodStats();
  for (let i = 0; i < 3; i++) stats.notification('in', 'session/update');
  stats.request('out', 'session/load');
  stats.outcome('session/load', -32002);
  stats.request('in', 'fs/read_text_file', 1);
  stats.answered(1);
  const caps = { loadSession: true, sessionCapabilities: { list: {} } };
  return {
    id: 'gem',
    name: 'Gemini',
    status: 'running',
    pid: 42,
    commandLine: ['/home/alice/bin/gemini', '--acp', '--api-key', 'plainvalue'],
    agentInfo: { name: 'gemini-cli', title: 'Gemini CLI', version: '0.61.0' },
    protocolVersion: 1,
    agentCapabilities: caps,
    clientCapabilities: clientCapabilities(),
    capabilityUse: capabilityUse(new AgentCapabilityView(caps), clientCapabilities()),
    authMethods: ['login (agent)'],
    methods: stats.snapshot(),
    quirks: quirksFor({ name: 'gemini-cli', version: '0.61.0' }),
    launchNotes: ['compatibility: gemini-cli: GEMINI_CLI_TRUST_WORKSPACE=true (the VS Code workspace is trusted; without it gemini-cli starts no MCP servers)'],
    mcp: { source: 'selection', servers: [{ name: 'files', state: 'offered', detail: 'stdio' }, { name: 'remote', state: 'left-out', detail: 'is an HTTP server, and the agent does not support HTTP MCP servers' }] },
    stderr: ['ready in /home/alice/project'],
    ...over,
  };
}

/** Renders as GitHub would (HTML and bare links on) and lists what became live. */
function live(md: string): { links: string[]; html: string[]; headings: string[]; fences: string[] } {
  const tokens = new MarkdownIt({ html: true, linkify: true }).parse(md, {});
  const out = { links: [] as string[], html: [] as string[], headings: [] as string[], fences: [] as string[] };
  const walk = (list: typeof tokens) => {
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      if (t.type === 'link_open') out.links.push(t.attrGet('href') ?? '');
      if (t.type === 'image') out.links.push(t.attrGet('src') ?? '');
      if (t.type === 'html_block' || t.type === 'html_inline') out.html.push(t.content);
      if (t.type === 'heading_open') out.headings.push(list[i + 1]!.content);
      if (t.type === 'fence') out.fences.push(t.content);
      if (t.children) walk(t.children);
    }
  };
  walk(tokens);
  return out;
}

describe('agents: diagnostics as Markdown', () => {
  it('shows who the agent is, what it declared next to what was exercised, MCP, compatibility entries and stderr', () => {
    const md = diagnosticsMarkdown([diag()], ctx);
    assert.match(md, /agentInfo\.name: gemini-cli/);
    assert.match(md, /agentInfo\.version: 0\.61\.0/);
    assert.match(md, /protocolVersion: 1/);
    assert.match(md, /\| agent \| `loadSession` \| yes \| `session\/load` \| 1 \| 1 \|/);
    assert.match(md, /\| agent \| `sessionCapabilities\.fork` \| no \| `session\/fork` \| 0 \| 0 \|/);
    assert.match(md, /\| client \| `fs\.readTextFile` \| yes \| `fs\/read_text_file` \| 1 \| 0 \|/);
    assert.match(md, /\| agent → client \| `session\/update` \| 0 \| 3 \| 0 \| 0 \| 0 \|/);
    assert.match(md, /\| client → agent \| `session\/load` \| 1 \| 0 \| 0 \| 1 \(-32002 ×1\) \| 0 \|/);
    assert.match(md, /remote: left-out — is an HTTP server/);
    assert.match(md, /missing-file-read-as-empty \(gemini-cli ≥ 0\.1\.0\).*issues\/9280/);
    assert.match(md, /GEMINI_CLI_TRUST_WORKSPACE=true/);
    assert.match(md, /ready in \/home\/alice\/project/, "the user's home path may stay");
    assert.match(md, /command: \/home\/alice\/bin\/gemini --acp --api-key «redacted»/);
    assert.ok(!md.includes('plainvalue'));
    assert.deepEqual(live(md).links, []);
  });

  it('redacts secret-looking text in stderr, agentInfo, capabilities and the command line', () => {
    const secrets = [
      'sk-ant-api03-abcdefghijklmnopqrstuvwx',
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'AKIAABCDEFGHIJKLMNOP',
      'AIzaSyA1234567890abcdefghijklmnopqrstu',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
      'Zx9vQ2mK7pL4nR8sT1uW3yB6cD0eF5gH',
      '0123456789abcdef0123456789abcdef',
      'hunter2-known-secret',
      'quietValue99',
      'mypassword1',
    ];
    const stderr = [
      `export OPENAI_API_KEY=${secrets[0]}`,
      `token ${secrets[1]} used`,
      `aws ${secrets[2]} google ${secrets[3]}`,
      `Authorization: Bearer ${secrets[4]}.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig`,
      `random key ${secrets[5]} and hex ${secrets[6]}`,
      `env value ${secrets[7]} leaked`,
      `{"apiKey": "${secrets[8]}", "password": "${secrets[9]}"}`,
      `https://user:${secrets[9]}@example.com/x?token=${secrets[8]}`,
    ];
    const md = diagnosticsMarkdown(
      [diag({ stderr, agentInfo: { name: `agent ${secrets[0]}`, version: `1.0 ${secrets[1]}` }, agentCapabilities: { _meta: { apiKey: secrets[8], nested: secrets[5] } }, commandLine: ['agent', `--token=${secrets[1]}`, secrets[5]!] })],
      ctx,
    );
    for (const s of secrets) assert.ok(!md.includes(s), `${s} is in the report`);
    assert.ok(md.includes('«redacted»'));
    assert.match(md, /example\.com\/x/, 'the rest of the line is kept');
  });

  it('redacts AWS secret keys (named and bare), the whole Azure AccountKey, and short secrets under DB_PASS-like names (issue 34)', () => {
    const aws = 'Zq3/bR8+tY2wXv9LmN4pQs7uAc1dEf6Gh0JkLo5P';
    const azure = 'Zq3/bR8+tY2wXv9LmN4pQs7uAc1dEf6Gh0JkLo5PZq3/bR8+tY2wXv9LmN4pQs7uAc1dEf6Gh0Jk==';
    const cases: [string, string][] = [
      [`aws_secret_access_key = ${aws}`, 'aws_secret_access_key = «redacted»'],
      [`AWS_SECRET_ACCESS_KEY=${aws}`, 'AWS_SECRET_ACCESS_KEY=«redacted»'],
      [`"aws_secret_access_key": "${aws}"`, '"aws_secret_access_key": "«redacted»"'],
      [`found ${aws} in the profile`, 'found «redacted» in the profile'],
      [`DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${azure};EndpointSuffix=core.windows.net`, 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=«redacted»;EndpointSuffix=core.windows.net'],
      [`Endpoint=sb://x.servicebus.windows.net/;SharedAccessKey=${azure}`, 'Endpoint=sb://x.servicebus.windows.net/;SharedAccessKey=«redacted»'],
      ['Server=db;User Id=sa;Pwd=hunter2;', 'Server=db;User Id=sa;Pwd=«redacted»;'],
      ['DB_PASS=hunter2', 'DB_PASS=«redacted»'],
      ['db_pass: "s3"', 'db_pass: "«redacted»"'],
      ['MYSQL_PWD=abc', 'MYSQL_PWD=«redacted»'],
      ['PASSWD=pw', 'PASSWD=«redacted»'],
      ['SSH_KEY_PASSPHRASE=open sesame', 'SSH_KEY_PASSPHRASE=«redacted» sesame'],
    ];
    for (const [text, want] of cases) {
      assert.equal(scrub(text, [], 400), want, text);
      for (const part of [aws, 'hunter2', ...azure.split('/')]) assert.ok(!scrub(text, [], 400).includes(part) || !text.includes(part), `${part} left in ${text}`);
    }
    // The log's redaction has the named shapes too.
    for (const [text, want] of cases.filter(([t]) => !t.startsWith('found'))) assert.equal(redactText(text), want, `log: ${text}`);
    // Ordinary text stays: the working folder, words with "pass", paths, the key's name alone.
    for (const text of [
      'PWD=/home/alice/project OLDPWD=/tmp',
      'the passage was passable; compass=north; bypass=true; ALLOW_BYPASS=1',
      'PASS: 12 tests, FAIL: 0',
      'opened Users/Alice2/Documents/Projects/MyApp/src',
      'AccountName=acct;EndpointSuffix=core.windows.net',
      'set aws_secret_access_key in ~/.aws/credentials',
      'DB_PASS_FILE=/run/secrets/db',
    ]) {
      assert.equal(scrub(text, [], 400), text, text);
      assert.equal(redactText(text), text, `log: ${text}`);
    }
  });

  it('keeps hostile agent text inert: no link, command, HTML or broken structure', () => {
    const hostile = [
      '```',
      '`````````` closing fences of any length',
      '~~~',
      '# Not a heading',
      '[click](command:workbench.action.terminal.new)',
      '<img src=x onerror=alert(1)>',
      '<a href="command:acpAgents.showLog">x</a>',
      'https://evil.example/phish',
      '| a | b |',
      'bidi \u202e gnp.exe and a NUL \u0000 and ESC \u001b[31mred\u001b[0m',
    ].join('\n');
    const d = diag({
      id: 'evil`id',
      name: hostile,
      agentInfo: { name: hostile, title: '`](command:x)', version: '<script>alert(1)</script>' },
      agentCapabilities: { [hostile]: hostile, '`': { '[x](command:y)': true } },
      stderr: hostile.split('\n'),
      mcp: { source: 'selection', servers: [{ name: hostile, state: 'left-out', detail: hostile }] },
    });
    const stats = new MethodStats();
    stats.notification('in', '[x](command:y)');
    stats.notification('in', 'a|b`c<d>');
    const md = diagnosticsMarkdown([{ ...d, methods: stats.snapshot() }], ctx);
    const r = live(md);
    assert.deepEqual(r.links, [], 'nothing becomes a link');
    assert.deepEqual(r.html, [], 'nothing becomes HTML');
    assert.deepEqual(
      r.headings.map((h) => h.replace(/`[^`]*`/g, 'ID')),
      ['ACP agent diagnostics', 'Agent ID', 'Capabilities: declared and exercised', 'Methods in this window', 'MCP servers', 'Compatibility entries applied', 'Last lines of stderr (redacted)'],
      'the structure is ours alone',
    );
    assert.ok(r.fences.some((f) => f.includes('[click](command:workbench.action.terminal.new)')), 'the agent text is shown, as text');
    assert.ok(!md.includes('\u202e') && !md.includes('\u0000') && !md.includes('\u001b'), 'no control or bidi characters');
    assert.match(md, /`\?x\?\?command:y\?`/, 'a method name is reduced to a plain token');
    const rows = md.split('\n').filter((l) => l.startsWith('| agent → client'));
    assert.equal(rows.length, 2);
    for (const row of rows) assert.equal(row.split('|').length, 9, `a table row keeps its cells: ${row}`);
  });

  it('a fence is longer than any backtick run inside it', () => {
    assert.equal(fence(['a ``` b', '`````'], 'text'), '``````text\na ``` b\n`````\n``````');
    assert.equal(fence(['plain']), '```text\nplain\n```');
  });

  it('is bounded: stderr lines and their length, capability entries, long values', () => {
    const stderr = Array.from({ length: 500 }, (_, i) => `line ${i} ${'x'.repeat(5000)}`);
    const caps = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'v'.repeat(10_000)]));
    const md = diagnosticsMarkdown([diag({ stderr, agentCapabilities: caps, agentInfo: { name: 'n'.repeat(100_000) } })], ctx);
    const shown = md.split('\n').filter((l) => /^line \d+ /.test(l));
    assert.equal(shown.length, REPORT_LIMITS.stderrLines);
    assert.match(shown.at(-1)!, /^line 499 x{300}/, 'the newest lines, as much of them as is shown');
    for (const l of shown) assert.ok(l.length <= REPORT_LIMITS.stderrChars + 20, `${l.length} chars`);
    assert.equal(md.split('\n').filter((l) => /^k\d+: /.test(l)).length, REPORT_LIMITS.capabilityEntries);
    assert.match(md, /… and 920 more entries/);
    assert.ok(md.length < 60_000, `${md.length} chars`);
  });

  it('scrub: one line, no terminal escapes, cut with its length said', () => {
    assert.equal(scrub('a\nb\r\nc\td', []), 'a⏎b⏎c  d');
    assert.equal(scrub('\u001b[1;31mred\u001b[0m', []), 'red');
    assert.equal(scrub('x'.repeat(10), [], 4), 'xxxx… (10 chars)');
    assert.equal(scrub('session 123e4567-e89b-12d3-a456-426614174000 ok', []), 'session 123e4567-e89b-12d3-a456-426614174000 ok', 'ids with dashes are not keys');
  });

  it('says when no agent was started', () => {
    assert.match(diagnosticsMarkdown([], ctx), /No agent has been started in this window\./);
  });
});
