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

  it('an agent by URL: wss:// anywhere, ws:// only on loopback; never with command, args, env or credentials in the URL', () => {
    const { agents, problems } = parseAgentSettings([
      { id: 'far', name: 'Build box', url: 'wss://build.example:8443/acp' },
      { id: 'tunnel', url: 'ws://127.0.0.1:9000' },
      { id: 'six', url: 'ws://[::1]:9000/x' },
      { id: 'lan', url: 'ws://192.168.1.20:9000' },
      { id: 'web', url: 'https://build.example/acp' },
      { id: 'both', url: 'wss://x.example', command: 'agent' },
      { id: 'args', url: 'wss://x.example', args: ['--x'] },
      { id: 'env', url: 'wss://x.example', env: { A: '1' } },
      { id: 'creds', url: 'wss://me:pw@x.example' },
      { id: 'junk', url: 'not a url' },
      { id: 'none' },
    ]);
    assert.deepEqual(agents, [
      { id: 'far', name: 'Build box', command: 'wss://build.example:8443/acp', url: 'wss://build.example:8443/acp', args: [], env: {}, source: 'settings' },
      { id: 'tunnel', name: 'tunnel', command: 'ws://127.0.0.1:9000', url: 'ws://127.0.0.1:9000', args: [], env: {}, source: 'settings' },
      { id: 'six', name: 'six', command: 'ws://[::1]:9000/x', url: 'ws://[::1]:9000/x', args: [], env: {}, source: 'settings' },
    ]);
    const said = problems.map((p) => p.message);
    assert.match(said[0]!, /\[3\]: "ws:\/\/" \(unencrypted\) is allowed only on loopback/);
    assert.match(said[1]!, /\[4\]: "url" must start with wss:\/\/ \(or ws:\/\/ on loopback\), not https:\/\//);
    assert.match(said[2]!, /\[5\]: give either "command" .* or "url" .*, not both/);
    assert.match(said[3]!, /\[6\]: "args" and "env" are for a program started here/);
    assert.match(said[4]!, /\[7\]: "args" and "env" are for a program started here/);
    assert.match(said[5]!, /\[8\]: "url" must not carry a user name or password/);
    assert.match(said[6]!, /\[9\]: "url" is not a URL/);
    assert.match(said[7]!, /\[10\]: "command" must be a non-empty string \(or give "url"/);
    assert.equal(said.length, 8);
  });

  it('a pathMap: only beside a url; absolute folders of the agent\'s machine to absolute (or variable-led) folders here', () => {
    const { agents, problems } = parseAgentSettings([
      { id: 'mapped', url: 'wss://x.example', pathMap: { '/srv/checkout': '${workspaceFolder}', 'C:\\work': '/home/me/work' } },
      { id: 'local', command: 'agent', pathMap: { '/srv': '/home' } },
      { id: 'relative-key', url: 'wss://x.example', pathMap: { 'srv/checkout': '${workspaceFolder}' } },
      { id: 'relative-value', url: 'wss://x.example', pathMap: { '/srv': 'project' } },
      { id: 'not-object', url: 'wss://x.example', pathMap: ['/srv'] },
      { id: 'empty', url: 'wss://x.example', pathMap: {} },
      { id: 'home', url: 'wss://x.example', pathMap: { '/srv': '~/project' } },
    ]);
    assert.deepEqual(agents.map((a) => [a.id, a.pathMap]), [
      ['mapped', { '/srv/checkout': '${workspaceFolder}', 'C:\\work': '/home/me/work' }],
      ['home', { '/srv': '~/project' }],
    ]);
    const said = problems.map((p) => p.message);
    assert.match(said[0]!, /\[1\]: "pathMap" maps the folders of an agent by "url"/);
    assert.match(said[1]!, /\[2\]: "pathMap" keys are absolute folders of the agent's machine/);
    assert.match(said[2]!, /\[3\]: "pathMap\["\/srv"\]" must be an absolute folder of this machine/);
    assert.match(said[3]!, /\[4\]: "pathMap" must be an object/);
    assert.match(said[4]!, /\[5\]: "pathMap" must map 1 to 20 folders/);
    assert.equal(said.length, 5);
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
