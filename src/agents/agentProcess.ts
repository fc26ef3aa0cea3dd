/**
 * One agent program running as a child process, spoken to over stdio. Keeps the
 * last lines of stderr for error messages, and shuts down for good: close stdin,
 * SIGTERM after 2 s, SIGKILL of the whole process group after 5 s more (several
 * real agents ignore stdin EOF). No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnProgram } from '../node/spawnProgram';
import type { AgentLink, ExitInfo, SpawnSpec } from './agentLink';

export type { ExitInfo, RemoteSpec, SpawnSpec } from './agentLink';

export interface ShutdownTimings {
  readonly termAfterMs: number;
  readonly killAfterMs: number;
}

const DEFAULT_SHUTDOWN: ShutdownTimings = { termAfterMs: 2000, killAfterMs: 5000 };
const STDERR_LINES = 40;

export class AgentProcess implements AgentLink {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  private exitInfo: ExitInfo | undefined;
  private stopRequested = false;
  private readonly exitListeners: ((info: ExitInfo) => void)[] = [];
  readonly exited: Promise<ExitInfo>;

  constructor(
    readonly spec: SpawnSpec,
    private readonly onStderr: (line: string) => void = () => {},
    private readonly timings: ShutdownTimings = DEFAULT_SHUTDOWN,
  ) {
    // cross-spawn: on Windows, .cmd shims (npx.cmd) run through cmd.exe with its escaping.
    this.child = spawnProgram(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group on POSIX, so the whole tree can be killed.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    this.exited = new Promise((resolve) => this.exitListeners.push(resolve));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => this.takeStderr(chunk));
    // Writing to a dead agent's stdin must never crash the extension host.
    this.child.stdin.on('error', () => {});
    this.child.stdout.on('error', () => {});
    this.child.on('error', (err) => this.finish({ code: null, signal: null, spawnError: err, requested: this.stopRequested }));
    this.child.on('exit', (code, signal) => {
      if (this.stderrPartial) this.pushLine(this.stderrPartial);
      this.stderrPartial = '';
      this.finish({ code, signal, requested: this.stopRequested });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get input(): AgentLink['input'] {
    return this.child.stdout;
  }

  get output(): AgentLink['output'] {
    return this.child.stdin;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** The last lines the agent wrote to stderr (newest last). */
  stderrTail(lines = 10): string[] {
    return this.stderrLines.slice(-lines);
  }

  onExit(listener: (info: ExitInfo) => void): void {
    if (this.exitInfo) listener(this.exitInfo);
    else this.exitListeners.push(listener);
  }

  private takeStderr(chunk: string): void {
    const text = this.stderrPartial + chunk;
    const parts = text.split(/\r?\n/);
    this.stderrPartial = parts.pop() ?? '';
    if (this.stderrPartial.length > 8192) {
      this.pushLine(this.stderrPartial);
      this.stderrPartial = '';
    }
    for (const line of parts) this.pushLine(line);
  }

  private pushLine(line: string): void {
    this.stderrLines.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
    if (this.stderrLines.length > STDERR_LINES) this.stderrLines.shift();
    this.onStderr(line);
  }

  private finish(info: ExitInfo): void {
    if (this.exitInfo) return;
    this.exitInfo = info;
    for (const l of this.exitListeners.splice(0)) l(info);
  }

  /**
   * Close stdin, then SIGTERM, then SIGKILL the process group. Resolves when it has exited.
   * `requested` false: stopped for misbehaving (its exit is reported as a crash).
   */
  async stop(requested = true): Promise<ExitInfo> {
    this.stopRequested = requested;
    if (this.exitInfo) return this.exitInfo;
    try {
      this.child.stdin.end();
    } catch {
      // already closed
    }
    if (await this.waitExit(this.timings.termAfterMs)) return this.exitInfo!;
    this.signal('SIGTERM');
    if (await this.waitExit(this.timings.killAfterMs)) return this.exitInfo!;
    this.signal('SIGKILL');
    await this.waitExit(2000);
    return this.exitInfo ?? { code: null, signal: 'SIGKILL', requested: true };
  }

  /** Immediate SIGKILL of the whole group (used when VS Code is shutting down). */
  killNow(): void {
    this.stopRequested = true;
    this.signal('SIGKILL');
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (!killTree(pid, sig)) {
      try {
        this.child.kill(sig);
      } catch {
        // gone
      }
    }
  }

  private waitExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.onExit(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/**
 * Signals a process and everything it started: its process group on POSIX (it
 * was spawned detached, as the group leader), `taskkill /T /F` on Windows
 * (Windows has no signals, and killing only the parent leaves e.g. node under
 * npx.cmd running). Returns false when the process was already gone.
 */
export function killTree(
  pid: number,
  sig: NodeJS.Signals,
  platform: NodeJS.Platform = process.platform,
  run: { kill: (pid: number, sig: NodeJS.Signals) => void; spawn: (cmd: string, args: string[]) => void } = {
    kill: (p, s) => process.kill(p, s),
    spawn: (cmd, args) => void spawn(cmd, args, { stdio: 'ignore', windowsHide: true }).on('error', () => {}),
  },
): boolean {
  try {
    if (platform === 'win32') run.spawn('taskkill', ['/pid', String(pid), '/T', '/F']);
    else run.kill(-pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** Describes an exit in words, for the user. */
export function describeExit(name: string, info: ExitInfo, stderrTail: readonly string[]): string {
  let what: string;
  if (info.unreachable) what = l10n.t("Agent '{0}' could not be reached: {1}", name, info.unreachable.why);
  else if (info.closed) {
    const reason = info.closed.reason ? ` (${info.closed.reason})` : '';
    what = l10n.t("Agent '{0}': the connection closed (WebSocket code {1}{2}).", name, info.closed.code, reason);
  } else if (info.spawnError) {
    const code = (info.spawnError as NodeJS.ErrnoException).code;
    what = code === 'ENOENT' ? l10n.t("Agent '{0}' could not be started: the program was not found.", name) : l10n.t("Agent '{0}' could not be started: {1}.", name, info.spawnError.message);
  } else if (info.signal) what = l10n.t("Agent '{0}' was stopped by signal {1}.", name, info.signal);
  else if (info.code === 0) what = l10n.t("Agent '{0}' exited (code 0) without saying why.", name);
  else what = l10n.t("Agent '{0}' exited with code {1}.", name, String(info.code));
  const tail = stderrTail.filter((l) => l.trim() !== '').slice(-5);
  return tail.length ? l10n.t('{0} Last output: {1}', what, tail.join(' ⏎ ')) : what;
}
