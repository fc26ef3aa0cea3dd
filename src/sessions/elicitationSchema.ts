/**
 * The fields of an ACP form elicitation (a flat object of primitive properties),
 * and checking a typed value against its field. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { forLabel } from '../shared/nativeText';
import { testPattern } from './policy/patternCheck';

type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';

export interface Field {
  readonly key: string;
  readonly title: string;
  readonly description?: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly options: { value: string; title: string }[];
  readonly def?: unknown;
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fieldsOf(schema: unknown): Field[] {
  if (!isObj(schema) || !isObj(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const out: Field[] = [];
  for (const [key, raw] of Object.entries(schema.properties)) {
    if (!isObj(raw)) continue;
    const base = { key, title: typeof raw.title === 'string' ? raw.title : key, description: typeof raw.description === 'string' ? raw.description : undefined, required: required.has(key), def: raw.default };
    const num = (k: string) => (typeof raw[k] === 'number' ? (raw[k] as number) : undefined);
    if (raw.type === 'string') {
      if (Array.isArray(raw.enum)) {
        out.push({ ...base, kind: 'enum', options: raw.enum.filter((e): e is string => typeof e === 'string').map((v) => ({ value: v, title: v })) });
      } else if (Array.isArray(raw.oneOf)) {
        out.push({ ...base, kind: 'enum', options: raw.oneOf.filter(isObj).filter((o) => typeof o.const === 'string').map((o) => ({ value: o.const as string, title: typeof o.title === 'string' ? o.title : (o.const as string) })) });
      } else {
        out.push({ ...base, kind: 'string', options: [], minLength: num('minLength'), maxLength: num('maxLength'), pattern: typeof raw.pattern === 'string' ? raw.pattern : undefined, format: typeof raw.format === 'string' ? raw.format : undefined });
      }
    } else if (raw.type === 'number' || raw.type === 'integer') {
      out.push({ ...base, kind: raw.type, options: [], min: num('minimum'), max: num('maximum') });
    } else if (raw.type === 'boolean') {
      out.push({ ...base, kind: 'boolean', options: [{ value: 'true', title: l10n.t('Yes') }, { value: 'false', title: l10n.t('No') }] });
    } else if (raw.type === 'array' && isObj(raw.items)) {
      const items = raw.items;
      const options = Array.isArray(items.enum)
        ? items.enum.filter((e): e is string => typeof e === 'string').map((v) => ({ value: v, title: v }))
        : Array.isArray(items.anyOf)
          ? items.anyOf.filter(isObj).filter((o) => typeof o.const === 'string').map((o) => ({ value: o.const as string, title: typeof o.title === 'string' ? o.title : (o.const as string) }))
          : [];
      out.push({ ...base, kind: 'multi', options, minItems: num('minItems'), maxItems: num('maxItems') });
    }
  }
  return out;
}

/**
 * Checks a typed value; returns the value to send, or an error in words. The
 * agent's `pattern` is tested off the extension host's thread, time-boxed.
 */
export async function checkField(f: Field, input: string | string[] | undefined): Promise<{ value?: string | number | boolean | string[]; error?: string }> {
  if (input === undefined || input === '' || (Array.isArray(input) && input.length === 0 && f.kind !== 'multi')) {
    return f.required ? { error: l10n.t('{0} is required.', forLabel(f.title)) } : {};
  }
  switch (f.kind) {
    case 'string': {
      const s = String(input);
      if (f.minLength !== undefined && s.length < f.minLength) return { error: l10n.t('At least {0} characters.', f.minLength) };
      if (f.maxLength !== undefined && s.length > f.maxLength) return { error: l10n.t('At most {0} characters.', f.maxLength) };
      if (f.pattern !== undefined) {
        // An invalid pattern from the agent is ignored; one too slow to check refuses the value.
        const r = await testPattern(f.pattern, s);
        if (r === 'no-match') return { error: l10n.t('Must match {0}.', forLabel(String(f.pattern))) };
        if (r === 'timeout') return { error: l10n.t('The agent’s pattern for this field is too complex to check; the value cannot be accepted.') };
      }
      if (f.format === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)) return { error: l10n.t('An e-mail address, please.') };
      if (f.format === 'uri' && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(s)) return { error: l10n.t('A URI, please.') };
      if (f.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(s)) return { error: l10n.t('A date as YYYY-MM-DD, please.') };
      if (f.format === 'date-time' && Number.isNaN(Date.parse(s))) return { error: l10n.t('A date and time (ISO 8601), please.') };
      return { value: s };
    }
    case 'number':
    case 'integer': {
      const n = Number(input);
      if (!Number.isFinite(n)) return { error: l10n.t('A number, please.') };
      if (f.kind === 'integer' && !Number.isInteger(n)) return { error: l10n.t('A whole number, please.') };
      if (f.min !== undefined && n < f.min) return { error: l10n.t('At least {0}.', f.min) };
      if (f.max !== undefined && n > f.max) return { error: l10n.t('At most {0}.', f.max) };
      return { value: n };
    }
    case 'boolean':
      return { value: String(input) === 'true' };
    case 'enum':
      return f.options.some((o) => o.value === input) ? { value: String(input) } : { error: l10n.t('Pick one of the options.') };
    case 'multi': {
      const list = Array.isArray(input) ? input : [String(input)];
      if (list.some((v) => !f.options.some((o) => o.value === v))) return { error: l10n.t('Pick from the options.') };
      if (f.minItems !== undefined && list.length < f.minItems) return { error: l10n.t('Pick at least {0}.', f.minItems) };
      if (f.maxItems !== undefined && list.length > f.maxItems) return { error: l10n.t('Pick at most {0}.', f.maxItems) };
      if (f.required && list.length === 0) return { error: l10n.t('{0} is required.', forLabel(f.title)) };
      return { value: list };
    }
  }
}
