// Real third-party ACP agents for the test suite, installed from npm at pinned
// versions into a cache outside the repo (keyed by the versions), each run with
// its own HOME and a controlled environment.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_ROOT, ensureDebianPackages, ensureNode } from './tools.mjs';

export const REAL_AGENT_PACKAGES = {
  claude: '@zed-industries/claude-agent-acp@0.23.1',
  opencode: 'opencode-ai@1.18.33',
  codex: '@zed-industries/codex-acp@0.16.0',
  gemini: '@google/gemini-cli@0.61.0',
  qwen: '@qwen-code/qwen-code@0.24.4',
};

/**
 * The adapters people install today (the ACP Registry and npm moved Claude's and Codex's to
 * `@agentclientprotocol`), GitHub Copilot CLI, pi (`pi-acp` runs the `pi` of
 * `@earendil-works/pi-coding-agent`) and Cline's CLI (`cline --acp`). A set of its own: the new adapters
 * keep the old ones' bin names (`claude-agent-acp`, `codex-acp`), so the two cannot share a node_modules.
 * pi-acp and cline are in no registry snapshot the extension ships: each is npm's latest when pinned.
 */
export const CURRENT_AGENT_PACKAGES = {
  claude: '@agentclientprotocol/claude-agent-acp@0.101.0',
  codex: '@agentclientprotocol/codex-acp@2.6.0',
  copilot: '@github/copilot@1.0.102',
  pi: 'pi-acp@0.0.34',
  piAgent: '@earendil-works/pi-coding-agent@1.6.0',
  cline: 'cline@3.0.65',
};

/** Installs the pinned agents once; returns the directory holding node_modules/.bin. */
export function ensureRealAgents() {
  // Codex's Linux sandbox (codex-acp reads a file it patches through it) needs bubblewrap, as Codex's own
  // docs ask of its users; the extension provides the helper's alias (src/agents/quirks.ts), not bwrap.
  if (process.platform === 'linux') ensureDebianPackages(['bubblewrap']);
  return ensureAgentSet('real-agents', REAL_AGENT_PACKAGES);
}

/** Installs the current adapters and Copilot CLI once; returns the directory holding node_modules/.bin. */
export function ensureCurrentAgents() {
  if (process.platform === 'linux') ensureDebianPackages(['bubblewrap']);
  return ensureAgentSet('current-agents', CURRENT_AGENT_PACKAGES);
}

/**
 * `name@version` → [name, version] (a scoped name keeps its leading `@`).
 * @param {string} spec
 * @returns {[string, string]}
 */
export function splitSpec(spec) {
  const at = spec.lastIndexOf('@');
  return [spec.slice(0, at), spec.slice(at + 1)];
}

/**
 * The packages of a set whose installed package.json does not say the pinned version
 * (missing, unreadable or another version): empty when the set is installed as pinned.
 * @param {string} dir
 * @param {Record<string, string>} packages
 * @returns {string[]}
 */
export function versionMismatches(dir, packages) {
  return Object.values(packages).flatMap((spec) => {
    const [name, version] = splitSpec(spec);
    try {
      const found = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
      return found === version ? [] : [`${name}: ${found} installed, ${version} pinned`];
    } catch {
      return [`${name}: not installed`];
    }
  });
}

/**
 * Installs a set of pinned packages into the cache once (keyed by the specs). The installed
 * package.json versions are checked, not only the marker: a set whose versions differ is reinstalled.
 * @param {string} prefix
 * @param {Record<string, string>} packages
 */
function ensureAgentSet(prefix, packages) {
  const specs = Object.values(packages).sort();
  const key = crypto.createHash('sha256').update(specs.join('\n')).digest('hex').slice(0, 12);
  const dir = path.join(CACHE_ROOT, `${prefix}-${key}`);
  const marker = path.join(dir, '.install-complete');
  if (fs.existsSync(marker) && versionMismatches(dir, packages).length === 0) return dir;
  process.stderr.write(`[tools] installing real agents ${specs.join(', ')} into ${dir}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.toLowerCase().startsWith('npm_')) delete env[k];
  const res = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', ...specs], { stdio: ['ignore', 'inherit', 'inherit'], env });
  if (res.status !== 0) throw new Error(`installing the real agents failed (${res.status})`);
  const wrong = versionMismatches(dir, packages);
  if (wrong.length > 0) throw new Error(`the installed agents are not the pinned versions: ${wrong.join('; ')}`);
  fs.writeFileSync(marker, new Date().toISOString());
  return dir;
}

/**
 * `acpAgents.agents` entries for the real agents. Each gets its own HOME and a cleared
 * IS_SANDBOX (claude-agent-acp fails session/new when it is set).
 */
/**
 * @param {string} dir from ensureRealAgents()
 * @param {string} runTmp this run's temporary directory
 * @returns {import('./testEnv.mjs').AgentSetting[]}
 */
export function realAgentSettings(dir, runTmp) {
  const bin = path.join(dir, 'node_modules', '.bin');
  // A fresh HOME per run (codex remembers a sign-in in it), except opencode's,
  // which is kept: opencode installs into it on first start.
  const home = (/** @type {string} */ name) => {
    const h = name === 'opencode' ? path.join(CACHE_ROOT, 'homes', name) : path.join(runTmp, 'homes', name);
    fs.mkdirSync(h, { recursive: true });
    return h;
  };
  // ACP_TEST_RUN marks this run's processes, so that the harness can find leftovers.
  const common = (/** @type {string} */ name) => ({ ACP_TEST_RUN: runTmp, HOME: home(name), IS_SANDBOX: '', XDG_CONFIG_HOME: path.join(home(name), '.config'), XDG_DATA_HOME: path.join(home(name), '.local', 'share') });
  return [
    { id: 'real-claude', name: 'Claude Agent (real)', command: path.join(bin, 'claude-agent-acp'), args: [], env: { ...common('claude'), ANTHROPIC_API_KEY: '' } },
    { id: 'real-opencode', name: 'opencode (real)', command: path.join(bin, 'opencode'), args: ['acp'], env: common('opencode') },
    { id: 'real-codex', name: 'Codex (real)', command: path.join(bin, 'codex-acp'), args: [], env: { ...common('codex'), CODEX_API_KEY: '', OPENAI_API_KEY: '' } },
    { ...geminiWithModelStub(dir, runTmp, CLOSED_PORT_URL, 'real-gemini'), name: 'Gemini CLI (real)' },
    { ...qwenWithModelStub(dir, runTmp, CLOSED_PORT_URL, 'real-qwen'), name: 'Qwen Code (real)' },
  ];
}

/** A model endpoint nothing listens on: the real agents' default, so that none reaches the network. A test points them at its stub. */
const CLOSED_PORT_URL = 'http://127.0.0.1:9';

/**
 * gemini-cli (`gemini --acp`) pointed at a loopback Gemini API stub: a dummy
 * GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL, its own HOME. Its folder trust is
 * left to the extension (which sets GEMINI_CLI_TRUST_WORKSPACE when it starts it).
 * Run by its own launcher (`#!/usr/bin/env node`), with the harness's Node first on PATH.
 */
/**
 * @param {string} dir from ensureRealAgents()
 * @param {string} runTmp
 * @param {string} baseUrl the stub's URL
 * @param {string} [id]
 * @returns {import('./testEnv.mjs').AgentSetting}
 */
export function geminiWithModelStub(dir, runTmp, baseUrl, id = 'gemini-stub') {
  const home = path.join(runTmp, 'homes', id);
  fs.mkdirSync(home, { recursive: true });
  return {
    id,
    name: 'Gemini CLI (model stub)',
    command: path.join(dir, 'node_modules', '.bin', 'gemini'),
    args: ['--acp'],
    env: {
      ACP_TEST_RUN: runTmp,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      PATH: `${path.dirname(ensureNode())}${path.delimiter}${process.env.PATH ?? ''}`,
      GEMINI_API_KEY: 'gemini-offline-dummy-key',
      GOOGLE_GEMINI_BASE_URL: baseUrl,
      GOOGLE_API_KEY: '',
      GOOGLE_CLOUD_PROJECT: '',
    },
  };
}

/**
 * Qwen Code (`qwen --acp --auth-type openai`) pointed at a loopback Chat
 * Completions stub. It needs Node 22 or later: it runs under the harness's Node 24.
 */
/**
 * @param {string} dir from ensureRealAgents()
 * @param {string} runTmp
 * @param {string} baseUrl the stub's URL (without /v1)
 * @param {string} [id]
 * @returns {import('./testEnv.mjs').AgentSetting}
 */
export function qwenWithModelStub(dir, runTmp, baseUrl, id = 'qwen-stub') {
  const home = path.join(runTmp, 'homes', id);
  fs.mkdirSync(home, { recursive: true });
  return {
    id,
    name: 'Qwen Code (model stub)',
    command: ensureNode(),
    args: [path.join(dir, 'node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js'), '--acp', '--auth-type', 'openai'],
    env: {
      ACP_TEST_RUN: runTmp,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      OPENAI_API_KEY: 'sk-offline-dummy-key',
      OPENAI_BASE_URL: `${baseUrl}/v1`,
      OPENAI_MODEL: 'stub-model',
    },
  };
}

/**
 * claude-agent-acp pointed at a loopback model stub (test/fixtures/modelStub):
 * a dummy key, its own HOME, and Claude Code's optional network traffic off.
 */
/**
 * @param {string} dir from ensureRealAgents()
 * @param {string} runTmp
 * @param {string} baseUrl the stub's URL
 * @param {string} [id]
 * @returns {import('./testEnv.mjs').AgentSetting}
 */
export function claudeWithModelStub(dir, runTmp, baseUrl, id = 'claude-stub') {
  const bin = path.join(dir, 'node_modules', '.bin');
  const home = path.join(runTmp, 'homes', id);
  fs.mkdirSync(home, { recursive: true });
  return {
    id,
    name: 'Claude Agent (model stub)',
    command: path.join(bin, 'claude-agent-acp'),
    args: [],
    env: {
      ACP_TEST_RUN: runTmp,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      IS_SANDBOX: '',
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-offline-dummy-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    },
  };
}

/**
 * codex-acp pointed at a loopback OpenAI Responses stub: a model provider in its
 * own CODEX_HOME/config.toml (streamed HTTP, no websockets, no retries) whose key
 * is a dummy in the environment, so no sign-in is needed.
 */
/**
 * @param {string} dir from ensureRealAgents()
 * @param {string} runTmp
 * @param {string} baseUrl the stub's URL
 * @param {string} [id]
 * @returns {import('./testEnv.mjs').AgentSetting}
 */
export function codexWithModelStub(dir, runTmp, baseUrl, id = 'codex-stub') {
  const bin = path.join(dir, 'node_modules', '.bin');
  const home = path.join(runTmp, 'homes', id);
  const codexHome = path.join(home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.2-codex"',
      'model_provider = "stub"',
      '',
      '[model_providers.stub]',
      'name = "Loopback stub"',
      `base_url = "${baseUrl}/v1"`,
      'env_key = "CODEX_STUB_API_KEY"',
      'wire_api = "responses"',
      'supports_websockets = false',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  return {
    id,
    name: 'Codex (model stub)',
    command: path.join(bin, 'codex-acp'),
    args: [],
    env: { ACP_TEST_RUN: runTmp, HOME: home, CODEX_HOME: codexHome, CODEX_STUB_API_KEY: 'sk-offline-dummy-key', OPENAI_API_KEY: '', CODEX_API_KEY: '' },
  };
}

/**
 * opencode (`opencode acp`) pointed at a loopback Chat Completions stub: a provider of its own
 * (`@ai-sdk/openai-compatible`, which opencode bundles) in OPENCODE_CONFIG_CONTENT, with a dummy
 * key, and file edits set to ask (its default is to write without asking). Its own HOME, so that
 * nothing of a user's opencode configuration or sessions is read. Offline, its models.dev fetch
 * fails at once and it carries on with the configured provider.
 */
/**
 * @param {string} dir from ensureRealAgents()
 * @param {string} runTmp
 * @param {string} baseUrl the stub's URL (without /v1)
 * @param {string} [id]
 * @returns {import('./testEnv.mjs').AgentSetting}
 */
export function opencodeWithModelStub(dir, runTmp, baseUrl, id = 'opencode-stub') {
  const home = path.join(runTmp, 'homes', id);
  fs.mkdirSync(home, { recursive: true });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    model: 'stub/stub-model',
    autoupdate: false,
    share: 'disabled',
    permission: { edit: 'ask' },
    provider: {
      stub: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Loopback stub',
        options: { baseURL: `${baseUrl}/v1`, apiKey: 'sk-offline-dummy-key' },
        models: { 'stub-model': { name: 'Stub model', tool_call: true } },
      },
    },
  };
  return {
    id,
    name: 'opencode (model stub)',
    command: path.join(dir, 'node_modules', '.bin', 'opencode'),
    args: ['acp'],
    env: {
      ACP_TEST_RUN: runTmp,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
    },
  };
}
