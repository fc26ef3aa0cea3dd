/**
 * Built-in agents: the well-known ACP agents with their current launch commands.
 * Shown in the picker; nothing is started until the user picks one. Per-agent
 * quirks live here and nowhere else. No `vscode` import.
 */
import type { AgentDefinition } from './agentDefinition';

const npx = (pkg: string, ...args: string[]) => ({ command: 'npx', args: ['-y', pkg, ...args] });

export const AGENT_PRESETS: readonly AgentDefinition[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    description: 'Anthropic’s Claude Code through the ACP adapter (npx @agentclientprotocol/claude-agent-acp)',
    ...npx('@agentclientprotocol/claude-agent-acp'),
    env: {},
    source: 'preset',
  },
  {
    id: 'codex',
    name: 'Codex',
    description: 'OpenAI Codex through the ACP adapter (npx @zed-industries/codex-acp)',
    ...npx('@zed-industries/codex-acp'),
    env: {},
    source: 'preset',
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    description: 'Google’s Gemini CLI in ACP mode (npx @google/gemini-cli --acp)',
    ...npx('@google/gemini-cli', '--acp'),
    env: {},
    source: 'preset',
  },
  {
    id: 'opencode',
    name: 'opencode',
    description: 'opencode in ACP mode (npx opencode-ai acp)',
    ...npx('opencode-ai', 'acp'),
    env: {},
    source: 'preset',
  },
  {
    id: 'qwen-code',
    name: 'Qwen Code',
    description: 'Qwen Code in ACP mode (npx @qwen-code/qwen-code --acp)',
    ...npx('@qwen-code/qwen-code', '--acp'),
    env: {},
    source: 'preset',
  },
  {
    id: 'github-copilot',
    name: 'GitHub Copilot',
    description: 'GitHub Copilot CLI in ACP mode (npx @github/copilot --acp)',
    ...npx('@github/copilot', '--acp'),
    env: {},
    source: 'preset',
  },
  {
    id: 'goose',
    name: 'Goose',
    description: 'Block’s Goose in ACP mode (goose acp; install goose first)',
    command: 'goose',
    args: ['acp'],
    env: {},
    source: 'preset',
  },
  {
    id: 'augment',
    name: 'Augment (Auggie)',
    description: 'Augment Code’s Auggie CLI in ACP mode (npx @augmentcode/auggie --acp)',
    ...npx('@augmentcode/auggie', '--acp'),
    env: {},
    source: 'preset',
  },
];

/** Configured agents first; a preset is hidden when a configured agent has its id. */
export function mergeWithPresets(configured: readonly AgentDefinition[], presets: readonly AgentDefinition[] = AGENT_PRESETS): AgentDefinition[] {
  const ids = new Set(configured.map((a) => a.id));
  return [...configured, ...presets.filter((p) => !ids.has(p.id))];
}
