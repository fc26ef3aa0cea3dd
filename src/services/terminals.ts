import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import * as vscode from 'vscode';
import type { CreateTerminal } from '../acp/clientRequests';
import { clientError } from '../acp/errors';
import type { SessionTerminals, TerminalDelta } from '../sessions/ports';
import { killTree } from '../agents/agentProcess';
import { findExecutable } from '../agents/resolveCommand';
import { spawnProgram, unsafeBatchArgument } from '../node/spawnProgram';
import { OutputBuffer } from './outputBuffer';
import { forLabel } from '../shared/nativeText';

/** How often output goes to the panel and the VS Code terminal, and how much at most each time. */
const FLUSH_MS = 100;
const PANEL_FLUSH_BYTES = 32 * 1024;
const MIRROR_FLUSH_BYTES = 256 * 1024;
/** The most an agent's `outputByteLimit` may keep in memory. */
const MAX_LIMIT_BYTES = 64 * 1024 * 1024;

interface AgentTerminal {
  readonly id: string;
  readonly owner: string;
  readonly child: ChildProcess;
  readonly buffer: OutputBuffer;
  exit?: { exitCode: number | null; signal: string | null };
  readonly exited: Promise<{ exitCode: number | null; signal: string | null }>;
  readonly write: vscode.EventEmitter<string>;
  /** Output not yet sent to the panel / the VS Code terminal. */
  pendingPanel: Buffer[];
  pendingPanelBytes: number;
  pendingMirror: Buffer[];
  pendingMirrorBytes: number;
  /** Bytes dropped from the panel's pending output since the last flush. */
  panelGap: number;
  mirrorGap: boolean;
  flushTimer?: ReturnType<typeof setTimeout>;
  /** Where the next panel delta starts (see TerminalDelta). */
  position: number;
  decoder: StringDecoder;
  readonly rename: vscode.EventEmitter<string>;
  readonly label: string;
  /** The tool call the VS Code terminal is named after, once one shows this terminal. */
  toolTitle?: string;
  /** Until the VS Code terminal is made (see mirror). */
  mirrorTimer?: ReturnType<typeof setTimeout>;
  /** VS Code opened the Pseudoterminal (its events are only listened to from then on). */
  opened: boolean;
  released: boolean;
}

let seq = 0;

const MIRROR_DELAY_MS = 250;

function exitLine(exit: { exitCode: number | null; signal: string | null }): string {
  return `\r\n[${exit.signal ? vscode.l10n.t('stopped by {0}', exit.signal) : vscode.l10n.t('exited with code {0}', String(exit.exitCode))}]\r\n`;
}

/** "<agent>: <what>", on one line, short enough for the terminal tabs. */
function terminalName(label: string, what: string): string {
  // Tabs draw $(icon) syntax: the agent's label and command are escaped.
  const name = `${forLabel(label, 60)}: ${forLabel(what.replace(/\s+/g, ' ').trim(), 300)}`;
  return name.length > 80 ? `${name.slice(0, 79)}…` : name;
}

/**
 * `terminal/*` for agents: the command runs with its args and env (no shell
 * unless the command is a command line), stdout and stderr captured together
 * within `outputByteLimit`, mirrored live into a VS Code terminal and the panel.
 */
export class TerminalService implements SessionTerminals, vscode.Disposable {
  private readonly terminals = new Map<string, AgentTerminal>();
  private readonly changed = new vscode.EventEmitter<TerminalDelta>();
  readonly onDidChange = this.changed.event;

  /** `defaultLimit`: bytes kept when the agent sets no `outputByteLimit`. */
  constructor(private readonly defaultLimit: () => number = () => 1024 * 1024) {}

  async create(owner: string, label: string, cwd: string, p: CreateTerminal): Promise<{ terminalId: string }> {
    const { args, env } = p;
    const limit = p.outputByteLimit !== undefined ? Math.min(p.outputByteLimit, MAX_LIMIT_BYTES) : this.defaultLimit();
    // A whole command line in "command" (some agents send "npm test") needs a shell; otherwise none.
    const shell = args.length === 0 && /\s/.test(p.command.trim());
    const childEnv = { ...process.env, ...env };
    let command = p.command;
    if (!shell && process.platform === 'win32') {
      // Found on PATH here: Windows' own lookup (and cross-spawn's) would try the working folder first.
      const file = findExecutable(p.command, { pathEnv: childEnv.PATH ?? childEnv.Path, cwd, pathExt: childEnv.PATHEXT });
      const unsafe = file && unsafeBatchArgument(file, args);
      if (unsafe) throw clientError.invalidParams(`The argument ${JSON.stringify(unsafe)} has a double quote, which cmd.exe cannot pass to the batch file ${file} unchanged.`);
      command = file ?? p.command;
    }
    // cross-spawn: on Windows, npm/npx/yarn are .cmd shims that only cmd.exe runs; it escapes their arguments for cmd.
    const child = spawnProgram(command, args, { cwd, env: childEnv, shell, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const id = `term-${++seq}`;
    const write = new vscode.EventEmitter<string>();
    const rename = new vscode.EventEmitter<string>();
    let resolveExit!: (e: { exitCode: number | null; signal: string | null }) => void;
    const t: AgentTerminal = {
      id,
      owner,
      child,
      buffer: new OutputBuffer(limit),
      exited: new Promise((r) => (resolveExit = r)),
      write,
      rename,
      label,
      opened: false,
      released: false,
      pendingPanel: [],
      pendingPanelBytes: 0,
      pendingMirror: [],
      pendingMirrorBytes: 0,
      panelGap: 0,
      mirrorGap: false,
      position: 0,
      decoder: new StringDecoder('utf8'),
    };
    this.terminals.set(id, t);
    // The VS Code terminal is made a moment later: agents create a terminal first and show
    // it in a tool call right after, and the terminal is named after that tool call.
    t.mirrorTimer = setTimeout(() => this.mirror(t, [p.command, ...args].join(' ')), MIRROR_DELAY_MS);
    // O(1) per chunk: the buffer keeps the limit; the panel and the mirror get it batched, bounded, every 100 ms.
    const take = (data: Buffer) => {
      // Released or killed with its session: removed from the map, its late output goes nowhere.
      if (this.terminals.get(t.id) !== t) return;
      t.buffer.append(data);
      this.queue(t, data);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('error', (err) => {
      take(Buffer.from(`${err.message}\n`));
      finish(null, null, 127);
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null, fallback?: number) => {
      if (t.exit) return;
      t.exit = { exitCode: code ?? fallback ?? null, signal: signal ?? null };
      this.flush(t);
      write.fire(exitLine(t.exit));
      resolveExit(t.exit);
    };
    child.on('exit', (code, signal) => finish(code, signal));
    return { terminalId: id };
  }

  /**
   * A tool call shows this terminal: the VS Code terminal is named after the tool
   * call (made now with that name, or renamed if it already exists).
   */
  nameAfterToolCall(terminalId: string, title: string): void {
    const t = this.terminals.get(terminalId);
    if (!t || !title.trim() || t.toolTitle === title) return;
    t.toolTitle = title;
    if (t.mirrorTimer) this.mirror(t, title);
    else if (t.opened) t.rename.fire(terminalName(t.label, title));
  }

  /** The live mirror in VS Code's terminal panel (a Pseudoterminal fed with the output). */
  private mirror(t: AgentTerminal, what: string): void {
    clearTimeout(t.mirrorTimer);
    t.mirrorTimer = undefined;
    const pty: vscode.Pseudoterminal = {
      onDidWrite: t.write.event,
      onDidChangeName: t.rename.event,
      open: () => {
        t.opened = true;
        // The buffer holds everything pending too.
        t.pendingMirror = [];
        t.pendingMirrorBytes = 0;
        t.mirrorGap = false;
        const all = t.buffer.text();
        const shown = all.length > MIRROR_FLUSH_BYTES ? `[${vscode.l10n.t('… earlier output skipped …')}]\r\n${all.slice(-MIRROR_FLUSH_BYTES)}` : all;
        t.write.fire(shown.replace(/\r?\n/g, '\r\n') + (t.exit ? exitLine(t.exit) : ''));
        // A tool call that showed the terminal after it was made gives it its name now.
        if (t.toolTitle && t.toolTitle !== what) t.rename.fire(terminalName(t.label, t.toolTitle));
      },
      close: () => {},
    };
    vscode.window.createTerminal({ name: terminalName(t.label, what), pty, isTransient: true, iconPath: new vscode.ThemeIcon('hubot') });
  }

  private queue(t: AgentTerminal, data: Buffer): void {
    t.pendingPanel.push(data);
    t.pendingPanelBytes += data.length;
    t.pendingMirror.push(data);
    t.pendingMirrorBytes += data.length;
    // Flooded: keep only about what one flush sends (whole chunks dropped from the front, counted as a gap).
    while (t.pendingPanel.length > 1 && t.pendingPanelBytes - t.pendingPanel[0]!.length >= PANEL_FLUSH_BYTES) {
      const dropped = t.pendingPanel.shift()!.length;
      t.pendingPanelBytes -= dropped;
      t.panelGap += dropped;
    }
    while (t.pendingMirror.length > 1 && t.pendingMirrorBytes - t.pendingMirror[0]!.length >= MIRROR_FLUSH_BYTES) {
      t.pendingMirrorBytes -= t.pendingMirror.shift()!.length;
      t.mirrorGap = true;
    }
    t.flushTimer ??= setTimeout(() => this.flush(t), FLUSH_MS);
  }

  /** Sends the pending output: at most PANEL_FLUSH_BYTES to the panel and MIRROR_FLUSH_BYTES to the VS Code terminal. */
  private flush(t: AgentTerminal): void {
    clearTimeout(t.flushTimer);
    t.flushTimer = undefined;
    if (t.pendingPanelBytes > 0) {
      let chunk = Buffer.concat(t.pendingPanel, t.pendingPanelBytes);
      t.pendingPanel = [];
      t.pendingPanelBytes = 0;
      let gap = t.panelGap;
      t.panelGap = 0;
      if (chunk.length > PANEL_FLUSH_BYTES) {
        gap += chunk.length - PANEL_FLUSH_BYTES;
        chunk = chunk.subarray(chunk.length - PANEL_FLUSH_BYTES);
      }
      if (gap > 0) {
        // The stream is broken here: start again at a character boundary.
        while (chunk.length && (chunk[0]! & 0xc0) === 0x80) chunk = chunk.subarray(1);
        t.decoder = new StringDecoder('utf8');
      }
      const text = t.decoder.write(chunk);
      const start = t.position + gap;
      t.position = start + text.length;
      this.changed.fire({ terminalId: t.id, text, start, truncated: t.buffer.truncated || gap > 0, ...(t.exit ? { exitStatus: t.exit } : {}) });
    } else if (t.exit) {
      this.changed.fire({ terminalId: t.id, text: '', start: t.position, truncated: t.buffer.truncated, exitStatus: t.exit });
    }
    if (t.pendingMirrorBytes > 0) {
      const chunk = Buffer.concat(t.pendingMirror, t.pendingMirrorBytes);
      t.pendingMirror = [];
      t.pendingMirrorBytes = 0;
      t.write.fire(`${t.mirrorGap ? `\r\n[${vscode.l10n.t('… earlier output skipped …')}]\r\n` : ''}${chunk.toString('utf8').replace(/\r?\n/g, '\r\n')}`);
      t.mirrorGap = false;
    }
  }

  private get(owner: string, id: string): AgentTerminal {
    const t = this.terminals.get(id);
    if (!t || t.owner !== owner || t.released) throw clientError.notFound(`Unknown terminal ${JSON.stringify(id)} (never created, or released).`);
    return t;
  }

  output(owner: string, terminalId: string): { output: string; truncated: boolean; exitStatus?: { exitCode: number | null; signal: string | null } } {
    const t = this.get(owner, terminalId);
    return { output: t.buffer.text(), truncated: t.buffer.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }

  async waitForExit(owner: string, terminalId: string): Promise<{ exitCode: number | null; signal: string | null }> {
    return await this.get(owner, terminalId).exited;
  }

  /** Kills the command; the terminal stays valid (output, wait_for_exit). */
  kill(owner: string, terminalId: string): Record<string, never> {
    this.killProcess(this.get(owner, terminalId));
    return {};
  }

  /** Kills if running and frees the id; the output stays on screen. */
  release(owner: string, terminalId: string): Record<string, never> {
    const t = this.get(owner, terminalId);
    this.killProcess(t);
    t.released = true;
    this.terminals.delete(t.id);
    return {};
  }

  /** All terminals of a session, when the session ends. */
  killAll(owner: string): void {
    for (const t of [...this.terminals.values()]) {
      if (t.owner !== owner) continue;
      clearTimeout(t.mirrorTimer);
      clearTimeout(t.flushTimer);
      t.mirrorTimer = undefined;
      this.killProcess(t);
      this.terminals.delete(t.id);
    }
  }

  private killProcess(t: AgentTerminal): void {
    if (t.exit || t.child.pid === undefined) return;
    const pid = t.child.pid;
    killTree(pid, 'SIGTERM');
    setTimeout(() => {
      if (!t.exit) killTree(pid, 'SIGKILL');
    }, 3000).unref();
  }

  dispose(): void {
    for (const t of this.terminals.values()) {
      clearTimeout(t.mirrorTimer);
      clearTimeout(t.flushTimer);
      this.killProcess(t);
    }
    this.terminals.clear();
    this.changed.dispose();
  }
}
