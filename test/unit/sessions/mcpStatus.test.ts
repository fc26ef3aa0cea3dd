// The MCP status of a session: the model (what a relay's report does to a
// server's status, "never started" after a whole turn, the words), stdio
// servers handed over wrapped in the relay, and the part (sessions/parts/mcpStatus.ts)
// on a fake core: the header, the tooltip's accessor, an agent that never starts
// its servers, starts them late, or whose server crashes; the secret in no log.
import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentRuntime } from '../../../src/agents/agentRuntime';
import { redact, SecretValues } from '../../../src/agents/redact';
import { McpRelays } from '../../../src/services/mcpRelays';
import type { RelayListener } from '../../../src/node/mcpRelay/hub';
import { RELAY_ENV } from '../../../src/node/mcpRelay/wire';
import { afterTurn, applyEvent, initialStatuses, statusText, wrapStdio, type McpServerStatus } from '../../../src/sessions/mcp/mcpStatus';
import type { McpSelection } from '../../../src/sessions/mcp/mcpServers';
import { McpStatus } from '../../../src/sessions/parts/mcpStatus';
import type { McpRelayService } from '../../../src/sessions/ports';
import { AgentCapabilityView } from '../../../src/acp/capabilities';
import { fakeCore } from './parts/fakeCore';

const stdio = (name: string, env: { name: string; value: string }[] = []): acp.McpServerStdio => ({ name, command: '/usr/bin/srv', args: ['--x', 'ü'], env });
const http = { type: 'http', name: 'docs', url: 'https://docs.example/mcp', headers: [] } as acp.McpServer;

describe('sessions: the MCP status model', () => {
  it('offered, watched or not; left out with its reason', () => {
    const list = initialStatuses([stdio('fs'), http], [{ name: 'web', reason: 'is an SSE server, and the agent does not support SSE MCP servers' }], () => true);
    assert.deepEqual(list.map((s) => [s.name, s.transport, s.state, s.observed]), [['fs', 'stdio', 'offered', true], ['docs', 'http', 'offered', false], ['web', 'unknown', 'skipped', false]]);
    assert.match(statusText(list[0]!), /not started by the agent yet/);
    assert.match(statusText(list[1]!), /HTTP.*not visible/);
    assert.match(statusText(list[2]!), /left out: is an SSE server/);
  });

  it('a relay’s reports: started, listed N tools, crashed; an older instance changes nothing', () => {
    let s: McpServerStatus = initialStatuses([stdio('fs')], [], () => true)[0]!;
    s = applyEvent(s, { e: 'spawned' }, 1);
    assert.match(statusText(s), /started by the agent; no tools listed yet/);
    s = applyEvent(s, { e: 'tools', count: 3, names: ['a', 'b', 'c'] }, 1);
    assert.equal(statusText(s), 'started by the agent, 3 tools');
    // The agent restarted it: the new instance counts, the old one's exit does not.
    s = applyEvent(s, { e: 'spawned' }, 2);
    assert.equal(applyEvent(s, { e: 'exit', code: 1, signal: null }, 1), s);
    s = applyEvent(applyEvent(s, { e: 'tools', count: 1, names: ['a'] }, 2), { e: 'exit', code: 3, signal: null }, 2);
    assert.equal(s.state, 'exited');
    assert.equal(statusText(s), 'crashed (exit code 3)');
    assert.equal(s.action, 'showLog');
    assert.equal(statusText(applyEvent(s, { e: 'exit', code: null, signal: 'SIGKILL' }, 3)), 'crashed (signal SIGKILL)');
    assert.equal(statusText(applyEvent(s, { e: 'exit', code: 0, signal: null }, 3)), 'stopped');
    assert.match(statusText(applyEvent(s, { e: 'spawnFailed', message: 'spawn /x ENOENT' }, 4)), /could not start: spawn \/x ENOENT/);
  });

  it('after a whole turn a watched server never started says so, with the known reason and action', () => {
    const [fs, docs] = initialStatuses([stdio('fs'), http], [], () => true);
    assert.match(statusText(afterTurn(fs!)), /never started: The agent did not start it during a whole turn/);
    assert.equal(afterTurn(fs!).action, 'showLog');
    const known = afterTurn(fs!, { reason: 'Gemini CLI starts MCP servers only in folders it trusts', action: 'trustSetting' });
    assert.match(statusText(known), /never started: Gemini CLI starts MCP servers only in folders it trusts/);
    assert.equal(known.action, 'trustSetting');
    const noAction = afterTurn(fs!, { reason: 'pi-acp does not pass the MCP servers it is given on to pi' });
    assert.match(statusText(noAction), /never started: pi-acp does not pass/);
    assert.equal(noAction.action, undefined, 'a known reason without an action offers none (not the log)');
    assert.equal(afterTurn(docs!), docs, 'an http server is not watched: nothing is claimed');
    // The extension's own server (vscode-editor): an agent that does not use it has no problem.
    const [mine, theirs] = initialStatuses([stdio('vscode-editor'), stdio('db')], [], () => true, 'vscode-editor');
    assert.deepEqual([mine!.own, theirs!.own], [true, undefined]);
    const unused = afterTurn(mine!);
    assert.equal(unused.state, 'unused');
    assert.equal(unused.action, undefined, 'nothing to do about it');
    assert.match(statusText(unused), /^not used by the agent so far \(the extension’s own editor server/);
    assert.doesNotMatch(statusText(unused), /never started/);
    assert.equal(afterTurn(unused), unused, 'said once');
    assert.equal(afterTurn(theirs!).state, 'notStarted', 'the user’s own server keeps the warning');
    assert.equal(applyEvent(unused, { e: 'spawned' }, 1).own, true, 'started late: still the extension’s own');
    const started = applyEvent(fs!, { e: 'spawned' }, 1);
    assert.equal(afterTurn(started), started);
  });

  it('wraps a stdio server: the host’s node runs the relay, the user’s command and args; the env goes to the relay’s settings, not the relay', () => {
    const w = wrapStdio(stdio('fs', [{ name: 'TOKEN', value: 'v' }, { name: 'NODE_OPTIONS', value: '--require /ws/x.js' }]), { node: '/node', script: '/ext/dist/mcpRelay.js', socket: '/tmp/s', token: 'sekrit' });
    assert.equal(w.command, '/node');
    assert.deepEqual(w.args, ['/ext/dist/mcpRelay.js', '--', '/usr/bin/srv', '--x', 'ü']);
    // The relay's own process gets only what it needs: Electron's switch and its settings.
    assert.deepEqual(w.env.map((e) => e.name), ['ELECTRON_RUN_AS_NODE', RELAY_ENV]);
    assert.deepEqual(JSON.parse(w.env.find((e) => e.name === RELAY_ENV)!.value), {
      socket: '/tmp/s',
      token: 'sekrit',
      server: 'fs',
      env: [
        { name: 'TOKEN', value: 'v' },
        { name: 'NODE_OPTIONS', value: '--require /ws/x.js' },
      ],
    });
  });
});

function setup(opts: { agent?: string; env?: Record<string, string>; passTrust?: boolean; relay?: boolean; caps?: acp.AgentCapabilities; serveHttp?: McpRelayService['serveHttp'] } = {}) {
  const listeners: RelayListener[] = [];
  let registrations = 0;
  let disposed = 0;
  const f = fakeCore({
    settings: { passWorkspaceTrust: () => opts.passTrust ?? true },
    ...(opts.relay === false
      ? {}
      : {
          mcpRelay: {
            register: async (l: RelayListener) => {
              listeners.push(l);
              registrations++;
              return { registration: { socket: '/tmp/hub.sock', token: `token-${registrations}-abcdef`, dispose: () => void disposed++ }, node: '/node', script: '/relay.js' };
            },
            ...(opts.serveHttp ? { serveHttp: opts.serveHttp } : {}),
          },
        }),
  });
  const rt = { initializeResult: { agentInfo: { name: opts.agent ?? 'fake', version: '1.0.0' } }, capabilities: new AgentCapabilityView(opts.caps), process: { spec: { env: opts.env ?? {} } } } as unknown as AgentRuntime;
  const part = new McpStatus(f.core);
  const sel: McpSelection = { servers: [stdio('fs'), http], skipped: [{ name: 'ws', reason: 'is defined by the workspace and you have not trusted it' }], fromWorkspace: [] };
  return { f, rt, part, sel, report: (server: string, e: Parameters<RelayListener>[1], conn = 1) => listeners.at(-1)!(server, e, conn), listeners, counts: () => ({ registrations, disposed }) };
}

describe('sessions/parts: MCP status', () => {
  it('hands stdio servers over through the relay and shows every server in the header', async () => {
    const { f, rt, part, sel } = setup();
    const sent = await part.offer(sel, rt, '/w');
    assert.equal((sent[0] as acp.McpServerStdio).command, '/node');
    assert.deepEqual(sent[1], http, 'http servers as they are');
    assert.deepEqual(f.transcript.header.mcp?.servers.map((s) => [s.name, s.state]), [['fs', 'offered'], ['docs', 'offered'], ['ws', 'skipped']]);
    assert.deepEqual(part.statuses().map((s) => s.name), ['fs', 'docs', 'ws']);
    assert.ok(f.emitted.some((c) => c.c === 'header'));
  });

  it('without the relay, servers go as they are and nothing is claimed about them', async () => {
    const { rt, part, sel } = setup({ relay: false });
    const sent = await part.offer(sel, rt, '/w');
    assert.deepEqual(sent, sel.servers);
    part.turnEnded();
    assert.equal(part.statuses()[0]?.state, 'offered');
    assert.equal(statusText(part.statuses()[0]!), 'offered');
  });

  it('an agent that never starts its server: "never started" after the turn; one that starts it late: started, N tools', async () => {
    const { f, rt, part, sel, report } = setup();
    await part.offer(sel, rt, '/w');
    part.turnEnded();
    assert.equal(part.statuses()[0]?.state, 'notStarted');
    assert.match(f.transcript.header.mcp!.servers[0]!.text, /never started/);
    assert.equal(f.transcript.header.mcp!.servers[0]!.action, 'showLog');
    report('fs', { e: 'spawned' });
    report('fs', { e: 'tools', count: 2, names: ['<img src=x onerror=alert(1)>', 'b'] });
    assert.equal(f.transcript.header.mcp!.servers[0]!.text, 'started by the agent, 2 tools');
    assert.equal(f.transcript.header.mcp!.servers[0]!.tools, '<img src=x onerror=alert(1)>, b', 'tool names are text (the webview shows them as text)');
    part.turnEnded();
    assert.equal(part.statuses()[0]?.state, 'listed', 'a started server stays started');
    report('fs', { e: 'exit', code: null, signal: 'SIGSEGV' });
    assert.equal(f.transcript.header.mcp!.servers[0]!.text, 'crashed (signal SIGSEGV)');
    assert.ok(f.logs.some((l) => /MCP server "fs": crashed/.test(l)));
    // An unknown server name (from a relay) changes nothing.
    report('nope', { e: 'spawned' });
    assert.equal(part.statuses().length, 3);
  });

  it('the extension’s own server the agent does not use: said neutrally in the header, no action, no problem', async () => {
    const { f, rt, part, sel } = setup();
    await part.offer({ ...sel, servers: [...sel.servers, stdio('vscode-editor')], own: 'vscode-editor' }, rt, '/w');
    part.turnEnded();
    const views = Object.fromEntries(f.transcript.header.mcp!.servers.map((s) => [s.name, s]));
    assert.equal(views['vscode-editor']!.state, 'unused');
    assert.match(views['vscode-editor']!.text, /^not used by the agent so far/);
    assert.equal(views['vscode-editor']!.action, undefined);
    assert.equal(views.fs!.state, 'notStarted', 'the user’s server next to it keeps the warning');
  });

  it('a relay’s error text reaches the log as one bounded line: no forged log lines', async () => {
    const { f, rt, part, sel, report } = setup();
    await part.offer(sel, rt, '/w');
    const before = f.logs.length;
    report('fs', { e: 'spawnFailed', message: `spawn x ENOENT\n2026-01-01 [error] forged line\r\u2028${'y'.repeat(150)}` });
    const added = f.logs.slice(before).filter((l) => l.includes('MCP server "fs"'));
    assert.equal(added.length, 1);
    assert.ok(!/[\n\r\u2028]/.test(added[0]!), JSON.stringify(added[0]));
    assert.match(added[0]!, /ENOENT 2026-01-01 \[error\] forged line/);
    assert.ok(added[0]!.length <= 500);
  });

  it('gemini-cli without the trust: "never started" at once, with the reason and the setting to open', async () => {
    const off = setup({ agent: 'gemini-cli', passTrust: false });
    await off.part.offer(off.sel, off.rt, '/w');
    const fs = off.part.statuses()[0]!;
    assert.equal(fs.state, 'notStarted');
    assert.match(statusText(fs), /only in folders it trusts.*turned off for it \(acpAgents\.passWorkspaceTrust\)/);
    assert.equal(fs.action, 'trustSetting');
    assert.equal(off.f.transcript.items.filter((i) => i.kind === 'notice' && i.severity === 'warning').length, 1);
    // It started it anyway: that is what shows.
    off.report('fs', { e: 'tools', count: 1, names: ['echo'] });
    assert.equal(statusText(off.part.statuses()[0]!), 'started by the agent, 1 tool');
    // Trust passed on: no warning; a note says so (header and tooltip).
    const on = setup({ agent: 'gemini-cli', env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } });
    await on.part.offer(on.sel, on.rt, '/w');
    assert.equal(on.part.statuses()[0]?.state, 'offered');
    assert.match(on.part.trustNote()!, /passed on to Gemini CLI/);
    assert.match(on.f.transcript.header.mcp!.note!, /GEMINI_CLI_TRUST_WORKSPACE=true/);
  });

  it('a new offer (load, resume, restart) starts over; reports of the earlier one are dropped; dispose lets go', async () => {
    const { rt, part, sel, report, listeners, counts } = setup();
    await part.offer(sel, rt, '/w');
    report('fs', { e: 'tools', count: 4, names: [] });
    await part.offer(sel, rt, '/w');
    assert.deepEqual(counts(), { registrations: 2, disposed: 1 });
    assert.equal(part.statuses()[0]?.state, 'offered', 'the new session’s servers start over');
    // A relay of the first offer (its session is gone) still reporting: dropped.
    listeners[0]!('fs', { e: 'exit', code: 9, signal: null }, 5);
    assert.equal(part.statuses()[0]?.state, 'offered');
    report('fs', { e: 'spawned' });
    assert.equal(part.statuses()[0]?.state, 'started');
    part.dispose();
    assert.deepEqual(counts(), { registrations: 2, disposed: 2 });
  });

  it('the session’s secret goes on the redaction list: no log of the session/new params shows it', async () => {
    const secrets = new SecretValues();
    const logs: string[] = [];
    // The host side for real (its hub on a real socket); the relay script is this test file, so it "exists".
    const relays = new McpRelays('/nonexistent', secrets, (m) => logs.push(m));
    assert.equal(await relays.register(() => undefined), undefined, 'no relay shipped: servers go unwatched');
    assert.match(logs.join('\n'), /mcpRelay\.js is missing/);
    const real = new McpRelays(process.cwd(), secrets, (m) => logs.push(m));
    (real as unknown as { script: string }).script = __filename;
    const got = await real.register(() => undefined);
    try {
      assert.ok(got);
      const params = { cwd: '/ws', mcpServers: [wrapStdio(stdio('fs'), { node: got.node, script: got.script, socket: got.registration.socket, token: got.registration.token })] };
      const logged = JSON.stringify(redact(params, secrets.list()));
      assert.ok(!logged.includes(got.registration.token), logged);
      // Even as plain text (stderr lines, messages), the known value is replaced.
      assert.ok(!JSON.stringify(redact(JSON.stringify(params), secrets.list())).includes(got.registration.token));
      assert.ok(!logs.join('\n').includes(got.registration.token));
    } finally {
      real.dispose();
    }
  });

  it('an agent that refuses stdio and takes http (Copilot, or mcpCapabilities.stdio: false): its stdio servers go over loopback HTTP, still watched; the serving ends with the offer', async () => {
    const served: { servers: readonly acp.McpServerStdio[]; cwd: string }[] = [];
    let ended = 0;
    const serveHttp: McpRelayService['serveHttp'] = async (servers, cwd) => {
      served.push({ servers, cwd });
      return { servers: servers.map((s) => ({ type: 'http' as const, name: s.name, url: `http://127.0.0.1:1/mcp/x/${s.name}`, headers: [{ name: 'Authorization', value: 'Bearer t' }] })), dispose: () => void ended++ };
    };
    for (const o of [{ agent: 'Copilot', caps: { mcpCapabilities: { http: true, sse: true } } }, { agent: 'other', caps: { mcpCapabilities: { http: true, stdio: false } } as acp.AgentCapabilities }]) {
      const { f, rt, part, sel, report } = setup({ ...o, serveHttp });
      const sent = await part.offer(sel, rt, '/work');
      assert.deepEqual(sent.map((s) => ['url' in s ? s.url : s.command, s.name]), [['http://127.0.0.1:1/mcp/x/fs', 'fs'], ['https://docs.example/mcp', 'docs']]);
      // What is served is the relay-wrapped server, started in the session's folder.
      assert.equal(served.at(-1)!.servers[0]!.command, '/node');
      assert.equal(served.at(-1)!.cwd, '/work');
      assert.deepEqual(part.statuses().map((s) => [s.name, s.transport, s.state, s.observed]), [['fs', 'stdio', 'offered', true], ['docs', 'http', 'offered', false], ['ws', 'unknown', 'skipped', false]]);
      assert.match(f.transcript.header.mcp!.note!, /accepts only http\/sse MCP servers: your stdio servers are offered to it over loopback HTTP/);
      report('fs', { e: 'tools', count: 1, names: ['echo'] });
      assert.equal(part.statuses()[0]?.state, 'listed');
      part.dispose();
    }
    assert.equal(ended, 2, 'each serving ended with its session');
    // An agent that takes stdio: nothing goes over HTTP.
    const { rt, part, sel } = setup({ caps: { mcpCapabilities: { http: true } }, serveHttp });
    assert.equal(((await part.offer(sel, rt, '/w'))[0] as acp.McpServerStdio).command, '/node');
    assert.equal(served.length, 2);
  });

  it('where stdio servers cannot go over HTTP, they are left out and the status names the real reason', async () => {
    const noHttp = setup({ agent: 'Copilot', caps: {} });
    const sent = await noHttp.part.offer(noHttp.sel, noHttp.rt, '/w');
    assert.deepEqual(sent.map((s) => s.name), ['docs'], 'the refused stdio server is not sent');
    const fs0 = noHttp.part.statuses().find((s) => s.name === 'fs')!;
    assert.equal(fs0.state, 'skipped');
    assert.match(statusText(fs0), /^left out: Agent X refuses stdio MCP servers and takes no HTTP ones/);
    const failing = setup({ agent: 'Copilot', caps: { mcpCapabilities: { http: true } }, serveHttp: async () => Promise.reject(new Error('EADDRNOTAVAIL 127.0.0.1')) });
    await failing.part.offer(failing.sel, failing.rt, '/w');
    assert.match(statusText(failing.part.statuses().find((s) => s.name === 'fs')!), /^left out: Agent X accepts only http\/sse MCP servers; the extension could not serve this stdio server over loopback HTTP \(EADDRNOTAVAIL 127\.0\.0\.1\)/);
    assert.ok(failing.f.logs.some((l) => /EADDRNOTAVAIL/.test(l)));
  });
});
