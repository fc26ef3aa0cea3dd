/**
 * Starting programs (agents, and commands agents run with `terminal/create`) on every
 * platform through `cross-spawn`: on Windows it finds programs by PATHEXT and
 * runs `.cmd`/`.bat` shims (npx, npm, yarn, pnpm) through cmd.exe with its own
 * escaping; elsewhere it is Node's `spawn`. No `vscode` import.
 */
import crossSpawn from 'cross-spawn';

/** Node's `spawn`, with Windows' PATHEXT lookup and cmd.exe escaping added by cross-spawn. */
export const spawnProgram: typeof import('node:child_process').spawn = crossSpawn.spawn;

/**
 * cross-spawn escapes arguments for cmd.exe once, and twice only for the shims
 * in `node_modules/.bin`. A batch file elsewhere (npx.cmd next to node.exe)
 * passes its arguments on with `%*`, which cmd reads again: a `"` in an
 * argument then ends the quoting, and a `&` or `|` after it would run as a
 * command. Such an argument is refused rather than passed on changed.
 * Returns the argument that cannot be passed, or undefined.
 */
export function unsafeBatchArgument(file: string, args: readonly string[], platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32' || !/\.(cmd|bat)$/i.test(file)) return undefined;
  if (/node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(file)) return undefined;
  return args.find((a) => a.includes('"'));
}
