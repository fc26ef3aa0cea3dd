/** Path display helpers shared by the host and the webview. No `vscode`, no Node imports. */

/** `p` relative to `root` when it lies inside it (either separator), else `p` unchanged. */
export function relativeTo(root: string | undefined, p: string): string {
  const r = root?.replace(/[\\/]+$/, '');
  if (!r || p.length <= r.length + 1 || !p.startsWith(r)) return p;
  const sep = p[r.length];
  return sep === '/' || sep === '\\' ? p.slice(r.length + 1) : p;
}
