/**
 * The command table: every command the extension contributes, by id, each a
 * factory that gets the Ctx and returns the handler. The type makes the table
 * complete: a command in package.json without a handler here does not compile
 * (see test/unit/commands.test.ts for the package.json side).
 */
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import type { CommandFactory, CommandId } from './types';
import { agentCommands } from './agents';
import { diagnosticsCommands } from './diagnostics';
import { fileSessionCommands } from './fileSessions';
import { registryCommands } from './registry';
import { reviewCommands } from './review';
import { sessionCommands } from './sessions';
import { trustCommands } from './trust';
import { worktreeCommands } from './worktrees';

const COMMANDS: Record<CommandId, CommandFactory> = {
  ...sessionCommands,
  ...fileSessionCommands,
  ...agentCommands,
  ...trustCommands,
  ...registryCommands,
  ...reviewCommands,
  ...diagnosticsCommands,
  ...worktreeCommands,
};

/** Registers every command of the table. */
export function registerCommands(ctx: Ctx): vscode.Disposable[] {
  return (Object.entries(COMMANDS) as [CommandId, CommandFactory][]).map(([id, factory]) => vscode.commands.registerCommand(id, factory(ctx)));
}
