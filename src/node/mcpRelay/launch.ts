/**
 * How the MCP relay starts the real server: through cross-spawn, as the rest of
 * the extension starts programs (src/node/spawnProgram.ts), so a `.cmd`/`.bat`
 * server on Windows runs through cmd.exe with its arguments escaped — and an
 * argument cmd.exe cannot pass to a batch file unchanged is refused. cmd.exe is
 * the one in `%SystemRoot%\System32`, never whatever an inherited `COMSPEC` names.
 * The server's own env (from the relay's settings) is applied to the server
 * only; the relay itself never runs with it. No `vscode` import.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import * as path from 'node:path';
import { spawnProgram, unsafeBatchArgument } from '../spawnProgram';
import { RELAY_ENV, type RelayConfig } from './wire';

export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** The server's environment: the relay's own (less its settings and Electron's switch), then the server's env from the settings. */
export function serverEnv(inherited: NodeJS.ProcessEnv, config: RelayConfig | undefined): NodeJS.ProcessEnv {
  const env = { ...inherited };
  delete env[RELAY_ENV];
  // The relay needs it to run as Node under VS Code's Electron; a server gets it only when its own env sets it.
  delete env.ELECTRON_RUN_AS_NODE;
  for (const { name, value } of config?.env ?? []) env[name] = value;
  return env;
}

/** `%SystemRoot%\System32\cmd.exe` (C:\Windows when SystemRoot is not set or not an absolute path). */
export function systemCmd(env: NodeJS.ProcessEnv): string {
  const root = Object.entries(env).find(([k]) => k.toLowerCase() === 'systemroot')?.[1];
  return path.win32.join(root && path.win32.isAbsolute(root) ? root : 'C:\\Windows', 'System32', 'cmd.exe');
}

type Spawn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/**
 * Starts the server, or says why it cannot. `processEnv` is the relay's own
 * environment, where cross-spawn looks up the shell (`comspec`) on Windows.
 */
export function startServer(
  launch: ServerLaunch,
  opts: { platform?: NodeJS.Platform; processEnv?: NodeJS.ProcessEnv; spawn?: Spawn } = {},
): ChildProcess | { refused: string } {
  const platform = opts.platform ?? process.platform;
  const unsafe = unsafeBatchArgument(launch.command, launch.args, platform);
  if (unsafe !== undefined) return { refused: `the argument ${JSON.stringify(unsafe).slice(0, 200)} has a double quote, which cmd.exe cannot pass to the batch file ${launch.command} unchanged` };
  if (platform === 'win32') {
    const env = opts.processEnv ?? process.env;
    const cmd = systemCmd(env);
    for (const k of Object.keys(env)) if (k.toLowerCase() === 'comspec') delete env[k];
    env.comspec = cmd;
  }
  const spawn = opts.spawn ?? (spawnProgram as unknown as Spawn);
  // The server's stderr is the agent's to read, as if the relay were not there.
  return spawn(launch.command, [...launch.args], { stdio: ['pipe', 'pipe', 'inherit'], env: launch.env, windowsHide: true });
}
