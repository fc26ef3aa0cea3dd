/**
 * What a session's parts share, and the shape of a part. A part (parts/*.ts)
 * owns one feature's state — the queue, subagents, past sessions, … — and is
 * handed a `SessionCore`: the session as every part may see it, nothing more.
 * AgentSession keeps the list of parts and tells each what happened through
 * the hooks below; a part never reaches into another's state. The model is
 * vscode-languageserver-node's features: one file per capability, a narrow
 * client, one short list. No `vscode` import.
 */
import type { DecodedUpdate } from '../acp/decode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentRuntime } from '../agents/agentRuntime';
import type { PartMethods } from '../agents/clientMethods';
import type { Disposable } from '../shared/events';
import type { SessionServices } from './ports';
import type { SessionPhase } from './sessionState';
import type { Change, Transcript } from './transcript';

/** The session as every part may use it. */
export interface SessionCore {
  readonly def: AgentDefinition;
  readonly services: SessionServices;
  /** The agent process the session is open on, while it is attached. */
  runtime(): AgentRuntime | undefined;
  sessionId(): string | undefined;
  /** The transcript shown now (a load or the archive replaces it: never keep it). */
  transcript(): Transcript;
  emit(changes: readonly Change[]): void;
  phase(): SessionPhase;
  setPhase(phase: SessionPhase): void;
  /** A turn runs, or one is claimed and its prompt is being built. */
  busy(): boolean;
  /** The folders the session may touch: the roots sent, or its folder before any were. */
  roots(): readonly string[];
  /** The session's folder: the one it was opened for, or an empty scratch folder. */
  workingFolder(): string;
  log(message: string): void;
}

/** One line of a session's archive, as written (an update, or a client-side record such as `_turn_end`). */
export type ArchivedLine = { readonly sessionUpdate?: unknown; readonly [key: string]: unknown };

/** One feature of a session. Every hook is optional; AgentSession calls them in the order of its list of parts. */
export interface SessionPart extends Disposable {
  /** The agent → client methods it serves: its table bound to it (`bindMethods`, agents/clientMethods.ts). */
  readonly methods?: PartMethods;
  /** The session is open on `runtime` as `sessionId` (new, load, resume, fork). */
  attached?(runtime: AgentRuntime, sessionId: string): void;
  /** The session left its runtime (before another attach, an exit, a failed open). */
  detached?(): void;
  /** An update the transcript has applied; `child`: a subagent's; `live`: not a load's replay of history. */
  update?(update: DecodedUpdate, child: string | undefined, live: boolean): void;
  /** A prompt turn began. */
  turnBegan?(): void;
  /** The turn of `sessionId` ended: with its stop reason, or undefined when it failed. */
  turnEnded?(sessionId: string, stopReason: string | undefined): void;
  /** Questions to the user are withdrawn: all of them, or only the session's own (`ownOnly`: subagents go on). */
  withdraw?(reason: string, ownOnly: boolean): void;
  /** Replaying the archive: true when this line is the part's own (it showed it). */
  archivedLine?(line: ArchivedLine): boolean;
}
