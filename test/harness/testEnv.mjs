// What every real-host test instance gets: a copy of the sample workspace and
// the fake agents configured in user settings.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FAKE_AGENT = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');

/**
 * An entry of `acpAgents.agents`.
 * @typedef {{ id: string, name: string, command: string, args: string[], env: Record<string, string> }} AgentSetting
 */
/**
 * An agent by URL (acpAgents.agents' `url` form).
 * @typedef {{ id: string, name: string, url: string }} RemoteAgentSetting
 */

/**
 * Copies test/fixtures/workspace into dir/workspace and returns its absolute path.
 * @param {string} dir
 */
export function prepareWorkspace(dir) {
  const dest = path.join(dir, 'workspace');
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'workspace'), dest, { recursive: true });
  return dest;
}

/**
 * `acpAgents.agents` for test instances: the Demo Agent plus one agent per scenario.
 * @param {string} nodeBin
 * @param {string} [recordDir] where the fake agents record what they receive (one <scenario>.jsonl each)
 * @returns {AgentSetting[]}
 */
export function testAgents(nodeBin, recordDir) {
  const scenarios = fs
    .readdirSync(path.join(ROOT, 'test', 'fixtures', 'agents', 'scenarios'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5));
  return [
    { id: 'demo', name: 'Demo Agent', command: nodeBin, args: [FAKE_AGENT, 'demo'], env: recordDir ? { ACP_FAKE_RECORD: path.join(recordDir, 'demo.jsonl') } : {} },
    ...scenarios
      .filter((s) => s !== 'demo')
      .map((s) => ({
        id: `fake-${s}`,
        name: `Fake: ${s}`,
        command: nodeBin,
        args: [FAKE_AGENT, s],
        env: { ...(recordDir ? { ACP_FAKE_RECORD: path.join(recordDir, `${s}.jsonl`) } : {}), ...(s === 'leaky' ? { LEAKY_TOKEN: 'leaky-secret-value-31337' } : {}) },
      })),
  ];
}
