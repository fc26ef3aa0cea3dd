/**
 * What an agent is spoken to through: a local process over stdio (agentProcess.ts) or a
 * WebSocket to an agent elsewhere (agentSocket.ts). The runtime, the manager and the
 * diagnostics see only this. No `vscode` import.
 */
import type { ByteSink, ByteSource } from '../acp/transport';
import type { ExitInfo, SpawnSpec } from './agentProcess';

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
