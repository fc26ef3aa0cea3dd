/**
 * ACP v2's diff content, `{type: "diff", changes, patch}`: which files changed and how
 * (`changes`, authoritative), and optionally a `git_patch` text with absolute paths.
 * Mapped onto the internal `_patch` content, one per changed file, with that file's
 * hunks when the patch has them (jsdiff parses it). No `vscode` import.
 */
import { parsePatch, type StructuredPatch } from 'diff';
import { PATCH_MAX_LINES, type PatchHunk } from '../shared/patch';
import { isObj, str, type Obj, type Problems } from './tolerant';

/** The internal content one changed file of a v2 diff becomes (decodeContent.ts reads it back from the archive). */
export interface PatchContent {
  readonly type: '_patch';
  readonly path: string;
  readonly oldPath?: string;
  readonly operation: string;
  readonly hunks: readonly PatchHunk[];
  /** Lines of the patch left out (over PATCH_MAX_LINES). */
  readonly cut?: number;
}

/** A patch text larger than this is not parsed: the changes are listed without hunks. */
const MAX_PATCH_CHARS = 4_000_000;
/** At most this many files of one diff. */
const MAX_FILES = 500;

/** git's name for a side: `a/…`/`b/…` when the agent kept git's prefixes, `/dev/null` for none. */
function sideNames(name: string | undefined): string[] {
  if (!name || name === '/dev/null') return [];
  return /^[ab]\//.test(name) ? [name, name.slice(2)] : [name];
}

function parsed(text: string, problems: Problems): StructuredPatch[] {
  if (text.length > MAX_PATCH_CHARS) {
    problems.push(`diff: a patch of ${text.length} characters, not shown (the changed files are listed)`);
    return [];
  }
  try {
    return parsePatch(text);
  } catch (err) {
    problems.push(`diff: the patch could not be read (${String((err as Error)?.message ?? err).slice(0, 120)}); the changed files are listed`);
    return [];
  }
}

/** Hunks whose numbers are numbers and lines are strings; at most `budget` lines in all. */
function hunksOf(p: StructuredPatch | undefined, budget: { left: number; cut: number }): PatchHunk[] {
  const out: PatchHunk[] = [];
  for (const h of p?.hunks ?? []) {
    const lines = h.lines.filter((l): l is string => typeof l === 'string');
    if (budget.left <= 0) {
      budget.cut += lines.length;
      continue;
    }
    const kept = lines.slice(0, budget.left);
    budget.cut += lines.length - kept.length;
    budget.left -= kept.length;
    out.push({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: kept });
  }
  return out;
}

/** The files of one v2 diff, as `_patch` contents; none (with a problem) when it names no file. */
export function decodeV2Diff(c: Obj, problems: Problems): PatchContent[] {
  const patchText = isObj(c.patch) ? str(c.patch.text) : undefined;
  if (isObj(c.patch) && c.patch.format !== undefined && c.patch.format !== 'git_patch') problems.push(`diff: a patch in the format "${String(c.patch.format).slice(0, 40)}", read as a git patch`);
  const files = patchText ? parsed(patchText, problems) : [];
  const byPath = new Map<string, StructuredPatch>();
  for (const f of files) for (const n of [...sideNames(f.newFileName), ...sideNames(f.oldFileName)]) if (!byPath.has(n)) byPath.set(n, f);
  let changes = (Array.isArray(c.changes) ? c.changes : []).filter(isObj).flatMap((ch) => {
    const path = str(ch.path);
    return path ? [{ path, oldPath: str(ch.oldPath), operation: str(ch.operation) ?? 'modify' }] : [];
  });
  if (!changes.length && files.length) {
    // No `changes` (a v1-minded agent): the patch's own files.
    changes = files.flatMap((f) => {
      const path = sideNames(f.newFileName).at(-1) ?? sideNames(f.oldFileName).at(-1);
      const operation = f.isCreate ? 'add' : f.isDelete ? 'delete' : f.isRename ? 'move' : 'modify';
      return path ? [{ path, oldPath: f.isRename ? sideNames(f.oldFileName).at(-1) : undefined, operation }] : [];
    });
  }
  if (changes.length > MAX_FILES) {
    problems.push(`diff: ${changes.length} changed files, the first ${MAX_FILES} shown`);
    changes = changes.slice(0, MAX_FILES);
  }
  const budget = { left: PATCH_MAX_LINES, cut: 0 };
  return changes.map(({ path, oldPath, operation }) => {
    const hunks = hunksOf(byPath.get(path) ?? (oldPath ? byPath.get(oldPath) : undefined), budget);
    const cut = budget.cut;
    budget.cut = 0;
    return { type: '_patch', path, ...(oldPath ? { oldPath } : {}), operation, hunks, ...(cut ? { cut } : {}) };
  });
}
