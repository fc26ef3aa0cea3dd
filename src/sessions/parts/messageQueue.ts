/**
 * What the user sends: a prompt is shown at once, archived, and sent as the
 * session's next turn — or, while a turn runs (or messages already wait), it
 * waits in the queue, one sent per turn as the previous one ends. Queued
 * messages can be removed, taken back to edit, or sent now: into the running
 * turn where the agent serves steering (parts/steering.ts), else the running
 * turn is stopped for it. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { Attachment } from '../../shared/attachments';
import type { ContentPart } from '../../shared/transcriptTypes';
import { buildPrompt } from '../promptBuilder';
import type { PromptTurns } from '../promptTurn';
import { REWIND_NOTE_HEADER } from './rewind';
import type { SessionCore, SessionPart } from '../sessionCore';
import type { ReasonNotes } from './rejectReasons';
import { canSteer, sendNowMode, steer } from './steering';

/** A message typed while a turn ran, waiting for its own turn. */
interface Queued {
  readonly id: string;
  readonly text: string;
  readonly attachments: readonly Attachment[];
  readonly resolve: (stopReason: string | undefined) => void;
}

/** Where a sent prompt's checkpoint begins, and the message it belongs to. */
export interface PromptCheckpoints {
  begin(prompt: string): string;
  link(checkpoint: string, messageId: string): void;
}

export class MessageQueue implements SessionPart {
  private readonly queue: Queued[] = [];
  private seq = 0;
  /** Send now stopped the turn: the queue goes on when it ends (after a plain Stop it waits). */
  private sendNowPending = false;
  /** A message being steered into the running turn (out of the queue until the agent answers); nothing is sent meanwhile. */
  private steering: Queued | undefined;
  /** Messages steered into the running turn: they end with it. */
  private riders: Queued[] = [];
  private disposed = false;

  constructor(
    private readonly core: SessionCore,
    private readonly turns: Pick<PromptTurns, 'claim' | 'release' | 'send' | 'cancel'>,
    private readonly checkpoints: PromptCheckpoints,
    /** What goes with the next prompt before the user's text (reasons for rejected permissions), taken once. */
    private readonly notes?: { take(): ReasonNotes },
  ) {}

  /** Sends a prompt (shown at once); resolves with the stop reason when the turn ends. */
  async prompt(text: string, attachments: readonly Attachment[] = [], extra: readonly acp.ContentBlock[] = []): Promise<string | undefined> {
    const rt = this.core.runtime();
    const sessionId = this.core.sessionId();
    if (this.disposed) return undefined;
    // The connection to an agent by URL went and is being made again: the message waits, and goes once the session is open again (`resume`).
    if ((!rt || !sessionId) && this.core.phase().kind === 'reconnecting') return await this.enqueue(text, attachments);
    if (!rt || !sessionId) return undefined;
    // A turn is running (never a second session/prompt at once), or queued messages wait (after Stop
    // or a failed turn): the message goes behind them, and sending resumes the queue in order.
    if (this.core.busy() || this.queue.length || this.steering) {
      const queued = this.enqueue(text, attachments);
      this.drain();
      return await queued;
    }
    return await this.claimAndSend(rt, sessionId, text, attachments, extra);
  }

  /** Queued messages, in the order they will be sent. */
  get queued(): readonly { id: string; text: string }[] {
    return this.queue.map((q) => ({ id: q.id, text: q.text }));
  }

  /** A queued message's attachments, whole (the header carries images without their bytes). */
  attachments(id: string): readonly Attachment[] | undefined {
    return this.queue.find((q) => q.id === id)?.attachments;
  }

  /** A queued message removed, taken back to edit (the panel puts its text in the composer), or sent now. */
  async act(action: 'remove' | 'edit' | 'sendNow', id: string): Promise<boolean> {
    const i = this.queue.findIndex((q) => q.id === id);
    if (i < 0) return false;
    const [item] = this.queue.splice(i, 1);
    if (action !== 'sendNow') {
      item!.resolve(undefined);
      this.publish();
      return true;
    }
    // Send now: into the running turn where the agent steers; else first in line, and the running turn (if any) is stopped for it.
    if (this.core.busy() && canSteer(this.core.runtime()) && !this.steering) {
      await this.steerNow(item!);
      return true;
    }
    this.queue.unshift(item!);
    this.publish();
    if (this.core.busy()) {
      this.sendNowPending = true;
      await this.turns.cancel();
    } else this.drain();
    return true;
  }

  /** Steers `item` into the running turn; when no turn runs any more it is sent as the next prompt, and when steering fails the turn is stopped for it. */
  private async steerNow(item: Queued): Promise<void> {
    const rt = this.core.runtime();
    const sessionId = this.core.sessionId();
    if (!rt || !sessionId) return item.resolve(undefined);
    this.steering = item;
    this.publish();
    let result;
    try {
      const { blocks, parts } = await this.build(rt, item.text, item.attachments);
      result = await steer(this.core, rt, sessionId, item.text, parts, blocks);
    } catch (err) {
      this.core.log(`steer: the message could not be built (${err instanceof Error ? err.message : String(err)})`);
      result = 'failed' as const;
    } finally {
      this.steering = undefined;
    }
    if (result === 'injected') {
      // It ends with the running turn; one that ended meanwhile held the queue (see drain), which goes on now.
      if (this.core.busy()) this.riders.push(item);
      else {
        item.resolve('end_turn');
        this.drain();
      }
      return;
    }
    if (result === 'startedNewTurn') return item.resolve(undefined);
    this.queue.unshift(item);
    this.publish();
    if (result === 'failed' && this.core.busy()) {
      this.sendNowPending = true;
      await this.turns.cancel();
    } else this.drain();
  }

  /** A turn began: the strip says again what Send now does. */
  turnBegan(): void {
    if (this.queue.length) this.publish();
  }

  /** The next queued message gets its turn — not after a failed turn, nor after a plain Stop. */
  turnEnded(_sessionId: string, stopReason: string | undefined): void {
    for (const r of this.riders.splice(0)) r.resolve(stopReason);
    if (this.queue.length) this.publish();
    const goOn = stopReason !== undefined && (stopReason !== 'cancelled' || this.sendNowPending);
    this.sendNowPending = false;
    if (goOn) setTimeout(() => this.drain(), 0);
    else if (this.queue.length) this.core.log(`queue: ${this.queue.length} message(s) wait (${stopReason === undefined ? 'the turn failed' : 'stopped'})`);
  }

  /** The turn is claimed before the first await (building the prompt reads files): a send arriving meanwhile is queued. */
  private async claimAndSend(rt: AgentRuntime, sessionId: string, text: string, attachments: readonly Attachment[], extra: readonly acp.ContentBlock[] = []): Promise<string | undefined> {
    const claim = this.turns.claim();
    if (!claim) return await this.enqueue(text, attachments);
    try {
      return await this.startTurn(rt, sessionId, text, attachments, extra);
    } finally {
      // Only when the turn never started (building it failed); `send` took the claim over otherwise.
      this.turns.release(claim);
    }
  }

  /** The prompt's blocks (attached files read), what the transcript shows beside its text, and what was left out. */
  private async build(rt: AgentRuntime, text: string, attachments: readonly Attachment[]): Promise<{ blocks: acp.ContentBlock[]; parts: ContentPart[]; dropped: string[] }> {
    const caps = rt.capabilities;
    const built = await buildPrompt(text, attachments, { image: caps.supportsPrompt('image'), embeddedContext: caps.supportsPrompt('embeddedContext') }, (uri, real) => this.core.services.readText(uri, real));
    // An agent by URL with a pathMap is given its own machine's names for the files attached (those in a mapped folder).
    const remote = (uri: string) => rt.paths?.toRemoteUri(uri) ?? uri;
    const blocks = rt.paths ? built.blocks.map((b) => (b.type === 'resource_link' ? { ...b, uri: remote(b.uri) } : b.type === 'resource' ? { ...b, resource: { ...b.resource, uri: remote(b.resource.uri) } } : b)) : built.blocks;
    const parts: ContentPart[] = attachments.map((a) =>
      a.kind === 'image'
        ? { type: 'image', mimeType: a.mimeType, data: a.data, name: a.name }
        : a.kind === 'problems'
          ? { type: 'resource', uri: 'vscode-problems:/workspace', name: a.name }
          : { type: 'resource_link', uri: a.uri, name: a.kind === 'selection' ? `${a.name}:${a.startLine}-${a.endLine}` : a.name },
    );
    return { blocks, parts, dropped: built.dropped };
  }

  private async startTurn(rt: AgentRuntime, sessionId: string, text: string, attachments: readonly Attachment[], extra: readonly acp.ContentBlock[]): Promise<string | undefined> {
    const { core } = this;
    const built = await this.build(rt, text, attachments);
    const { parts } = built;
    const notes = this.notes?.take();
    built.blocks.unshift(...(notes?.blocks ?? []));
    parts.unshift(...(notes?.parts ?? []));
    // Blocks the client adds itself (a fork's transcript, a rewind's note): sent, and shown as one labelled attachment each.
    built.blocks.push(...extra);
    for (const b of extra) {
      const note = b.type === 'text' && b.text.startsWith(REWIND_NOTE_HEADER);
      parts.push({ type: 'resource', uri: b.type === 'resource' ? b.resource.uri : 'acp-transcript:', name: b.type === 'resource' ? l10n.t('Conversation so far (attached)') : note ? l10n.t('Where the conversation was rewound to (sent as text)') : l10n.t('Conversation so far (sent as text)') });
    }
    // A checkpoint: what the files the turn touches held before it (Restore files to here).
    const checkpoint = this.checkpoints.begin(text);
    const shown = core.transcript().addUserPrompt(text, parts);
    core.emit(shown);
    const userItem = shown.find((c) => c.c === 'add');
    if (userItem && 'item' in userItem) this.checkpoints.link(checkpoint, userItem.item.id);
    if (built.dropped.length) core.emit(core.transcript().addLocalNotice('warning', l10n.t('Not sent to {0}', core.def.name), built.dropped.join('\n')));
    const { archive, index } = core.services;
    archive.append(core.def.id, sessionId, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
    index.touch(core.def.id, sessionId, core.workingFolder());
    index.setTitle(core.def.id, sessionId, text, false);
    return await this.turns.send(rt, sessionId, text, built.blocks);
  }

  private enqueue(text: string, attachments: readonly Attachment[]): Promise<string | undefined> {
    return new Promise((resolve) => {
      this.queue.push({ id: `queued-${++this.seq}`, text, attachments, resolve });
      this.core.log(`queue: a message waits for ${this.core.phase().kind === 'reconnecting' ? 'the connection' : 'the running turn'} (${this.queue.length} queued)`);
      this.publish();
    });
  }

  private publish(): void {
    // The header goes to the panel on every change: a pasted image's bytes are not in it (Edit gets them from `attachments`).
    this.core.transcript().header.queue = this.queue.map((q) => ({ id: q.id, text: q.text, attachments: q.attachments.map((a) => (a.kind === 'image' ? { ...a, data: '' } : a)) }));
    this.core.transcript().header.sendNow = sendNowMode(this.core);
    this.core.emit([{ c: 'header' }]);
  }

  /** The next queued message, when no turn runs and the session is ready for one. */
  private drain(): void {
    const rt = this.core.runtime();
    const sessionId = this.core.sessionId();
    if (this.disposed || this.steering || this.core.busy() || this.core.phase().kind !== 'ready' || !rt || !sessionId) return;
    const next = this.queue.shift();
    if (!next) return;
    // Claimed before the strip is told, so that it says what Send now does during that turn.
    void this.claimAndSend(rt, sessionId, next.text, next.attachments).then(next.resolve, () => next.resolve(undefined));
    this.publish();
  }

  /** The session is open again after its connection was lost: what waits is sent, in order (after a failed turn too). */
  resume(): void {
    if (this.queue.length) this.core.log(`queue: the session is open again; ${this.queue.length} message(s) go in order`);
    this.drain();
  }

  /** The panel closed: waiting messages are not sent. */
  dispose(): void {
    this.disposed = true;
    for (const q of [...this.queue.splice(0), ...this.riders.splice(0)]) q.resolve(undefined);
  }
}
