/** Parses JSON with comments and trailing commas (settings.json, mcp.json, .code-workspace). No `vscode` import. */
export function parseJsonc(text: string): unknown {
  const stripped = text
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str: string | undefined) => str ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(stripped) as unknown;
}
