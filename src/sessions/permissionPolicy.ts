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

/**
 * What "allow always" covers: this agent, this session, this tool kind and the
 * tool's stable identity (its programmatic `name`, else its kind) — never the
 * agent-chosen title, which any other tool call can copy.
 */
export function permissionKey(agentId: string, sessionId: string, toolKind: string, toolName: string | null | undefined): string {
  return [agentId, sessionId, toolKind, toolName ?? `kind:${toolKind}`].join('\u0000');
}
