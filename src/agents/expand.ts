/**
 * Expands `${env:NAME}`, `${workspaceFolder}`, `${userHome}` and a leading `~`
 * in agent commands, arguments and environment values. No `vscode` import.
 */
import * as os from 'node:os';
import * as path from 'node:path';

export interface ExpandContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly workspaceFolder?: string;
  readonly home?: string;
}

export function expandVariables(value: string, ctx: ExpandContext): string {
  const home = ctx.home ?? os.homedir();
  let out = value.replace(/\$\{(env:([A-Za-z_][A-Za-z0-9_]*)|workspaceFolder|userHome)\}/g, (_m, what: string, envName?: string) => {
    if (envName) return ctx.env[envName] ?? '';
    if (what === 'userHome') return home;
    return ctx.workspaceFolder ?? '';
  });
  if (out === '~') out = home;
  else if (out.startsWith('~/') || (path.sep === '\\' && out.startsWith('~\\'))) out = path.join(home, out.slice(2));
  return out;
}

export function expandAll(values: readonly string[], ctx: ExpandContext): string[] {
  return values.map((v) => expandVariables(v, ctx));
}

export function expandEnv(env: Readonly<Record<string, string>>, ctx: ExpandContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) out[k] = expandVariables(v, ctx);
  return out;
}
