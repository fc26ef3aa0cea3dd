/**
 * One file of an ACP v2 diff (`{changes, patch}`): the operation on the file and,
 * when the agent sent a `git_patch`, that file's hunks. v2 sends no whole texts,
 * so the inline view shows the hunks and VS Code's diff editor gets the file's
 * text before the change by applying the hunks backwards to what is on disk now
 * (when it still matches), else the hunks alone. Pure: no DOM, no `vscode`.
 */
import { applyPatch, reversePatch, type StructuredPatch } from 'diff';
import type { DiffLine } from './lineDiff';

export interface PatchHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** Each line with its mark: ' ' context, '-' removed, '+' added, '\' "no newline at end of file". */
  readonly lines: readonly string[];
}


/** A file larger than this is not read to rebuild its text before a v2 change (Open Diff, Undo): the hunks alone serve. */
export const REBUILD_MAX_BYTES = 5_000_000;

/** At most this many lines of hunks are kept per file (the rest is said, not shown). */
export const PATCH_MAX_LINES = 20_000;

/** Added and removed lines. */
export function patchStats(hunks: readonly PatchHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks)
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  return { added, removed };
}

/** The hunks as diff lines, a `…` context line between two hunks that do not touch. */
export function patchLines(hunks: readonly PatchHunk[]): DiffLine[] {
  const out: DiffLine[] = [];
  let end = -1;
  for (const h of hunks) {
    if (end >= 0 && h.oldStart > end) out.push({ op: ' ', text: '…' });
    for (const l of h.lines) {
      const op = l[0];
      if (op === '+' || op === '-' || op === ' ') out.push({ op, text: l.slice(1) });
    }
    end = h.oldStart + h.oldLines;
  }
  return out;
}

/** The two sides of the hunks alone (an excerpt of the file, `…` between hunks): for a file no longer as the patch left it. */
export function patchExcerpt(hunks: readonly PatchHunk[]): { before: string; after: string } {
  const before: string[] = [];
  const after: string[] = [];
  hunks.forEach((h, i) => {
    if (i > 0) {
      before.push('…');
      after.push('…');
    }
    for (const l of h.lines) {
      if (l.startsWith('-') || l.startsWith(' ')) before.push(l.slice(1));
      if (l.startsWith('+') || l.startsWith(' ')) after.push(l.slice(1));
    }
  });
  return { before: before.join('\n'), after: after.join('\n') };
}

/**
 * The file's text before the change, from its text after it (`now`): the hunks applied backwards.
 * Undefined when `now` is no longer what the patch left (the file changed since, or the patch is partial).
 */
export function textBefore(now: string, hunks: readonly PatchHunk[]): string | undefined {
  if (!hunks.length) return undefined;
  const patch: StructuredPatch = { oldFileName: 'a', newFileName: 'b', oldHeader: '', newHeader: '', hunks: hunks.map((h) => ({ ...h, lines: [...h.lines] })) };
  try {
    const r = applyPatch(now, reversePatch(patch));
    return r === false ? undefined : r;
  } catch {
    return undefined;
  }
}
