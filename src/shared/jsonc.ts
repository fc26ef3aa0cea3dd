/**
 * Parses JSON with comments and trailing commas (settings.json, mcp.json,
 * .code-workspace) with `jsonc-parser`, the parser VS Code itself reads these
 * files with, and as tolerantly: what VS Code would read from a slightly broken
 * file, we read too (a setting a workspace sets there is still seen). No `vscode` import.
 */
import { parse } from 'jsonc-parser';

export function parseJsonc(text: string): unknown {
  return parse(text, [], { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true }) as unknown;
}
