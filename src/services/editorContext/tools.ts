/**
 * The editor-context tools, read-only: the selection, the active and open
 * editors, the problems, workspace symbols and the visible ranges. Each answer
 * names only files the session's `FileScope` allows and is at most
 * `MAX_ANSWER_CHARS` of JSON; lists stop early and say `truncated`.
 * Lines and columns are 1-based.
 *
 * With the user's `acpAgents.editorTools`, also the client services ACP v2
 * moves out of the protocol (`CLIENT_TOOLS`): `read_file`, `write_file` and
 * `run_command`, served by the session's own `fs/*` and `terminal/*` handlers
 * (the same roots, protected paths, questions, Changes and Undo).
 * No `vscode` import.
 */
import * as path from 'node:path';
import type { ClientRequestHandler } from '../../acp/clientRequests';
import type { Diagnostic, EditorPort, EditorView, Range, Severity } from './editorPort';
import { FileScope } from './scope';

/** The most JSON text one answer carries. */
export const MAX_ANSWER_CHARS = 32_000;
/** The most selected text one answer carries (over all selections). */
export const MAX_SELECTION_CHARS = 16_000;
const MAX_SELECTIONS = 20;
const MAX_DIAGNOSTICS = 200;
const MAX_SYMBOLS = 100;
const MAX_MESSAGE_CHARS = 1_000;
const MAX_QUERY_CHARS = 200;
/** How long a scope's decisions about files are reused. */
const SCOPE_TTL_MS = 2_000;
/** How long a workspace symbol search may take before the tool gives up. */
const SYMBOL_TIMEOUT_MS = 5_000;

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/** A tool's answer: JSON data, plain text, or a message saying why not (`isError`). */
export type ToolResult = { readonly data: unknown } | { readonly text: string } | { readonly error: string };

/** The most text `read_file` answers with (a longer file is cut, and says how to read on). */
export const MAX_READ_CHARS = 200_000;
/** The most text `write_file` takes (as JSON, at most 6 bytes a character: within MAX_TOOLS_LINE_BYTES). */
const MAX_WRITE_CHARS = 1_000_000;
/** The most output `run_command` keeps (the newest), and how long it waits by default and at most. */
export const MAX_COMMAND_OUTPUT_BYTES = 64 * 1024;
const DEFAULT_COMMAND_SECONDS = 120;
const MAX_COMMAND_SECONDS = 600;
const MAX_ARGS = 200;

/** Arguments a tool cannot take: the caller answers JSON-RPC's invalid params. */
export class InvalidArguments extends Error {}

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];
const obj = (properties: Record<string, unknown> = {}) => ({ type: 'object', properties, additionalProperties: false });

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'get_selection',
    description: `The text selected in the active editor — or, when none is active (the focus is in the chat), in the editor last focused, marked "active": false: its file, each selection range (1-based lines and columns) and the selected text (at most ${MAX_SELECTION_CHARS} characters, and ${MAX_ANSWER_CHARS} for the whole answer; a cut text is marked truncated).`,
    inputSchema: obj(),
  },
  { name: 'get_open_editors', description: 'The active editor and the editors open in VS Code (files inside the session folders only), with unsaved changes marked.', inputSchema: obj() },
  {
    name: 'get_diagnostics',
    description: 'Problems (errors, warnings…) VS Code reports, for one file or the whole workspace, at or above a severity.',
    inputSchema: obj({
      file: { type: 'string', description: 'An absolute path, or a path relative to the first session folder. Omit for the whole workspace.' },
      severity: { type: 'string', enum: SEVERITIES, description: 'The least severe level to include (default: hint, i.e. all).' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_DIAGNOSTICS, description: `At most this many problems (default 100, at most ${MAX_DIAGNOSTICS}).` },
    }),
  },
  {
    name: 'search_workspace_symbols',
    description: 'Searches the workspace symbols (classes, functions, …) the language extensions know, by name.',
    inputSchema: {
      ...obj({
        query: { type: 'string', maxLength: MAX_QUERY_CHARS, description: 'Part of a symbol name.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SYMBOLS, description: `At most this many symbols (default 50, at most ${MAX_SYMBOLS}).` },
      }),
      required: ['query'],
    },
  },
  { name: 'get_visible_ranges', description: 'The line ranges visible in each editor on screen (1-based, inclusive).', inputSchema: obj() },
];

const pathProp = { type: 'string', maxLength: 4096, description: 'An absolute path, or a path relative to the first session folder.' };

/** The client services as tools (acpAgents.editorTools): offered only while the user has them on. */
export const CLIENT_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'read_file',
    description: `Reads a text file as VS Code sees it: an open editor's unsaved text, else the file on disk. Files outside the session folders are read only if the user allows it. At most ${MAX_READ_CHARS} characters per answer: use line and limit to read a long file in parts.`,
    inputSchema: {
      ...obj({
        path: pathProp,
        line: { type: 'integer', minimum: 1, description: 'The first line to read (1-based).' },
        limit: { type: 'integer', minimum: 1, description: 'At most this many lines.' },
      }),
      required: ['path'],
    },
  },
  {
    name: 'write_file',
    description: 'Writes a whole text file through VS Code: an undoable edit the user reviews as a diff (Keep or Undo) in the Changes list, saved. Protected paths (.vscode, .git, .env…) and paths outside the session folders need the user\'s yes.',
    inputSchema: {
      ...obj({ path: pathProp, content: { type: 'string', maxLength: MAX_WRITE_CHARS, description: 'The whole new content of the file.' } }),
      required: ['path', 'content'],
    },
  },
  {
    name: 'run_command',
    description: `Runs a program in a VS Code terminal the user can watch, in a session folder, and answers with its exit code and output (the last ${MAX_COMMAND_OUTPUT_BYTES / 1024} KB). Not a shell: give the program and its arguments (for a shell line, run e.g. "bash" with ["-c", "…"]). Killed after timeoutSeconds (default ${DEFAULT_COMMAND_SECONDS}), or when the call is cancelled.`,
    inputSchema: {
      ...obj({
        command: { type: 'string', maxLength: 4096, description: 'The program.' },
        args: { type: 'array', items: { type: 'string', maxLength: 32_768 }, maxItems: MAX_ARGS, description: 'Its arguments.' },
        cwd: { ...pathProp, description: 'The folder to run in (default: the first session folder).' },
        timeoutSeconds: { type: 'integer', minimum: 1, maximum: MAX_COMMAND_SECONDS, description: `Seconds to wait before it is killed (default ${DEFAULT_COMMAND_SECONDS}).` },
      }),
      required: ['command'],
    },
  },
];

const pos = (r: Range) => ({ startLine: r.start.line + 1, startColumn: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 });
const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** The longest start of `text` that JSON writes in at most `budget` characters (never half a surrogate pair). */
function jsonPrefix(text: string, budget: number): string {
  if (JSON.stringify(text).length - 2 <= budget) return text;
  let used = 0;
  let end = 0;
  for (const ch of text) {
    used += JSON.stringify(ch).length - 2;
    if (used > budget) break;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** Adds items to a list while the whole answer stays within `budget` characters of JSON. */
function fit<T>(items: Iterable<T>, budget: number, max: number): { list: T[]; truncated: boolean } {
  const list: T[] = [];
  let used = 2;
  for (const item of items) {
    const size = JSON.stringify(item).length + 1;
    if (list.length >= max || used + size > budget) return { list, truncated: true };
    list.push(item);
    used += size;
  }
  return { list, truncated: false };
}

function args(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new InvalidArguments('arguments must be an object');
  return raw as Record<string, unknown>;
}

function intArg(a: Record<string, unknown>, key: string, dflt: number, max: number): number {
  const v = a[key];
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) throw new InvalidArguments(`"${key}" must be an integer from 1 to ${max}`);
  return v;
}

/** The tools for one session: its folders (read on every call) and the editor. */
export class EditorTools {
  private lastScope: { key: string; at: number; scope: FileScope } | undefined;
  /** run_command's terminals still running, with the handler that made them: ended when the connection closes. */
  private readonly running = new Map<string, ClientRequestHandler>();

  /** `client`: the session's request handler while the user has acpAgents.editorTools on; undefined otherwise. */
  constructor(
    private readonly roots: () => readonly string[],
    private readonly port: EditorPort,
    private readonly client: () => ClientRequestHandler | undefined = () => undefined,
  ) {}

  /** The tools offered now. */
  definitions(): readonly ToolDefinition[] {
    return this.client() ? [...TOOLS, ...CLIENT_TOOLS] : TOOLS;
  }

  /** `cancelled`: the client gave up on this call (MCP notifications/cancelled). */
  async call(name: string, rawArgs: unknown, cancelled?: AbortSignal): Promise<ToolResult> {
    const a = args(rawArgs);
    if (!this.port.enabled()) return { error: 'Editor context is turned off in VS Code (the acpAgents.editorContext setting).' };
    if (CLIENT_TOOLS.some((t) => t.name === name)) {
      const client = this.client();
      if (!client) return { error: 'The file and terminal tools are turned off in VS Code (the acpAgents.editorTools setting).' };
      return await this.clientTool(client, name, a, cancelled);
    }
    const scope = this.scope();
    switch (name) {
      case 'get_selection':
        return this.selection(scope);
      case 'get_open_editors':
        return this.openEditors(scope);
      case 'get_diagnostics':
        return this.diagnostics(scope, a);
      case 'search_workspace_symbols':
        return await this.symbols(scope, a);
      case 'get_visible_ranges':
        return this.visibleRanges(scope);
      default:
        throw new InvalidArguments(`unknown tool "${clip(name, 100)}"`);
    }
  }

  /** read_file, write_file, run_command: the session's own fs/* and terminal/* handlers; their refusals are the answer. */
  private async clientTool(client: ClientRequestHandler, name: string, a: Record<string, unknown>, cancelled?: AbortSignal): Promise<ToolResult> {
    const file = (key: string, optional = false): string | undefined => {
      const v = a[key];
      if (v === undefined && optional) return undefined;
      if (typeof v !== 'string' || v === '' || v.length > 4096 || v.includes('\0')) throw new InvalidArguments(`"${key}" must be a path`);
      const first = this.roots()[0];
      if (path.isAbsolute(v)) return path.normalize(v);
      if (!first) throw new InvalidArguments(`"${key}" must be an absolute path: the session has no folder`);
      return path.join(first, v);
    };
    try {
      switch (name) {
        case 'read_file': {
          const line = a.line === undefined ? undefined : intArg(a, 'line', 1, Number.MAX_SAFE_INTEGER);
          const limit = a.limit === undefined ? undefined : intArg(a, 'limit', 1, Number.MAX_SAFE_INTEGER);
          const r = (await client({ method: 'fs/read_text_file', path: file('path')!, ...(line ? { line } : {}), ...(limit ? { limit } : {}) })) as { content?: unknown };
          const text = typeof r?.content === 'string' ? r.content : '';
          if (text.length <= MAX_READ_CHARS) return { text };
          // Never half a surrogate pair.
          const cut = text.slice(0, /[\ud800-\udbff]/.test(text[MAX_READ_CHARS - 1] ?? '') ? MAX_READ_CHARS - 1 : MAX_READ_CHARS);
          const lines = cut.split('\n').length - 1;
          const first = line ?? 1;
          return {
            text:
              lines === 0
                ? `${cut}\n… (cut at ${MAX_READ_CHARS} characters: line ${first} alone is longer than that, and is not read whole)`
                : `${cut}\n… (cut at ${MAX_READ_CHARS} characters: read on with line ${first + lines})`,
          };
        }
        case 'write_file': {
          if (typeof a.content !== 'string' || a.content.length > MAX_WRITE_CHARS) throw new InvalidArguments(`"content" must be a string of at most ${MAX_WRITE_CHARS} characters`);
          const target = file('path')!;
          await client({ method: 'fs/write_text_file', path: target, content: a.content });
          return { text: `Wrote ${target} (${Buffer.byteLength(a.content)} bytes).` };
        }
        case 'run_command':
          return await this.runCommand(client, a, file('cwd', true), cancelled);
        default:
          throw new InvalidArguments(`unknown tool "${clip(name, 100)}"`);
      }
    } catch (err) {
      if (err instanceof InvalidArguments) throw err;
      // A refusal (outside the folders, a protected path, the user's no, a missing file…): the agent is told why.
      return { error: clip(err instanceof Error ? err.message : String((err as { message?: unknown })?.message ?? err), 2_000) };
    }
  }

  /** A program in a VS Code terminal: waited for (at most timeoutSeconds, then killed), its output and exit, then released. */
  private async runCommand(client: ClientRequestHandler, a: Record<string, unknown>, cwd: string | undefined, cancelled?: AbortSignal): Promise<ToolResult> {
    if (typeof a.command !== 'string' || a.command === '' || a.command.length > 4096) throw new InvalidArguments('"command" must be a program');
    const argv = a.args ?? [];
    if (!Array.isArray(argv) || argv.length > MAX_ARGS || !argv.every((x): x is string => typeof x === 'string' && x.length <= 32_768)) throw new InvalidArguments(`"args" must be at most ${MAX_ARGS} strings`);
    const seconds = intArg(a, 'timeoutSeconds', DEFAULT_COMMAND_SECONDS, MAX_COMMAND_SECONDS);
    const { terminalId } = (await client({ method: 'terminal/create', command: a.command, args: argv, env: {}, ...(cwd ? { cwd } : {}), outputByteLimit: MAX_COMMAND_OUTPUT_BYTES })) as { terminalId: string };
    this.running.set(terminalId, client);
    let timer: NodeJS.Timeout | undefined;
    let onCancel: (() => void) | undefined;
    // Its time is up, or (stopOnCancel) the client cancelled the call: 'timeout' either way (the program is killed).
    const within = async <T>(p: Promise<T>, ms: number, stopOnCancel = true): Promise<T | 'timeout'> => {
      try {
        return await Promise.race([
          p,
          new Promise<'timeout'>((r) => {
            timer = setTimeout(() => r('timeout'), ms);
            if (!stopOnCancel) return;
            onCancel = () => r('timeout');
            if (cancelled?.aborted) r('timeout');
            else cancelled?.addEventListener('abort', onCancel, { once: true });
          }),
        ]);
      } finally {
        clearTimeout(timer);
        if (onCancel) cancelled?.removeEventListener('abort', onCancel);
      }
    };
    try {
      const ended = await within(client({ method: 'terminal/wait_for_exit', terminalId }), seconds * 1000);
      if (ended === 'timeout') {
        await client({ method: 'terminal/kill', terminalId });
        // Its exit status, when it comes soon: the output is answered either way.
        await within(client({ method: 'terminal/wait_for_exit', terminalId }), 5_000, false);
      }
      const out = (await client({ method: 'terminal/output', terminalId })) as { output: string; truncated: boolean; exitStatus?: { exitCode: number | null; signal: string | null } };
      const stopped = ended !== 'timeout' ? {} : cancelled?.aborted ? { cancelled: true } : { timedOut: true };
      return { data: { exitCode: out.exitStatus?.exitCode ?? null, signal: out.exitStatus?.signal ?? null, ...stopped, output: out.output, truncated: out.truncated } };
    } finally {
      this.running.delete(terminalId);
      await client({ method: 'terminal/release', terminalId }).catch(() => undefined);
    }
  }

  /** The agent's connection closed: no one waits for a running command any more, so it is killed. */
  close(): void {
    for (const [terminalId, client] of this.running) void client({ method: 'terminal/kill', terminalId }).catch(() => undefined);
  }

  /**
   * The scope for this call: the last one while the folders and files.exclude are the same and it is
   * younger than `SCOPE_TTL_MS` (a `when` clause looks at the disk), so that its decisions are reused;
   * where links lead is looked at again in each call.
   */
  private scope(): FileScope {
    const roots = this.roots();
    const key = JSON.stringify(roots.map((r) => [r, this.port.excludes(r)]));
    const now = Date.now();
    const last = this.lastScope;
    if (last && last.key === key && now - last.at < SCOPE_TTL_MS && last.scope.size < 200_000) {
      last.scope.newCall();
      return last.scope;
    }
    const scope = new FileScope(roots, this.port);
    this.lastScope = { key, at: now, scope };
    return scope;
  }

  private active(scope: FileScope): EditorView | undefined {
    const e = this.port.activeEditor();
    return e && scope.allows(e.file) ? e : undefined;
  }

  /**
   * The selection: at most `MAX_SELECTION_CHARS` of text, and the whole answer (file, ranges, texts
   * as JSON escapes them: a control character takes six) at most `MAX_ANSWER_CHARS`. A cut text says
   * `truncated` and its full length, and the answer says `truncated`.
   */
  private selection(scope: FileScope): ToolResult {
    const active = this.active(scope);
    // No text editor active (the user types in the chat): the one last focused inside the folders, said so.
    const e = active ?? (this.port.activeEditor() ? undefined : this.port.lastFocused().find((x) => scope.allows(x.file)));
    if (!e) return { data: { file: null, note: 'No editor inside the session folders is active.' } };
    const last = active ? {} : { active: false, note: 'No editor is active (the focus is elsewhere, e.g. in the chat): this is the editor last focused.' };
    const ranges = e.selections.slice(0, MAX_SELECTIONS);
    const more = e.selections.length > MAX_SELECTIONS ? { moreSelections: e.selections.length - MAX_SELECTIONS } : {};
    const answer = (selections: readonly object[], truncated: boolean) => ({ file: e.file, ...last, languageId: e.languageId, dirty: e.dirty, selections, ...more, ...(truncated ? { truncated } : {}) });
    // The answer with every text empty, yet marked cut at its longest: what is left is for the texts.
    const frame = answer(
      ranges.map((r) => ({ ...pos(r), text: '', truncated: true, length: Number.MAX_SAFE_INTEGER })),
      true,
    );
    let json = MAX_ANSWER_CHARS - JSON.stringify(frame).length;
    let left = MAX_SELECTION_CHARS;
    let cut = false;
    const selections = ranges.map((r) => {
      const empty = r.start.line === r.end.line && r.start.character === r.end.character;
      if ((left <= 0 || json <= 0) && !empty) {
        cut = true;
        return { ...pos(r), text: '', truncated: true };
      }
      const text = empty ? '' : e.text(r);
      const shown = jsonPrefix(text.slice(0, left), json);
      left -= shown.length;
      json -= JSON.stringify(shown).length - 2;
      if (shown.length < text.length) cut = true;
      return { ...pos(r), text: shown, ...(shown.length < text.length ? { truncated: true, length: text.length } : {}) };
    });
    return { data: answer(selections, cut) };
  }

  private openEditors(scope: FileScope): ToolResult {
    const e = this.active(scope);
    const active = e ? { file: e.file, languageId: e.languageId, dirty: e.dirty } : null;
    const { list, truncated } = fit(
      this.port.openEditors().filter((o) => scope.allows(o.file)),
      MAX_ANSWER_CHARS - 1_000,
      Infinity,
    );
    return { data: { active, openEditors: list, truncated } };
  }

  private diagnostics(scope: FileScope, a: Record<string, unknown>): ToolResult {
    const sev = a.severity ?? 'hint';
    if (typeof sev !== 'string' || !SEVERITIES.includes(sev as Severity)) throw new InvalidArguments(`"severity" must be one of ${SEVERITIES.join(', ')}`);
    const least = SEVERITIES.indexOf(sev as Severity);
    const limit = intArg(a, 'limit', 100, MAX_DIAGNOSTICS);
    let file: string | undefined;
    if (a.file !== undefined) {
      if (typeof a.file !== 'string' || a.file === '' || a.file.length > 4096) throw new InvalidArguments('"file" must be a path');
      const first = this.roots()[0];
      file = path.isAbsolute(a.file) ? path.normalize(a.file) : first ? path.join(first, a.file) : undefined;
      if (!file || !scope.allows(file)) return { error: `${clip(a.file, 300)} is not a file inside the session folders (or files.exclude hides it).` };
    }
    // Counted in one pass; listed lazily, most severe first (then in the editor's file order, by line),
    // so that a workspace with thousands of problems costs one pass, not a sort of them all.
    const allowed: (readonly [string, readonly Diagnostic[]])[] = [];
    let total = 0;
    for (const entry of this.port.diagnostics(file)) {
      if (!scope.counts(entry[0])) continue;
      allowed.push(entry);
      for (const d of entry[1]) if (SEVERITIES.indexOf(d.severity) <= least) total++;
    }
    const items = (function* () {
      for (let rank = 0; rank <= least; rank++) {
        for (const [f, all] of allowed) {
          const list = all.filter((d) => d.severity === SEVERITIES[rank]).sort((x, y) => x.range.start.line - y.range.start.line);
          // A file named in the answer: where its links lead is looked at now (the count used the scope's last look).
          if (list.length === 0 || !scope.allows(f)) continue;
          for (const d of list) {
            yield {
              file: f,
              ...pos(d.range),
              severity: d.severity,
              message: clip(d.message, MAX_MESSAGE_CHARS),
              ...(d.source ? { source: clip(d.source, 100) } : {}),
              ...(d.code ? { code: clip(d.code, 100) } : {}),
            };
          }
        }
      }
    })();
    const { list, truncated } = fit(items, MAX_ANSWER_CHARS - 200, limit);
    return { data: { total, diagnostics: list, truncated } };
  }

  private async symbols(scope: FileScope, a: Record<string, unknown>): Promise<ToolResult> {
    if (typeof a.query !== 'string' || a.query.length > MAX_QUERY_CHARS) throw new InvalidArguments(`"query" must be a string of at most ${MAX_QUERY_CHARS} characters`);
    const limit = intArg(a, 'limit', 50, MAX_SYMBOLS);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), SYMBOL_TIMEOUT_MS)));
    const found = await Promise.race([this.port.symbols(a.query), timeout]).finally(() => clearTimeout(timer));
    if (!found) return { error: `The workspace symbol search took longer than ${SYMBOL_TIMEOUT_MS / 1000} seconds.` };
    const items = (function* () {
      for (const s of found) {
        if (!scope.allows(s.file)) continue;
        yield { name: clip(s.name, 200), kind: s.kind, ...(s.containerName ? { containerName: clip(s.containerName, 200) } : {}), file: s.file, line: s.range.start.line + 1, column: s.range.start.character + 1 };
      }
    })();
    const { list, truncated } = fit(items, MAX_ANSWER_CHARS - 200, limit);
    return { data: { symbols: list, truncated } };
  }

  private visibleRanges(scope: FileScope): ToolResult {
    const active = this.port.activeEditor()?.file;
    const editors = this.port
      .visibleEditors()
      .filter((e) => scope.allows(e.file))
      .map((e) => ({ file: e.file, active: e.file === active, ranges: e.visibleRanges.slice(0, 20).map((r) => ({ startLine: r.start.line + 1, endLine: r.end.line + 1 })) }));
    const { list, truncated } = fit(editors, MAX_ANSWER_CHARS - 200, Infinity);
    return { data: { editors: list, truncated } };
  }
}
