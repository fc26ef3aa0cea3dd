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
  /** Leave `${env:NAME}` as written (definitions from a workspace never read the user's environment). */
  readonly keepEnv?: boolean;
  /** Told of every `${env:NAME}` value put in (so logs can redact it). */
  readonly onEnv?: (name: string, value: string) => void;
}

export function expandVariables(value: string, ctx: ExpandContext): string {
  const home = ctx.home ?? os.homedir();
  let out = value.replace(/\$\{(env:([A-Za-z_][A-Za-z0-9_]*)|workspaceFolder|userHome)\}/g, (m, what: string, envName?: string) => {
    if (envName) {
      if (ctx.keepEnv) return m;
      const v = ctx.env[envName] ?? '';
      ctx.onEnv?.(envName, v);
      return v;
    }
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
