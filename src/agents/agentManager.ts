import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type TraceDirection } from '../acp/connection';
import { describeErrorCode, errorText } from '../acp/errors';
import { mergeAgents, type AgentDefinition } from './agentDefinition';
import { describeExit, type ExitInfo, type SpawnSpec } from './agentProcess';
import { AgentRuntime, AgentStartError } from './agentRuntime';
import { LOCAL_ONLY_METHODS, REMOTE_NOTE, REMOTE_TOKEN, remoteSpec } from './agentSocket';
import { CrashPolicy } from './crashPolicy';
import { CODEX_SANDBOX_HELPER, codexSandboxHelperNote, codexSandboxHelperTarget, GEMINI_TRUST_ENV, isGeminiCli, launchEnvQuirks, quirksLine, type LaunchInfo } from './quirks';
import type { GeminiRepoTrust } from './geminiWorkspace';
import { expandAll, expandEnv, expandVariables } from './expand';
import { looksSecret, type SecretValues } from './redact';
import type { AgentHostUi, AgentSettings, LogChannel, LogFactory, Notifier } from './ports';
import type { AnyClientMethod, RequestScopedElicitation } from './clientMethods';
import type { CancelToken } from './sessionRouter';
import { Emitter, type Disposable } from '../shared/events';
import { forMessage } from '../shared/nativeText';
import { findProgram } from './resolveCommand';
import { unsafeBatchArgument } from '../node/spawnProgram';
import { isPackageRunner } from './packageRunner';

export type AgentStatus = 'not-started' | 'starting' | 'running' | 'needs-sign-in' | 'failed' | 'stopped';

export interface AgentExitEvent {
  readonly agentId: string;
  /** In words, with the exit code/signal and the last stderr lines. */
  readonly message: string;
  readonly willRestart: boolean;
  /** The process (or connection) that ended: a session it was open on until just before is still told. */
  readonly runtime: AgentRuntime;
}

interface Entry {
  def: AgentDefinition;
  status: AgentStatus;
  runtime?: AgentRuntime;
  /** The last process started, kept after it exits (for the diagnostics: its stderr, what it was asked). */
  last?: AgentRuntime;
  starting?: Promise<AgentRuntime>;
  crashes: CrashPolicy;
  log?: LogChannel;
  /** Extra environment (e.g. from env_var sign-in), kept in SecretStorage. */
  extraEnv: Record<string, string>;
  /** The folders whose Gemini settings were checked when gemini-cli was told to trust the workspace (unset: it was not). */
  trustChecked?: Set<string>;
}

export interface AgentManagerDeps {
  readonly config: AgentSettings;
  readonly log: LogChannel;
  readonly messages: Notifier;
  readonly ui: AgentHostUi;
  readonly extensionVersion: string;
  /** Every output channel is made here (redacted on the way in). */
  readonly logs: LogFactory;
  /** Values met while starting agents that logs must never show (expanded `${env:…}`, secret env values). */
  readonly secrets: SecretValues;
  /**
   * An empty folder outside every workspace: the cwd of agents started through a
   * package runner (npx, uvx…), so a repository's `.npmrc` or `node_modules/.bin`
   * cannot choose what runs. Sessions still get their folder in `session/new`.
   */
  readonly runDir: string;
  /** Environment stored for an agent (env_var sign-in), loaded before each start. */
  readonly storedEnv: (agentId: string) => Promise<Record<string, string>>;
  /** The agent → client methods served (sessions/clientMethods.ts), and where questions about no session are asked. */
  readonly clientMethods?: readonly AnyClientMethod[];
  readonly elicitation?: RequestScopedElicitation;
  /** Agents installed from the ACP Registry. */
  readonly installed: () => readonly AgentDefinition[];
  /**
   * Whether a session is open on this process of the agent. A crashed agent is
   * restarted only then, or when a session was open or being loaded or resumed on
   * it when its output closed (`AgentRuntime.inUseWhenLost`): not when it died
   * before any session was open on it (one that exits on session/new would only
   * sit idle); the panel's Restart does it then.
   */
  readonly hasSessionsOn: (runtime: AgentRuntime) => boolean;
  /**
   * Whether gemini-cli may be told to trust these folders, given what it would load from them
   * (agents/geminiWorkspace.ts `GeminiConfigTrust.decide`). Absent: nothing there.
   */
  readonly geminiConfig?: (agentName: string, folders: readonly string[], ask: boolean) => Promise<GeminiRepoTrust>;
}

/**
 * Agent processes: one per agent definition, shared by its sessions. Starts them
 * with progress (cancellable), reports failures once with Restart / Show Log,
 * restarts crashed agents like vscode-languageclient (not after 5 crashes in 3
 * minutes), and leaves nothing running when the extension stops.
 */
export class AgentManager implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly statusEmitter = new Emitter<string>();
  private readonly exitEmitter = new Emitter<AgentExitEvent>();
  readonly onDidChangeStatus = this.statusEmitter.event;
  /** An agent that was running (or starting) stopped unexpectedly. */
  readonly onDidExit = this.exitEmitter.event;
  private trace: LogChannel | undefined;
  private readonly recentTrace: string[] = [];

  /** Last resort: if the extension host dies without deactivating, no agent outlives it. */
  private readonly killOnExit = () => {
    for (const e of this.entries.values()) e.runtime?.process.killNow();
  };

  constructor(private readonly deps: AgentManagerDeps) {
    process.on('exit', this.killOnExit);
  }

  /** Configured agents, then those installed from the ACP Registry (a configured id wins). */
  definitions(): AgentDefinition[] {
    return mergeAgents(this.deps.config.agents().agents, this.deps.installed());
  }

  find(id: string): AgentDefinition | undefined {
    return this.definitions().find((a) => a.id === id);
  }

  status(id: string): AgentStatus {
    return this.entries.get(id)?.status ?? 'not-started';
  }

  runtime(id: string): AgentRuntime | undefined {
    const e = this.entries.get(id);
    return e?.status === 'running' || e?.status === 'needs-sign-in' ? e.runtime : undefined;
  }

  /** Agents started in this window, each with its current (or last) process. */
  started(): { def: AgentDefinition; status: AgentStatus; runtime: AgentRuntime }[] {
    return [...this.entries.values()].flatMap((e) => (e.last ? [{ def: e.def, status: e.status, runtime: e.last }] : []));
  }

  setStatus(id: string, status: AgentStatus): void {
    const e = this.entries.get(id);
    if (!e || e.status === status) return;
    e.status = status;
    this.statusEmitter.fire(id);
  }

  setExtraEnv(id: string, env: Record<string, string>): void {
    this.entry(this.find(id) ?? { id, name: id, command: '', args: [], env: {}, source: 'settings' }).extraEnv = env;
  }

  private entry(def: AgentDefinition): Entry {
    let e = this.entries.get(def.id);
    if (!e) {
      e = { def, status: 'not-started', crashes: new CrashPolicy(), extraEnv: {} };
      this.entries.set(def.id, e);
    } else {
      e.def = def;
    }
    return e;
  }

  /** The agent's own log channel (its stderr and lifecycle). */
  agentLog(def: AgentDefinition): LogChannel {
    const e = this.entry(def);
    e.log ??= this.deps.logs.channel(`ACP: ${def.name}`);
    return e.log;
  }

  showLog(id?: string): void {
    const def = id ? this.find(id) : undefined;
    if (def) this.agentLog(def).show(true);
    else this.deps.log.show(true);
  }

  /** Returns the running agent, starting it (once, shared) when needed. */
  ensureRunning(def: AgentDefinition, cwd: string | undefined): Promise<AgentRuntime> {
    const e = this.entry(def);
    if (e.runtime && (e.status === 'running' || e.status === 'needs-sign-in') && !e.runtime.connection.isClosed) {
      // Told to trust the workspace: the session's folder is checked (and asked about) first — one not checked
      // yet, or one whose Gemini settings changed since (gemini-cli reads them again at each session/new).
      if (cwd !== undefined && e.trustChecked) return this.recheckTrust(e, e.runtime, cwd);
      return Promise.resolve(e.runtime);
    }
    // Being started for another folder: once it runs, this folder is checked as for a running one (above).
    if (e.starting) return cwd === undefined ? e.starting : e.starting.then(() => this.ensureRunning(def, cwd));
    const starting = this.startWithProgress(e, cwd).finally(() => {
      if (e.starting === starting) e.starting = undefined;
    });
    e.starting = starting;
    return starting;
  }

  /**
   * gemini-cli trusts every folder once told to, and loads a folder's settings at each session/new: a
   * session's folder is checked before the session gets the process — one not checked when it started
   * (another workspace folder added since, a session folder the user allowed), or one whose files
   * changed since the user's answer (a new hash asks again; unchanged ones are a few small reads). When
   * the user does not accept what that folder holds, the agent is restarted without the flag.
   */
  private async recheckTrust(e: Entry, rt: AgentRuntime, cwd: string): Promise<AgentRuntime> {
    const verdict = (await this.deps.geminiConfig?.(e.def.name, [cwd], true)) ?? 'none';
    if (e.runtime !== rt || !e.trustChecked) return await this.ensureRunning(e.def, cwd);
    if (verdict !== 'declined') {
      e.trustChecked.add(cwd);
      return rt;
    }
    this.agentLog(e.def).info(`compatibility: gemini-cli: ${cwd} holds Gemini settings the user did not trust; restarted without ${GEMINI_TRUST_ENV}`);
    await this.stop(e.def.id);
    return await this.ensureRunning(e.def, cwd);
  }

  private startWithProgress(e: Entry, cwd: string | undefined): Promise<AgentRuntime> {
    return this.deps.ui.withProgress(l10n.t('Starting {0}…', forMessage(e.def.name, 100)), (token) => this.start(e, cwd, token));
  }

  private async start(e: Entry, cwd: string | undefined, token?: CancelToken): Promise<AgentRuntime> {
    if (!this.deps.ui.isTrusted()) {
      throw new AgentStartError(l10n.t('Agents are not started in an untrusted workspace. Trust the workspace to use ACP agents.'), 'error');
    }
    const def = e.def;
    const log = this.agentLog(def);
    this.setStatusOf(e, 'starting');
    let spec: SpawnSpec;
    try {
      e.extraEnv = { ...(await this.deps.storedEnv(def.id)), ...e.extraEnv };
      spec = await this.spawnSpec(def, cwd, true);
    } catch (err) {
      return this.failed(e, err);
    }
    if (spec.remote) log.info(`Connecting: ${spec.remote.url}${spec.remote.headers.Authorization ? ' (with the stored token)' : ''}; ${spec.launchNotes?.[0] ?? REMOTE_NOTE}`);
    else log.info(`Starting: ${[spec.command, ...spec.args].join(' ')} (cwd ${spec.cwd})`);
    const traceLevel = this.deps.config.trace();
    const choice = def.protocolVersion ?? this.deps.config.protocolVersion?.() ?? '1';
    const runtimeFor = (protocolVersion: 1 | 2) => new AgentRuntime({
      name: def.name,
      spec,
      clientInfo: { name: 'acp-agents-vscode', title: 'ACP Agents for VS Code', version: this.deps.extensionVersion },
      methods: spec.remote && !spec.remote.pathMap ? this.deps.clientMethods?.filter((m) => !LOCAL_ONLY_METHODS.test(m.method)) : this.deps.clientMethods,
      elicitation: this.deps.elicitation,
      logger: { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
      onStderr: (line) => log.info(`[stderr] ${line}`),
      trace: traceLevel === 'off' ? undefined : (dir, msg) => this.traceMessage(def, dir, msg),
      initializeTimeoutMs: this.deps.config.initializeTimeoutMs(),
      protocolVersion,
    });
    let runtime = runtimeFor(choice === '1' ? 1 : 2);
    e.runtime = runtime;
    e.last = runtime;
    let init;
    try {
      try {
        init = await runtime.start(token);
      } catch (err) {
        // "auto": an agent that refuses the v2 handshake (an error, another version, an exit) gets v1 on a fresh process.
        if (choice !== 'auto' || !(err instanceof AgentStartError) || !['protocol-version', 'error', 'exited'].includes(err.reason) || e.runtime !== runtime) throw err;
        log.warn(`ACP v2 initialize refused (${errorText(err)}); starting again with ACP v1 (acpAgents.protocolVersion "auto")`);
        runtime = runtimeFor(1);
        e.runtime = runtime;
        e.last = runtime;
        init = await runtime.start(token);
      }
    } catch (err) {
      if (e.runtime === runtime) e.runtime = undefined;
      return this.failed(e, err);
    }
    log.info(
      `Initialized: ${init.agentInfo ? `${init.agentInfo.title ?? init.agentInfo.name} ${init.agentInfo.version}` : 'no agentInfo'}; capabilities ${JSON.stringify(init.agentCapabilities)}; auth methods ${init.authMethods.map((m) => `${m.id} (${m.type})`).join(', ') || 'none'}${runtime.protocolVersion === 2 ? '; ACP v2' : ''}`,
    );
    log.info(quirksLine(init.agentInfo));
    runtime.process.onExit((info) => this.onRuntimeExit(e, runtime, info));
    this.setStatusOf(e, 'running');
    return runtime;
  }

  private failed(e: Entry, err: unknown): never {
    const message = errorText(err);
    const cancelled = err instanceof AgentStartError && err.reason === 'cancelled';
    const unauthorized = err instanceof AgentStartError && err.reason === 'unauthorized';
    this.setStatusOf(e, cancelled ? 'not-started' : unauthorized ? 'needs-sign-in' : 'failed');
    this.agentLog(e.def)[cancelled ? 'info' : 'error'](message);
    throw err;
  }

  private onRuntimeExit(e: Entry, runtime: AgentRuntime, info: ExitInfo): void {
    if (e.runtime !== runtime) return;
    e.runtime = undefined;
    if (info.requested || runtime.isStopping) {
      this.setStatusOf(e, 'stopped');
      return;
    }
    const message = (
      runtime.outputClosedWithoutExit
        ? l10n.t("Agent '{0}' closed its output (stdout) but did not exit, so it was stopped.", e.def.name)
        : describeExit(e.def.name, info, runtime.process.stderrTail())
    ).replace(/\.\s*$/, '');
    this.agentLog(e.def).error(message);
    const verdict = e.crashes.recordCrash();
    this.setStatusOf(e, 'failed');
    const giveUp = verdict === 'give-up';
    // In use: a session open on it now, or open (or being loaded or resumed) when its output closed.
    const willRestart = !giveUp && (this.deps.hasSessionsOn(runtime) || runtime.inUseWhenLost === true);
    const full = giveUp
      ? l10n.t('{0}. It crashed {1} times in the last 3 minutes and will not be restarted automatically.', message, e.crashes.recentCrashes)
      : willRestart
        ? runtime.process.spec.remote
          ? l10n.t('{0}. It is being connected again.', message)
          : l10n.t('{0}. It is being restarted.', message)
        : `${message}.`;
    this.exitEmitter.fire({ agentId: e.def.id, message: full, willRestart, runtime });
    void this.reportExit(e.def, full);
    // Like vscode-languageclient: restart a crashed agent that is in use, until it
    // crashes 5 times within 3 minutes. Its sessions were lost with the process.
    // The definition as it is now (an update may have moved the agent's program).
    if (willRestart) void this.ensureRunning(this.find(e.def.id) ?? e.def, runtime.process.spec.cwd).then(undefined, () => undefined);
  }

  /** One notification per exit, with Restart and Show Log. */
  private async reportExit(def: AgentDefinition, message: string): Promise<void> {
    const restart = l10n.t('Restart');
    const showLog = l10n.t('Show Log');
    // The message quotes the agent's name and the end of its stderr: no link or codicon syntax survives.
    const choice = await this.deps.messages.show('error', forMessage(message, 1500), restart, showLog);
    if (choice === restart) this.deps.ui.restartRequested(def.id);
    else if (choice === showLog) this.showLog(def.id);
  }

  /** Stops and starts again (used by "ACP: Restart Agent" and after sign-in). */
  async restart(id: string, cwd?: string, opts: { resetCrashes?: boolean } = {}): Promise<AgentRuntime> {
    const def = this.find(id);
    if (!def) throw new Error(l10n.t('No agent with id "{0}".', id));
    const e = this.entry(def);
    if (opts.resetCrashes ?? true) e.crashes.reset();
    await this.stop(id);
    return await this.ensureRunning(def, cwd);
  }

  async stop(id: string): Promise<void> {
    const e = this.entries.get(id);
    const rt = e?.runtime;
    if (!e || !rt) return;
    e.runtime = undefined;
    await rt.stop();
    // A session may have started the agent again while this one was being stopped: its state is the new one's.
    if (!e.runtime && !e.starting) this.setStatusOf(e, 'stopped');
  }

  /** Stops every agent; nothing is left running after this resolves. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.stop(id)));
  }

  private setStatusOf(e: Entry, status: AgentStatus): void {
    if (e.status === status) return;
    e.status = status;
    this.statusEmitter.fire(e.def.id);
  }

  /**
   * The resolved command, arguments, cwd and environment an agent is (or would be) started with.
   * Asks nothing: Gemini settings the user has not accepted yet count as not accepted.
   */
  launchSpec(def: AgentDefinition, cwd: string | undefined): Promise<SpawnSpec> {
    return this.spawnSpec(def, cwd, false);
  }

  /** `ask`: a start, which may ask the user about the folders' Gemini settings. */
  private async spawnSpec(def: AgentDefinition, cwd: string | undefined, ask: boolean): Promise<SpawnSpec> {
    const folder = cwd ?? this.deps.ui.defaultFolder() ?? os.homedir();
    if (def.url !== undefined) return remoteSpec(def, folder, this.entry(def).extraEnv[REMOTE_TOKEN], this.deps.secrets);
    const baseEnv: Record<string, string | undefined> = { ...process.env };
    // Set by Electron for the extension host; an agent built on Electron must not inherit it.
    delete baseEnv.ELECTRON_RUN_AS_NODE;
    const secrets = this.deps.secrets;
    const ctx = { env: baseEnv, workspaceFolder: folder, onEnv: (name: string, value: string) => (looksSecret(name, value) ? secrets.add(value) : undefined) };
    // ${…} is the user's own notation: a registry entry's strings are taken as they are.
    const own = def.source === 'settings';
    const command = own ? expandVariables(def.command, ctx) : def.command;
    const args = own ? expandAll(def.args, ctx) : [...def.args];
    const ownEnv = { ...(own ? expandEnv(def.env, ctx) : def.env), ...this.entry(def).extraEnv };
    for (const [k, v] of Object.entries(ownEnv)) if (looksSecret(k, v)) secrets.add(v);
    const env: Record<string, string | undefined> = { ...baseEnv, ...ownEnv };
    // Agent-specific environment (src/agents/quirks.ts); only ever started in a trusted workspace.
    const launch = { id: def.id, source: def.source, command, args };
    const trust = { trusted: this.deps.ui.isTrusted(), allowed: this.deps.config.passWorkspaceTrust?.(def.id) ?? true };
    // What gemini-cli would load from the folders once trusted: asked about before the flag is passed (agents/geminiWorkspace.ts).
    const checked = [...new Set([...(this.deps.ui.workspaceFolders?.() ?? []), ...(cwd !== undefined ? [cwd] : [])])];
    const gated = isGeminiCli(launch) && trust.trusted && trust.allowed && env[GEMINI_TRUST_ENV] === undefined && this.deps.geminiConfig !== undefined;
    const repository = gated ? await this.deps.geminiConfig!(def.name, checked, ask) : 'none';
    const quirks = launchEnvQuirks(launch, env, { ...trust, repository });
    Object.assign(env, quirks.env);
    if (ask) this.entry(def).trustChecked = quirks.env[GEMINI_TRUST_ENV] === 'true' ? new Set(checked) : undefined;
    for (const note of quirks.notes) this.agentLog(def).info(note);
    const found = await findProgram(command, { pathEnv: env.PATH ?? env.Path, cwd: folder, pathExt: env.PATHEXT });
    const resolved = found?.file;
    // Found on the login shell's PATH: the agent (npx, node…) needs that PATH too.
    if (found?.shellPath) env.PATH = `${env.PATH ? `${env.PATH}:` : ''}${found.shellPath}`;
    if (!resolved) {
      throw new AgentStartError(
        process.platform === 'win32'
          ? l10n.t("Agent '{0}' could not be started: the program '{1}' was not found on PATH. Install it, or give its absolute path in the acpAgents.agents setting.", def.name, command)
          : l10n.t("Agent '{0}' could not be started: the program '{1}' was not found on PATH (nor on your login shell's PATH). Install it, or give its absolute path in the acpAgents.agents setting.", def.name, command),
        'not-found',
      );
    }
    this.codexSandboxHelper(def, launch, resolved, env);
    const runCwd = isPackageRunner(resolved, args) ? this.runDir() : folder;
    const unsafe = unsafeBatchArgument(resolved, args);
    if (unsafe !== undefined) {
      throw new AgentStartError(l10n.t("Agent '{0}' could not be started: the argument {1} has a double quote, which cmd.exe cannot pass to the batch file {2} unchanged.", def.name, JSON.stringify(unsafe), resolved), 'error');
    }
    return { command: resolved, args, cwd: runCwd, env, launchNotes: quirks.notes, ...(repository === 'declined' ? { trustWithheld: true } : {}) };
  }

  /**
   * An empty folder of the extension's own, never a workspace: where package runners start and where
   * sign-in terminals run, so a repository's `.npmrc` or `node_modules/.bin` cannot choose what runs.
   */
  neutralFolder(): string {
    return this.runDir();
  }

  /**
   * codex-acp on Linux needs its sandbox helper on PATH to edit existing files (codexSandboxHelperTarget in
   * src/agents/quirks.ts): an alias of the same binary, in a folder of the extension's own storage, put first
   * on PATH. Best effort: on failure the agent starts as it is, and its log says why.
   */
  private codexSandboxHelper(def: AgentDefinition, launch: LaunchInfo, resolved: string, env: Record<string, string | undefined>): void {
    try {
      const pathEnv = env.PATH ?? '';
      const dirs = pathEnv.split(path.delimiter).filter(Boolean);
      const target = codexSandboxHelperTarget(launch, fs.realpathSync(resolved), {
        platform: process.platform,
        arch: process.arch,
        exists: (f) => fs.existsSync(f),
        onPath: (name) => dirs.some((d) => fs.existsSync(path.join(d, name))),
      });
      if (!target) return;
      const dir = path.join(path.dirname(this.deps.runDir), 'codex-sandbox-helper', createHash('sha256').update(target).digest('hex').slice(0, 12));
      const link = path.join(dir, CODEX_SANDBOX_HELPER);
      fs.mkdirSync(dir, { recursive: true });
      let current: string | undefined;
      try {
        current = fs.readlinkSync(link);
      } catch {
        current = undefined;
      }
      if (current !== target) {
        fs.rmSync(link, { force: true });
        fs.symlinkSync(target, link);
      }
      env.PATH = pathEnv ? `${dir}${path.delimiter}${pathEnv}` : dir;
      this.agentLog(def).info(codexSandboxHelperNote(target, dir));
    } catch (err) {
      this.agentLog(def).warn(`compatibility: codex-acp: could not provide ${CODEX_SANDBOX_HELPER}: ${String(err)}`);
    }
  }

  private runDir(): string {
    fs.mkdirSync(this.deps.runDir, { recursive: true });
    return this.deps.runDir;
  }

  private traceMessage(def: AgentDefinition, dir: TraceDirection, msg: unknown): void {
    const level = this.deps.config.trace();
    if (level === 'off') return;
    this.trace ??= this.deps.logs.channel('ACP Trace');
    const m = msg as { id?: unknown; method?: string; error?: { code: number } };
    const arrow = dir === 'send' ? '→' : '←';
    const kind = m.method ? (m.id !== undefined ? `request ${m.method} #${String(m.id)}` : `notification ${m.method}`) : `response #${String(m.id)}${m.error ? ` error ${m.error.code} (${describeErrorCode(m.error.code)})` : ''}`;
    const line = level === 'messages' ? `${def.name} ${arrow} ${kind}` : `${def.name} ${arrow} ${kind} ${JSON.stringify(this.deps.logs.redactValue(msg))}`;
    this.trace.info(line);
    this.recentTrace.push(line);
    if (this.recentTrace.length > 500) this.recentTrace.shift();
  }

  /** The last trace lines (as written to the "ACP Trace" channel). */
  traceLines(): readonly string[] {
    return [...this.recentTrace];
  }

  dispose(): void {
    process.removeListener('exit', this.killOnExit);
    void this.stopAll();
    for (const e of this.entries.values()) e.log?.dispose();
    this.trace?.dispose();
    this.statusEmitter.dispose();
    this.exitEmitter.dispose();
  }
}
