// The tests' stdio-to-WebSocket bridge (test/fixtures/ws/ws-bridge.mjs) for the e2e tier: an agent by URL
// on 127.0.0.1, each connection a new process of the agent given; and an http MCP server such an agent can
// reach (test/fixtures/mcp/httpServer.mjs, on this machine's network address).
import { spawn } from 'node:child_process';
import os from 'node:os';
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
  const { child, port } = await listening(['ws', 'ws-bridge.mjs', '--', ...agent], env);
  return { url: `ws://127.0.0.1:${port}/acp`, child };
}

/**
 * The http MCP server on this machine's first network address (loopback is left out for an agent by URL),
 * recording each tool call as a line of `record`.
 * @param {string} record
 * @returns {Promise<{ url: string, child: import('node:child_process').ChildProcess }>}
 */
export async function startHttpMcpServer(record) {
  const host = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  if (!host) throw new Error(`no network address besides loopback: ${JSON.stringify(os.networkInterfaces())}`);
  const { child, port } = await listening(['mcp', 'httpServer.mjs', host, record]);
  return { url: `http://${host}:${port}/mcp`, child };
}

/**
 * A fixture under test/fixtures (its folder, its file, its arguments) started, once it says LISTENING.
 * @param {string[]} fixture
 * @param {Record<string, string>} [env]
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, port: number }>}
 */
async function listening([folder, file, ...args], env = {}) {
  const child = spawn(ensureNode(), [path.join(ROOT, 'test', 'fixtures', folder ?? '', file ?? ''), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout?.on('data', (/** @type {Buffer} */ d) => {
      const m = /LISTENING (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`${file} exited (${code})`)));
  });
  return { child, port: /** @type {number} */ (port) };
}
