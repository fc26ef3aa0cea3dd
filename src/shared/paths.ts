/** Path display helpers shared by the host and the webview. No `vscode`, no Node imports. */

/** `p` relative to `root` when it lies inside it (either separator), else `p` unchanged. */
export function relativeTo(root: string | undefined, p: string): string {
  const r = root?.replace(/[\\/]+$/, '');
  if (!r || p.length <= r.length + 1 || !p.startsWith(r)) return p;
  const sep = p[r.length];
  return sep === '/' || sep === '\\' ? p.slice(r.length + 1) : p;
}

/** Text (a tool call's title, say) with every absolute path inside `root` shown relative to it. */
export function relativizeText(root: string | undefined, text: string): string {
  const r = root?.replace(/[\\/]+$/, '');
  if (!r || !text.includes(r)) return text;
  return text.split(`${r}/`).join('').split(`${r}\\`).join('');
}
