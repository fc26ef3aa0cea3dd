/**
 * What an agent is spoken to through: a local process over stdio (agentProcess.ts) or a
 * WebSocket to an agent elsewhere (agentSocket.ts). The runtime, the manager and the
 * diagnostics see only this. No `vscode` import.
 */
import type { ByteSink, ByteSource } from '../acp/transport';
import type { PathMapping } from './pathMap';

export interface AgentLink {
  /** How it was started: the program, or (`remote`) the URL. */
  readonly spec: SpawnSpec;
  /** The agent's messages (stdout, or the socket's text frames as lines). */
  readonly input: ByteSource;
  /** To the agent (stdin, or one text frame per message). */
  readonly output: ByteSink;
  /** The local process id (none for a socket). */
  readonly pid: number | undefined;
  readonly hasExited: boolean;
  readonly exit: ExitInfo | undefined;
  readonly exited: Promise<ExitInfo>;
  /** The last lines of its stderr (a socket has none). */
  stderrTail(lines?: number): string[];
  onExit(listener: (info: ExitInfo) => void): void;
  /** Ends it for good; `requested` false: ended for misbehaving (reported as a crash). */
  stop(requested?: boolean): Promise<ExitInfo>;
  /** Ends it at once (VS Code is shutting down). */
  killNow(): void;
}

export interface SpawnSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What the compatibility entries did to the environment, in words (for the diagnostics). */
  readonly launchNotes?: readonly string[];
  /** gemini-cli was not told to trust the workspace because the user did not accept its Gemini settings (agents/geminiWorkspace.ts). */
  readonly trustWithheld?: boolean;
  /** An agent by URL (agents/agentSocket.ts): `command` is the URL, and nothing is spawned. */
  readonly remote?: RemoteSpec;
}

export interface RemoteSpec {
  readonly url: string;
  /** Sent with the WebSocket upgrade (a bearer token); never logged. */
  readonly headers: Readonly<Record<string, string>>;
  /** Its folders and this machine's, expanded (agents/pathMap.ts): the client file system and terminal are offered through them. */
  readonly pathMap?: readonly PathMapping[];
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  readonly spawnError?: Error;
  /** True when we asked it to stop. */
  readonly requested: boolean;
  /** An agent by URL: the socket closed after it was open (its close code and reason). */
  readonly closed?: { readonly code: number; readonly reason: string };
  /** An agent by URL: the socket never opened (refused, unreachable, a TLS certificate refused, an HTTP answer). */
  readonly unreachable?: { readonly why: string; readonly status?: number };
}
