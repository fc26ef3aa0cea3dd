// test/e2e/interopResults.mjs reads what the interop run itself says from the extension's log files: the
// version each agent reported (for the tested-agents table) and its answer to session/load (for the resume
// cells). Run on log files shaped as VS Code writes them, in a child Node process (the module is ESM).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULE = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'e2e', 'interopResults.mjs');

describe('test/e2e/interopResults.mjs: what the run says, from the extension logs', function () {
  this.timeout(60_000);
  let userData: string;
  let n = 0;
  beforeEach(() => {
    userData = fs.mkdtempSync(path.join(os.tmpdir(), 'interop-logs-'));
  });
  afterEach(() => fs.rmSync(userData, { recursive: true, force: true }));

  /** Writes a log file of one extension host (a window reload starts another: a later folder). */
  const log = (session: string, channel: string, lines: string[]) => {
    const dir = path.join(userData, 'logs', session, 'exthost1', 'acp-agents.acp-agents');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${channel.replace(/[\\/:*?"<>|]/g, '')}.log`);
    fs.writeFileSync(file, lines.map((l) => `2026-11-28 00:00:0${n % 10}.000 [info] ${l}\n`).join(''));
    const t = new Date(Date.UTC(2026, 10, 28, 0, 0, n++));
    fs.utimesSync(file, t, t);
  };
  const call = (fn: string, ...args: string[]) => {
    const code = `const m = await import(${JSON.stringify(pathToFileURL(MODULE).href)}); process.stdout.write(JSON.stringify(m.${fn}(...${JSON.stringify(args)}) ?? null));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as unknown;
  };

  it('reportedAgentVersion: the last "Initialized" line of the agent’s own channel; none without agentInfo or a start', () => {
    log('20261128T000000', 'ACP: Claude Agent (model stub)', ['Starting …', 'Initialized: Claude Agent 0.23.0; capabilities {"loadSession":true}; auth methods none']);
    log('20261128T000100', 'ACP: Claude Agent (model stub)', ['Initialized: Claude Agent 0.23.1; capabilities {"loadSession":true}; auth methods none']);
    log('20261128T000100', 'ACP: Codex (model stub)', ['Initialized: no agentInfo; capabilities {}; auth methods none']);
    log('20261128T000100', 'ACP: opencode (model stub)', ['Initialized: opencode 1.18.33; capabilities {}; auth methods none']);
    assert.equal(call('reportedAgentVersion', userData, 'Claude Agent (model stub)'), '0.23.1');
    assert.equal(call('reportedAgentVersion', userData, 'opencode (model stub)'), '1.18.33');
    assert.equal(call('reportedAgentVersion', userData, 'Codex (model stub)'), null);
    assert.equal(call('reportedAgentVersion', userData, 'Gemini CLI (model stub)'), null);
  });

  it('lastSessionOpen: the answer to the last session/load in the newest trace, its error when it failed', () => {
    const load = (id: number, sid: string) => `Gemini CLI (model stub) → request session/load #${id} {"jsonrpc":"2.0","id":${id},"method":"session/load","params":{"sessionId":"${sid}","cwd":"/w","mcpServers":[]}}`;
    log('20261128T000000', 'ACP Trace', [load(2, 'old'), 'Gemini CLI (model stub) ← response #2 {"jsonrpc":"2.0","id":2,"result":{}}']);
    log('20261128T000100', 'ACP Trace', [
      load(1, 's-1'),
      'Qwen Code (model stub) ← response #1 {"jsonrpc":"2.0","id":1,"result":{}}',
      'Gemini CLI (model stub) ← notification session/update {"jsonrpc":"2.0","method":"session/update","params":{}}',
    ]);
    assert.equal(call('lastSessionOpen', userData, 'Gemini CLI (model stub)'), null, 'not answered yet (another agent’s #1 is not its answer)');
    log('20261128T000100', 'ACP Trace', [
      load(1, 's-1'),
      'Gemini CLI (model stub) ← response #1 error -32603 (Internal error) {"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error","data":{"details":"No previous sessions found for this project."}}}',
    ]);
    assert.deepEqual(call('lastSessionOpen', userData, 'Gemini CLI (model stub)'), {
      method: 'session/load',
      sessionId: 's-1',
      error: '-32603 Internal error {"details":"No previous sessions found for this project."}',
    });
    log('20261128T000200', 'ACP Trace', [
      'Qwen Code (model stub) → request session/resume #4 {"jsonrpc":"2.0","id":4,"method":"session/resume","params":{"sessionId":"q-1"}}',
      'Qwen Code (model stub) ← response #4 {"jsonrpc":"2.0","id":4,"result":{}}',
    ]);
    assert.deepEqual(call('lastSessionOpen', userData, 'Qwen Code (model stub)'), { method: 'session/resume', sessionId: 'q-1' });
    assert.equal(call('lastSessionOpen', userData, 'opencode (model stub)'), null);
  });
});
