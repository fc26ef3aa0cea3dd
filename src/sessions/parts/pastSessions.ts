/**
 * Past sessions: opening one the best way the agent allows (`session/load`
 * replays it; `session/resume` does not, so the local archive is shown; else
 * the archive alone, read-only), forking one, and the archive itself — every
 * update is appended to it as it comes (not a second time when a load replays
 * what it already holds), and replayed into the transcript, each line given
 * first to the part that claims it. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import type { DecodedUpdate } from '../../acp/decode';
import { decodeSessionUpdate } from '../../acp/decode';
import { errorText } from '../../acp/errors';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { Attachment } from '../../shared/attachments';
import { transcriptMarkdown } from '../transcript/forkTranscript';
import { pastSessionMode, type OpenMode, type OpenResult } from '../openSession';
import type { RewindRequest } from '../ports';
import { linesBefore, REWOUND_LINE, rewindNote } from './rewind';
import type { ArchivedLine, SessionCore, SessionPart } from '../sessionCore';

/** What past sessions need from their session besides the core. */
export interface PastHost {
  /** The agent's process, started if it is not running. */
  ensureRunning(): Promise<AgentRuntime>;
  /** The session's folder may be its root (asked once when it is outside the workspace folders). */
  rootAllowed(): Promise<boolean>;
  open(mode: OpenMode): Promise<OpenResult>;
  prompt(text: string, attachments: readonly Attachment[], extra: readonly acp.ContentBlock[]): Promise<string | undefined>;
  /** The checkpoints of `sessionId`, linked again to the user messages shown. */
  relink(sessionId: string): Promise<void>;
  /** A fresh transcript, not shown yet. */
  newTranscript(): void;
  /** The transcript was replaced: the panel gets it whole. */
  shown(): void;
  /** An archived line, to the part that claims it: true when one did. */
  claim(line: ArchivedLine): boolean;
  /** A fork keeps the context folders the user added to its source. */
  inheritFolders(sourceSessionId: string): Promise<void>;
}

/** Said when the user did not let a folder outside the workspace become the session's root. */
export function rootRefused(agentName: string, folder: string): string {
  return l10n.t('Not opened with {0}: the session\'s folder {1} is outside this workspace\'s folders, and you did not allow it. {0} was given no access to it. This is the local archive of the session (read-only).', agentName, folder);
}

/** An archive line: the turn was cut before it ended. */
const INTERRUPTED = '_turn_interrupted';

export class PastSessions implements SessionPart {
  /** Set while a load replays a session whose archive already has it. */
  private replayArchived = false;
  /** While replaying the archive: a turn began and has not ended yet. */
  private turnOpen = false;

  constructor(
    private readonly core: SessionCore,
    private readonly host: PastHost,
  ) {}

  /** A load replays history the archive already holds: it is shown, not archived twice. */
  attached(_rt: AgentRuntime, sessionId: string): void {
    this.replayArchived = this.core.phase().kind === 'loading' && this.core.services.archive.has(this.core.def.id, sessionId);
  }

  /**
   * Every update is archived (a subagent's marked with its id); a new title is remembered. A load's
   * replay is written when the load ends (openPast), not while the agent's pipe is being read.
   */
  update(u: DecodedUpdate, child: string | undefined, live: boolean): void {
    const { def, services } = this.core;
    const sid = this.core.sessionId() ?? child!;
    const line = child ? { sessionUpdate: '_child', sessionId: child, update: u } : u;
    if (live) services.archive.append(def.id, sid, line);
    else if (!this.replayArchived) services.archive.appendLater(def.id, sid, line);
    if (!child && u.sessionUpdate === 'session_info_update' && u.title !== undefined) services.index.setTitle(def.id, sid, u.title ?? undefined, true);
  }

  /** The archive marks where a turn began: one that never ends there was cut (a crash, a reload, a killed window). */
  turnBegan(): void {
    const sid = this.core.sessionId();
    if (sid) this.core.services.archive.append(this.core.def.id, sid, { sessionUpdate: '_turn_begin' });
  }

  /** The archive marks where a turn ended, or that it was cut (it failed: the agent crashed or the call failed). */
  turnEnded(sessionId: string, stopReason: string | undefined): void {
    this.core.services.archive.append(this.core.def.id, sessionId, stopReason !== undefined ? { sessionUpdate: '_turn_end', stopReason } : { sessionUpdate: INTERRUPTED });
  }

  archivedLine(line: ArchivedLine): boolean {
    const { core } = this;
    if (line.sessionUpdate === '_turn_begin') {
      if (this.turnOpen) this.interrupted();
      this.turnOpen = true;
    } else if (line.sessionUpdate === '_turn_end') {
      this.turnOpen = false;
      core.emit(core.transcript().endTurn(String(line.stopReason ?? 'end_turn')));
    } else if (line.sessionUpdate === INTERRUPTED) this.interrupted();
    else if (line.sessionUpdate === '_archive_full') core.emit(core.transcript().addLocalNotice('warning', l10n.t('The archive of this session reached its size limit; later updates were not kept.')));
    else return false;
    return true;
  }

  /**
   * Opens a past session the best way the agent allows: `session/load` (the agent
   * replays it), else `session/resume` (no replay: the local archive is shown,
   * marked as such), else the archive alone, read-only.
   */
  async openPast(sessionId: string): Promise<boolean> {
    const name = this.core.def.name;
    // A folder outside the workspace is not the session's root until the user says so: nothing is started before.
    if (!(await this.host.rootAllowed())) {
      await this.showArchive(sessionId, rootRefused(name, this.core.workingFolder()));
      return false;
    }
    let rt: AgentRuntime;
    try {
      rt = await this.host.ensureRunning();
    } catch (err) {
      await this.showArchive(sessionId, l10n.t('{0} could not be started ({1}). This is the local archive of the session.', name, errorText(err)));
      return false;
    }
    switch (pastSessionMode(rt.capabilities)) {
      case 'load': {
        const result = await this.host.open({ kind: 'load', sessionId });
        if (result === 'not-found') await this.showArchive(sessionId, l10n.t('This session no longer exists on the agent. This is the local archive of it.'), true);
        else if (result === 'failed' && (await this.archiveInstead(sessionId, 'load'))) return false;
        else {
          // The replay kept back while it came (update()) is written now: markCutTurn reads the archive, which flushes it.
          if (result === 'opened') await this.markCutTurn(sessionId);
          else await this.core.services.archive.flush();
          await this.host.relink(sessionId);
        }
        return result === 'opened';
      }
      case 'resume': {
        await this.showArchive(sessionId, l10n.t('{0} does not replay past sessions: this is the local archive (read-only history). New prompts continue the session.', name), false, false);
        const result = await this.host.open({ kind: 'resume', sessionId });
        if (result === 'failed') await this.archiveInstead(sessionId, 'resume');
        await this.host.relink(sessionId);
        return result === 'opened';
      }
      case 'archive':
        await this.showArchive(sessionId, l10n.t('{0} can neither load nor resume past sessions. This is the local archive of the session (read-only).', name));
        return false;
    }
  }

  /**
   * The agent failed to load or resume a session for a reason other than "not
   * found" (and not for want of a sign-in): its reason is shown, and the local
   * archive, read-only, with Retry and New Session. False when there is no
   * archive (the failure stays as it is shown).
   */
  private async archiveInstead(sessionId: string, how: 'load' | 'resume'): Promise<boolean> {
    const { core } = this;
    const phase = core.phase();
    if (phase.kind !== 'failed' || phase.needsAuth || !core.services.archive.has(core.def.id, sessionId)) return false;
    const name = core.def.name;
    // The reason is the agent's own words, cleaned and bounded where the error was read (acp/errors.ts).
    const reason = phase.text.replace(/\.\s*$/, '');
    const failed = how === 'load' ? l10n.t('{0} could not load this session ({1}).', name, reason) : l10n.t('{0} could not resume this session ({1}).', name, reason);
    const what = l10n.t('Retry asks {0} again; New Session starts a new one.', name);
    if (how === 'load') await this.showArchive(sessionId, `${failed} ${l10n.t('This is the local archive of it, read-only.')} ${what}`, true, false);
    else core.emit(core.transcript().addLocalNotice('warning', failed, `${l10n.t('The archive above is read-only.')} ${what}`));
    core.setPhase({ kind: 'readOnly', text: `${failed} ${l10n.t('The archive is shown read-only.')}`, error: true, retry: true });
    return true;
  }

  /** Shows the archived transcript of a session; read-only unless the session goes on. */
  private async showArchive(sessionId: string, note: string, error = false, readOnly = true): Promise<void> {
    const { core } = this;
    this.host.newTranscript();
    core.emit(core.transcript().addLocalNotice(error ? 'warning' : 'info', l10n.t('Archived history'), note));
    // Read and applied a batch at a time: a long archive never sits in memory whole, nor blocks the host.
    let count = 0;
    let unreadable = 0;
    this.turnOpen = false;
    for await (const batch of core.services.archive.lines(core.def.id, sessionId, undefined, (n) => (unreadable = n))) {
      this.replay(batch);
      count += batch.length;
    }
    // The last turn never ended (the window or the agent went first): marked, here and in the archive.
    if (this.turnOpen) {
      this.interrupted();
      core.services.archive.append(core.def.id, sessionId, { sessionUpdate: INTERRUPTED });
    }
    if (unreadable > 0) core.emit(core.transcript().addLocalNotice('warning', l10n.t('{0} line(s) of the archive could not be read (cut short or damaged) and were skipped; the rest is shown.', unreadable)));
    if (count === 0) core.emit(core.transcript().addLocalNotice('info', l10n.t('Nothing was archived for this session.')));
    this.host.shown();
    await this.host.relink(sessionId);
    if (readOnly) core.setPhase({ kind: 'readOnly', text: l10n.t('Read-only: this is the local archive.') });
  }

  /** A turn cut short: shown as such (its unfinished tool calls too). */
  private interrupted(): void {
    this.turnOpen = false;
    this.core.emit(this.core.transcript().endTurn('interrupted'));
  }

  /** After a load: the archive's last turn never ended here (cut by a crash or a reload) — the agent's replay does not say so, the panel does. */
  private async markCutTurn(sessionId: string): Promise<void> {
    const { core } = this;
    try {
      if (!(await core.services.archive.lastTurnOpen(core.def.id, sessionId))) return;
    } catch (err) {
      core.log(`reading the end of the archive failed: ${errorText(err)}`);
      return;
    }
    core.emit(core.transcript().endTurn('interrupted'));
    core.services.archive.append(core.def.id, sessionId, { sessionUpdate: INTERRUPTED });
  }

  /** Archived updates into the transcript, in order: each line to the part that claims it, else applied as an update. */
  private replay(lines: readonly { u: unknown }[]): void {
    const { core, host } = this;
    for (const line of lines) {
      const u = line.u as ArchivedLine | null;
      if (u && typeof u === 'object' && host.claim(u)) continue;
      core.emit(core.transcript().apply(decodeSessionUpdate(u, [])));
    }
  }

  /**
   * Fork: a new session with the history of `source`. Agents that fork
   * (`session/fork`) keep the history themselves; the panel shows the archived
   * one, which is copied to the new session. Agents that cannot get a new session
   * whose first prompt carries the conversation so far, labelled as such.
   *
   * With `rewind` (Edit, Retry of an earlier message): the history up to just
   * before that message; `session/fork` at that message where the agent offers
   * it, else the whole session with a note to the agent saying where it now
   * goes on from, else a new session carrying the history up to there; then
   * the new text is sent. Before the first message: a new session. A marker
   * says where the conversation was rewound and from what.
   */
  async forkFrom(source: { sessionId: string; title: string }, rewind?: RewindRequest): Promise<boolean> {
    const { core, host } = this;
    const { def, services } = core;
    const all = await services.archive.read(def.id, source.sessionId);
    const cut = rewind ? linesBefore(all, rewind.message) : undefined;
    const lines = cut ? cut.lines : all;
    host.newTranscript();
    this.replay(lines);
    const history = core.transcript().items.slice();
    // The local copy must reach the message (it may stop at its size limit): else the cut would be elsewhere.
    if (cut && !cut.found) {
      host.shown();
      core.setPhase({ kind: 'failed', text: l10n.t('The local copy of "{0}" does not reach message {1}, so the conversation cannot be rewound there.', source.title, rewind!.message) });
      return false;
    }
    if (!(await host.rootAllowed())) {
      host.shown();
      core.setPhase({ kind: 'readOnly', text: rootRefused(def.name, core.workingFolder()), error: true });
      return false;
    }
    let rt: AgentRuntime;
    try {
      rt = await host.ensureRunning();
    } catch (err) {
      host.shown();
      core.setPhase({ kind: 'failed', text: l10n.t('{0} could not be started ({1}).', def.name, errorText(err)) });
      return false;
    }
    const forkTitle = rewind ? l10n.t('{0} (from message {1})', source.title, rewind.message) : l10n.t('{0} (fork)', source.title);
    // Before the first message there is nothing to fork: a new session.
    const fresh = rewind !== undefined && rewind.message === 1;
    const native = rt.capabilities.canFork() && !fresh;
    const atMessage = native && rewind !== undefined && cut?.anchor !== undefined && rt.capabilities.canForkAtMessage();
    // Without session/fork the transcript goes in the first prompt: embedded where the agent takes it, else as text.
    const embedded = rt.capabilities.supportsPrompt('embeddedContext');
    const marker = rewind ? this.rewoundMarker(source.title, rewind, fresh ? 'fresh' : atMessage ? 'atMessage' : native ? 'whole' : embedded ? 'attached' : 'text') : undefined;
    core.emit(
      marker
        ? core.transcript().addLocalNotice('info', marker.title, marker.detail)
        : core.transcript().addLocalNotice(
            'info',
            l10n.t('Forked from "{0}"', source.title),
            native
              ? l10n.t('{0} continues from here in a new session; the history above stays as it was.', def.name)
              : embedded
                ? l10n.t('{0} cannot fork sessions: a new session starts, and its first prompt carries the conversation above as an attachment.', def.name)
                : l10n.t('{0} cannot fork sessions: a new session starts, and its first prompt carries the conversation above as text.', def.name),
          ),
    );
    host.shown();
    await host.inheritFolders(source.sessionId);
    const mode: OpenMode = native ? { kind: 'fork', fromSessionId: source.sessionId, ...(atMessage ? { meta: { claudeCode: { rewindTo: cut!.anchor } } } : {}) } : { kind: 'new' };
    const ok = (await host.open(mode)) === 'opened';
    const sid = core.sessionId();
    if (!ok || !sid) return false;
    if (native || fresh) for (const line of lines) services.archive.append(def.id, sid, line.u);
    if (marker) services.archive.append(def.id, sid, { sessionUpdate: REWOUND_LINE, title: marker.title, detail: marker.detail });
    services.index.setTitle(def.id, sid, forkTitle, true);
    if (rewind) services.index.setForkOf(def.id, sid, { sessionId: source.sessionId, title: source.title, message: rewind.message });
    core.log(`forked from ${source.sessionId}${rewind ? ` before message ${rewind.message}` : ''} (${fresh ? 'new session' : atMessage ? 'session/fork at a message' : native ? 'session/fork' : 'new session with the transcript'})`);
    if (rewind) {
      // The new text goes at once; its turn is the fork's own (the panel that asked is told the fork was made).
      const extra: acp.ContentBlock[] = fresh || atMessage ? [] : native ? [{ type: 'text', text: rewindNote(rewind.message, rewind.quote, rewind.restored) }] : [this.transcriptBlock(history, source, embedded)];
      void host.prompt(rewind.text, rewind.attachments, extra);
      return true;
    }
    if (native) return true;
    await host.prompt(`This session is a fork of "${source.title}". The conversation so far is ${embedded ? 'attached' : 'below'}; continue from where it left off.`, [], [this.transcriptBlock(history, source, embedded)]);
    return true;
  }

  /** The conversation so far, for an agent that cannot fork: an embedded Markdown resource, else text. */
  private transcriptBlock(history: Parameters<typeof transcriptMarkdown>[0], source: { sessionId: string; title: string }, embedded: boolean): acp.ContentBlock {
    const markdown = transcriptMarkdown(history, source.title);
    const uri = `acp-transcript:/${encodeURIComponent(source.sessionId)}.md`;
    return embedded ? { type: 'resource', resource: { uri, mimeType: 'text/markdown', text: markdown } } : { type: 'text', text: `--- Transcript of the earlier conversation (forked) ---\n\n${markdown}` };
  }

  /** The marker of a rewind in the fork's transcript: where, from what, and how the fork was made. */
  private rewoundMarker(title: string, r: RewindRequest, how: 'fresh' | 'atMessage' | 'whole' | 'attached' | 'text'): { title: string; detail: string } {
    const name = this.core.def.name;
    const detail = {
      fresh: l10n.t('Your message {0} ("{1}") was the first: {2} starts a new session, and "{3}" stays as it was.', r.message, r.quote, name, title),
      atMessage: l10n.t('{0} forked "{1}" just before your message {2} ("{3}"); the original session stays as it was.', name, title, r.message, r.quote),
      whole: l10n.t('{0} cannot fork at a message: it forked the whole of "{1}", and the new message tells it that the conversation was rewound to before your message {2} ("{3}"). The original session stays as it was.', name, title, r.message, r.quote),
      attached: l10n.t('{0} cannot fork sessions: a new session starts, and its first prompt carries the conversation up to before your message {1} ("{2}") as an attachment. "{3}" stays as it was.', name, r.message, r.quote, title),
      text: l10n.t('{0} cannot fork sessions: a new session starts, and its first prompt carries the conversation up to before your message {1} ("{2}") as text. "{3}" stays as it was.', name, r.message, r.quote, title),
    }[how];
    return { title: l10n.t('Rewound from "{0}" / message {1}', title, r.message), detail };
  }

  dispose(): void {}
}
