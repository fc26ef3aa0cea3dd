/**
 * The transcript of one session: `session/update`s in, a model and small
 * changes (deltas) out. Deterministic and free of I/O; no `vscode` import.
 * The host owns one per panel; the webview only renders what it is sent.
 *
 * This is the facade and the one dispatch: the entry model is `transcript/timeline.ts`,
 * how each update kind merges in is `transcript/updates.ts`, and the header, the
 * prompt's echo and terminal output each own their state in a file of their own.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { DecodedUpdate } from '../acp/decode';
import type { ContentPart, ElicitationItem, HeaderState, PermissionItem, SubagentItem, ToolItem, TranscriptItem } from '../shared/transcriptTypes';
import { PromptEcho } from './transcript/echo';
import { TranscriptHeader } from './transcript/header';
import { TerminalOutputs, type TerminalOutput } from './transcript/terminals';
import { Timeline, type Change } from './transcript/timeline';
import * as merge from './transcript/updates';

export type { Change } from './transcript/timeline';

export class Transcript {
  private readonly timeline = new Timeline();
  private readonly head = new TranscriptHeader();
  private readonly echo = new PromptEcho();
  private readonly terminals = new TerminalOutputs();
  readonly items: TranscriptItem[] = this.timeline.items;
  readonly header: HeaderState = this.head.state;

  get(id: string): TranscriptItem | undefined {
    return this.timeline.get(id);
  }

  /** Whether a session id is a subagent announced in this transcript. */
  hasChild(sessionId: string): boolean {
    return this.timeline.child(sessionId) !== undefined;
  }

  /** A subagent's card. */
  child(sessionId: string): SubagentItem | undefined {
    return this.timeline.child(sessionId)?.card;
  }

  /**
   * Applies one decoded `session/update`; returns what changed. `childSessionId`:
   * the update is about a subagent of this session (it goes in its card).
   */
  apply(update: DecodedUpdate, childSessionId?: string): Change[] {
    const out: Change[] = [];
    const t = this.timeline;
    const scope = t.scope(childSessionId);
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const kind = update.sessionUpdate === 'user_message_chunk' ? 'user' : update.sessionUpdate === 'agent_message_chunk' ? 'agent' : 'thought';
        merge.chunk(t, kind, update.content, update.messageId ?? undefined, out, scope);
        if (kind === 'user') scope.plan = undefined;
        break;
      }
      case 'tool_call':
        merge.toolCall(t, update, scope, out, this.terminals.views);
        break;
      case 'tool_call_update':
        merge.toolCallUpdate(t, update, scope, out, this.terminals.views);
        break;
      case '_message':
        merge.messageUpsert(t, update, scope, out);
        if (update.role === 'user') scope.plan = undefined;
        break;
      case '_tool_content_chunk':
        merge.toolContentChunk(t, update, scope, out, this.terminals.views);
        break;
      case '_terminal':
        out.push(...this.terminals.agent(update, t.allTools()));
        break;
      case 'plan':
        merge.legacyPlan(t, update, scope, out);
        break;
      case 'plan_update':
        merge.planUpdate(t, update.plan, scope, out);
        break;
      case 'plan_removed':
        merge.planRemoved(t, update.planId, scope, out);
        break;
      case 'subagent_update':
        merge.subagent(t, update, scope, out);
        break;
      case 'session_message':
      case 'session_message_chunk':
        merge.sessionMessage(t, update, scope, out, childSessionId);
        break;
      // The session's own header: a subagent's commands, modes, options and usage are not the panel's (its title names its card).
      case 'available_commands_update':
      case 'current_mode_update':
      case 'config_option_update':
      case 'usage_update':
      case 'session_info_update':
        if (scope.card) merge.cardInfo(update, scope.card, out);
        else if (this.head.apply(update)) out.push({ c: 'header' });
        break;
      case 'notice':
        merge.notice(t, update, scope, out);
        break;
      case 'compaction_update':
        merge.compactionUpdate(t, update, scope, out);
        break;
      case 'compaction_summary_chunk':
        merge.compactionChunk(t, update, scope, out);
        break;
      // What this client does not know (or could not decode) goes to the log, never into the transcript.
      case '_unsupported':
      default:
        break;
    }
    return out;
  }

  /**
   * Whether `update` is the agent echoing the prompt just sent (shown at once by
   * addUserPrompt): text chunks that spell it, from its start, before anything
   * else of the turn. Anything else ends the echo window.
   */
  consumeEcho(update: DecodedUpdate): boolean {
    return this.echo.consume(update);
  }

  /** The prompt the user sent, shown at once (before the agent echoes anything). */
  addUserPrompt(text: string, parts: ContentPart[] = []): Change[] {
    const out: Change[] = [];
    this.timeline.main.plan = undefined;
    this.echo.expect(text);
    this.timeline.add({ kind: 'user', id: this.timeline.nextId('m'), text, parts }, out);
    return out;
  }

  endTurn(stopReason: string): Change[] {
    const out: Change[] = [];
    this.echo.end();
    if (stopReason === 'cancelled' || stopReason === 'interrupted') out.push(...this.cancelUnfinishedTools());
    this.timeline.add({ kind: 'turn-end', id: this.timeline.nextId('e'), stopReason }, out);
    this.timeline.main.plan = undefined;
    return out;
  }

  /** A note from the client itself (not the agent), shown like a notice. */
  addLocalNotice(severity: 'info' | 'warning' | 'error', title: string, description?: string): Change[] {
    const out: Change[] = [];
    this.timeline.add({ kind: 'notice', id: this.timeline.nextId('n'), severity, title, ...(description ? { description } : {}) }, out);
    return out;
  }

  addError(message: string, retryPrompt?: string): Change[] {
    const out: Change[] = [];
    this.timeline.add({ kind: 'error', id: this.timeline.nextId('r'), message, ...(retryPrompt !== undefined ? { retryPrompt } : {}) }, out);
    return out;
  }

  /** After Stop: calls the agent did not finish are shown as cancelled. */
  cancelUnfinishedTools(): Change[] {
    const out: Change[] = [];
    for (const t of this.timeline.allTools()) {
      if ((t.status === 'pending' || t.status === 'in_progress') && !t.cancelled) {
        t.cancelled = true;
        out.push({ c: 'put', item: t });
      }
    }
    return out;
  }

  addElicitation(e: Omit<ElicitationItem, 'kind' | 'id' | 'state'>, childSessionId?: string): { item: ElicitationItem; changes: Change[] } {
    const out: Change[] = [];
    const item: ElicitationItem = { kind: 'elicitation', id: this.timeline.nextId('q'), state: 'pending', ...e };
    this.timeline.add(item, out, this.timeline.scope(childSessionId));
    return { item, changes: out };
  }

  /** An item changed in place (by its owner): the change to report. */
  changed(item: TranscriptItem): Change[] {
    return this.timeline.get(item.id) === item ? [{ c: 'put', item }] : [];
  }

  addPermission(p: Omit<PermissionItem, 'kind' | 'id' | 'state'>, childSessionId?: string): { item: PermissionItem; changes: Change[] } {
    const out: Change[] = [];
    const scope = this.timeline.scope(childSessionId);
    // A permission request is a state of its tool call: shown on the call's card when there is one.
    const tool = scope.tools.get(p.toolCallId);
    const item: PermissionItem = { kind: 'permission', id: this.timeline.nextId('q'), state: 'pending', ...p, ...(tool ? { toolItemId: tool.id } : {}) };
    this.timeline.add(item, out, scope);
    return { item, changes: out };
  }

  settlePermission(id: string, state: PermissionItem['state'], chosen?: string): Change[] {
    const item = this.timeline.get(id);
    if (!item || item.kind !== 'permission' || item.state !== 'pending') return [];
    item.state = state;
    if (chosen !== undefined) item.chosen = chosen;
    return [{ c: 'put', item }];
  }

  setModels(models: NonNullable<HeaderState['models']>): Change[] {
    this.head.setModels(models);
    return [{ c: 'header' }];
  }

  setModes(modes: HeaderState['modes'] | undefined, configOptions: readonly acp.SessionConfigOption[] | undefined): Change[] {
    this.head.setModes(modes, configOptions);
    return [{ c: 'header' }];
  }

  /**
   * New output of a client terminal: every tool call showing it holds the newest
   * part; the panel gets only the new text (a whole item when the terminal first
   * shows output or exits).
   */
  appendTerminal(d: TerminalOutput): Change[] {
    return this.terminals.append(d, this.timeline.allTools());
  }

  /** A toolCall by id (of the session, or of one of its subagents), for permission requests that reference it. */
  tool(toolCallId: string, childSessionId?: string): ToolItem | undefined {
    return this.timeline.scope(childSessionId).tools.get(toolCallId);
  }
}
