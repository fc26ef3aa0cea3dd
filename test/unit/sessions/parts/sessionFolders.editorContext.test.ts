// The editor-context MCP server in a session's parameters: handed next to the
// user's servers with the session's roots, left out while turned off, the
// user's own server of the same name winning, and let go with the session.
import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import type { McpSelection } from '../../../../src/sessions/mcp/mcpServers';
import { SessionFolders } from '../../../../src/sessions/parts/sessionFolders';
import { fakeCore } from './fakeCore';

function setup(userServers: string[], on: { value: boolean }) {
  const asked: (() => readonly string[])[] = [];
  let disposed = 0;
  const editor: acp.McpServer = { name: 'vscode-editor', command: '/node', args: ['/shim.js'], env: [] };
  const f = fakeCore({
    additionalDirectories: () => ['/other'],
    mcpServers: async () => ({ servers: userServers.map((name) => ({ name, command: name, args: [], env: [] })), skipped: [], fromWorkspace: [] }),
    editorContext: async (roots: () => readonly string[]) => {
      asked.push(roots);
      return { entry: () => (on.value ? editor : undefined), dispose: () => void disposed++ };
    },
  });
  const rt = {
    capabilities: { supportsAdditionalDirectories: () => true, supportsSystemPrompt: () => false },
    initializeResult: { agentInfo: { name: 'fake', version: '1.0.0' } },
    process: { spec: { env: {} } },
  } as unknown as AgentRuntime;
  const offered: McpSelection[] = [];
  const folders = new SessionFolders(f.core, '/ws', async (sel) => (offered.push(sel), sel.servers));
  return { folders, rt, asked, offered, disposed: () => disposed };
}

describe('sessions/parts: session folders hand the editor-context server', () => {
  it('next to the user’s servers, one grant per session whose roots are the session’s, let go on dispose', async () => {
    const on = { value: true };
    const { folders, rt, asked, offered, disposed } = setup(['db'], on);
    const p = await folders.params(rt);
    assert.deepEqual(p.mcpServers.map((s) => s.name), ['db', 'vscode-editor']);
    assert.equal(offered[0]?.own, 'vscode-editor', 'the MCP status is told which server is the extension’s own');
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0]!(), ['/ws', '/other'], 'the grant reads the roots sent');
    on.value = false;
    const again = await folders.params(rt);
    assert.deepEqual(again.mcpServers.map((s) => s.name), ['db'], 'turned off: not handed');
    assert.equal(asked.length, 1, 'the same grant for every new/load/resume');
    folders.dispose();
    assert.equal(disposed(), 1);
  });

  it('a user server named vscode-editor wins', async () => {
    const { folders, rt, offered } = setup(['vscode-editor'], { value: true });
    const p = await folders.params(rt);
    assert.equal(offered[0]?.own, undefined, 'the user’s server of that name is the user’s');
    assert.deepEqual(p.mcpServers, [{ name: 'vscode-editor', command: 'vscode-editor', args: [], env: [] }]);
  });
});
