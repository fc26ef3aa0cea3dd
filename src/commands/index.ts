/**
 * The command table: every command the extension contributes, by id, each a
 * factory that gets the Ctx and returns the handler. The type makes the table
 * complete: a command in package.json without a handler here does not compile
 * (see test/unit/commands.test.ts for the package.json side).
 */
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { agentCommands } from './agents';
import { registryCommands } from './registry';
import { reviewCommands } from './review';
import { sessionCommands } from './sessions';
import { trustCommands } from './trust';

export type CommandFactory = (ctx: Ctx) => (...args: any[]) => unknown;

type CommandId =
  | 'acpAgents.newSession'
  | 'acpAgents.resumeSession'
  | 'acpAgents.cancel'
  | 'acpAgents.restartAgent'
  | 'acpAgents.showLog'
  | 'acpAgents.signIn'
  | 'acpAgents.signOut'
  | 'acpAgents.forkSession'
  | 'acpAgents.exportTranscript'
  | 'acpAgents.openSession'
  | 'acpAgents.deleteSession'
  | 'acpAgents.refreshSessions'
  | 'acpAgents.manageMcpTrust'
  | 'acpAgents.installAgent'
  | 'acpAgents.updateAgents'
  | 'acpAgents.uninstallAgent'
  | 'acpAgents.keepHunk'
  | 'acpAgents.undoHunk'
  | 'acpAgents.keepFile'
  | 'acpAgents.undoFile'
  | 'acpAgents.nextChange'
  | 'acpAgents.previousChange'
  | 'acpAgents.focusComposer'
  | 'acpAgents.allowPermission'
  | 'acpAgents.rejectPermission';

const COMMANDS: Record<CommandId, CommandFactory> = {
  ...sessionCommands,
  ...agentCommands,
  ...trustCommands,
  ...registryCommands,
  ...reviewCommands,
};

/** Registers every command of the table. */
export function registerCommands(ctx: Ctx): vscode.Disposable[] {
  return (Object.entries(COMMANDS) as [CommandId, CommandFactory][]).map(([id, factory]) => vscode.commands.registerCommand(id, factory(ctx)));
}
