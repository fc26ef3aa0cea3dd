/**
 * What a session needs from the editor, as interfaces: the shell passes the
 * VS Code implementations (services/, chat/), unit tests pass plain objects.
 * Nothing here imports `vscode`.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { ClientRequestHandler, CreateTerminal, ReadTextFile, WriteTextFile } from '../acp/clientRequests';
import type { AgentRuntime } from '../agents/agentRuntime';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { Disposable, Event } from '../shared/events';
import type { PatchHunk } from '../shared/patch';
import type { AccessAction, AccessAnswer, AccessContext, AccessQuestion } from './policy/accessGate';
import type { RelayListener, RelayRegistration } from '../node/mcpRelay/hub';
import type { McpSelection } from './mcp/mcpServers';
import type { ReadAttachment } from './promptBuilder';
import type { RestoreOutcome } from './checkpoints/restore';
import type { Attachment } from '../shared/attachments';
import type { AutoApprove } from './policy/permissionPolicy';
import type { FileTouches } from './checkpoints/fileTouches';
import type { SessionIndex } from './store/sessionIndex';
import type { TranscriptArchive } from './store/transcriptArchive';

/** `fs/*` for agents, held to the session's folders (services/files/fileService.ts). */
interface SessionFiles {
  guard(ctx: AccessContext, action: AccessAction, p: unknown): Promise<string>;
  read(ctx: AccessContext, request: ReadTextFile, opts?: { missingAsEmpty?: () => void }): Promise<acp.ReadTextFileResponse>;
  write(ctx: AccessContext, request: WriteTextFile, onBefore?: (file: string, before: Buffer | null) => void): Promise<acp.WriteTextFileResponse>;
  /** The protected-path glob a file falls under, if any. */
  protectedGlob(file: string, roots: readonly string[]): string | undefined;
  /** The protected-path globs in force (the defaults, the user's additions, less those dropped). */
  protectedGlobs(): readonly string[];
  askAccess(q: AccessQuestion): Promise<AccessAnswer | undefined>;
}

/** New output of an agent's terminal, for the panel. */
export interface TerminalDelta {
  readonly terminalId: string;
  readonly text: string;
  readonly start: number;
  readonly truncated: boolean;
  readonly exitStatus?: { exitCode: number | null; signal: string | null };
}

/** `terminal/*` for agents (services/terminals.ts); `owner` keeps sessions' terminals apart. */
export interface SessionTerminals {
  readonly onDidChange: Event<TerminalDelta>;
  create(owner: string, label: string, cwd: string, request: CreateTerminal): Promise<acp.CreateTerminalResponse>;
  output(owner: string, terminalId: string): acp.TerminalOutputResponse;
  waitForExit(owner: string, terminalId: string): Promise<acp.WaitForTerminalExitResponse>;
  kill(owner: string, terminalId: string): acp.KillTerminalResponse;
  release(owner: string, terminalId: string): acp.ReleaseTerminalResponse;
  killAll(owner: string): void;
  nameAfterToolCall(terminalId: string, title: string): void;
}

/** What the Changes list shows of one file. */
export interface ChangeEntry {
  readonly path: string;
  readonly name: string;
  readonly added: boolean;
  /** The agent deleted it (or renamed it away). */
  readonly deleted?: boolean;
  readonly canRevert: boolean;
  /** The protected-path glob the file falls under (`.vscode/**`…), when it does. */
  readonly sensitive?: string;
}

/** The session's checkpoints, as the change tracker sees them (sessions/checkpoints/checkpoints.ts). */
export interface TurnObserver {
  /** The running turn touched a file; `before`: its bytes before (null: missing; undefined: unknown). */
  touch(file: string, before: Buffer | null | undefined): void;
  /** What a file held when the running turn began, when an earlier turn made it known. */
  knownBefore(file: string): Buffer | null | undefined;
}

/** The files an agent changed in a session (services/files/changeTracker.ts). */
export interface ChangeTracking extends Disposable {
  readonly onDidChange: Event<void>;
  /** Every change of a turn is also reported to the session's checkpoints. */
  observe(turn: TurnObserver): void;
  record(file: string, before: Buffer | null | undefined): void;
  noteDiff(file: string, oldText: string | null, newText: string, roots: readonly string[]): void;
  /** One file of an ACP v2 diff: its hunks, which tell what it held before once the disk holds what they left. */
  notePatch(file: string, hunks: readonly PatchHunk[], roots: readonly string[]): void;
  settle(final?: boolean): void;
  watch(roots: readonly string[]): void;
  /** At a turn's end: the files it created that no watcher event reported, found by listing again. */
  sweep(): Promise<void>;
  unwatch(): void;
  list(): ChangeEntry[];
  open(file: string): Promise<void>;
  reviewAll(): Promise<void>;
  revert(file: string): Promise<boolean>;
  has(file: string): boolean;
  /** The text before the agent's change, when it can be reviewed hunk by hunk. */
  reviewBase(file: string): string | undefined;
  /** Part of a change kept: the text before now includes it. */
  accept(file: string, before: string): void;
  /** A file edited back to its text before leaves the list. */
  recheck(file: string): void;
  keep(file: string): void;
  keepAll(): void;
  revertAll(): Promise<number>;
  /** The files Revert / Undo may write now (never through a link; outside or protected ones asked); the user hears of the rest. */
  mayWrite(files: readonly string[]): Promise<ReadonlySet<string>>;
}

/** The settings a session reads. */
interface SessionSettings {
  autoApprove(): AutoApprove;
  /** The user's instructions for every agent (acpAgents.instructions); empty: none. */
  instructions(): string;
  keepSessionsAlive(): boolean;
  /** acpAgents.passWorkspaceTrust for one agent (user scope only); absent: yes. */
  passWorkspaceTrust?(agentId: string): boolean;
}

/** The MCP relay (node/mcpRelay): how a session learns what became of its stdio MCP servers. */
export interface McpRelayService {
  /**
   * A registration for one session's relays (its secret already on the redaction list), with the
   * program that runs the relay; undefined when relays cannot run here.
   */
  register(listener: RelayListener): Promise<{ readonly registration: RelayRegistration; readonly node: string; readonly script: string } | undefined>;
  /**
   * These stdio servers served over loopback Streamable HTTP (for an agent that takes http but
   * refuses stdio): the http entries to hand over, and the end of their serving (with the session).
   */
  serveHttp?(servers: readonly acp.McpServerStdio[], cwd: string): Promise<{ readonly servers: acp.McpServer[]; dispose(): void }>;
}

/** One session's access to the editor-context MCP server. */
export interface EditorContextAccess {
  /** The server to hand the agent now; undefined while the user has it turned off. */
  entry(): acp.McpServer | undefined;
  dispose(): void;
}

/** Where sessions are remembered, and what else a session needs from the extension. */
export interface SessionServices {
  readonly settings: SessionSettings;
  readonly index: SessionIndex;
  readonly archive: TranscriptArchive;
  /** Which turns of which sessions changed which files. */
  readonly fileTouches: FileTouches;
  readonly files: SessionFiles;
  readonly terminals: SessionTerminals;
  /** A change tracker for one session; `sensitive` names the protected glob of a file; `access`: whom Revert / Undo ask. */
  changeTracker(sensitive: (file: string) => string | undefined, access: () => AccessContext): ChangeTracking;
  /** The MCP servers to hand this agent (filtered by its capabilities; workspace ones only once trusted). */
  mcpServers(rt: AgentRuntime, cwd: string, agentName: string): Promise<McpSelection>;
  /** Stdio MCP servers go through the relay when this is there (sessions/parts/mcpStatus.ts). */
  readonly mcpRelay?: McpRelayService;
  /**
   * The editor's own MCP server for a session whose folders are `roots()` (acpAgents.editorContext); undefined: not available.
   * `v2()`: the session's agent speaks ACP v2, which has no client fs/terminal methods: `client` is served as tools whatever acpAgents.editorTools says.
   */
  editorContext?(roots: () => readonly string[], client?: ClientRequestHandler, v2?: () => boolean): Promise<EditorContextAccess | undefined>;
  /** An empty folder in global storage: the root of a session when no folder is open. */
  scratchRoot(): string;
  /**
   * The session that worked in this scratch folder ended: the folder goes once every agent process
   * that had it (`holders`: their exits) exited (only a scratch folder of ours is ever removed).
   */
  releaseScratch(dir: string, holders: readonly Promise<unknown>[]): void;
  /**
   * Whether `folder` may become a session's root: yes inside the workspace folders; else the user is
   * asked (a past session's folder comes from the agent's list). Absent: yes.
   */
  confirmRoot?(agentName: string, folder: string): Promise<boolean>;
  /** Other workspace folders, sent as additionalDirectories where supported (for a worktree session, not the checkout it came from). */
  additionalDirectories(cwd: string): string[];
  /** The git worktree made for sessions that `cwd` is (services/worktrees.ts), if it is one. */
  worktree?(cwd: string): { readonly branch: string; readonly baseLabel: string; readonly repoTop: string } | undefined;
  /** Opens a new session of the same agent (from an archive-only panel). */
  newSession(def: AgentDefinition): void;
  /**
   * Forks a session of the agent into a new panel (ACP: Fork Session); with `rewind`, taken just before
   * that earlier message, whose new text is then sent there (Edit, Retry). Resolves with whether the fork was made.
   */
  forkSession(def: AgentDefinition, sessionId: string, rewind?: RewindRequest): Promise<boolean>;
  /** A file attachment's text at send time: an open editor's (unsaved changes included), else the disk's through a verified open; refused when it no longer leads to `real`. */
  readText: ReadAttachment;
  /** A file's bytes now: an editor's unsaved text, else the disk's (null: missing; undefined: unreadable or too large). */
  currentBytes(file: string): Buffer | null | undefined;
  /** Puts files back in one undoable edit (null: remove the file), each checked first (see RestoreOutcome). */
  restoreFiles(entries: readonly { path: string; bytes: Buffer | null }[], label: string, access: AccessContext): Promise<RestoreOutcome>;
  /** VS Code's diff editor between two texts of a file. */
  showDiff(file: string, left: string | null, right: string, title: string): Promise<void>;
  /** Asks why the user undid the agent's change to `file` (as shown to the agent); undefined: no reason (Escape, empty, or acpAgents.changes.askReasonOnUndo off). */
  askUndoReason?(file: string): Promise<string | undefined>;
}

/** What a fork taken before an earlier message needs. */
export interface RewindRequest {
  /** The message, as its ordinal (from 1) among the session's own user messages. */
  readonly message: number;
  /** Its text, shortened: what the marker and the agent are told was taken back. */
  readonly quote: string;
  /** What is sent in the fork instead. */
  readonly text: string;
  readonly attachments: readonly Attachment[];
  /** Whether files were restored to before the message first (true: some may have been kept, as the user chose). */
  readonly restored?: boolean;
}
