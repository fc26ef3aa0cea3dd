/**
 * Removes secrets from anything written to a log: MCP env values, HTTP headers,
 * auth values, values from SecretStorage or expanded from `${env:…}`, fields
 * whose names say they hold a secret, secret-looking command-line arguments,
 * URL userinfo and query tokens, bearer tokens and well-known token shapes.
 * No `vscode` import.
 */
export const REDACTED = '«redacted»';
const SECRET_WORD = '(?:token|secret|password|passwd|api[-_]?key|apikey|access[-_]?key|authorization|cookie|credential|private[-_]?key|session[-_]?key)';
const SECRET_KEY = new RegExp(SECRET_WORD, 'i');
/** Query parameters: also signatures, keys and auth codes. */
const SECRET_PARAM = '(?:token|secret|password|passwd|key|auth|sig|signature|code|credential)';
/** `--api-key` / `-token` / `--auth` style flags: the next argument is the secret. */
const SECRET_FLAG = new RegExp(`^--?[\\w.-]*(?:${SECRET_WORD}|auth)[\\w.-]*$`, 'i');
const SECRET_ENV = SECRET_WORD.toUpperCase().replace(/\[-_\]/g, '_');

const TEXT_RULES: readonly [RegExp, string][] = [
  // URL userinfo: scheme://user:password@host, scheme://token@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, `$1${REDACTED}@`],
  // Query parameters that carry credentials: ?token=…, &api_key=…, &sig=…
  [new RegExp(`([?&][^=&\\s#"']*${SECRET_PARAM}[^=&\\s#"']*=)[^&\\s#"']+`, 'gi'), `$1${REDACTED}`],
  // --token=value, --api-key value, -password value (in a command line)
  [new RegExp(`(\\s--?[\\w.-]*(?:${SECRET_WORD}|auth)[\\w.-]*)([= ])(?!${REDACTED})("[^"]*"|'[^']*'|[^\\s"']+)`, 'gi'), `$1$2${REDACTED}`],
  // KEY=value pairs whose name says secret (env dumps, .env lines)
  [new RegExp(`\\b([A-Z0-9_]*${SECRET_ENV}[A-Z0-9_]*=)(?!${REDACTED})[^\\s"']+`, 'g'), `$1${REDACTED}`],
  // Short secrets under names that say so without a word above: DB_PASS=…, MYSQL_PWD: …, KEY_PASSPHRASE=… (not PWD/OLDPWD, the working folder).
  [/\b((?:[A-Za-z0-9]+_)+(?:PASS|PWD)|[A-Za-z0-9_]*PASSPHRASE)(["']?\s*[:=]\s*["']?)(?!«redacted»)[^\s"',;]+/gi, `$1$2${REDACTED}`],
  // aws_secret_access_key = … (the credentials file, any case, spaces around the sign).
  [/\b((?:aws_?)?secret_?access_?key["']?\s*[:=]\s*["']?)(?!«redacted»)[A-Za-z0-9/+=]{16,}/gi, `$1${REDACTED}`],
  // Connection strings: AccountKey=…; SharedAccessKey=…; Pwd=…; — the whole value, up to the `;` that ends it.
  [/\b((?:Account|SharedAccess|Primary|Secondary)Key\s*=\s*|SharedAccessSignature\s*=\s*)(?!«redacted»)[^;\s"']+/gi, `$1${REDACTED}`],
  [/(;\s*Pwd\s*=\s*)(?!«redacted»)[^;"'\n]+/gi, `$1${REDACTED}`],
  // Authorization: Bearer …
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  // Well-known token shapes.
  [/\b(?:sk|pk|rk)-(?:[A-Za-z0-9]+-)?[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\b(?:gh[opsur]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, REDACTED],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
];

/** Texts longer than this get the known values replaced, and the patterns checked only in their first part. */
const PATTERN_SCAN_LIMIT = 256 * 1024;

/** Redacts secret patterns and known secret values in a text. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const k of secrets) if (k.length >= 4 && out.includes(k)) out = out.split(k).join(REDACTED);
  if (out.length > PATTERN_SCAN_LIMIT) return redactText(out.slice(0, PATTERN_SCAN_LIMIT), []) + out.slice(PATTERN_SCAN_LIMIT);
  for (const [re, to] of TEXT_RULES) out = out.replace(re, to);
  return out;
}

/**
 * Whether a configured value should be treated as a secret even when its name
 * does not say so: long, without spaces or path separators, letters and digits.
 */
export function looksSecret(name: string, value: string): boolean {
  if (value.length < 4) return false;
  if (SECRET_KEY.test(name)) return true;
  return value.length >= 12 && !/[\s/\\]/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}

export function redact(value: unknown, secrets: readonly string[] = []): unknown {
  const known = secrets.filter((s) => s.length >= 4);
  const walk = (v: unknown, parentKey: string): unknown => {
    if (typeof v === 'string') return redactText(v, known);
    if (Array.isArray(v)) {
      // ACP `env: [{name, value}]` and `headers: [{name, value}]`.
      if ((parentKey === 'env' || parentKey === 'headers') && v.every((x) => typeof x === 'object' && x !== null && 'name' in x)) {
        return v.map((x: Record<string, unknown>) => ({ ...x, value: REDACTED }));
      }
      // Argument lists: the value after `--token`, `--api-key`… is a secret.
      return v.map((x, i) => (typeof x === 'string' && i > 0 && typeof v[i - 1] === 'string' && SECRET_FLAG.test(v[i - 1] as string) ? REDACTED : walk(x, parentKey)));
    }
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(v)) {
        if ((parentKey === 'env' || parentKey === 'headers') && typeof val === 'string') out[k] = REDACTED;
        else if (SECRET_KEY.test(k) && (typeof val === 'string' || typeof val === 'number')) out[k] = REDACTED;
        else out[k] = walk(val, k);
      }
      return out;
    }
    return v;
  };
  return walk(value, '');
}

/** Secret values met at run time (expanded `${env:…}`, MCP env and header values), for every log. */
export class SecretValues {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    if (value !== undefined && value.length >= 4 && this.values.size < 10_000) this.values.add(value);
  }

  /** Longest first, so a secret containing another is redacted whole. */
  list(): string[] {
    return [...this.values].sort((a, b) => b.length - a.length);
  }
}
