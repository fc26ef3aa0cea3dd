/**
 * Which files the editor-context tools may name: those inside the session's
 * folders that `files.exclude` does not hide (as the Explorer hides them: a
 * pattern hides a matching file or any file below a matching folder; a
 * `{ when: "$(basename).ts" }` clause hides it only next to that sibling).
 * Built once per call, then cheap per file. No `vscode` import.
 */
import * as path from 'node:path';
import picomatch from 'picomatch';
import { isInside, realPathLoose } from '../../platform/pathPolicy';
import type { EditorPort } from './editorPort';

interface Folder {
  readonly roots: readonly string[];
  readonly always: ((p: string) => boolean) | undefined;
  readonly conditional: readonly { match: (p: string) => boolean; when: string }[];
}

export class FileScope {
  private readonly folders: Folder[];

  constructor(roots: readonly string[], port: Pick<EditorPort, 'excludes' | 'exists'>, platform: NodeJS.Platform = process.platform) {
    const nocase = platform === 'win32' || platform === 'darwin';
    this.exists = (f) => port.exists(f);
    this.folders = roots.map((root) => {
      const real = realPathLoose(root);
      const always: string[] = [];
      const conditional: { match: (p: string) => boolean; when: string }[] = [];
      for (const [glob, v] of Object.entries(port.excludes(root))) {
        if (v === true) always.push(glob);
        else if (typeof v === 'object' && v !== null && typeof v.when === 'string') conditional.push({ match: picomatch(glob, { dot: true, nocase }), when: v.when });
      }
      return { roots: real === root ? [root] : [root, real], always: always.length ? picomatch(always, { dot: true, nocase }) : undefined, conditional };
    });
  }

  private readonly exists: (file: string) => boolean;

  /** Whether the tools may name this file. */
  allows(file: string): boolean {
    if (!path.isAbsolute(file)) return false;
    for (const f of this.folders) {
      for (const root of f.roots) {
        if (!isInside(file, root)) continue;
        return !this.excluded(f, root, path.relative(root, file).split(path.sep).join('/'));
      }
    }
    return false;
  }

  private excluded(f: Folder, root: string, rel: string): boolean {
    if (rel === '') return false;
    // The path and each folder above it: a pattern naming a folder hides what is inside.
    for (let p = rel; p; p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') {
      if (f.always?.(p)) return true;
      for (const c of f.conditional) {
        if (!c.match(p)) continue;
        const base = path.posix.basename(p);
        const stem = base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base;
        const sibling = c.when.replace(/\$\(basename\)/g, stem);
        if (this.exists(path.join(root, path.posix.dirname(p), sibling))) return true;
      }
    }
    return false;
  }
}
