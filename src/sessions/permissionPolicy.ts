/**
 * Which permission requests may be answered without asking, per the
 * `acpAgents.permissions.autoApprove` setting, and which option that picks.
 * No `vscode` import.
 */
export type AutoApprove = 'never' | 'read' | 'edits' | 'all';

const READ_KINDS = new Set(['read', 'search', 'think', 'fetch']);
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
  readonly kind: string;
}

/** The option that allows (once, or else always); undefined when the agent offers none. */
export function allowOption<T extends OptionLike>(options: readonly T[]): T | undefined {
  return options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always');
}

/** Requests that "allow always" covers within a session: same tool kind and title. */
export function permissionKey(toolKind: string, title: string): string {
  return `${toolKind}\u0000${title}`;
}
