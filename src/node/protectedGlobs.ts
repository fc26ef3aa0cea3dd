/**
 * Whether an agent's glob may name protected paths (`.e*`, `.en[v]`,
 * `{.env,README.md}`, `*.env`, `.gi?/config`, `.g*\/**` all reach `.env` or
 * `.git/`), checked as a glob, not as the text of a path. The glob is compiled
 * segment by segment with `dot: true` (a wildcard may name a dot file) and
 * tested on instances of every protected pattern under its base — for `.env*`:
 * `.env`, `.envx`, `.env.local`; for `.git/**`: `.git`, `.git/x`, `.git/<each
 * plain name in the glob>` — at each depth the glob's own leading segments
 * reach; the glob's own instances are tested against the protected patterns;
 * and a segment whose fixed start and a protected segment's fixed start could
 * be the same name (`.en*` and `.env*`) counts too.
 *
 * A whole `**` segment stands for ordinary folders (not dot folders): like a
 * recursive search with no glob, it is the tool's walk, not a name the agent
 * spelled (so `src/**\/*.ts` is not held to reach `src/.git/x.ts`). This is a
 * check of what a glob spells, not an intersection of two glob languages: a
 * glob that meets a protected pattern only on an unusual name (`*.md` and a
 * file named `.env.md`) is not caught. No `vscode` import.
 */
import picomatch from 'picomatch';

type Test = (s: string) => boolean;

const compiled = new Map<string, Test>();
/** picomatch with `dot: true`, compiled once per pattern (the protected ones come back on every call). */
function compile(pattern: string | string[], nocase: boolean): Test {
  const key = `${nocase ? 'i' : 's'}\u0000${JSON.stringify(pattern)}`;
  let t = compiled.get(key);
  if (!t) {
    if (compiled.size > 500) compiled.clear();
    t = picomatch(pattern, { dot: true, nocase });
    compiled.set(key, t);
  }
  return t;
}

const MAX_SEGMENTS = 40;
const MAX_GLOB_CHARS = 1_024;
const MAX_INSTANCES = 16;
const MAX_SAMPLES = 64;
/**
 * What a `*` of a protected pattern is filled with (`.env*` → `.env`, `.envx`, `.env.local`…): the
 * names such files really have, so `*.production` is caught by `.env.production`.
 */
const PROTECTED_FILLS = ['', 'x', '.local', '.production', '.prod', '.development', '.dev', '.staging', '.test', '.example'];
const GLOB_FILLS = ['x', ''];
/** Characters that make a segment magic (or escape one). */
const MAGIC = /[*?[\]{}()!+@|\\]/;

/** What names a glob may reach: a reason (the protected pattern, or why it cannot be told), or undefined. */
export function globMayNameProtected(baseSegments: readonly string[], glob: string, protectedGlobs: readonly string[], nocase = true): string | undefined {
  if (glob.length > MAX_GLOB_CHARS) return 'a glob too long to check';
  const own = splitSegments(glob.replace(/^(?:\.\/)+/, ''));
  if (own === undefined || own.length + baseSegments.length > MAX_SEGMENTS) return 'a glob whose parts cannot be told apart';
  const segs: Seg[] = [...baseSegments.filter((s) => s !== '').map((s): Seg => ({ kind: 'literal', text: s })), ...own.map((s) => toSeg(s, nocase))];
  const matches = (prefix: readonly string[], sample: Sample): boolean => matchSegs(segs, [...prefix, ...sample.segs], [...prefix.map(() => false), ...sample.named], nocase);
  // Names a protected `**` is filled with: the glob's own, as written or instantiated (`.gi?/config` → `.git/config`).
  const plain = segs.flatMap((s) => (s.kind === 'literal' ? [s.text] : s.kind === 'magic' ? instances(s.text, GLOB_FILLS, s.test).filter((x) => x !== '').slice(0, 1) : [])).slice(-8);
  const prefixes = leadingInstances(segs);
  const ownInstances = pathInstances(segs);
  for (const g of protectedGlobs) {
    const body = g.trim().replace(/\\/g, '/').replace(/^\.?\//, '').replace(/^(?:\*\*\/)+/, '');
    if (body === '') continue;
    const gSegs = splitSegments(body);
    if (gSegs === undefined) continue;
    // (1) Instances of the protected pattern, at each depth the glob's leading segments reach.
    for (const sample of protectedSamples(gSegs, plain, nocase)) {
      if (prefixes.some((prefix) => matches(prefix, sample))) return g;
    }
    // (2) The glob's own instances, against the protected pattern (`.env.pr[o]d` → `.env.prod`).
    const protectedTest = compileProtected(body, nocase);
    if (ownInstances.some((p) => protectedTest(p.join('/')))) return g;
    // (3) A segment of each whose fixed starts could name the same file (`.en?rc*` and `.env*`).
    if (leadsMeet(segs, gSegs, nocase)) return g;
  }
  return undefined;
}

type Seg = { kind: 'literal'; text: string } | { kind: 'globstar' } | { kind: 'magic'; text: string; test: Test };

function toSeg(s: string, nocase: boolean): Seg {
  if (s === '**') return { kind: 'globstar' };
  if (!MAGIC.test(s)) return { kind: 'literal', text: s };
  return { kind: 'magic', text: s, test: compile(s, nocase) };
}

/** The segments of a glob: split at slashes outside braces, brackets and parentheses; undefined when a slash is inside one. */
function splitSegments(glob: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) {
      cur += c + glob[++i]!;
      continue;
    }
    if (c === '{' || c === '(' || c === '[') depth++;
    else if ((c === '}' || c === ')' || c === ']') && depth > 0) depth--;
    if (c === '/') {
      if (depth > 0) return undefined;
      if (cur !== '') out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/**
 * Whether the path's segments match the glob's. A `**` takes any number of segments that are
 * neither dot names nor a name a protected pattern spells (`named`): it is the tool's walk.
 */
function matchSegs(segs: readonly Seg[], p: readonly string[], named: readonly boolean[], nocase: boolean): boolean {
  const memo = new Map<number, boolean>();
  const at = (i: number, j: number): boolean => {
    const key = i * 1000 + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r: boolean;
    if (i === segs.length) r = j === p.length;
    else {
      const s = segs[i]!;
      if (s.kind === 'globstar') r = at(i + 1, j) || (j < p.length && !named[j] && !p[j]!.startsWith('.') && at(i, j + 1));
      else if (j === p.length) r = false;
      else if (s.kind === 'literal') r = (nocase ? s.text.toLowerCase() === p[j]!.toLowerCase() : s.text === p[j]) && at(i + 1, j + 1);
      else r = s.test(p[j]!) && at(i + 1, j + 1);
    }
    memo.set(key, r);
    return r;
  };
  return at(0, 0);
}

/** For each depth k: one path the glob's first k segments match (a `**` taking none), while they can be instantiated. */
function leadingInstances(segs: readonly Seg[]): string[][] {
  const out: string[][] = [[]];
  const cur: string[] = [];
  for (const s of segs) {
    if (s.kind === 'literal') cur.push(s.text);
    else if (s.kind === 'magic') {
      const one = instances(s.text, GLOB_FILLS, s.test).find((x) => x !== '');
      if (one === undefined) break;
      cur.push(one);
    }
    out.push([...cur]);
  }
  return out;
}

/** A few whole paths the glob matches (each `**` taking none). */
function pathInstances(segs: readonly Seg[]): string[][] {
  let out: string[][] = [[]];
  for (const s of segs) {
    if (s.kind === 'globstar') continue;
    const options = s.kind === 'literal' ? [s.text] : instances(s.text, GLOB_FILLS, s.test).filter((x) => x !== '');
    if (options.length === 0) return [];
    out = out.flatMap((p) => options.map((o) => [...p, o])).slice(0, MAX_SAMPLES);
  }
  return out;
}

/** A path a protected pattern matches; `named[i]`: segment i is one the pattern spells (not a `**` fill). */
interface Sample {
  readonly segs: readonly string[];
  readonly named: readonly boolean[];
}

/** Paths a protected pattern (relative, at any depth) matches: its wildcards filled; a `**` none, `x`, or a name of the glob. */
function protectedSamples(gSegs: readonly string[], plain: readonly string[], nocase: boolean): Sample[] {
  let out: Sample[] = [{ segs: [], named: [] }];
  for (const g of gSegs) {
    let options: Sample[];
    if (g === '**') options = [[], ['x'], ...plain.map((p) => [p])].map((segs) => ({ segs, named: segs.map(() => false) }));
    else {
      const names = !MAGIC.test(g) ? [g] : instances(g, PROTECTED_FILLS, compile(g, nocase)).filter((x) => x !== '');
      options = names.map((x) => ({ segs: [x], named: [true] }));
    }
    if (options.length === 0) return [];
    out = out.flatMap((p) => options.map((o) => ({ segs: [...p.segs, ...o.segs], named: [...p.named, ...o.named] }))).slice(0, MAX_SAMPLES);
  }
  return out;
}

function compileProtected(body: string, nocase: boolean): Test {
  const any = `**/${body}`;
  // `x/**` protects `x` too (as protectedPaths.ts has it).
  const patterns = any.endsWith('/**') && any.length > 3 ? [any, any.slice(0, -3)] : [any];
  return compile(patterns, nocase);
}

/** The fixed start of a segment: its characters before the first wildcard, class, brace or group. */
function leadOf(s: string): string {
  const i = s.search(MAGIC);
  return i < 0 ? s : s.slice(0, i);
}

function leadsMeet(segs: readonly Seg[], gSegs: readonly string[], nocase: boolean): boolean {
  const fold = (s: string) => (nocase ? s.toLowerCase() : s);
  const gLeads = gSegs.filter((g) => g !== '**' && MAGIC.test(g)).map((g) => fold(leadOf(g))).filter((l) => l !== '');
  for (const s of segs) {
    if (s.kind !== 'magic') continue;
    const lead = fold(leadOf(s.text));
    if (lead !== '' && gLeads.some((l) => l.startsWith(lead) || lead.startsWith(l))) return true;
  }
  return false;
}

/**
 * Up to MAX_INSTANCES strings a glob segment matches: each `*` filled with each of `fills`,
 * `?` with `x`, a class with its first character, each alternative of a brace or group;
 * only those `test` confirms.
 */
function instances(seg: string, fills: readonly string[], test: Test): string[] {
  const found = expand(seg, fills).filter((s) => test(s));
  return [...new Set(found)];
}

const MAX_EXPANDED = MAX_INSTANCES * 4;

/** The expansions of each alternative, together at most MAX_EXPANDED. */
function expandAll(alternatives: readonly string[], fills: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of alternatives) {
    if (out.length >= MAX_EXPANDED) break;
    out.push(...expand(a, fills).slice(0, MAX_EXPANDED - out.length));
  }
  return out;
}

function expand(s: string, fills: readonly string[]): string[] {
  let out = [''];
  const add = (options: readonly string[]): void => {
    const some = options.slice(0, MAX_EXPANDED);
    out = out.flatMap((p) => some.map((o) => p + o)).slice(0, MAX_EXPANDED);
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = s[i + 1];
    if (c === '\\' && next !== undefined) {
      add([next]);
      i++;
    } else if ('@!+*?'.includes(c) && next === '(') {
      const end = closing(s, i + 1, '(', ')');
      if (end < 0) return [];
      const alts = expandAll(splitTop(s.slice(i + 2, end), '|'), fills);
      add(c === '!' ? ['x'] : c === '*' || c === '?' ? ['', ...alts] : alts);
      i = end;
    } else if (c === '*') {
      while (s[i + 1] === '*') i++;
      add(fills);
    } else if (c === '?') add(['x']);
    else if (c === '[') {
      const end = closing(s, i, '[', ']');
      if (end < 0) return [];
      const body = s.slice(i + 1, end);
      const negated = /^[!^]/.test(body);
      const first = body.replace(/^[!^]/, '').replace(/^\[:\w+:\]/, 'a')[0] ?? 'x';
      add(negated ? ['x', '_'] : [first === '\\' ? (body[1] ?? 'x') : first]);
      i = end;
    } else if (c === '{') {
      const end = closing(s, i, '{', '}');
      if (end < 0) return [];
      const inner = s.slice(i + 1, end);
      const range = /^(-?\w+)\.\.(-?\w+)/.exec(inner);
      add(range ? [range[1]!] : expandAll(splitTop(inner, ','), fills));
      i = end;
    } else add([c]);
  }
  return out;
}

/** The index of the bracket closing the one at `open`, or -1. */
function closing(s: string, open: number, o: string, c: string): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === o) depth++;
    else if (s[i] === c && --depth === 0) return i;
  }
  return -1;
}

/** Splits at `sep` outside braces and parentheses. */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\') {
      cur += ch + (s[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '{' || ch === '(') depth++;
    else if (ch === '}' || ch === ')') depth--;
    if (ch === sep && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
