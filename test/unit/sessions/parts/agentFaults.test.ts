// AgentFaults: a known fault of the agent explained in the session, once, where it happens — and only for the
// agent, version and protocol version it is known for (agents/quirks.ts, 'v2-mcp-approval-cancelled').
import * as assert from 'node:assert/strict';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import { AgentFaults } from '../../../../src/sessions/parts/agentFaults';
import type { NoticeItem } from '../../../../src/shared/transcriptTypes';
import { fakeCore } from './fakeCore';

const runtime = (protocolVersion: 1 | 2, name = '@agentclientprotocol/codex-acp', version = '2.6.0') => ({ protocolVersion, initializeResult: { agentInfo: { name, version } } }) as unknown as AgentRuntime;
const cancelledMcp = { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'failed', rawOutput: { result: null, error: { message: 'user cancelled MCP tool call' } } } as const;

describe('AgentFaults: known agent faults said in the session', () => {
  const notices = (f: ReturnType<typeof fakeCore>) => f.transcript.items.filter((i): i is NoticeItem => i.kind === 'notice');

  it('codex-acp 2.6 over ACP v2: an MCP call it cancelled itself is explained once, with what works (v1, a mode that does not ask)', () => {
    const f = fakeCore();
    f.state.runtime = runtime(2);
    const part = new AgentFaults(f.core);
    part.update(cancelledMcp as never, undefined, true);
    part.update({ ...cancelledMcp, toolCallId: 'c2' } as never, undefined, true);
    const said = notices(f);
    assert.equal(said.length, 1, 'once per session');
    assert.match(said[0]!.title, /cancelled its own question before an MCP tool/);
    assert.match(said[0]!.description ?? '', /"protocolVersion" to "1".*AcpV2Permissions\.ts/s);
    assert.match(f.logs.join('\n'), /compatibility: @agentclientprotocol\/codex-acp 2\.6\.0: .*AcpV2Permissions/);
  });

  it('not over v1 (there the user was asked, and cancelling is theirs), not for another agent, not in a replay, not for another failure', () => {
    for (const [rt, update, live] of [
      [runtime(1), cancelledMcp, true],
      [runtime(2, '@agentclientprotocol/claude-agent-acp', '0.101.0'), cancelledMcp, true],
      [runtime(2, '@agentclientprotocol/codex-acp', '2.5.9'), cancelledMcp, true],
      [runtime(2), cancelledMcp, false],
      [runtime(2), { ...cancelledMcp, rawOutput: { error: { message: 'tool crashed' } } }, true],
      [runtime(2), { ...cancelledMcp, status: 'completed' }, true],
    ] as const) {
      const f = fakeCore();
      f.state.runtime = rt;
      new AgentFaults(f.core).update(update as never, undefined, live);
      assert.equal(notices(f).length, 0, JSON.stringify([rt.protocolVersion, update, live]));
    }
  });
});
