/**
 * The transcript model shared by the host (which owns it) and the webview
 * (which renders it). Plain JSON: it crosses postMessage.
 */
import type { Attachment } from './attachments';
import type { PatchHunk } from './patch';

export interface ContentPart {
  /** `text` parts are concatenated into the message's markdown; others are shown beside it. */
  readonly type: string;
  readonly text?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly mimeType?: string;
  readonly data?: string;
}

/** What every item has: its id, and the subagent card it belongs in (none: the session's own timeline). */
interface ItemBase {
  readonly id: string;
  /** The id of the SubagentItem whose card holds this item. */
  parent?: string;
}

export interface MessageItem extends ItemBase {
  readonly kind: 'user' | 'agent' | 'thought';
  messageId?: string;
  /** Markdown (agent, thought) or plain text (user) accumulated from text chunks. */
  text: string;
  /** Non-text content blocks (images, resource links, embedded resources, unknown types). */
  parts: ContentPart[];
  /** A user message whose turn began a checkpoint that can be restored ("Restore files to here"). */
  checkpoint?: string;
  /** The user pinned this message (user and agent messages of the session's own timeline; see sessions/parts/pins.ts). */
  pinned?: boolean;
}

export type ToolContent =
  | { readonly type: 'content'; readonly content: ContentPart }
  | { readonly type: 'diff'; readonly path: string; readonly oldText: string | null; readonly newText: string }
  /** One file of an ACP v2 diff: its operation and the hunks of the agent's patch (none: the patch named no lines of it). */
  | { readonly type: 'patch'; readonly path: string; readonly oldPath?: string; readonly operation: string; readonly hunks: readonly PatchHunk[]; readonly cut?: number }
  | { readonly type: 'terminal'; readonly terminalId: string; output?: string; truncated?: boolean; end?: number; exitStatus?: { exitCode: number | null; signal: string | null } }
  /** The tool call runs a subagent: a link to its card. */
  | { readonly type: 'session'; readonly sessionId: string };

export interface ToolItem extends ItemBase {
  readonly kind: 'tool';
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

export interface PlanItem extends ItemBase {
  readonly kind: 'plan';
  /** Set for plans sent with plan_update (several per session); none for the legacy \`plan\`. */
  readonly planId?: string;
  /** A checklist, or a Markdown document (\`markdown\`), or a file the plan is in (\`uri\`). */
  format: 'items' | 'markdown' | 'file';
  entries: PlanEntryView[];
  markdown?: string;
  /** The file a Markdown plan came from, or the file of a \`file\` plan (absolute path or URI). */
  path?: string;
}

/** A child session the agent runs (a subagent): its card holds the child's own items. */
export interface SubagentItem extends ItemBase {
  readonly kind: 'subagent';
  readonly sessionId: string;
  title: string;
  description?: string;
  /** running | idle | requires_action | unknown | (a newer state, shown as it is); none: not reported. */
  state?: string;
  stopReason?: string;
  error?: string;
  /** The child advertised \`cancel\`: the card offers Stop. */
  canCancel: boolean;
  cwd?: string;
}

/** A message between a session and one of its subagents (session_message, streamed by session_message_chunk). */
export interface SessionMessageItem extends ItemBase {
  readonly kind: 'session-message';
  readonly messageId: string;
  /** Who sent it and who gets it, in words ("Main agent", a subagent's title). */
  from: string;
  to: string;
  text: string;
  parts: ContentPart[];
}

export interface NoticeItem extends ItemBase {
  readonly kind: 'notice';
  readonly severity: string;
  readonly title: string;
  readonly description?: string;
}

export interface TurnEndItem extends ItemBase {
  readonly kind: 'turn-end';
  readonly stopReason: string;
}

export interface ErrorItem extends ItemBase {
  readonly kind: 'error';
  readonly message: string;
  /** The prompt to send again on Retry. */
  readonly retryPrompt?: string;
}

/** The agent compacted its context here: earlier messages stay, a summary may follow. */
export interface CompactionItem extends ItemBase {
  readonly kind: 'compaction';
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

export interface PermissionItem extends ItemBase {
  readonly kind: 'permission';
  readonly toolCallId: string;
  title: string;
  readonly options: PermissionOptionView[];
  state: 'pending' | 'answered' | 'cancelled' | 'auto';
  chosen?: string;
  /** The tool call's content at the time of the request (diff, command). */
  content: ToolContent[];
  rawInput?: string;
  /** The card of the tool call asked about, when the transcript has it: the question is shown on that card. */
  toolItemId?: string;
}

/** One field of a form elicitation, as the panel shows it. */
export interface ElicitationFieldView {
  readonly key: string;
  readonly title: string;
  readonly description?: string;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';
  readonly required: boolean;
  readonly options: { value: string; title: string }[];
  readonly def?: unknown;
  readonly min?: number;
  readonly max?: number;
}

/** The agent asks the user (elicitation/create): a form, or a page to open. Shown in its session's panel. */
export interface ElicitationItem extends ItemBase {
  readonly kind: 'elicitation';
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly fields: ElicitationFieldView[];
  readonly url?: string;
  readonly host?: string;
  /** withdrawn: the agent cancelled its request; completed: the agent said the page's work is done. */
  state: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'withdrawn' | 'completed';
  /** Per field, why the last answer was not accepted. */
  errors?: Record<string, string>;
}

export type TranscriptItem =
  | MessageItem
  | ToolItem
  | PlanItem
  | NoticeItem
  | TurnEndItem
  | ErrorItem
  | CompactionItem
  | PermissionItem
  | SubagentItem
  | SessionMessageItem
  | ElicitationItem;

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
  /** From legacy \`models\` (session/set_model) when the agent has no config option of category "model". */
  models?: { currentModelId: string; availableModels: { modelId: string; name: string; description?: string | null }[] };
  configOptions: ConfigOptionView[];
  commands: { name: string; description: string; hint?: string }[];
  /** Files the agent changed in this session (reviewable, revertable where the old text is known). */
  changes?: { path: string; name: string; added: boolean; deleted?: boolean; canRevert: boolean; sensitive?: string }[];
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } | null };
  /** Messages typed while a turn runs, sent one per turn when it ends (in order); their attachments come back on Edit. */
  queue?: { id: string; text: string; attachments: readonly Attachment[] }[];
  /** What the queue's "Send now" does now: steer the running turn (the agent serves steering), stop it, or just send (no turn runs). */
  sendNow?: 'steer' | 'stop' | 'send';
  /** "Restore files to here": what restoring to a user message would do, and how it went. */
  restore?: RestoreView;
  /** What the agent takes in a prompt besides text (promptCapabilities), for the empty session's welcome. */
  accepts?: { image: boolean; embeddedContext: boolean };
  /** Pinned messages, in the order of the conversation, for the strip at the top of the panel. */
  pins?: PinView[];
  /** The MCP servers handed to the agent (or left out) and what became of each (sessions/parts/mcpStatus.ts). */
  mcp?: { servers: McpStatusView[]; note?: string };
  /** Folders the user added to the session (context folders), as chips; `canAdd`: the agent advertises additionalDirectories. */
  folders?: { readonly canAdd: boolean; readonly list: readonly FolderView[] };
}

/** One MCP server's status as the panel shows it: all text (the server's own words untrusted). */
export interface McpStatusView {
  readonly name: string;
  readonly state: string;
  readonly text: string;
  /** What the user can do: show the agent's log, open the trust setting, open the agents setting. */
  readonly action?: 'showLog' | 'trustSetting' | 'agentSettings';
  /** The first tool names it listed, joined. */
  readonly tools?: string;
}

/** A folder the user added to a session. */
export interface FolderView {
  readonly path: string;
  readonly name: string;
  /** Deleted (or no longer a folder) since it was added. */
  readonly missing: boolean;
}

/** A pinned message as the strip shows it. */
export interface PinView {
  /** Stable across a reload (role, ordinal, text hash); what Unpin names. */
  readonly key: string;
  readonly role: 'user' | 'agent';
  /** The start of the message's text (plain text: the agent's, untrusted). */
  readonly text: string;
  /** The message's item in the transcript shown now; none when it is not in this history. */
  readonly id?: string;
}

/** The confirmation (and then the outcome) of restoring files to a checkpoint. */
export interface RestoreView {
  readonly checkpoint: string;
  /** The user message the checkpoint belongs to. */
  readonly messageId: string;
  readonly state: 'confirm' | 'restoring' | 'done' | 'undone' | 'failed';
  /** The restore goes before an Edit or Retry of this message (its ordinal): the card offers to leave the files the user changed, then continues. */
  readonly rewind?: number;
  readonly files: readonly { path: string; name: string; action: 'restore' | 'recreate' | 'delete' | 'unknown'; userEdited: boolean }[];
  readonly note?: string;
}

/** Changes from the host to the webview, applied in order. */
export type TranscriptDelta =
  | { readonly t: 'add'; readonly item: TranscriptItem }
  | { readonly t: 'put'; readonly item: TranscriptItem }
  /** An item is gone (a removed plan). */
  | { readonly t: 'remove'; readonly id: string }
  | { readonly t: 'text'; readonly id: string; readonly text: string }
  /** New output of a client terminal, for every tool call that shows it (see shared/terminalText). */
  | { readonly t: 'term'; readonly terminalId: string; readonly text: string; readonly start: number; readonly truncated: boolean }
  | { readonly t: 'header'; readonly header: HeaderState };
