/**
 * Parses JSON with comments and trailing commas (settings.json, mcp.json,
 * .code-workspace) with `jsonc-parser`, the parser VS Code itself reads these
 * files with, and as tolerantly: what VS Code would read from a slightly broken
 * file, we read too (a setting a workspace sets there is still seen). No `vscode` import.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

const OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

export function parseJsonc(text: string): unknown {
  return parse(text, [], OPTIONS) as unknown;
}

/** Where a JSONC text first breaks the syntax: 1-based line and column, and what is wrong ("comma expected"). */
export interface JsoncProblem {
  readonly line: number;
  readonly column: number;
  readonly what: string;
}

/** The first syntax error of a JSONC text (read as `parseJsonc` reads it), or undefined when there is none. */
export function jsoncProblem(text: string): JsoncProblem | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, OPTIONS);
  const first = errors[0];
  if (!first) return undefined;
  const before = text.slice(0, first.offset);
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  // "CommaExpected" → "comma expected"
  const what = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return { line: before.split(/\r\n|\r|\n/).length, column: first.offset - lineStart + 1, what };
}
