import * as assert from 'node:assert/strict';
import { parseAgentSettings } from '../../../src/agents/agentDefinition';

describe('parseAgentSettings', () => {
  it('reads a full definition', () => {
    const { agents, problems } = parseAgentSettings([
      { id: 'claude', name: 'Claude Code', command: 'npx', args: ['-y', 'x'], env: { A: '1' } },
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(agents, [
      { id: 'claude', name: 'Claude Code', command: 'npx', args: ['-y', 'x'], env: { A: '1' }, source: 'settings' },
    ]);
  });

  it('defaults args and env, and the name to the id', () => {
    const { agents } = parseAgentSettings([{ id: 'x', command: 'agent' }]);
    assert.deepEqual(agents[0], { id: 'x', name: 'x', command: 'agent', args: [], env: {}, source: 'settings' });
  });

  it('protocolVersion per agent: "1", "2" or "auto" (a number is read as its string); anything else skips the entry', () => {
    const { agents, problems } = parseAgentSettings([
      { id: 'a', command: 'x', protocolVersion: 'auto' },
      { id: 'b', command: 'x', protocolVersion: 2 },
      { id: 'c', command: 'x', protocolVersion: '3' },
    ]);
    assert.deepEqual(agents.map((d) => [d.id, d.protocolVersion]), [['a', 'auto'], ['b', '2']]);
    assert.match(problems[0]?.message ?? '', /acpAgents.agents\[2\]: "protocolVersion" must be "1", "2" or "auto"/);
  });

  it('skips invalid entries with a problem each, keeping the valid ones', () => {
    const { agents, problems } = parseAgentSettings([
      null,
      { id: '', command: 'a' },
      { id: 'ok', command: 'a' },
      { id: 'ok', command: 'b' },
      { id: 'noCommand' },
      { id: 'badArgs', command: 'a', args: [1] },
      { id: 'badEnv', command: 'a', env: { X: 1 } },
      { id: 'bad id!', command: 'a' },
    ]);
    assert.deepEqual(agents.map((a) => a.id), ['ok']);
    assert.equal(problems.length, 7);
    assert.match(problems[2]!.message, /used twice/);
    assert.match(problems[5]!.message, /env\.X/);
  });

  it('reports a non-array value instead of throwing', () => {
    const { agents, problems } = parseAgentSettings({ id: 'x' });
    assert.deepEqual(agents, []);
    assert.equal(problems.length, 1);
    assert.deepEqual(parseAgentSettings(undefined), { agents: [], problems: [] });
  });
});
