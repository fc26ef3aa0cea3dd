/**
 * Finds an agent's program: on PATH (honouring PATHEXT on Windows), or — when a
 * GUI-launched editor misses the user's shell PATH (nvm, volta, Homebrew) — on
 * the PATH of the user's login shell. No `vscode` import.
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
 * On Windows, .cmd/.bat files run through the shell (`cmd.exe /d /s /c "…"`),
 * and their arguments are parsed three times: by cmd for that command line, by
 * cmd again when the batch file passes them on with `%*`, and by the program
 * (MSVCRT rules). So an argument is quoted for the program (a quote becomes
 * `\"`, the backslashes before a quote and at the end are doubled, all in
 * quotes), then every cmd metacharacter — the quotes included, so cmd never sees
 * a quoted region where `^` would be literal — gets a `^`, twice. `%VAR%` becomes
 * `^%VAR^%`, which cmd leaves as it is ("VAR^" is no variable).
 */
export function quoteForCmd(arg: string): string {
  if (/^[\w.\/\\:@+-]+$/.test(arg)) return arg;
  let quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
  for (let pass = 0; pass < 2; pass++) quoted = quoted.replace(/[()%!^"<>&|]/g, '^$&');
  return quoted;
}

/** The program of a cmd.exe command line: quoted when it has spaces (a path in "Program Files"). */
export function quoteCommandForCmd(command: string): string {
  return /[\s&()^|<>!,;=]/.test(command) ? `"${command}"` : command;
}

export function needsShell(resolved: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' && /\.(cmd|bat)$/i.test(resolved);
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

let loginShellPathCache: Promise<string | undefined> | undefined;

/** The PATH of the user's login shell (macOS/Linux), read once and cached. */
function loginShellPath(shell = process.env.SHELL, timeoutMs = 5000): Promise<string | undefined> {
  if (process.platform === 'win32' || !shell) return Promise.resolve(undefined);
  loginShellPathCache ??= new Promise((resolve) => {
    const marker = '__ACP_AGENTS_PATH__';
    execFile(shell, ['-ilc', `printf '${marker}%s${marker}' "$PATH"`], { timeout: timeoutMs, env: process.env }, (err, stdout) => {
      if (err) return resolve(undefined);
      const m = new RegExp(`${marker}(.*)${marker}`).exec(stdout);
      resolve(m?.[1] || undefined);
    });
  });
  return loginShellPathCache;
}
