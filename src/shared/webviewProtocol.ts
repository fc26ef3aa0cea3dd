/**
 * The messages between the extension host and the chat webview. Compiled by both
 * sides; every `switch` over them is exhaustive.
 */
import { isAttachment, type Attachment, type Mention } from './attachments';
import type { HeaderState, TranscriptDelta, TranscriptItem } from './transcriptTypes';

export type PanelAction = 'restart' | 'reconnect' | 'retry' | 'showLog' | 'signIn' | 'stop' | 'newSession' | 'fork' | 'export' | 'trustSetting' | 'agentSettings';

export interface PanelStatus {
  /** What is going on, in words ('' when there is nothing to say). */
  readonly text: string;
  readonly busy: boolean;
  readonly inputEnabled: boolean;
  readonly actions: readonly PanelAction[];
  readonly severity?: 'info' | 'error';
  /** Set while a past session's history is loading. */
  readonly loading?: boolean;
}

export interface PanelInfo {
  readonly agentId: string;
  readonly agentName: string;
  readonly title: string;
  /** The session's folder: paths inside it are shown relative to it. */
  readonly cwd?: string;
}

export type HostToWebview =
  | {
      readonly type: 'init';
      readonly panel: PanelInfo;
      readonly status: PanelStatus;
      /** The newest items; the webview asks for older ones (`older`) while `olderPending` > 0. */
      readonly items: readonly TranscriptItem[];
      readonly olderPending: number;
      readonly header: HeaderState;
    }
  /** Older history, asked for by the webview: the items just before what it has, and how many are older still. */
  | { readonly type: 'older'; readonly items: readonly TranscriptItem[]; readonly remaining: number }
  | { readonly type: 'status'; readonly status: PanelStatus }
  /** Put the keyboard in the composer (ACP: Focus Chat Input). */
  | { readonly type: 'focus' }
  /** Scroll to an item and give it the keyboard (a turn picked in "Sessions That Changed This File"). */
  | { readonly type: 'reveal'; readonly id: string }
  | { readonly type: 'deltas'; readonly deltas: readonly TranscriptDelta[] }
  /** The session the panel shows, persisted in the webview state for the serializer. */
  | { readonly type: 'session'; readonly sessionId: string | undefined }
  | { readonly type: 'attachments'; readonly add: readonly Attachment[] }
  /** Why something dropped on the composer was not attached, shown under its chips. */
  | { readonly type: 'composerNote'; readonly text: string }
  /** Edit of an earlier message: its text in the composer, "editing message N" (its attachments follow as `attachments`). */
  | { readonly type: 'editing'; readonly id: string; readonly message: number; readonly text: string }
  /** How an Edit or Retry ended: made (the fork's panel goes on), or not, with why (the composer keeps the edit). */
  | { readonly type: 'rewound'; readonly ok: boolean; readonly note?: string }
  /** What an @-mention may attach (answering `findFiles`). */
  | { readonly type: 'mentions'; readonly requestId: number; readonly items: readonly Mention[] };

export type WebviewToHost =
  | { readonly type: 'ready' }
  /** The items before `before` (the oldest the webview has; `pending`: how many it still expects). */
  | { readonly type: 'older'; readonly before: string; readonly pending: number }
  /** `rewind`: the earlier user message this text replaces (Edit): restore, fork before it, send there. */
  | { readonly type: 'send'; readonly text: string; readonly attachments?: readonly Attachment[]; readonly rewind?: string }
  /** On an earlier user message: Edit (into the composer) or Retry (the same text, at once). */
  | { readonly type: 'rewind'; readonly action: 'edit' | 'retry'; readonly id: string }
  | { readonly type: 'attach' }
  | { readonly type: 'findFiles'; readonly query: string; readonly requestId: number }
  | { readonly type: 'dropUris'; readonly uris: readonly string[] }
  /** The user picked the @-mention entry for `uri` from the list answering `requestId` (only that entry becomes attachable). */
  | { readonly type: 'mentionPicked'; readonly requestId: number; readonly uri: string }
  | { readonly type: 'action'; readonly action: PanelAction }
  | { readonly type: 'permission'; readonly id: string; readonly optionId: string }
  /** Why the user rejected permission request `id` (after the reject answer went): sent with the next prompt. */
  | { readonly type: 'permissionReason'; readonly id: string; readonly reason: string }
  | { readonly type: 'openLocation'; readonly path: string; readonly line?: number }
  | { readonly type: 'openDiff'; readonly id: string; readonly index: number }
  | { readonly type: 'openLink'; readonly href: string }
  | { readonly type: 'setConfig'; readonly configId: string; readonly value: string | boolean }
  | { readonly type: 'setMode'; readonly modeId: string }
  | { readonly type: 'setModel'; readonly modelId: string }
  /** Follow the agent: open the files its tool calls point at, as they do. */
  | { readonly type: 'follow'; readonly on: boolean }
  /** Stop a subagent's current work (only offered when it advertised cancel). */
  | { readonly type: 'stopSubagent'; readonly sessionId: string }
  /** A queued message: removed, taken back into the composer (edit), or sent now (steered into the running turn, or the running turn is stopped). */
  | { readonly type: 'queue'; readonly action: 'remove' | 'edit' | 'sendNow'; readonly id: string }
  /** An answer to an elicitation: the form's values (as typed) with accept. */
  | { readonly type: 'elicitation'; readonly id: string; readonly action: 'accept' | 'decline' | 'cancel'; readonly values?: Readonly<Record<string, string | string[]>> }
  | { readonly type: 'retry'; readonly id: string }
  /** Files the agent changed: one file's review (a diff with Keep/Undo per hunk), Keep, Undo; or all of them. */
  | { readonly type: 'change'; readonly action: ChangeAction; readonly path?: string }
  /** Restore files to a user message's checkpoint: preview first, then restore; undo it; a diff of a file the user edited since. */
  | { readonly type: 'checkpoint'; readonly action: CheckpointAction; readonly id: string; readonly path?: string }
  /** Pin a message (`id`: its item), or unpin one (`id`: its item, or the pin's key from the strip). */
  | { readonly type: 'pin'; readonly action: 'pin' | 'unpin'; readonly id: string }
  /** Context folders: add one (the host asks which), or remove an added one (`path`: as its chip names it). */
  | { readonly type: 'folder'; readonly action: 'add' | 'remove'; readonly path?: string };

export type ChangeAction = 'open' | 'revert' | 'keep' | 'reviewAll' | 'keepAll' | 'revertAll';
/** `restoreKeep`: restore, leaving the files the user changed since (an Edit's or Retry's card). */
export type CheckpointAction = 'preview' | 'restore' | 'restoreKeep' | 'undo' | 'dismiss' | 'diff';
const CHANGE_ACTIONS: readonly string[] = ['open', 'revert', 'keep', 'reviewAll', 'keepAll', 'revertAll'] satisfies ChangeAction[];
const CHECKPOINT_ACTIONS: readonly string[] = ['preview', 'restore', 'restoreKeep', 'undo', 'dismiss', 'diff'] satisfies CheckpointAction[];

/** The state a panel persists across a window reload (through `WebviewPanelSerializer`). */
export interface PersistedPanelState {
  readonly agentId: string;
  readonly sessionId?: string;
  readonly draft?: string;
  readonly scrollTop?: number;
}

const ACTIONS: readonly string[] = ['restart', 'reconnect', 'retry', 'showLog', 'signIn', 'stop', 'newSession', 'fork', 'export', 'trustSetting', 'agentSettings'] satisfies PanelAction[];
const str = (v: unknown): v is string => typeof v === 'string';

/** Checks a message from the webview (never trust its shape). */
/** A form's values as typed: at most 100 fields, each a string or a list of at most 100 strings. */
function isFormValues(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const entries = Object.entries(v);
  return entries.length <= 100 && entries.every(([, x]) => str(x) || (Array.isArray(x) && x.length <= 100 && x.every(str)));
}

export function isWebviewToHost(value: unknown): value is WebviewToHost {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return true;
    case 'older':
      return str(m.before) && typeof m.pending === 'number' && Number.isSafeInteger(m.pending) && m.pending >= 0;
    case 'send':
      return str(m.text) && (m.attachments === undefined || (Array.isArray(m.attachments) && m.attachments.length <= 100 && m.attachments.every(isAttachment))) && (m.rewind === undefined || (str(m.rewind) && m.rewind.length <= 200));
    case 'rewind':
      return (m.action === 'edit' || m.action === 'retry') && str(m.id) && m.id.length <= 200;
    case 'attach':
      return true;
    case 'findFiles':
      return str(m.query) && typeof m.requestId === 'number';
    case 'dropUris':
      return Array.isArray(m.uris) && m.uris.length <= 100 && m.uris.every(str);
    case 'mentionPicked':
      return typeof m.requestId === 'number' && str(m.uri);
    case 'action':
      return str(m.action) && ACTIONS.includes(m.action);
    case 'permission':
      return str(m.id) && str(m.optionId);
    case 'permissionReason':
      return str(m.id) && str(m.reason) && m.reason.length <= 4000;
    case 'openLocation':
      return str(m.path) && (m.line === undefined || typeof m.line === 'number');
    case 'openDiff':
      return str(m.id) && typeof m.index === 'number';
    case 'openLink':
      return str(m.href);
    case 'setConfig':
      return str(m.configId) && (str(m.value) || typeof m.value === 'boolean');
    case 'setMode':
      return str(m.modeId);
    case 'setModel':
      return str(m.modelId);
    case 'follow':
      return typeof m.on === 'boolean';
    case 'stopSubagent':
      return str(m.sessionId);
    case 'queue':
      return (m.action === 'remove' || m.action === 'edit' || m.action === 'sendNow') && str(m.id);
    case 'elicitation':
      return str(m.id) && (m.action === 'accept' || m.action === 'decline' || m.action === 'cancel') && (m.values === undefined || isFormValues(m.values));
    case 'retry':
      return str(m.id);
    case 'change':
      return str(m.action) && CHANGE_ACTIONS.includes(m.action) && (m.path === undefined || str(m.path));
    case 'checkpoint':
      return str(m.action) && CHECKPOINT_ACTIONS.includes(m.action) && str(m.id) && (m.path === undefined || str(m.path));
    case 'pin':
      return (m.action === 'pin' || m.action === 'unpin') && str(m.id) && m.id.length <= 200;
    case 'folder':
      return m.action === 'add' ? m.path === undefined : m.action === 'remove' && str(m.path) && m.path.length <= 4096;
    default:
      return false;
  }
}
