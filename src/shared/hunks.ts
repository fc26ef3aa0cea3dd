/**
 * The hunks of a change: runs of changed lines between the text before the
 * agent's change and the text now, as character offsets into both, so one
 * hunk can be kept (the "before" takes it) or undone (the file loses it)
 * while the others stay as they are. The line diff is jsdiff's.
 */
import { diffLines } from 'diff';

export interface Hunk {
  /** Offsets of the hunk's old text in the text before. */
  readonly oldStart: number;
  readonly oldEnd: number;
  /** Offsets of its new text in the text now. */
  readonly newStart: number;
  readonly newEnd: number;
  /** The first line (0-based) of the hunk in the text now; for a pure deletion, the line after it. */
  readonly line: number;
  readonly oldText: string;
  readonly newText: string;
}

/** Files beyond this many characters, or diffs slower than this, get no hunks (whole-file Keep/Undo only). */
const MAX_CHARS = 2_000_000;
const TIMEOUT_MS = 500;

/** The hunks between `before` and `now`, in order; undefined when the texts are too large to diff. */
export function hunks(before: string, now: string): Hunk[] | undefined {
  if (before.length + now.length > MAX_CHARS) return undefined;
  const parts = diffLines(before, now, { timeout: TIMEOUT_MS });
  if (!parts) return undefined;
  const out: Hunk[] = [];
  let o = 0;
  let n = 0;
  let line = 0;
  let open: { oldStart: number; newStart: number; line: number; oldText: string; newText: string } | undefined;
  const close = () => {
    if (open) out.push({ ...open, oldEnd: open.oldStart + open.oldText.length, newEnd: open.newStart + open.newText.length });
    open = undefined;
  };
  for (const p of parts) {
    if (!p.added && !p.removed) {
      close();
      o += p.value.length;
      n += p.value.length;
      line += p.count;
      continue;
    }
    open ??= { oldStart: o, newStart: n, line, oldText: '', newText: '' };
    if (p.removed) {
      open.oldText += p.value;
      o += p.value.length;
    } else {
      open.newText += p.value;
      n += p.value.length;
      line += p.count;
    }
  }
  close();
  return out;
}

/** Keep: the text before, with this hunk taken into it. */
export function keepHunk(before: string, h: Hunk): string {
  return before.slice(0, h.oldStart) + h.newText + before.slice(h.oldEnd);
}
