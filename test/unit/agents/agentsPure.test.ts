import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeExit } from '../../../src/agents/agentProcess';
import { CrashPolicy } from '../../../src/agents/crashPolicy';
import { expandVariables } from '../../../src/agents/expand';
import { mergeAgents } from '../../../src/agents/agentDefinition';
import { REDACTED, redact } from '../../../src/agents/redact';
import { findExecutable } from '../../../src/agents/resolveCommand';

describe('agents: pure parts', () => {
  it('expands ${env:NAME}, ${workspaceFolder}, ${userHome} and ~', () => {
    const ctx = { env: { TOKEN: 'abc' }, workspaceFolder: '/ws', home: '/home/u' };
    assert.equal(expandVariables('--key=${env:TOKEN}', ctx), '--key=abc');
    assert.equal(expandVariables('${env:MISSING}', ctx), '');
    assert.equal(expandVariables('${workspaceFolder}/x', ctx), '/ws/x');
    assert.equal(expandVariables('~/bin/agent', ctx), '/home/u/bin/agent');
    assert.equal(expandVariables('~', ctx), '/home/u');
    assert.equal(expandVariables('a~b', ctx), 'a~b');
    assert.equal(expandVariables('${userHome}/.x', ctx), '/home/u/.x');
  });

  it('lists configured agents first, and a configured id hides the installed agent', () => {
    const installed = [
      { id: 'codex-acp', name: 'Codex CLI', command: '/g/agents/codex-acp/0.9.2/codex-acp', args: [], env: {}, source: 'registry' as const, version: '0.9.2' },
      { id: 'gemini', name: 'Gemini CLI', command: 'npx', args: ['--yes', 'gemini@1'], env: {}, source: 'registry' as const },
    ];
    const merged = mergeAgents([{ id: 'codex-acp', name: 'My Codex', command: 'codex-acp', args: [], env: {}, source: 'settings' }], installed);
    assert.deepEqual(
      merged.map((a) => [a.id, a.source]),
      [
        ['codex-acp', 'settings'],
        ['gemini', 'registry'],
      ],
    );
  });

  it('finds programs on PATH, honours PATHEXT on Windows, and reports missing ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'path-'));
    const exe = path.join(dir, 'my-agent');
    fs.writeFileSync(exe, '#!/bin/sh\n');
    fs.chmodSync(exe, 0o755);
    fs.writeFileSync(path.join(dir, 'not-exec'), '');
    assert.equal(findExecutable('my-agent', { pathEnv: `/nope:${dir}`, cwd: '/' }), exe);
    assert.equal(findExecutable('not-exec', { pathEnv: dir, cwd: '/' }), undefined);
    assert.equal(findExecutable('missing', { pathEnv: dir, cwd: '/' }), undefined);
    assert.equal(findExecutable('./my-agent', { pathEnv: '', cwd: dir }), exe);
    const winFiles = new Set(['C:\\tools\\tool.cmd', 'C:\\bin\\agent.exe']);
    const isExecutable = (f: string) => winFiles.has(f.toLowerCase().replace(/^c:/, 'C:'));
    assert.equal(findExecutable('tool', { pathEnv: 'C:\\bin;C:\\tools', cwd: 'C:\\', platform: 'win32', pathExt: '.EXE;.CMD', isExecutable }), 'C:\\tools\\tool.cmd');
    assert.equal(findExecutable('agent', { pathEnv: 'C:\\tools;C:\\bin', cwd: 'C:\\', platform: 'win32', pathExt: '.EXE;.CMD', isExecutable }), 'C:\\bin\\agent.exe');
    assert.equal(findExecutable('tool', { pathEnv: 'C:\\tools', cwd: 'C:\\', platform: 'linux', isExecutable }), undefined);
  });

  it('crash policy: restarts until 5 crashes within 3 minutes, then gives up', () => {
    const p = new CrashPolicy();
    const t0 = 1_000_000;
    assert.deepEqual([0, 1, 2, 3].map((i) => p.recordCrash(t0 + i * 1000)), ['restart', 'restart', 'restart', 'restart']);
    assert.equal(p.recordCrash(t0 + 5000), 'give-up');
    const q = new CrashPolicy();
    for (let i = 0; i < 10; i++) assert.equal(q.recordCrash(t0 + i * 60_000), 'restart', `crash ${i} spread out`);
  });

  it('describes exits in words', () => {
    assert.match(describeExit('A', { code: 1, signal: null, requested: false }, ['x', '', 'boom']), /Agent 'A' exited with code 1\. Last output: x ⏎ boom/);
    assert.match(describeExit('A', { code: null, signal: 'SIGSEGV', requested: false }, []), /stopped by signal SIGSEGV\.$/);
    assert.match(describeExit('A', { code: 0, signal: null, requested: false }, []), /exited \(code 0\) without saying why/);
    const enoent = Object.assign(new Error('spawn x ENOENT'), { code: 'ENOENT' });
    assert.match(describeExit('A', { code: null, signal: null, spawnError: enoent, requested: false }, []), /program was not found/);
  });

  it('redacts MCP env values, headers, secret-named fields and known secrets', () => {
    const msg = {
      method: 'session/new',
      params: {
        cwd: '/ws',
        mcpServers: [
          { name: 'fs', command: '/bin/x', args: ['--token', 'sk-live-123456'], env: [{ name: 'API_KEY', value: 'v1' }] },
          { type: 'http', name: 'h', url: 'https://x', headers: [{ name: 'Authorization', value: 'Bearer t' }] },
        ],
        apiKey: 'k',
        nested: { password: 'p', ok: 'fine' },
      },
    };
    const out = JSON.stringify(redact(msg, ['sk-live-123456']));
    for (const secret of ['v1', 'Bearer t', 'sk-live-123456', '"k"', '"p"']) assert.ok(!out.includes(secret), `${secret} leaked: ${out}`);
    assert.ok(out.includes('fine') && out.includes('API_KEY') && out.includes(REDACTED));
  });
});
