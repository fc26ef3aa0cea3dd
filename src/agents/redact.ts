/**
 * Removes secrets from anything written to a log: MCP env values, HTTP headers,
 * auth values, values from SecretStorage, and fields whose names say they hold
 * a secret. No `vscode` import.
 */
export const REDACTED = '«redacted»';
const SECRET_KEY = /(token|secret|password|passwd|api[-_]?key|authorization|cookie|credential|private[-_]?key)/i;

export function redact(value: unknown, secrets: readonly string[] = []): unknown {
  const known = secrets.filter((s) => s.length >= 4);
  const scrubString = (s: string) => {
    let out = s;
    for (const k of known) if (out.includes(k)) out = out.split(k).join(REDACTED);
    return out;
  };
  const walk = (v: unknown, parentKey: string): unknown => {
    if (typeof v === 'string') return scrubString(v);
    if (Array.isArray(v)) {
      // ACP `env: [{name, value}]` and `headers: [{name, value}]`.
      if ((parentKey === 'env' || parentKey === 'headers') && v.every((x) => typeof x === 'object' && x !== null && 'name' in x)) {
        return v.map((x: Record<string, unknown>) => ({ ...x, value: REDACTED }));
      }
      return v.map((x) => walk(x, parentKey));
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
