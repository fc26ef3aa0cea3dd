/**
 * The sign-in methods an agent lists in its \`initialize\` answer, decoded
 * tolerantly, with the shapes seen in the wild besides the schema's: an
 * agent-type method with Zed-era \`_meta["terminal-auth"]\`, or with
 * \`_meta["api-key"]\` (the client asks the user for a key and sends it back in
 * \`authenticate\`). No \`vscode\` import.
 */
import { arrayOf, bool, isObj, str, type Problems } from './tolerant';

/** An auth method as the client understands it, including legacy shapes seen in the wild. */
export type AuthMethodInfo =
  | { readonly type: 'agent'; readonly id: string; readonly name: string; readonly description?: string; readonly terminalAuth?: LegacyTerminalAuth; readonly apiKey?: ApiKeyMeta }
  | { readonly type: 'terminal'; readonly id: string; readonly name: string; readonly description?: string; readonly args: string[]; readonly env: Record<string, string> }
  | { readonly type: 'env_var'; readonly id: string; readonly name: string; readonly description?: string; readonly vars: EnvVarSpec[]; readonly link?: string }
  | { readonly type: 'unknown'; readonly id: string; readonly name: string; readonly description?: string; readonly rawType: string };

export interface EnvVarSpec {
  readonly name: string;
  readonly label?: string;
  readonly secret: boolean;
  readonly optional: boolean;
}

/**
 * `_meta["api-key"]` on an agent-type method (codex-acp's `api-key`): the client asks the user for a key
 * and sends it back in `authenticate` as `_meta["api-key"].apiKey`.
 */
export interface ApiKeyMeta {
  /** Whose key it is (`openai`), when the agent says. */
  readonly provider?: string;
}

/** Zed-era `_meta["terminal-auth"]` on an agent-type method. */
interface LegacyTerminalAuth {
  readonly command: string;
  readonly args: string[];
  readonly label?: string;
  readonly env: Record<string, string>;
}

function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v)) for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

export function decodeAuthMethod(v: unknown, problems: Problems, where: string): AuthMethodInfo | undefined {
  if (!isObj(v) || typeof v.id !== 'string') return undefined;
  const id = v.id;
  const name = str(v.name) ?? id;
  const description = str(v.description);
  const type = v.type === undefined || v.type === null ? 'agent' : v.type;
  switch (type) {
    case 'agent': {
      const meta = isObj(v._meta) ? v._meta['terminal-auth'] : undefined;
      let terminalAuth: LegacyTerminalAuth | undefined;
      if (isObj(meta) && typeof meta.command === 'string') {
        terminalAuth = {
          command: meta.command,
          args: Array.isArray(meta.args) ? meta.args.filter((a): a is string => typeof a === 'string') : [],
          label: str(meta.label),
          env: stringRecord(meta.env),
        };
      }
      const keyMeta = isObj(v._meta) ? v._meta['api-key'] : undefined;
      const apiKey: ApiKeyMeta | undefined = !terminalAuth && isObj(keyMeta) ? { ...(str(keyMeta.provider) ? { provider: str(keyMeta.provider) } : {}) } : undefined;
      return { type: 'agent', id, name, description, ...(terminalAuth ? { terminalAuth } : {}), ...(apiKey ? { apiKey } : {}) };
    }
    case 'terminal':
      return {
        type: 'terminal',
        id,
        name,
        description,
        args: Array.isArray(v.args) ? v.args.filter((a): a is string => typeof a === 'string') : [],
        env: stringRecord(v.env),
      };
    case 'env_var': {
      const vars =
        arrayOf(
          v.vars,
          (x) =>
            isObj(x) && typeof x.name === 'string'
              ? { name: x.name, label: str(x.label), secret: bool(x.secret) ?? true, optional: bool(x.optional) ?? false }
              : undefined,
          problems,
          `${where}.vars`,
        ) ?? [];
      return { type: 'env_var', id, name, description, vars, link: str(v.link) };
    }
    default:
      problems.push(`${where}: auth method "${id}" has unknown type ${JSON.stringify(type)}`);
      return { type: 'unknown', id, name, description, rawType: String(type) };
  }
}
