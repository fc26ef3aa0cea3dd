/**
 * A compact line diff for the inline view of an agent's change (VS Code's diff
 * editor does the real thing). LCS on lines, with common prefix/suffix trimmed;
 * very large inputs fall back to "all removed, all added". No DOM, no `vscode`.
 */
export type DiffLine = { readonly op: ' ' | '-' | '+'; readonly text: string };

const MAX_CELLS = 250_000;

export function lineDiff(oldText: string | null, newText: string): DiffLine[] {
  const a = oldText === null || oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n');
  const b = newText === '' ? [] : newText.replace(/\n$/, '').split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ op: ' ', text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_CELLS) {
    for (const text of midA) out.push({ op: '-', text });
    for (const text of midB) out.push({ op: '+', text });
  } else {
    // LCS table, filled from the end.
    const n = midA.length;
    const m = midB.length;
    const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i]![j] = midA[i] === midB[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        out.push({ op: ' ', text: midA[i]! });
        i++;
        j++;
      } else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) out.push({ op: '-', text: midA[i++]! });
      else out.push({ op: '+', text: midB[j++]! });
    }
    while (i < n) out.push({ op: '-', text: midA[i++]! });
    while (j < m) out.push({ op: '+', text: midB[j++]! });
  }
  for (const text of a.slice(endA)) out.push({ op: ' ', text });
  return out;
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
