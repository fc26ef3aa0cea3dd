/**
 * Package runners (npx, npm exec, pnpm dlx, bunx, yarn dlx, uvx, pipx) resolve
 * what they run from the current folder: `.npmrc` (`registry=`, `script-shell=`),
 * `node_modules/.bin`, `bunfig.toml`, `.yarnrc.yml`, `pyproject.toml`. Agents
 * that are package runners start in an empty folder of the extension's own
 * (agentManager.ts); MCP servers keep the workspace as their folder, and npm's
 * runners are pointed at an empty prefix instead (`mcpServers.ts`). No `vscode` import.
 */
import * as path from 'node:path';

/** Which runner a command line is: `npm` for npx / npm exec (npm reads its project config from `--prefix`), `other` for the rest. */
export function packageRunnerKind(command: string, args: readonly string[]): 'npm' | 'other' | undefined {
  const base = path.basename(command.replace(/\\/g, '/')).toLowerCase().replace(/\.(cmd|exe|bat|ps1)$/, '');
  if (base === 'npx') return 'npm';
  if (base === 'npm') return ['exec', 'x'].includes(args[0] ?? '') ? 'npm' : undefined;
  if (['uvx', 'bunx', 'pnpx', 'pipx'].includes(base)) return 'other';
  return ['pnpm', 'yarn', 'bun', 'uv'].includes(base) && ['dlx', 'x', 'exec', 'tool'].includes(args[0] ?? '') ? 'other' : undefined;
}

export function isPackageRunner(command: string, args: readonly string[]): boolean {
  return packageRunnerKind(command, args) !== undefined;
}

/** The runners that read the workspace's config to decide which package runs, and cannot be pointed elsewhere by one flag. */
export function workspaceConfiguredRunner(command: string, args: readonly string[]): string | undefined {
  const base = path.basename(command.replace(/\\/g, '/')).toLowerCase().replace(/\.(cmd|exe|bat|ps1)$/, '');
  if (base === 'bunx' || (base === 'bun' && args[0] === 'x')) return 'bunfig.toml';
  if (base === 'pnpx' || (base === 'pnpm' && ['dlx', 'exec', 'x'].includes(args[0] ?? ''))) return '.npmrc / pnpm-workspace.yaml';
  if (base === 'yarn' && ['dlx', 'exec'].includes(args[0] ?? '')) return '.yarnrc.yml';
  return undefined;
}

/**
 * npx / npm exec with npm's project config and local packages taken from `prefix`
 * (an empty folder of the extension's own) rather than from the working folder:
 * the workspace's `.npmrc` no longer chooses the registry or the shell. The
 * working folder is unchanged, so `.` in the server's own arguments still means it.
 */
export function withNpmPrefix(command: string, args: readonly string[], prefix: string): string[] {
  const base = path.basename(command.replace(/\\/g, '/')).toLowerCase().replace(/\.(cmd|exe|bat|ps1)$/, '');
  return base === 'npm' ? [args[0]!, '--prefix', prefix, ...args.slice(1)] : ['--prefix', prefix, ...args];
}
