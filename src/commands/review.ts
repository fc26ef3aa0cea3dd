/** Keep / Undo the agent's changes, a hunk or a whole file at a time (services/files/hunkReview.ts). */
import * as vscode from 'vscode';
import type { CommandFactory } from './types';

const uriArg = (v: unknown): vscode.Uri | undefined => (v instanceof vscode.Uri ? v : undefined);
const indexArg = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

export const reviewCommands = {
  'acpAgents.keepHunk': ((ctx) => (uri?: unknown, index?: unknown) => ctx.review.keepHunk(uriArg(uri), indexArg(index))) satisfies CommandFactory,
  'acpAgents.undoHunk': ((ctx) => (uri?: unknown, index?: unknown) => ctx.review.undoHunk(uriArg(uri), indexArg(index))) satisfies CommandFactory,
  'acpAgents.keepFile': ((ctx) => (uri?: unknown) => ctx.review.keepFile(uriArg(uri))) satisfies CommandFactory,
  'acpAgents.undoFile': ((ctx) => (uri?: unknown) => ctx.review.undoFile(uriArg(uri))) satisfies CommandFactory,
  'acpAgents.nextChange': ((ctx) => () => ctx.review.goTo(1)) satisfies CommandFactory,
  'acpAgents.previousChange': ((ctx) => () => ctx.review.goTo(-1)) satisfies CommandFactory,
} as const;
