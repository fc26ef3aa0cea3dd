// The session folders part: the cwd (a scratch folder when none is open),
// the roots sent (the boundary for requests), MCP servers and instructions in
// the session parameters, and the skipped-MCP notice shown once.
import * as assert from 'node:assert/strict';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import { McpStatus } from '../../../../src/sessions/parts/mcpStatus';
import { SessionFolders } from '../../../../src/sessions/parts/sessionFolders';
import { fakeCore } from './fakeCore';

function setup(cwd: string | undefined, caps: { dirs?: boolean; systemPrompt?: boolean } = {}, agent: { name?: string; env?: Record<string, string> } = {}) {
  const f = fakeCore({
    scratchRoot: () => '/scratch',
    additionalDirectories: () => ['/other'],
    mcpServers: async () => ({ servers: [{ name: 'db', command: 'db', args: [], env: [] }], skipped: [{ name: 'web', reason: 'http is not supported' }] }),
    settings: { instructions: () => 'Be brief.' },
  });
  const rt = {
    capabilities: { supportsAdditionalDirectories: () => caps.dirs ?? false, supportsSystemPrompt: () => caps.systemPrompt ?? false },
    initializeResult: { agentInfo: { name: agent.name ?? 'fake', version: '1.0.0' } },
    process: { spec: { env: agent.env ?? {} } },
  } as unknown as AgentRuntime;
  const mcp = new McpStatus(f.core);
  return { f, rt, folders: new SessionFolders(f.core, cwd, (sel, r) => mcp.offer(sel, r)) };
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
