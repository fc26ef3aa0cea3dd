import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentSession } from '../sessions/agentSession';
import { PanelAttention, type AttentionDeps } from './attention';
import { Follower } from './follow';
import {
  isWebviewToHost,
  type HostToWebview,
  type PanelInfo,
  type PanelStatus,
} from '../shared/webviewProtocol';
import { chatHtml } from './chatHtml';
import { OfferedFiles } from './offeredFiles';
import { DeltaBatcher } from './deltaBatcher';
import { realPathOfUri, type AttachmentSources } from './attachmentSources';
import { forLabel } from '../shared/nativeText';
import { handlePanelMessage, type PanelHost } from './panelHandlers';
import type { DiffDocuments } from './diffDocuments';

/** Items in a snapshot's `init`; the webview asks for the rest in batches of OLDER_BATCH. */
const SNAPSHOT_TAIL = 50;
const OLDER_BATCH = 400;
/** While a past session loads, how often the panel hears how far it got. */
const LOAD_PROGRESS_MS = 250;

/** One chat panel: a webview showing one session of one agent. */
export class ChatPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private readonly info: PanelInfo;
  private readonly onDidDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDidDisposeEmitter.event;
  private disposed = false;
  private readonly batcher: DeltaBatcher;
  /**
   * A past session is loading: its replayed history is not streamed item by
   * item (a 100,000-update replay would be megabytes of deltas for items the
   * user never scrolls to); the panel gets a snapshot when the load ends.
   */
  private holding = false;
  private progress: NodeJS.Timeout | undefined;
  /** The session is loading a past session (kept from its status events: the transcript's hot path does not build a status). */
  private loading: boolean;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    readonly session: AgentSession,
    private readonly log: vscode.LogOutputChannel,
    diffs: DiffDocuments,
    attachments: AttachmentSources,
    attention?: AttentionDeps,
  ) {
    const agent = session.def;
    this.loading = session.status.loading === true;
    this.info = { agentId: agent.id, agentName: agent.name, title: agent.name, ...(session.cwd ? { cwd: session.cwd } : {}) };
    panel.title = forLabel(agent.name, 100);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'activity.svg');
    panel.webview.options = ChatPanel.webviewOptions(extensionUri);
    this.batcher = new DeltaBatcher((deltas) => this.post({ type: 'deltas', deltas }), () => this.session.transcript.header);
    panel.webview.html = this.html();
    this.disposables.push(
      panel.webview.onDidReceiveMessage((msg: unknown) => this.onMessage(msg)),
      panel.onDidDispose(() => this.dispose()),
      session.onDidChangeStatus((status) => {
        // Deltas first: the status may refer to what they show.
        this.batcher.flush();
        this.loading = status.loading === true;
        // The load ended: everything it brought, as one snapshot.
        if (this.holding && !this.loading) this.resync();
        this.post({ type: 'status', status });
        this.post({ type: 'session', sessionId: this.session.id ?? this.session.targetSessionId });
        this.tryReveal();
      }),
      session.onDidResetTranscript(() => {
        if (this.ready) this.resync();
      }),
      session.onDidChangeTranscript((changes) => {
        if (this.ready && this.loading) this.hold();
        else if (this.ready) this.batcher.push(changes);
        if (changes.some((c) => c.c === 'header')) this.updateTitle();
        this.tryReveal();
      }),
      session,
    );
    this.follower = new Follower(panel, session, log);
    this.disposables.push(this.follower);
    this.host = { session, panel, log, diffs, attachments, offered: new OfferedFiles(realPathOfUri), follower: this.follower, post: (m) => this.post(m), connected: () => this.connected(), sendOlder: (before, pending) => this.sendOlder(before, pending) };
    if (attention) {
      this.attention = new PanelAttention(panel, session, attention, { normal: vscode.Uri.joinPath(extensionUri, 'media', 'activity.svg'), needsYou: vscode.Uri.joinPath(extensionUri, 'media', 'needs-you.svg') }, () => this.panel.title);
      this.disposables.push(this.attention);
    }
  }

  /** Follow the agent (the header's toggle). */
  readonly follower: Follower;

  /** What the message handlers (panelHandlers.ts) may use of the panel. */
  private readonly host: PanelHost;

  /** The "needs you" state of the panel's tab (undefined: notifications not wired). */
  readonly attention: PanelAttention | undefined;

  /**
   * A snapshot, tail first: the newest items in `init` (small, so the end of a long
   * session is on screen at once); the webview asks for older history in
   * batches (`older`) as it needs it. Deltas about items it does not have yet
   * are ignored there: the batch it gets later carries their latest state.
   */
  private sendSnapshot(): void {
    this.holding = false;
    this.stopProgress();
    const items = this.session.transcript.items;
    const olderCount = Math.max(0, items.length - SNAPSHOT_TAIL);
    const tail = olderCount ? items.slice(olderCount) : items;
    this.post({ type: 'init', panel: this.info, status: this.session.status, items: tail, olderPending: olderCount, header: this.session.transcript.header });
  }

  /** (Re)connected webview: a snapshot, then deltas. */
  private connected(): void {
    this.ready = true;
    this.batcher.discard();
    this.sendSnapshot();
    this.tryReveal();
  }

  private revealing: { readonly checkpoint: string; readonly done: (messageId: string | undefined) => void; readonly timer: NodeJS.Timeout } | undefined;

  /**
   * Shows the panel at the user message that began a turn (by its checkpoint id), once the
   * history that holds it is shown — a session being opened may take a while. Resolves with
   * that message's id, or undefined when it does not come within `timeoutMs`.
   */
  revealTurn(checkpoint: string, timeoutMs = 20_000): Promise<string | undefined> {
    this.reveal();
    this.revealing?.done(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.revealing?.done(undefined), timeoutMs);
      this.revealing = {
        checkpoint,
        timer,
        done: (id) => {
          clearTimeout(timer);
          this.revealing = undefined;
          resolve(id);
        },
      };
      this.tryReveal();
    });
  }

  private tryReveal(): void {
    const r = this.revealing;
    if (!r || !this.ready || this.loading || this.holding) return;
    const id = this.session.checkpoints.messageOf(r.checkpoint);
    if (id === undefined) return;
    // What the webview has first, so that the message is there to scroll to.
    this.batcher.flush();
    this.post({ type: 'reveal', id });
    r.done(id);
  }

  /** Older history for the webview: the batch just before the oldest item it has. */
  private sendOlder(before: string, pending: number): void {
    const items = this.session.transcript.items;
    // The item is where the webview's count says, unless something before it was removed since.
    let end = items[pending]?.id === before ? pending : items.findIndex((it) => it.id === before);
    // Gone (removed since): what the webview was still owed, by count.
    if (end < 0) end = Math.min(pending, items.length);
    const start = Math.max(0, end - OLDER_BATCH);
    this.post({ type: 'older', items: items.slice(start, end), remaining: start });
  }

  /** The load's updates are kept back until it ends; meanwhile the status line counts them. */
  private hold(): void {
    if (this.holding) return;
    this.holding = true;
    this.batcher.discard();
    this.progress = setInterval(() => {
      const status = this.session.status;
      if (!status.loading) return;
      const n = this.session.transcript.items.length;
      this.post({ type: 'status', status: { ...status, text: vscode.l10n.t('{0} ({1} items so far)', status.text, n.toLocaleString()) } });
    }, LOAD_PROGRESS_MS);
  }

  private stopProgress(): void {
    clearInterval(this.progress);
    this.progress = undefined;
  }

  /** Pending deltas dropped, the whole transcript as a snapshot (after a reset, or a load's end). */
  private resync(): void {
    this.batcher.discard();
    this.sendSnapshot();
    this.updateTitle();
  }

  private updateTitle(): void {
    const t = this.session.transcript.header.title;
    const title = t ? `${forLabel(this.info.agentName, 100)}: ${forLabel(t)}` : forLabel(this.info.agentName, 100);
    if (this.panel.title !== title) this.panel.title = title;
  }

  static webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
  }

  get agentId(): string {
    return this.info.agentId;
  }

  get isReady(): boolean {
    return this.ready;
  }

  get status(): PanelStatus {
    return this.session.status;
  }

  private html(): string {
    const webview = this.panel.webview;
    const asUri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...p)).toString();
    return chatHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(16).toString('base64'),
      scriptUri: asUri('dist', 'webview.js'),
      styleUri: asUri('media', 'chat.css'),
      codiconUri: asUri('dist', 'codicon.css'),
      codiconFontUri: asUri('dist', 'codicon.ttf'),
      title: this.info.title,
      language: vscode.env.language,
      ...(vscode.l10n.bundle ? { l10nBundle: vscode.l10n.bundle } : {}),
    });
  }

  private onMessage(msg: unknown): void {
    if (!isWebviewToHost(msg)) {
      this.log.warn('chat panel: ignored a malformed message from the webview');
      return;
    }
    handlePanelMessage(msg, this.host);
  }

  private post(message: HostToWebview): void {
    // Before `ready` the webview has no listener; `init` then carries the current state.
    if (!this.ready || this.disposed) return;
    void this.panel.webview.postMessage(message).then(undefined, (err: unknown) => {
      this.log.warn(`chat panel: postMessage failed: ${String(err)}`);
    });
  }

  /** Shows the panel with the keyboard in its composer. */
  focusComposer(): void {
    this.panel.reveal(undefined, false);
    this.post({ type: 'focus' });
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.revealing?.done(undefined);
    this.batcher.discard();
    this.stopProgress();
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.onDidDisposeEmitter.fire();
    this.onDidDisposeEmitter.dispose();
  }
}
