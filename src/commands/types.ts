/**
 * The command table's types, apart from the table (index.ts) and the groups
 * that fill it: every group file imports them, and they import nothing of the
 * groups, so no import runs in a circle (rust-analyzer keeps its
 * `CommandFactory` next to the Ctx for the same reason).
 */
import type { Ctx } from '../ctx';

/** A command: given the Ctx, its handler. */
export type CommandFactory = (ctx: Ctx) => (...args: any[]) => unknown;

export type CommandId =
  | 'acpAgents.newSession'
  | 'acpAgents.resumeSession'
  | 'acpAgents.cancel'
  | 'acpAgents.restartAgent'
  | 'acpAgents.showLog'
  | 'acpAgents.signIn'
  | 'acpAgents.signOut'
  | 'acpAgents.forkSession'
  | 'acpAgents.exportTranscript'
  | 'acpAgents.addFolderToSession'
  | 'acpAgents.openSession'
  | 'acpAgents.deleteSession'
  | 'acpAgents.refreshSessions'
  | 'acpAgents.manageMcpTrust'
  | 'acpAgents.installAgent'
  | 'acpAgents.updateAgents'
  | 'acpAgents.uninstallAgent'
  | 'acpAgents.pinAgentVersion'
  | 'acpAgents.unpinAgentVersion'
  | 'acpAgents.keepHunk'
  | 'acpAgents.undoHunk'
  | 'acpAgents.keepFile'
  | 'acpAgents.undoFile'
  | 'acpAgents.nextChange'
  | 'acpAgents.previousChange'
  | 'acpAgents.focusComposer'
  | 'acpAgents.allowPermission'
  | 'acpAgents.rejectPermission'
  | 'acpAgents.showDiagnostics'
  | 'acpAgents.copyDiagnostics'
  | 'acpAgents.sessionsThatChangedFile'
  | 'acpAgents.newSessionInWorktree'
  | 'acpAgents.finishWorktree';
