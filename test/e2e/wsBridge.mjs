// The tests' stdio-to-WebSocket bridge (test/fixtures/ws/ws-bridge.mjs) for the e2e tier: an agent by URL
// on 127.0.0.1, each connection a new process of the agent given.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../harness/testEnv.mjs';
import { ensureNode } from '../harness/tools.mjs';

/**
 * Starts the bridge in front of `agent` (a Node script and its arguments), with `env` added to the
 * environment; resolves once it listens. The caller kills `child` when done.
 * @param {string[]} agent
 * @param {Record<string, string>} [env]
 * @returns {Promise<{ url: string, child: import('node:child_process').ChildProcess }>}
 */
export async function startBridge(agent, env = {}) {
  const child = spawn(ensureNode(), [path.join(ROOT, 'test', 'fixtures', 'ws', 'ws-bridge.mjs'), '--', ...agent], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout?.on('data', (/** @type {Buffer} */ d) => {
      const m = /LISTENING (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`the bridge exited (${code})`)));
  });
  return { url: `ws://127.0.0.1:${port}/acp`, child };
}
