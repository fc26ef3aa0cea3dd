// `acpAgents.agents` settings for the current adapters (CURRENT_AGENT_PACKAGES in realAgents.mjs,
// installed by ensureCurrentAgents()), each pointed at a loopback model stub
// (test/fixtures/modelStub) with its own HOME, as a user would configure them.
import fs from 'node:fs';
import path from 'node:path';
import { ensureNode } from './tools.mjs';

/**
 * `@agentclientprotocol/claude-agent-acp` (0.101.0) pointed at a loopback Anthropic Messages stub:
 * a dummy key, its own HOME (no ~/.claude settings: it starts in its own default mode, `auto`), and
 * Claude Code's optional network traffic off.
 * - It needs Node 22 or later (`engines`): its launcher (`#!/usr/bin/env node`) runs under the
 *   harness's Node 24, first on PATH.
 * - As root, Claude Code refuses to start a session (session/new: "--dangerously-skip-permissions
 *   cannot be used with root/sudo privileges", `startupFailureReason: "bypass_root"`) unless
 *   IS_SANDBOX=1, which says the machine is a sandbox (the test containers run as root). Not set
 *   otherwise: it also makes the "Bypass permissions" mode available to root.
 *   (The older `@zed-industries` adapter failed session/new when it was set: realAgents.mjs clears it.)
 * @param {string} dir from ensureCurrentAgents()
 * @param {string} runTmp this run's temporary directory
 * @param {string} baseUrl the stub's URL
 * @param {string} [id]
 * @returns {import('./testEnv.mjs').AgentSetting}
 */
export function claudeCurrentWithModelStub(dir, runTmp, baseUrl, id = 'claude-current-stub') {
  const home = path.join(runTmp, 'homes', id);
  fs.mkdirSync(home, { recursive: true });
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return {
    id,
    name: 'Claude Agent current (model stub)',
    command: path.join(dir, 'node_modules', '.bin', 'claude-agent-acp'),
    args: [],
    env: {
      ACP_TEST_RUN: runTmp,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      PATH: `${path.dirname(ensureNode())}${path.delimiter}${process.env.PATH ?? ''}`,
      IS_SANDBOX: root ? '1' : '',
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-offline-dummy-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    },
  };
}
