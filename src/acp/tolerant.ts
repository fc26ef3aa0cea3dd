/**
 * The tolerant reader's pieces, shared by the decoders of `acp/` (`decode.ts`,
 * `authMethods.ts`, `steering.ts`, `clientRequests.ts`): a bad optional field
 * becomes its default, a bad array item is skipped, and every deviation is
 * described in `problems`. No `vscode` import.
 */

export type Problems = string[];
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

export function optional<T>(raw: Obj, key: string, decode: (v: unknown) => T | undefined, problems: Problems, where: string): T | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  const d = decode(v);
  if (d === undefined) problems.push(`${where}.${key}: ignored an invalid value`);
  return d;
}

export function nullable<T>(raw: Obj, key: string, decode: (v: unknown) => T | undefined, problems: Problems, where: string): T | null | undefined {
  if (raw[key] === null) return null;
  return optional(raw, key, decode, problems, where);
}

export function arrayOf<T>(v: unknown, decode: (item: unknown, problems: Problems, where: string) => T | undefined, problems: Problems, where: string): T[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: T[] = [];
  v.forEach((item, i) => {
    const d = decode(item, problems, `${where}[${i}]`);
    if (d === undefined) problems.push(`${where}[${i}]: skipped an invalid item`);
    else out.push(d);
  });
  return out;
}

export function oneOf<T extends string>(values: readonly T[]) {
  return (v: unknown): T | undefined => (typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined);
}


export function enumWithDefault<T extends string>(raw: Obj, key: string, values: readonly T[], fallback: T, problems: Problems, where: string): T {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  const d = oneOf(values)(v);
  if (d === undefined) {
    problems.push(`${where}.${key}: unknown value ${JSON.stringify(v)}, shown as "${fallback}"`);
    return fallback;
  }
  return d;
}
