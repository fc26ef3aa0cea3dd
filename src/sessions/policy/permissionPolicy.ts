/**
 * Which permission requests may be answered without asking, per the
 * `acpAgents.permissions.autoApprove` setting, which option that picks, and
 * what an "allow always" answer covers. No `vscode` import.
 */
export type AutoApprove = 'never' | 'read' | 'edits' | 'all';

/** Kinds that only look: never `fetch` (it reaches the network) or `execute`. */
const READ_KINDS = new Set(['read', 'search']);
const EDIT_KINDS = new Set(['edit', 'delete', 'move']);

export function autoApproves(setting: AutoApprove, toolKind: string): boolean {
  switch (setting) {
    case 'never':
      return false;
    case 'read':
      return READ_KINDS.has(toolKind);
    case 'edits':
      return READ_KINDS.has(toolKind) || EDIT_KINDS.has(toolKind);
    case 'all':
      return true;
  }
}

export interface OptionLike {
  readonly optionId: string;
  /** Undefined when the agent gave none (or one we do not know): never an allow. */
  readonly kind: string | undefined;
}

/** The option that allows (once, or else always); undefined when the agent offers none. */
export function allowOption<T extends OptionLike>(options: readonly T[]): T | undefined {
  return options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always');
}

/** What an "allow always" answer is matched on: the call as the agent describes it. */
export interface CallShape {
  readonly toolKind: string;
  readonly toolName: string | null | undefined;
  /** The title the agent gave (undefined when it gave none). */
  readonly title: string | undefined;
  /** The call's `rawInput`, parsed. */
  readonly rawInput: unknown;
}

/** Inputs that describe a call without changing what it does: left out of its argument shape. */
const DESCRIPTIVE_KEYS = new Set(['description', 'title', 'justification', 'reason', 'explanation', 'timeout', 'timeout_ms', 'timeoutMs']);
const COMMAND_KINDS = new Set(['execute', 'fetch']);
/** Input keys of other tools whose value is what runs: an "always" covers only the same value. */
const RUNS_KEYS = new Set(['command', 'cmd', 'commandline', 'command_line', 'args', 'argv', 'script', 'code', 'sql', 'query', 'program', 'shell', 'exec', 'url']);

/** The command line of an execute call: `rawInput.command` or `.cmd`, an array joined with spaces. */
function commandOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) return undefined;
  const r = rawInput as Record<string, unknown>;
  for (const v of [r.command, r.cmd]) {
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (Array.isArray(v) && v.length && v.every((x) => typeof x === 'string')) return v.join(' ').trim();
  }
  return undefined;
}

/** JSON with sorted keys, so equal inputs give equal text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * What one "allow always" covers besides its agent and session, or undefined when the call
 * cannot be remembered:
 * - `execute`, `fetch`: the tool and the exact command (`rawInput.command`/`cmd`; for fetch the
 *   whole input) with every other argument that changes what runs (cwd, env…; descriptions and
 *   timeouts aside) — else, with no input, the title the agent gave; with neither, nothing.
 *   One "always" for `npm test` never covers `curl … | sh`.
 * - `read`, `search`, `edit`, `delete`, `move`: the tool (its `name`, else its kind); the paths
 *   are checked on every call (an outside or protected path, or none, is always asked).
 * - any other kind: the named tool, the shape of its input (its keys) and the values of the keys
 *   that say what runs (`command`, `script`, `sql`, `url`…); a nameless one, nothing.
 * Never the agent-chosen title alone where a name or input identifies the call.
 */
export function alwaysScope(call: CallShape): string | undefined {
  const { toolKind, rawInput, title } = call;
  const name = call.toolName ?? '';
  const input = typeof rawInput === 'object' && rawInput !== null && !Array.isArray(rawInput) ? (rawInput as Record<string, unknown>) : undefined;
  if (COMMAND_KINDS.has(toolKind)) {
    const command = commandOf(rawInput);
    const rest = input ? Object.fromEntries(Object.entries(input).filter(([k]) => !DESCRIPTIVE_KEYS.has(k) && (command === undefined || (k !== 'command' && k !== 'cmd')))) : {};
    if (command !== undefined || Object.keys(rest).length) return [toolKind, name, 'input', command ?? '', canonical(rest)].join('\u0000');
    if (rawInput !== undefined && rawInput !== null && !input) return [toolKind, name, 'input', canonical(rawInput)].join('\u0000');
    return title ? [toolKind, name, 'title', title].join('\u0000') : undefined;
  }
  if (READ_KINDS.has(toolKind) || EDIT_KINDS.has(toolKind)) return [toolKind, call.toolName ?? `kind:${toolKind}`].join('\u0000');
  if (!call.toolName) return undefined;
  // What decides what such a tool runs (an MCP tool's `command`, `sql`…) must be the same too, not only the keys.
  const runs = input ? Object.fromEntries(Object.entries(input).filter(([k]) => RUNS_KEYS.has(k.toLowerCase()))) : {};
  return [toolKind, call.toolName, 'shape', input ? Object.keys(input).sort().join(',') : typeof rawInput, canonical(runs)].join('\u0000');
}

/** The key an "allow always" answer is kept under: this agent, this session, and what {@link alwaysScope} says it covers. */
export function permissionKey(agentId: string, sessionId: string, scope: string): string {
  return [agentId, sessionId, scope].join('\u0000');
}
