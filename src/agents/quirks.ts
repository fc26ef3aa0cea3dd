/**
 * Interop workarounds: what this client does differently for one agent, because
 * that agent (at those versions) does not work with what the protocol says.
 * One flat table; each entry names the agent and versions it applies to, the
 * upstream issue, and what it changes. Nothing here applies to any other agent.
 * No `vscode` import.
 *
 * Two kinds of entry:
 * - keyed by `initialize`'s `agentInfo` (name and version): known only once the
 *   agent answered, used while serving its requests;
 * - keyed by how the agent is launched (before `initialize`, so by registry id or
 *   command line): used to build its environment. The rule for gemini-cli: the
 *   ACP Registry agent `gemini`, or a command whose program is `gemini` (or that
 *   runs the `@google/gemini-cli` package, e.g. through npx) with `--acp` or
 *   `--experimental-acp` among its arguments.
 *
 * Re-check the entries when an agent's tested version moves (shared notes:
 * AGENT-QUIRKS.md).
 *
 * Trust: `agentInfo` is the agent's own word, so any agent may claim another's
 * quirks. None of the `agentInfo` entries widens what an agent may do:
 * `missing-file-read-as-empty` applies only after fs/read_text_file's path checks
 * (roots, links, the access gate) passed, and answers a missing file with less
 * (empty text) rather than more; `late-answer-after-cancel`, `mcpServersIgnored`
 * and `trustPassedNote` only explain things to the user. What does widen (an
 * environment variable that makes gemini-cli trust the folder, a PATH entry for
 * codex-acp's sandbox helper) is keyed on the launch — the registry id or the
 * command line the user configured — never on `agentInfo`. A new entry that
 * widens anything (permissions, paths, environment) must be keyed on the launch too.
 */
import * as l10n from '@vscode/l10n';
import { inRange, parseVersion } from '../shared/versions';

/** The quirks keyed by `agentInfo`. */
export type QuirkId = 'missing-file-read-as-empty' | 'late-answer-after-cancel' | 'v2-mcp-approval-cancelled';

/**
 * One name an agent reports (`agentInfo.name`, matched exactly) and the versions of it a quirk applies to:
 * at least `from`, and below `below` when that is set (no fixed release known yet otherwise). An agent
 * that moved to a new package name is listed under each name it shipped with, each with its own range,
 * so that an entry neither stops applying after a rename nor follows a fix published under the new name.
 */
export interface QuirkMatch {
  readonly name: string;
  readonly from: string;
  readonly below?: string;
}

export interface Quirk {
  readonly id: QuirkId;
  /** The agents it applies to, under every name they shipped with. */
  readonly agents: readonly QuirkMatch[];
  readonly issue: string;
  /** What the client does, for logs. */
  readonly does: string;
}

export const QUIRKS: readonly Quirk[] = [
  {
    // Its write_file/edit tools read the target first and treat a failed read as "no such file" only when the
    // rejection is an Error mentioning ENOENT; its JSON-RPC layer rejects with a plain object, so a spec error
    // answer (-32002) fails the tool and no new file can be created. Its read_file tool checks existence on disk
    // itself, so the model still hears "not found" for reads.
    id: 'missing-file-read-as-empty',
    agents: [{ name: 'gemini-cli', from: '0.1.0' }],
    issue: 'https://github.com/google-gemini/gemini-cli/issues/9280',
    does: 'fs/read_text_file of a missing file is answered with empty content instead of an error, so that its write tool can create files',
  },
  {
    // After a cancelled turn, it answers the next session/prompt at once with a second, stale stop reason
    // (end_turn, no update): that prompt's answer comes during the prompt after. Nothing the client can
    // answer differently; the session says so, so that the user is not left waiting on a turn that ended.
    // Introduced in 0.23.0 ("Use idle session state as end of turn", #463), fixed in 0.24.1 ("Cleanup based on
    // new idle state", #480: a cancel left the idle message unconsumed, and the next prompt took it as its end).
    // 0.24.0 was the first release as @agentclientprotocol/claude-agent-acp, so no @zed-industries release has
    // the fix. Checked live on @agentclientprotocol/claude-agent-acp 0.101.0: no stale answer after a cancel.
    id: 'late-answer-after-cancel',
    agents: [
      { name: '@zed-industries/claude-agent-acp', from: '0.23.0', below: '0.24.0' },
      { name: '@agentclientprotocol/claude-agent-acp', from: '0.24.0', below: '0.24.1' },
    ],
    issue: 'https://github.com/agentclientprotocol/claude-agent-acp/issues/551',
    does: 'a turn after a Stop that ends at once with nothing in it is explained in the session',
  },
  {
    // Over ACP v2 it cancels its own question before an MCP tool runs: the approval (an MCP elicitation with no
    // fields, turned into session/request_permission) has no title, which a v2 permission request requires, so its
    // v2 layer throws ("'session/request_permission' request has no title to send on ACP v2", on its stderr) and
    // the call fails as "user cancelled MCP tool call" without the client being asked. Nothing reaches the client to
    // answer; the session says what happened and what works (ACP v1, or a mode that does not ask). Seen on 2.6.0
    // through the extension (test/e2e/interop-codex-current.test.mjs); over v1 the same question is asked.
    id: 'v2-mcp-approval-cancelled',
    agents: [{ name: '@agentclientprotocol/codex-acp', from: '2.6.0' }],
    // No upstream issue yet (this machine has no network to file one): the source that throws.
    issue: 'https://github.com/agentclientprotocol/codex-acp/blob/main/src/AcpV2Permissions.ts',
    does: 'an MCP tool call that fails as "user cancelled MCP tool call" over ACP v2, with nothing asked, is explained in the session',
  },
];

// The version helpers the table's ranges use (one comparison for the whole extension).
export { inRange, parseVersion };

/** An entry of the table that applies to an agent, with the name and range it matched. */
export interface AppliedQuirk extends Quirk {
  readonly match: QuirkMatch;
}

/** The table's entries that apply to an agent, by its `initialize` agentInfo (untrusted: any shape). */
export function quirksFor(agentInfo: { readonly name?: unknown; readonly version?: unknown } | undefined, table: readonly Quirk[] = QUIRKS): AppliedQuirk[] {
  if (!agentInfo || typeof agentInfo.name !== 'string') return [];
  const out: AppliedQuirk[] = [];
  for (const q of table) {
    const match = q.agents.find((m) => m.name === agentInfo.name && inRange(agentInfo.version, m.from, m.below));
    if (match) out.push({ ...q, match });
  }
  return out;
}

/** A version range as `≥ from < below`. */
export function rangeText(m: QuirkMatch): string {
  return `≥ ${m.from}${m.below ? ` < ${m.below}` : ''}`;
}

/** The line for the agent's log at connect: which entries apply to it (bounded: the name is the agent's own word). */
export function quirksLine(agentInfo: { readonly name?: unknown; readonly version?: unknown } | undefined): string {
  const name = typeof agentInfo?.name === 'string' ? JSON.stringify(agentInfo.name.slice(0, 100)) : undefined;
  if (!name) return 'compatibility: no agentInfo, so no interop workarounds apply';
  const version = typeof agentInfo?.version === 'string' ? agentInfo.version.slice(0, 40) : '?';
  const applied = quirksFor(agentInfo);
  if (!applied.length) return `compatibility: no interop workarounds apply to ${name} ${version}`;
  return `compatibility: interop workarounds for ${name} ${version}: ${applied.map((q) => `${q.id} (${q.match.name} ${rangeText(q.match)}; ${q.issue})`).join(', ')}`;
}

/**
 * One session's use of the table: `use(id)` is undefined when the quirk does not
 * apply to the session's agent, else a callback to call each time it is applied
 * (it logs the first time only).
 */
export class SessionQuirks {
  private readonly logged = new Set<QuirkId>();

  constructor(
    private readonly agentInfo: () => { readonly name?: unknown; readonly version?: unknown } | undefined,
    private readonly log: (message: string) => void,
  ) {}

  use(id: QuirkId): (() => void) | undefined {
    const info = this.agentInfo();
    const q = quirksFor(info).find((x) => x.id === id);
    if (!q) return undefined;
    return () => {
      if (this.logged.has(id)) return;
      this.logged.add(id);
      this.log(`compatibility: ${q.match.name} ${String(info?.version)}: ${q.does} (${q.issue})`);
    };
  }
}

// ------------------------------------------------------------ declined extension methods

/**
 * Methods outside the protocol that agents call on the client and that this client
 * declines on purpose: answered "method not found" (-32601) with the reason, logged
 * once per agent process. -32601 is what these agents expect from a client without
 * the feature; each entry says why this client has none.
 */
export const DECLINED_CLIENT_METHODS: Readonly<Record<string, string>> = {
  // Qwen Code (0.24.4, its ACP session's mid-turn drain) asks between tool batches for messages the
  // user queued during the turn, to fold them into the running turn. Here a message sent during a
  // turn waits in the panel's queue for a turn of its own, so there is nothing to hand over. Qwen
  // Code reads -32601 as "drain unsupported" and stops asking for that session; an empty answer
  // would have it ask after every tool batch, and no answer within 2 s counts as a timeout.
  'craft/drainMidTurnQueue': 'queued messages wait for their own turn',
};

/** The answer to a declined method (see DECLINED_CLIENT_METHODS); undefined for any other method. */
export function declinedMethodMessage(method: string): string | undefined {
  const why = Object.prototype.hasOwnProperty.call(DECLINED_CLIENT_METHODS, method) ? DECLINED_CLIENT_METHODS[method] : undefined;
  return why === undefined ? undefined : `${method} is not offered by this client: ${why}`;
}

// ------------------------------------------------------------ launch quirks

/** What is known of an agent before it starts. */
export interface LaunchInfo {
  readonly id: string;
  readonly source: 'settings' | 'registry';
  readonly command: string;
  readonly args: readonly string[];
}

/** The program's name without folder or Windows extension: `/x/bin/gemini.cmd` → `gemini`. */
function programName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(cmd|bat|exe|ps1)$/i, '').toLowerCase();
}

/** Whether a launch is gemini-cli in ACP mode (see the rule in the header). */
export function isGeminiCli(l: LaunchInfo): boolean {
  if (l.source === 'registry' && l.id === 'gemini') return true;
  const acpMode = l.args.some((a) => a === '--acp' || a === '--experimental-acp');
  const program = programName(l.command) === 'gemini' || l.args.some((a) => /^@google\/gemini-cli(@|$)/.test(a));
  return acpMode && program;
}

export const GEMINI_TRUST_ENV = 'GEMINI_CLI_TRUST_WORKSPACE';

/**
 * How the user's VS Code workspace trust may reach an agent that keeps its own
 * folder trust: `trusted` is VS Code's decision for this workspace; `allowed` the
 * user's per-agent setting (acpAgents.passWorkspaceTrust, user/machine scope).
 */
export interface TrustPassing {
  readonly trusted: boolean;
  readonly allowed: boolean;
  /**
   * What the session folders hold that gemini-cli would load once trusted (agents/geminiWorkspace.ts):
   * nothing, all of it accepted by the user, or some of it not accepted. Absent: nothing.
   */
  readonly repository?: 'none' | 'trusted' | 'declined';
}

/** The setting that turns passing on the workspace trust off for one agent. */
const TRUST_SETTING = 'acpAgents.passWorkspaceTrust';

/**
 * Environment a launch gets because of who the agent is. gemini-cli keeps its own
 * folder trust and, in a folder it does not trust, starts none of the MCP servers
 * it is given and refuses "allow always". The user's VS Code trust is that
 * decision, so it is passed on — only for a trusted workspace, only when the
 * user's setting allows it for this agent, only when the folders hold nothing
 * gemini-cli would load and run from them (`.gemini/settings.json`, commands,
 * `.env`) that the user did not accept, and never over what the environment
 * already says (the user's own `env` wins, including "false").
 * Returns the variables to add and a line for the agent's log.
 */
export function launchEnvQuirks(l: LaunchInfo, env: Readonly<Record<string, string | undefined>>, trust: TrustPassing): { env: Record<string, string>; notes: string[] } {
  if (!isGeminiCli(l)) return { env: {}, notes: [] };
  if (env[GEMINI_TRUST_ENV] !== undefined) {
    const value = env[GEMINI_TRUST_ENV];
    const consequence = value === 'true' ? '' : ': unless it trusts this folder itself, it starts none of the MCP servers it is given';
    return { env: {}, notes: [`compatibility: gemini-cli: ${GEMINI_TRUST_ENV} is already set (${value}); left as it is${consequence}`] };
  }
  if (!trust.trusted) return { env: {}, notes: [`compatibility: gemini-cli: the VS Code workspace is not trusted; ${GEMINI_TRUST_ENV} is not set`] };
  if (!trust.allowed) return { env: {}, notes: [`compatibility: gemini-cli: passing on the VS Code workspace trust is turned off for this agent (${TRUST_SETTING}); ${GEMINI_TRUST_ENV} is not set, so it starts no MCP servers in folders it does not trust itself`] };
  if (trust.repository === 'declined') {
    return { env: {}, notes: [`compatibility: gemini-cli: the workspace holds Gemini settings (.gemini/settings.json, commands or .env) that the user did not trust; ${GEMINI_TRUST_ENV} is not set, so it loads none of them and starts no MCP servers in folders it does not trust itself`] };
  }
  return {
    env: { [GEMINI_TRUST_ENV]: 'true' },
    notes: [`compatibility: gemini-cli: ${GEMINI_TRUST_ENV}=true (the VS Code workspace is trusted and ${TRUST_SETTING} allows it; without it gemini-cli starts no MCP servers)`],
  };
}

/** Why an agent will not start the MCP servers it was given, and what the user can do. */
export interface McpIgnored {
  readonly reason: string;
  /**
   * `trustSetting`: the setting that passes the workspace trust on; `agentSettings`: the agent's env in
   * acpAgents.agents; none: nothing in the editor changes it (the agent never starts servers from a client).
   */
  readonly action?: 'trustSetting' | 'agentSettings';
}

/**
 * Agents that take the MCP servers of `session/new` and never start them, by the names they report and
 * version ranges (checked live: the server was never spawned, and the model was not offered its tools).
 * Only words for the user: nothing the extension does changes.
 */
const MCP_NEVER_STARTED: readonly { readonly agents: readonly QuirkMatch[]; readonly reason: () => string }[] = [
  {
    // pi-acp 0.0.34 (its README, "Limitations": "MCP servers are accepted in ACP params and stored in session
    // state, but not wired through to pi"); it declares mcpCapabilities http/sse false. pi has no MCP client of
    // its own: the pi-mcp-adapter extension adds one, configured in pi.
    agents: [{ name: 'pi-acp', from: '0.0.1' }],
    reason: () => l10n.t('pi-acp does not pass the MCP servers it is given on to pi, so their tools are not available in pi sessions. pi gets MCP tools only through its own extensions (pi-mcp-adapter), configured in pi.'),
  },
  {
    // cline 3.0.65 `--acp`: session/new and session/load keep `mcpServers` in the session and never use them
    // (its session config has no MCP servers from the client); the model was offered only Cline's own tools.
    agents: [{ name: 'cline', from: '3.0.0' }],
    reason: () => l10n.t('Cline in ACP mode keeps the MCP servers it is given but never starts them, so their tools are not available in Cline sessions. Configure MCP servers in Cline itself (cline mcp).'),
  },
];

/**
 * Why an agent will not start the MCP servers it was given, when that is known
 * from who it is and how it was started (for the user, in the session); undefined otherwise.
 * `allowed`: the user's acpAgents.passWorkspaceTrust for this agent; `withheld`: the trust was not
 * passed on because the user did not accept the folders' Gemini settings (SpawnSpec.trustWithheld).
 */
export function mcpServersIgnored(agentInfo: { readonly name?: unknown; readonly version?: unknown } | undefined, env: Readonly<Record<string, string | undefined>>, allowed = true, withheld = false): McpIgnored | undefined {
  const never = MCP_NEVER_STARTED.find((e) => e.agents.some((m) => m.name === agentInfo?.name && inRange(agentInfo?.version, m.from, m.below)));
  if (never) return { reason: never.reason() };
  if (agentInfo?.name !== 'gemini-cli') return undefined;
  const value = env[GEMINI_TRUST_ENV];
  if (value === 'true') return undefined;
  if (value === undefined && withheld) {
    return { reason: l10n.t('Gemini CLI starts MCP servers only in folders it trusts, and your VS Code workspace trust was not passed on to it: this workspace holds Gemini settings (.gemini/settings.json, commands or .env) that you did not trust.'), action: 'trustSetting' };
  }
  if (value === undefined && !allowed) {
    return { reason: l10n.t('Gemini CLI starts MCP servers only in folders it trusts, and passing on your VS Code workspace trust is turned off for it ({0}).', TRUST_SETTING), action: 'trustSetting' };
  }
  return value === undefined
    ? { reason: l10n.t('Gemini CLI starts MCP servers only in folders it trusts, and it was not told that this workspace is trusted (its command line was not recognised). Set {0} to "true" in the agent\'s env in acpAgents.agents.', GEMINI_TRUST_ENV), action: 'agentSettings' }
    : { reason: l10n.t('Gemini CLI starts MCP servers only in folders it trusts, and its environment sets {0} to "{1}". Remove that from the agent\'s env to pass on your VS Code workspace trust.', GEMINI_TRUST_ENV, value), action: 'agentSettings' };
}

/**
 * What an agent's "Authentication required" means where the agent's own sign-in methods are all online:
 * how it runs without them (a provider of the user's own, a local model), by the names it reports and
 * version ranges. Shown with the sign-in question and, when no sign-in is done, as the session's failure.
 * Only words for the user.
 */
const SIGN_IN_NOTES: readonly { readonly agents: readonly QuirkMatch[]; readonly note: () => string }[] = [
  {
    // cline 3.0.65 `--acp`: session/new fails "Call authenticate before starting a session" unless CLINE_API_KEY is
    // in its environment or it holds a Cline/ClinePass/ChatGPT sign-in; its authMethods are those three (online).
    // With CLINE_API_KEY set, CLINE_PROVIDER picks the provider (its settings, e.g. a base URL, from `cline auth`).
    agents: [{ name: 'cline', from: '3.0.0' }],
    note: () => l10n.t('Cline offers only its online sign-ins here (Cline account, ClinePass, ChatGPT). To use a provider you set up with "cline auth" instead (your own key, or an OpenAI-compatible endpoint such as a local model), add CLINE_PROVIDER (the provider\'s id, e.g. openai-compatible) and CLINE_API_KEY (its key) to this agent\'s env in acpAgents.agents: Cline asks for no sign-in when CLINE_API_KEY is set.'),
  },
  {
    // pi-acp 0.0.34: "Authentication required" when pi lists no model it can use (no key, no sign-in, no
    // models.json provider); its one method runs pi in a terminal (`--terminal-login`).
    agents: [{ name: 'pi-acp', from: '0.0.1' }],
    note: () => l10n.t('pi found no model it can use. Sign in with pi in a terminal, set a provider\'s API key variable in this agent\'s env in acpAgents.agents, or add a provider to ~/.pi/agent/models.json (an OpenAI-compatible endpoint, such as a local model server, needs no sign-in).'),
  },
];

/** The note for an agent's "Authentication required" (SIGN_IN_NOTES); undefined for other agents. */
export function signInNote(agentInfo: { readonly name?: unknown; readonly version?: unknown } | undefined): string | undefined {
  if (typeof agentInfo?.name !== 'string') return undefined;
  return SIGN_IN_NOTES.find((e) => e.agents.some((m) => m.name === agentInfo.name && inRange(agentInfo.version, m.from, m.below)))?.note();
}

/** A line for the MCP status when the workspace trust was passed on to the agent; undefined otherwise. */
export function trustPassedNote(agentInfo: { readonly name?: unknown } | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (agentInfo?.name !== 'gemini-cli' || env[GEMINI_TRUST_ENV] !== 'true') return undefined;
  return l10n.t('Your VS Code workspace trust was passed on to Gemini CLI ({0}), so it may start MCP servers here. Turn this off with {1}.', `${GEMINI_TRUST_ENV}=true`, TRUST_SETTING);
}

// ------------------------------------------------------------ codex-acp's sandbox helper

/** The name codex runs its Linux sandbox helper under (itself, dispatched on argv[0]), looked up on PATH. */
export const CODEX_SANDBOX_HELPER = 'codex-linux-sandbox';
const CODEX_SANDBOX_ISSUE = 'https://github.com/openai/codex/issues/24873';

/**
 * Whether a launch is codex-acp (`@zed-industries/codex-acp`): the ACP Registry agent `codex-acp`, a
 * program named `codex-acp`, or the package run through a package runner.
 */
export function isCodexAcp(l: LaunchInfo): boolean {
  if (l.source === 'registry' && l.id === 'codex-acp') return true;
  return programName(l.command) === 'codex-acp' || l.args.some((a) => /^@zed-industries\/codex-acp(@|$)/.test(a));
}

/**
 * codex-acp on Linux (0.16.x checked) verifies an `apply_patch` that updates or deletes a file by reading
 * it through codex's sandbox helper, which it runs as `codex-linux-sandbox` found on PATH. The codex CLI
 * puts that alias on PATH itself; codex-acp's npm package does not, so every edit of an existing file
 * fails ("bwrap: execvp codex-linux-sandbox: No such file or directory") — only new files can be
 * written. The alias is the native codex-acp binary under that name. Given where the launched program
 * really is (symlinks resolved), returns that binary, or undefined when the quirk does not apply
 * (another agent or platform, an alias already on PATH, no native binary where npm puts it).
 */
export function codexSandboxHelperTarget(
  l: LaunchInfo,
  realProgram: string,
  host: { platform: string; arch: string; exists(file: string): boolean; onPath(name: string): boolean },
): string | undefined {
  if (host.platform !== 'linux' || !isCodexAcp(l) || host.onPath(CODEX_SANDBOX_HELPER)) return undefined;
  const sep = realProgram.includes('\\') ? '\\' : '/';
  const parts = realProgram.split(sep);
  const base = parts.at(-1) ?? '';
  // The native binary itself (a platform package's bin/codex-acp, or one installed by hand).
  if (base === 'codex-acp') return realProgram;
  // The npm wrapper <scope>/codex-acp/bin/codex-acp.js: its platform package is a sibling, or nested.
  if (base !== 'codex-acp.js' || parts.at(-2) !== 'bin') return undefined;
  const pkg = parts.slice(0, -2).join(sep);
  const scope = parts.slice(0, -3).join(sep);
  const platformPkg = `codex-acp-linux-${host.arch}`;
  const candidates = [
    [scope, platformPkg, 'bin', 'codex-acp'].join(sep),
    [pkg, 'node_modules', '@zed-industries', platformPkg, 'bin', 'codex-acp'].join(sep),
  ];
  return candidates.find((c) => host.exists(c));
}

/** The log line for the agent's log when the alias is provided. */
export function codexSandboxHelperNote(target: string, dir: string): string {
  return `compatibility: codex-acp: ${CODEX_SANDBOX_HELPER} → ${target} put first on PATH (${dir}): without it, codex-acp cannot edit existing files on Linux (${CODEX_SANDBOX_ISSUE})`;
}
