/**
 * Which files the editor-context tools may name: those inside the session's
 * folders, by their real paths as `fs/read_text_file` holds them (a link inside
 * a folder to a file outside is outside), that `files.exclude` does not hide (as the Explorer hides them: a
 * pattern hides a matching file or any file below a matching folder; a
 * `{ when: "$(basename).ts" }` clause hides it only next to that sibling).
 * Built once per call, then cheap per file. No `vscode` import.
 */
import * as path from 'node:path';
import picomatch from 'picomatch';
import { pathChecker, realPathLoose } from '../../node/pathPolicy';
import type { EditorPort } from './editorPort';

/** Matchers by their globs, kept across calls: a regular expression used again is already compiled to machine code. */
const matchers = new Map<string, (p: string) => boolean>();

/** One regular expression for globs (picomatch's own matcher function costs more per path than the test). */
function matcher(globs: readonly string[], nocase: boolean): (p: string) => boolean {
  const key = JSON.stringify([nocase, globs]);
  let m = matchers.get(key);
  if (!m) {
    const re = new RegExp(globs.map((g) => `(?:${picomatch.makeRe(g, { dot: true, nocase }).source})`).join('|'), nocase ? 'i' : '');
    m = (p) => re.test(p);
    if (matchers.size >= 100) matchers.clear();
    matchers.set(key, m);
  }
  return m;
}

interface Folder {
  readonly roots: readonly string[];
  readonly always: ((p: string) => boolean) | undefined;
  readonly conditional: readonly { match: (p: string) => boolean; when: string }[];
  /** Per root: paths (files and the folders above them) already decided in this scope. */
  readonly decided: Map<string, Map<string, boolean>>;
}

export class FileScope {
  private readonly folders: Folder[];

  constructor(roots: readonly string[], port: Pick<EditorPort, 'excludes' | 'exists'>, platform: NodeJS.Platform = process.platform) {
    const nocase = platform === 'win32' || platform === 'darwin';
    this.nocase = nocase;
    this.exists = (f) => port.exists(f);
    this.roots = roots;
    this.inside = pathChecker(roots);
    this.folders = roots.map((root) => {
      const real = realPathLoose(root);
      const always: string[] = [];
      const conditional: { match: (p: string) => boolean; when: string }[] = [];
      for (const [glob, v] of Object.entries(port.excludes(root))) {
        if (v === true) always.push(glob);
        else if (typeof v === 'object' && v !== null && typeof v.when === 'string') conditional.push({ match: matcher([glob], nocase), when: v.when });
      }
      return { roots: real === root ? [root] : [root, real], always: always.length ? matcher(always, nocase) : undefined, conditional, decided: new Map() };
    });
  }

  private readonly exists: (file: string) => boolean;
  private readonly roots: readonly string[];
  /** The boundary of fs reads: the file's real path inside a folder's real path (links resolved in this call). */
  private inside: ReturnType<typeof pathChecker>;

  /** A new tool call uses this scope: links are resolved again (the files.exclude decisions are kept). */
  newCall(): void {
    this.inside = pathChecker(this.roots);
  }
  private readonly nocase: boolean;
  /** How many paths are decided (see `Folder.decided`). */
  size = 0;

  /**
   * Whether the tools may name this file: its path and, when a link leads elsewhere, its real path
   * inside the folders and not hidden.
   */
  allows(file: string): boolean {
    return this.shown(file) && this.realInside(file);
  }

  /**
   * `allows` with where links led when this scope last looked (at most its lifetime ago): for counting
   * what there is, never for naming a file in an answer (`allows` is asked for those).
   */
  counts(file: string): boolean {
    return this.shown(file) && (this.seen.get(file) ?? this.realInside(file));
  }

  /** Links looked at now: the real path inside a folder and not hidden there. */
  private realInside(file: string): boolean {
    const { resolved, inside } = this.inside(file);
    const ok = inside && (resolved === file || this.shown(resolved));
    if (!this.seen.has(file)) this.size++;
    this.seen.set(file, ok);
    return ok;
  }

  /** The last `realInside` answer for each file (see `counts`). */
  private readonly seen = new Map<string, boolean>();

  /** Whether `file`, as spelled, is below a folder (or its real path) and not hidden by files.exclude. */
  private shown(file: string): boolean {
    if (!path.isAbsolute(file)) return false;
    for (const f of this.folders) {
      for (const root of f.roots) {
        if (file === root) return true;
        const prefix = root.endsWith(path.sep) ? root : root + path.sep;
        if (!(this.nocase ? file.toLowerCase().startsWith(prefix.toLowerCase()) : file.startsWith(prefix))) continue;
        const rel = file.slice(prefix.length);
        return !this.excluded(f, root, path.sep === '/' ? rel : rel.split(path.sep).join('/'));
      }
    }
    return false;
  }

  /** Whether `rel` (a path below `root`, with `/`) or a folder above it is excluded; folders are answered once per scope. */
  private excluded(f: Folder, root: string, rel: string): boolean {
    const decided = f.decided.get(root) ?? f.decided.set(root, new Map()).get(root)!;
    const known = decided.get(rel);
    if (known !== undefined) return known;
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    let hidden = (parent !== '' && this.excluded(f, root, parent)) || (f.always?.(rel) ?? false);
    for (const c of hidden ? [] : f.conditional) {
      if (!c.match(rel)) continue;
      const base = path.posix.basename(rel);
      const stem = base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base;
      const sibling = c.when.replace(/\$\(basename\)/g, stem);
      if (this.exists(path.join(root, parent, sibling))) {
        hidden = true;
        break;
      }
    }
    decided.set(rel, hidden);
    this.size++;
    return hidden;
  }
}
