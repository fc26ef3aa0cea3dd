/**
 * What the agent layer needs from the editor, as interfaces: the shell
 * (extension.ts / ctx.ts) passes VS Code's implementations in, unit tests pass
 * plain objects. Nothing here imports `vscode`.
 */
import type { AgentDefinition, AgentSettingsProblem, ProtocolChoice } from './agentDefinition';
import type { CancelToken } from './sessionRouter';

/** An output channel (VS Code's LogOutputChannel fits). */
export interface LogChannel {
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
  show(preserveFocus?: boolean): void;
  dispose(): void;
}

/** Makes output channels whose every line is redacted (see logging.ts). */
export interface LogFactory {
  channel(name: string): LogChannel;
  redactValue(value: unknown): unknown;
}

/** Messages to the user, with actions; resolves with the action picked. */
export interface Notifier {
  show(severity: 'info' | 'warning' | 'error', message: string, ...actions: string[]): PromiseLike<string | undefined>;
}

/** The settings the agent layer reads. */
export interface AgentSettings {
  agents(): { agents: AgentDefinition[]; problems: AgentSettingsProblem[] };
  trace(): 'off' | 'messages' | 'verbose';
  initializeTimeoutMs(): number;
  /** acpAgents.protocolVersion (user settings only): the ACP version offered to agents whose entry names none. Absent: "1". */
  protocolVersion?(): ProtocolChoice;
  /** Whether the user lets this agent be told that a trusted workspace is trusted (acpAgents.passWorkspaceTrust; user scope only). Absent: yes. */
  passWorkspaceTrust?(agentId: string): boolean;
}

/** The editor around the agents: progress, workspace trust, the default folder. */
export interface AgentHostUi {
  /** Runs `task` with a cancellable progress notification titled `title`. */
  withProgress<T>(title: string, task: (token: CancelToken) => Promise<T>): Promise<T>;
  isTrusted(): boolean;
  /** The first workspace folder, if any. */
  defaultFolder(): string | undefined;
  /** Every workspace folder (absent: the default folder only). */
  workspaceFolders?(): readonly string[];
  /** The user picked "Restart" on a crash notification. */
  restartRequested(agentId: string): void;
}

/** Secret values (VS Code's SecretStorage fits). */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** Small persisted values (VS Code's Memento fits). */
export interface KeyValueStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Runs a program in a visible terminal and resolves with its exit code once it closes. */
export type TerminalRunner = (opts: { name: string; command: string; args: string[]; env: Record<string, string>; cwd: string | undefined }) => Promise<number | undefined>;
