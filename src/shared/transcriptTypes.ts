/**
 * The transcript model shared by the host (which owns it) and the webview
 * (which renders it). Plain JSON: it crosses postMessage.
 */

export interface ContentPart {
  /** `text` parts are concatenated into the message's markdown; others are shown beside it. */
  readonly type: string;
  readonly text?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly mimeType?: string;
  readonly data?: string;
}

export interface MessageItem {
  readonly kind: 'user' | 'agent' | 'thought';
  readonly id: string;
  messageId?: string;
  /** Markdown (agent, thought) or plain text (user) accumulated from text chunks. */
  text: string;
  /** Non-text content blocks (images, resource links, embedded resources, unknown types). */
  parts: ContentPart[];
}

export type ToolContent =
  | { readonly type: 'content'; readonly content: ContentPart }
  | { readonly type: 'diff'; readonly path: string; readonly oldText: string | null; readonly newText: string }
  | { readonly type: 'terminal'; readonly terminalId: string; output?: string; truncated?: boolean; end?: number; exitStatus?: { exitCode: number | null; signal: string | null } };

export interface ToolItem {
  readonly kind: 'tool';
  readonly id: string;
  readonly toolCallId: string;
  title: string;
  toolKind: string;
  status: string;
  name?: string | null;
  content: ToolContent[];
  locations: { path: string; line?: number }[];
  /** JSON text, shown on demand. */
  rawInput?: string;
  rawOutput?: string;
  /** Set locally after Stop for calls the agent did not finish. */
  cancelled?: boolean;
}

interface PlanEntryView {
  readonly content: string;
  readonly priority: string;
  readonly status: string;
}

export interface PlanItem {
  readonly kind: 'plan';
  readonly id: string;
  entries: PlanEntryView[];
}

export interface NoticeItem {
  readonly kind: 'notice';
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly description?: string;
}

export interface TurnEndItem {
  readonly kind: 'turn-end';
  readonly id: string;
  readonly stopReason: string;
}

export interface ErrorItem {
  readonly kind: 'error';
  readonly id: string;
  readonly message: string;
  /** The prompt to send again on Retry. */
  readonly retryPrompt?: string;
}

/** The agent compacted its context here: earlier messages stay, a summary may follow. */
export interface CompactionItem {
  readonly kind: 'compaction';
  readonly id: string;
  readonly compactionId: string;
  /** in_progress | completed | failed | cancelled (or a newer status, shown as it is). */
  status: string;
  /** The summary as Markdown (text blocks), growing with compaction_summary_chunk. */
  summary: string;
  error?: string;
}

export interface PermissionOptionView {
  readonly optionId: string;
  readonly name: string;
  /** An ACP option kind; `unknown` when missing or not one of them (never taken for an allow). */
  readonly kind: string;
}

export interface PermissionItem {
  readonly kind: 'permission';
  readonly id: string;
  readonly toolCallId: string;
  title: string;
  readonly options: PermissionOptionView[];
  state: 'pending' | 'answered' | 'cancelled' | 'auto';
  chosen?: string;
  /** The tool call's content at the time of the request (diff, command). */
  content: ToolContent[];
  rawInput?: string;
}

export type TranscriptItem = MessageItem | ToolItem | PlanItem | NoticeItem | TurnEndItem | ErrorItem | CompactionItem | PermissionItem;

export interface ConfigOptionView {
  readonly id: string;
  readonly name: string;
  readonly category?: string | null;
  readonly type: 'select' | 'boolean';
  readonly currentValue: string | boolean;
  /** Flattened select options (group names kept). */
  readonly options: { value: string; name: string; group?: string }[];
}

export interface HeaderState {
  title?: string;
  /** From `modes` (legacy) when the agent has no config options. */
  modes?: { currentModeId: string; availableModes: { id: string; name: string; description?: string | null }[] };
  configOptions: ConfigOptionView[];
  commands: { name: string; description: string; hint?: string }[];
  /** Files the agent changed in this session (reviewable, revertable where the old text is known). */
  changes?: { path: string; name: string; added: boolean; canRevert: boolean; sensitive?: string }[];
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } | null };
}

/** Changes from the host to the webview, applied in order. */
export type TranscriptDelta =
  | { readonly t: 'add'; readonly item: TranscriptItem }
  | { readonly t: 'put'; readonly item: TranscriptItem }
  | { readonly t: 'text'; readonly id: string; readonly text: string }
  /** New output of a client terminal, for every tool call that shows it (see shared/terminalText). */
  | { readonly t: 'term'; readonly terminalId: string; readonly text: string; readonly start: number; readonly truncated: boolean }
  | { readonly t: 'header'; readonly header: HeaderState };
