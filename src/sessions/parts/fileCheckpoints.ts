/**
 * The files the agent changes in a session: the Changes list (a ChangeTracking
 * from the editor), and a checkpoint per turn (what the files it touched held
 * before it) for "Restore files to here" on a user message. Checkpoints are
 * kept next to the session's archive, and linked again to the user messages of
 * a loaded session. No `vscode` import.
 */
import * as path from 'node:path';
import type { DecodedUpdate } from '../../acp/decode';
import type { DecodedToolCallContent } from '../../acp/decodeContent';
import type { Disposable } from '../../shared/events';
import type { AccessContext } from '../policy/accessGate';
import { Checkpoints, CHECKPOINTS_FORMAT } from '../checkpoints/checkpoints';
import { CheckpointRestore } from '../checkpoints/restore';
import type { SessionCore, SessionPart } from '../sessionCore';
import { sessionSidecar } from '../store/sessionSidecar';
import type { ChangeTracking } from '../ports';

/** Late file events of a turn still count for this long after it ends. */
const SETTLE_MS = 1000;

export class FileCheckpoints implements SessionPart {
  /** Files the agent changed in this session. */
  readonly changes: ChangeTracking;
  readonly restore: CheckpointRestore;
  /** What each turn changed; none kept until the session has an id. */
  private checkpoints: Checkpoints;
  private checkpointsOf: string | undefined;
  private readonly subscription: Disposable;
  private settling: Promise<void> = Promise.resolve();
  /** Turns begun so far: a turn's end settles only if no turn began after it. */
  private turnsBegun = 0;

  /** `access`: the session's roots and access gate, for the user's own writes (Revert, Undo, Restore) to be checked like the agent's. */
  constructor(
    private readonly core: SessionCore,
    access: () => AccessContext,
  ) {
    const { services } = core;
    this.changes = services.changeTracker((file) => services.files.protectedGlob(file, core.roots()), access);
    this.checkpoints = this.make(undefined);
    this.restore = new CheckpointRestore({
      checkpoints: () => this.checkpoints,
      transcript: () => core.transcript(),
      emit: (c) => core.emit(c),
      busy: () => core.busy(),
      currentBytes: (f) => services.currentBytes(f),
      restoreFiles: (e, label) => services.restoreFiles(e, label, access()),
      showDiff: (f, l, r, t) => services.showDiff(f, l, r, t),
      restored: () => this.changes.settle(),
      log: (m) => core.log(m),
    });
    this.subscription = this.changes.onDidChange(() => {
      core.transcript().header.changes = this.changes.list();
      core.emit([{ c: 'header' }]);
    });
  }

  private make(sessionId: string | undefined): Checkpoints {
    const { def, services } = this.core;
    const store = sessionId ? sessionSidecar(services.archive, CHECKPOINTS_FORMAT, def.id, sessionId, (m) => this.core.log(m)) : undefined;
    const cp = new Checkpoints(
      () => store,
      (f) => services.currentBytes(f),
      (turn) => sessionId && services.fileTouches.record({ agentId: def.id, sessionId, turnId: turn.id, text: turn.text, at: turn.at, files: turn.files }),
    );
    this.changes.observe(cp);
    return cp;
  }

  /** The checkpoints kept for a session id (read once; the same id keeps what it has). */
  private use(sessionId: string): Promise<void> {
    if (this.checkpointsOf === sessionId) return Promise.resolve();
    this.checkpointsOf = sessionId;
    this.checkpoints.end();
    this.checkpoints = this.make(sessionId);
    this.restore.reset();
    return this.checkpoints.load();
  }

  attached(_rt: unknown, sessionId: string): void {
    void this.use(sessionId);
  }

  /** After history was shown: its user messages get their checkpoints back. */
  async relink(sessionId: string): Promise<void> {
    await this.use(sessionId);
    this.restore.linkHistory();
  }

  /** A prompt is sent: its checkpoint begins (what the files the turn touches held before it). */
  begin(prompt: string): string {
    return this.checkpoints.begin(prompt);
  }

  /** What the agent's last turn that touched `file` left in it (null: deleted); undefined when unknown. */
  agentLeft(file: string): Buffer | null | undefined {
    return this.checkpoints.agentLeft(file);
  }

  /** The user message that began a turn (by its checkpoint id), once history is shown. */
  messageOf(checkpoint: string): string | undefined {
    return this.restore.messageOf(checkpoint);
  }

  /** The user message that began `checkpoint`, for "Restore files to here". */
  link(checkpoint: string, messageId: string): void {
    this.restore.link(checkpoint, messageId);
  }

  /** Agents that write files themselves: changes on disk are noticed during the turn. */
  turnBegan(): void {
    this.turnsBegun++;
    this.changes.watch(this.core.roots());
  }

  /** A tool call's diff (in a live turn, not in replayed history) names a file the agent changes. */
  update(u: DecodedUpdate): void {
    if (!this.core.busy() || (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update')) return;
    for (const c of (u.content ?? []) as readonly DecodedToolCallContent[]) {
      if (c.type === 'diff' && path.isAbsolute(c.path)) this.changes.noteDiff(c.path, c.oldText ?? null, c.newText, this.core.roots());
      else if (c.type === '_patch' && c.operation === 'modify' && path.isAbsolute(c.path)) this.changes.notePatch(c.path, c.hunks, this.core.roots());
    }
    if (u.status === 'completed' || u.status === 'failed') this.changes.settle();
  }

  turnEnded(): void {
    this.changes.settle();
    // Late file events of the turn still count for a moment; then the folders are listed
    // again for files the turn created that no event reported.
    const turn = this.turnsBegun;
    this.settling = new Promise((resolve) => setTimeout(() => void this.afterTurn(turn).finally(resolve), SETTLE_MS));
  }

  /**
   * "Restore files to here" clicked: what would change, once the last turn's file changes are final. Clicked just
   * after a turn, its checkpoint is not complete yet, and the plan would miss the files the turn changed last (as an
   * Edit did: Rewind waits for the same).
   */
  async preview(checkpoint: string): Promise<void> {
    await this.turnSettled();
    this.restore.preview(checkpoint);
  }

  /** Resolves when the last turn's late file events no longer count (its Changes are final). */
  turnSettled(): Promise<void> {
    return this.settling;
  }

  /** `turn`: how many turns had begun when this one ended. */
  private async afterTurn(turn: number): Promise<void> {
    // A new turn began meanwhile (running, or already ended: a queued message's quick turn): it watches,
    // and its own end settles both. Settling here would end its watch before its late events came.
    const later = () => this.core.busy() || this.turnsBegun !== turn;
    if (later()) return;
    try {
      await this.changes.sweep();
    } catch (err) {
      this.core.log(`listing the folders after the turn failed: ${String(err)}`);
    }
    if (later()) return;
    this.changes.settle(true);
    this.changes.unwatch();
    // The turn's checkpoint is complete: what its files hold now is kept with it.
    this.checkpoints.end();
    this.restore.mark();
  }

  dispose(): void {
    this.checkpoints.end();
    this.subscription.dispose();
    this.changes.dispose();
  }
}
