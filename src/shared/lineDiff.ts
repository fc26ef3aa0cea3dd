/**
 * A compact line diff for the inline view of an agent's change (VS Code's diff
 * editor does the real thing). The diff is jsdiff's (Myers), computed once per
 * content: the same texts again give the same lines back from a small cache.
 * Texts too large to diff in time fall back to "all removed, all added".
 * No DOM, no `vscode`.
 */
import { diffLines } from 'diff';

export type DiffLine = { readonly op: ' ' | '-' | '+'; readonly text: string };

/** Beyond this many characters, or this long, no line diff (all removed, all added). */
const MAX_CHARS = 2_000_000;
const TIMEOUT_MS = 300;

/** The lines of a text, without the newline of the last one. */
function lines(text: string | null): string[] {
  return text === null || text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

/** Every line ends with a newline (a missing last one is no change), as `lines` reads it. */
function normalized(text: string | null): string {
  return text === null || text === '' ? '' : `${text.replace(/\n$/, '')}\n`;
}

function computeLineDiff(oldText: string | null, newText: string): DiffLine[] {
  const a = normalized(oldText);
  const b = normalized(newText);
  const parts = a.length + b.length > MAX_CHARS ? undefined : diffLines(a, b, { timeout: TIMEOUT_MS });
  if (!parts) return [...lines(oldText).map((text) => ({ op: '-' as const, text })), ...lines(newText).map((text) => ({ op: '+' as const, text }))];
  const out: DiffLine[] = [];
  for (const p of parts) {
    const op = p.added ? '+' : p.removed ? '-' : ' ';
    // Every part ends with a newline (the texts were normalized): one line per newline, empty lines too.
    for (const text of p.value.slice(0, -1).split('\n')) out.push({ op, text });
  }
  return out;
}

/** Recent diffs by their new text (a string's hash is kept with it: the lookup is cheap), then the old text. */
const cache = new Map<string, { readonly oldText: string | null; readonly lines: readonly DiffLine[] }>();
const CACHE_SIZE = 64;

/** The line diff from `oldText` (null: a new file) to `newText`. The same texts give the same (frozen) array. */
export function lineDiff(oldText: string | null, newText: string): readonly DiffLine[] {
  const hit = cache.get(newText);
  if (hit && hit.oldText === oldText) {
    // Most recently used last.
    cache.delete(newText);
    cache.set(newText, hit);
    return hit.lines;
  }
  const result = Object.freeze(computeLineDiff(oldText, newText));
  cache.delete(newText);
  cache.set(newText, { oldText, lines: result });
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return result;
}

/** Keeps changed lines with `context` lines around them; elided runs become one marker (op ' ', text '⋯'). */
export function withContext(lines: readonly DiffLine[], context = 2): DiffLine[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.op !== ' ') for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
  });
  const out: DiffLine[] = [];
  let skipped = false;
  lines.forEach((l, i) => {
    if (keep[i]) {
      out.push(l);
      skipped = false;
    } else if (!skipped) {
      out.push({ op: ' ', text: '⋯' });
      skipped = true;
    }
  });
  return out;
}
