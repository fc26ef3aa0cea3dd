/**
 * Finds an agent's program: on PATH (honouring PATHEXT on Windows), or — when a
 * GUI-launched editor misses the user's shell PATH (nvm, volta, Homebrew) — on
 * the PATH of the user's login shell. The absolute path it returns is what we
 * spawn (through cross-spawn, src/node/spawnProgram.ts): cross-spawn's own
 * lookup on Windows searches the working directory — the workspace — first,
 * so a repository could plant an `npx.cmd`; ours never looks there. It also
 * gives the user a clear "not found" before anything starts. No `vscode` import.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ResolveOptions {
  readonly pathEnv: string | undefined;
  readonly cwd: string;
  readonly platform?: NodeJS.Platform;
  readonly pathExt?: string;
  /** For tests: decides whether a path is an executable file. */
  readonly isExecutable?: (file: string) => boolean;
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    if (platform === 'win32') return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns the absolute path of `command`, or undefined when it cannot be found. */
export function findExecutable(command: string, opts: ResolveOptions): string | undefined {
  const platform = opts.platform ?? process.platform;
  const isExec = opts.isExecutable ?? ((f: string) => isExecutableFile(f, platform));
  const p = platform === 'win32' ? path.win32 : path.posix;
  const exts =
    platform === 'win32'
      ? ['', ...(opts.pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).map((e) => e.toLowerCase())]
      : [''];
  const candidates = (base: string) => {
    if (platform !== 'win32' || p.extname(base) !== '') return [base];
    return exts.filter((e) => e !== '').map((e) => base + e);
  };
  if (command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    const abs = p.isAbsolute(command) ? command : p.resolve(opts.cwd, command);
    return candidates(abs).find((c) => isExec(c));
  }
  const dirs = (opts.pathEnv ?? '').split(platform === 'win32' ? ';' : ':').filter(Boolean);
  for (const dir of dirs) {
    for (const c of candidates(p.join(dir, command))) if (isExec(c)) return c;
  }
  return undefined;
}

/**
 * `command` on the given PATH, else (a GUI-started editor) on the login
 * shell's PATH — then `shellPath` is that PATH, which the program needs too.
 */
export async function findProgram(command: string, opts: ResolveOptions): Promise<{ file: string; shellPath?: string } | undefined> {
  const file = findExecutable(command, opts);
  if (file) return { file };
  const shellPath = await loginShellPath();
  const viaShell = shellPath ? findExecutable(command, { pathEnv: shellPath, cwd: opts.cwd }) : undefined;
  return viaShell && shellPath ? { file: viaShell, shellPath } : undefined;
}

/** Per shell program (one in practice; tests point $SHELL at shells of their own). */
const loginShellPathCache = new Map<string, Promise<string | undefined>>();

/** The PATH of the user's login shell (macOS/Linux), read once per shell and cached. Exported for tests. */
export function loginShellPath(shell = process.env.SHELL, timeoutMs = 5000): Promise<string | undefined> {
  if (process.platform === 'win32' || !shell) return Promise.resolve(undefined);
  const cached = loginShellPathCache.get(shell);
  if (cached) return cached;
  const read = new Promise<string | undefined>((resolve) => {
    const marker = '__ACP_AGENTS_PATH__';
    execFile(shell, ['-ilc', `printf '${marker}%s${marker}' "$PATH"`], { timeout: timeoutMs, env: process.env }, (err, stdout) => {
      if (err) return resolve(undefined);
      const m = new RegExp(`${marker}(.*)${marker}`).exec(stdout);
      resolve(m?.[1] || undefined);
    });
  });
  loginShellPathCache.set(shell, read);
  return read;
}
