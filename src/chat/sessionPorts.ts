/**
 * What every session gets from the editor (sessions/ports.ts), wired from
 * the extension's services: the composition root passes itself in.
 */
import * as vscode from 'vscode';
import type { DiffDocuments } from './diffDocuments';
import { makeScratch, removeScratchAfter } from '../node/scratchFolders';
import type { FileTouches } from '../sessions/checkpoints/fileTouches';
import type { SessionServices } from '../sessions/ports';
import type { SessionIndex } from '../sessions/store/sessionIndex';
import type { TranscriptArchive } from '../sessions/store/transcriptArchive';
import type { SessionRootQuestion } from '../ui/sessionRootPrompt';
import type { UserMessages } from '../ui/userMessages';
import { forLabel } from '../shared/nativeText';
import { overlaps, type Worktrees } from '../services/worktrees';
import { readText } from './attachmentSources';
import { ChangeTracker } from '../services/files/changeTracker';
import type { EditorContextService } from '../services/editorContext/service';
import type { FileService } from '../services/files/fileService';
import type { HunkReview } from '../services/files/hunkReview';
import type { McpRelays } from '../services/mcpRelays';
import type { McpServerSources } from '../services/mcpServerSources';
import { currentBytes, restoreFiles } from '../services/files/restoreFiles';
import type { TerminalService } from '../services/terminals';
import { workspaceFolderPaths } from '../services/workspaceFolders';

/** The services a session's are made of (the composition root has them all). */
export interface SessionServiceSources {
  readonly config: SessionServices['settings'] & { askReasonOnUndo(): boolean };
  readonly index: SessionIndex;
  readonly archive: TranscriptArchive;
  readonly fileTouches: FileTouches;
  readonly files: FileService;
  readonly terminals: TerminalService;
  readonly diffs: DiffDocuments;
  readonly review: HunkReview;
  readonly messages: UserMessages;
  readonly mcp: McpServerSources;
  readonly mcpRelays: McpRelays;
  readonly editorContext: EditorContextService;
  readonly sessionRoots: SessionRootQuestion;
  readonly worktrees: Worktrees;
  readonly scratchDir: string;
  readonly log: vscode.LogOutputChannel;
  /** VS Code's input box (the tests answer it). */
  readonly undoReasonBox: (options: vscode.InputBoxOptions) => Thenable<string | undefined>;
}

export function sessionServices(s: SessionServiceSources): SessionServices {
  return {
    settings: s.config,
    index: s.index,
    archive: s.archive,
    fileTouches: s.fileTouches,
    files: s.files,
    terminals: s.terminals,
    changeTracker: (sensitive, access) =>
      new ChangeTracker(
        (file, before, after, title) => s.diffs.open(file, before, after, title),
        (file, before, after) => s.diffs.uris(file, before, after),
        sensitive,
        (file, title) => s.review.open(file, title),
        (file) => s.files.vetUserWrite(access(), file),
        (message) => void s.messages.show('warning', message),
      ),
    mcpServers: (rt, cwd, agentName) => s.mcp.forSession(rt, cwd, agentName),
    mcpRelay: s.mcpRelays,
    editorContext: (roots, client, v2) => s.editorContext.forSession(roots, client, v2),
    scratchRoot: () => makeScratch(s.scratchDir),
    releaseScratch: (dir, holders) => void removeScratchAfter(s.scratchDir, dir, holders, (m) => s.log.warn(`scratch folder: ${m}`)),
    // A session of a worktree removed since: its history, read-only, and why.
    confirmRoot: async (agentName, folder) => {
      const gone = s.worktrees.removedAt(folder);
      if (!gone) return await s.sessionRoots.confirm(agentName, folder);
      void s.messages.show('info', gone.removed === 'kept' ? vscode.l10n.t('This session worked in a worktree that was removed; its branch {0} was kept. Its local history is shown, read-only.', forLabel(gone.branch, 200)) : vscode.l10n.t('This session worked in a worktree that was discarded with its branch {0}. Its local history is shown, read-only.', forLabel(gone.branch, 200)));
      return false;
    },
    // A worktree session is kept apart from the checkout it came from and from the other worktrees: those folders
    // (or one around or in them, by real path too) are not sent.
    additionalDirectories: (cwd) => {
      const apart = s.worktrees.of(cwd) ? [s.worktrees.of(cwd)!.repoTop, ...s.worktrees.all().map((w) => w.dir)] : [];
      return workspaceFolderPaths().filter((f) => f !== cwd && !apart.some((a) => overlaps(f, a)));
    },
    worktree: (cwd) => s.worktrees.of(cwd),
    newSession: (def) => void vscode.commands.executeCommand('acpAgents.newSession', def.id),
    forkSession: async (def, sessionId, rewind) => (await vscode.commands.executeCommand<unknown>('acpAgents.forkSession', { agentId: def.id, sessionId, ...(rewind ? { rewind } : {}) })) === true,
    readText,
    currentBytes,
    restoreFiles: (entries, label, access) => restoreFiles(entries, label, (file) => s.files.vetUserWrite(access, file)),
    showDiff: (file, left, right, title) => s.diffs.open(file, left, right, title),
    askUndoReason: async (file) =>
      s.config.askReasonOnUndo()
        ? await s.undoReasonBox({
            title: vscode.l10n.t("You undid the agent's change to {0}", forLabel(file)),
            prompt: vscode.l10n.t("Why undo the agent's change? (optional; sent with your next message. Escape skips)"),
            ignoreFocusOut: false,
          })
        : undefined,
  };
}
