import { spawn, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-jsonrpc/node';
import { OutputBuffer } from './outputBuffer';

export interface TerminalSnapshot {
  readonly terminalId: string;
  readonly output: string;
  readonly truncated: boolean;
  readonly exitStatus?: { exitCode: number | null; signal: string | null };
}

interface AgentTerminal {
  readonly id: string;
  readonly owner: string;
  readonly child: ChildProcess;
  readonly buffer: OutputBuffer;
  exit?: { exitCode: number | null; signal: string | null };
  readonly exited: Promise<{ exitCode: number | null; signal: string | null }>;
  readonly write: vscode.EventEmitter<string>;
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
  return `\r\n[${exit.signal ? `stopped by ${exit.signal}` : `exited with code ${exit.exitCode}`}]\r\n`;
}

/** "<agent>: <what>", on one line, short enough for the terminal tabs. */
function terminalName(label: string, what: string): string {
  const name = `${label}: ${what.replace(/\s+/g, ' ').trim()}`;
  return name.length > 80 ? `${name.slice(0, 79)}…` : name;
}

/**
 * `terminal/*` for agents: the command runs with its args and env (no shell
 * unless the command is a command line), stdout and stderr captured together
 * within `outputByteLimit`, mirrored live into a VS Code terminal and the panel.
 */
export class TerminalService implements vscode.Disposable {
  private readonly terminals = new Map<string, AgentTerminal>();
  private readonly changed = new vscode.EventEmitter<TerminalSnapshot>();
  readonly onDidChange = this.changed.event;

  async create(owner: string, label: string, cwd: string, params: unknown): Promise<{ terminalId: string }> {
    const p = (params ?? {}) as { command?: unknown; args?: unknown; env?: unknown; outputByteLimit?: unknown };
    if (typeof p.command !== 'string' || p.command.trim() === '') throw new ResponseError(-32602, 'terminal/create needs a "command".');
    const args = Array.isArray(p.args) ? p.args.filter((a): a is string => typeof a === 'string') : [];
    const env: Record<string, string> = {};
    if (Array.isArray(p.env)) for (const e of p.env) if (e && typeof e.name === 'string' && typeof e.value === 'string') env[e.name] = e.value;
    const limit = typeof p.outputByteLimit === 'number' && p.outputByteLimit >= 0 ? p.outputByteLimit : undefined;
    // A whole command line in "command" (some agents send "npm test") needs a shell; otherwise none.
    const shell = args.length === 0 && /\s/.test(p.command.trim());
    const child = spawn(p.command, args, { cwd, env: { ...process.env, ...env }, shell, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const id = `term-${++seq}`;
    const write = new vscode.EventEmitter<string>();
    const rename = new vscode.EventEmitter<string>();
    let resolveExit!: (e: { exitCode: number | null; signal: string | null }) => void;
    const t: AgentTerminal = { id, owner, child, buffer: new OutputBuffer(limit), exited: new Promise((r) => (resolveExit = r)), write, rename, label, opened: false, released: false };
    this.terminals.set(id, t);
    // The VS Code terminal is made a moment later: agents create a terminal first and show
    // it in a tool call right after, and the terminal is named after that tool call.
    t.mirrorTimer = setTimeout(() => this.mirror(t, [p.command, ...args].join(' ')), MIRROR_DELAY_MS);
    const take = (data: Buffer) => {
      t.buffer.append(data);
      write.fire(data.toString('utf8').replace(/\r?\n/g, '\r\n'));
      this.emit(t);
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
      write.fire(exitLine(t.exit));
      resolveExit(t.exit);
      this.emit(t);
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
        t.write.fire(t.buffer.text().replace(/\r?\n/g, '\r\n') + (t.exit ? exitLine(t.exit) : ''));
        // A tool call that showed the terminal after it was made gives it its name now.
        if (t.toolTitle && t.toolTitle !== what) t.rename.fire(terminalName(t.label, t.toolTitle));
      },
      close: () => {},
    };
    vscode.window.createTerminal({ name: terminalName(t.label, what), pty, isTransient: true, iconPath: new vscode.ThemeIcon('hubot') });
  }

  private emit(t: AgentTerminal): void {
    this.changed.fire(this.snapshot(t));
  }

  private snapshot(t: AgentTerminal): TerminalSnapshot {
    return { terminalId: t.id, output: t.buffer.text(), truncated: t.buffer.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }

  private get(owner: string, params: unknown): AgentTerminal {
    const id = (params as { terminalId?: unknown } | null)?.terminalId;
    const t = typeof id === 'string' ? this.terminals.get(id) : undefined;
    if (!t || t.owner !== owner || t.released) throw new ResponseError(-32002, `Unknown terminal ${JSON.stringify(id)} (never created, or released).`);
    return t;
  }

  output(owner: string, params: unknown): { output: string; truncated: boolean; exitStatus?: { exitCode: number | null; signal: string | null } } {
    const t = this.get(owner, params);
    return { output: t.buffer.text(), truncated: t.buffer.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }

  async waitForExit(owner: string, params: unknown): Promise<{ exitCode: number | null; signal: string | null }> {
    return await this.get(owner, params).exited;
  }

  /** Kills the command; the terminal stays valid (output, wait_for_exit). */
  kill(owner: string, params: unknown): Record<string, never> {
    this.killProcess(this.get(owner, params));
    return {};
  }

  /** Kills if running and frees the id; the output stays on screen. */
  release(owner: string, params: unknown): Record<string, never> {
    const t = this.get(owner, params);
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
      t.mirrorTimer = undefined;
      this.killProcess(t);
      this.terminals.delete(t.id);
    }
  }

  private killProcess(t: AgentTerminal): void {
    if (t.exit || t.child.pid === undefined) return;
    try {
      if (process.platform === 'win32') t.child.kill('SIGTERM');
      else process.kill(-t.child.pid, 'SIGTERM');
    } catch {
      // gone
    }
    const pid = t.child.pid;
    setTimeout(() => {
      if (!t.exit) {
        try {
          process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }, 3000).unref();
  }

  dispose(): void {
    for (const t of this.terminals.values()) {
      clearTimeout(t.mirrorTimer);
      this.killProcess(t);
    }
    this.terminals.clear();
    this.changed.dispose();
  }
}
