import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentSession } from '../sessions/agentSession';
import { PanelAttention, type AttentionDeps } from './attention';
import { Follower } from './follow';
import {
  isWebviewToHost,
  type HostToWebview,
  type PanelInfo,
  type PanelStatus,
  type PersistedPanelState,
} from '../shared/webviewProtocol';
import { chatHtml } from './chatHtml';
import { DeltaBatcher } from './deltaBatcher';
import type { AttachmentSources } from './attachmentSources';
import type { Mention } from '../shared/attachments';
import { forLabel, forMessage } from '../shared/nativeText';
import type { DiffDocuments } from './diffDocuments';

const CHAT_VIEW_TYPE = 'acpAgents.chat';

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
    private readonly diffs: DiffDocuments,
    private readonly attachments: AttachmentSources,
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
      }),
      session.onDidResetTranscript(() => {
        if (this.ready) this.resync();
      }),
      session.onDidChangeTranscript((changes) => {
        if (this.ready && this.loading) this.hold();
        else if (this.ready) this.batcher.push(changes);
        if (changes.some((c) => c.c === 'header')) this.updateTitle();
      }),
      session,
    );
    this.follower = new Follower(panel, session, log);
    this.disposables.push(this.follower);
    if (attention) {
      this.attention = new PanelAttention(panel, session, attention, { normal: vscode.Uri.joinPath(extensionUri, 'media', 'activity.svg'), needsYou: vscode.Uri.joinPath(extensionUri, 'media', 'needs-you.svg') }, () => this.panel.title);
      this.disposables.push(this.attention);
    }
  }

  /** Follow the agent (the header's toggle). */
  readonly follower: Follower;

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
    switch (msg.type) {
      case 'ready':
        // (Re)connected webview: a snapshot, then deltas.
        this.ready = true;
        this.batcher.discard();
        this.sendSnapshot();
        return;
      case 'older':
        this.sendOlder(msg.before, msg.pending);
        return;
      case 'send':
        void this.session.prompt(msg.text, msg.attachments ?? []);
        return;
      case 'attach':
        void this.attachments.pick().then((add) => add.length && this.post({ type: 'attachments', add }));
        return;
      case 'dropUris': {
        const add = this.attachments.fromUris(msg.uris);
        if (add.length) this.post({ type: 'attachments', add });
        return;
      }
      case 'findFiles': {
        const answer = (items: readonly Mention[]): void => this.post({ type: 'mentions', requestId: msg.requestId, items });
        void this.attachments.mentions(msg.query, answer).then(answer, (err: unknown) => this.log.warn(`mentions: ${String(err)}`));
        return;
      }
      case 'action':
        // Export is the editor's business (a Markdown document), not the session's.
        if (msg.action === 'export') {
          this.panel.reveal(undefined, false);
          void vscode.commands.executeCommand('acpAgents.exportTranscript').then(undefined, (err: unknown) => this.log.warn(`export failed: ${String(err)}`));
          return;
        }
        void this.session.runAction(msg.action).then(undefined, (err: unknown) => this.log.error(`panel action ${msg.action} failed: ${String(err)}`));
        return;
      case 'permission':
        this.session.answerPermission(msg.id, msg.optionId);
        return;
      case 'openLocation':
        void openLocation(this.session, msg.path, msg.line).then(undefined, (err: unknown) => this.log.warn(`open location failed: ${String(err)}`));
        return;
      case 'openDiff': {
        const item = this.session.transcript.get(msg.id);
        const content = item && (item.kind === 'tool' || item.kind === 'permission') ? item.content[msg.index] : undefined;
        if (content?.type === 'diff') void this.diffs.open(content.path, content.oldText, content.newText);
        return;
      }
      case 'openLink':
        void openLink(this.session, msg.href, this.log).then(undefined, (err: unknown) => this.log.warn(`open link failed: ${String(err)}`));
        return;
      case 'setConfig':
        void this.session.settings.setConfigOption(msg.configId, msg.value);
        return;
      case 'setMode':
        void this.session.settings.setMode(msg.modeId);
        return;
      case 'setModel':
        void this.session.settings.setModel(msg.modelId);
        return;
      case 'follow':
        this.follower.set(msg.on);
        return;
      case 'elicitation': {
        const item = this.session.transcript.get(msg.id);
        if (item?.kind !== 'elicitation' || item.state !== 'pending') return;
        // A page is opened only on the user's click on Open, where its full address and host are shown.
        if (msg.action === 'accept' && item.mode === 'url' && item.url) void vscode.env.openExternal(vscode.Uri.parse(item.url, true));
        void this.session.elicitations.answer(msg.id, msg.action, msg.values).then(undefined, (err: unknown) => this.log.warn(`elicitation answer failed: ${String(err)}`));
        return;
      }
      case 'queue': {
        // Edit: the message's attachments go back to the composer whole (the queue shown in the header has no image bytes).
        const add = msg.action === 'edit' ? this.session.queue.attachments(msg.id) : undefined;
        void this.session.queue.act(msg.action, msg.id).then((done) => {
          if (done && add?.length) this.post({ type: 'attachments', add });
        }, (err: unknown) => this.log.warn(`queue: ${String(err)}`));
        return;
      }
      case 'stopSubagent':
        void this.session.subagents.cancel(msg.sessionId).then(undefined, (err: unknown) => this.log.warn(`stopping a subagent failed: ${String(err)}`));
        return;
      case 'change': {
        const c = this.session.checkpoints.changes;
        const file = msg.path;
        const run = async (): Promise<unknown> => {
          switch (msg.action) {
            case 'reviewAll':
              return await c.reviewAll();
            case 'keepAll':
              return c.keepAll();
            case 'revertAll':
              return await c.revertAll();
            case 'open':
              return file !== undefined && (await c.open(file));
            case 'keep':
              return file !== undefined && c.keep(file);
            case 'revert':
              return file !== undefined && (await c.revert(file));
          }
        };
        void run().then(undefined, (err: unknown) => this.log.warn(`changes: ${String(err)}`));
        return;
      }
      case 'checkpoint': {
        const r = this.session.checkpoints.restore;
        const run = async (): Promise<unknown> => {
          switch (msg.action) {
            case 'preview':
              return r.preview(msg.id);
            case 'restore':
              return await r.restore(msg.id);
            case 'undo':
              return await r.undoRestore();
            case 'dismiss':
              return r.dismiss();
            case 'diff':
              return msg.path !== undefined && (await r.diff(msg.path));
          }
        };
        void run().then(undefined, (err: unknown) => this.log.warn(`restore: ${String(err)}`));
        return;
      }
      case 'pin':
        if (msg.action === 'pin') this.session.pins.pin(msg.id);
        else this.session.pins.unpin(msg.id);
        return;
      case 'retry': {
        const item = this.session.transcript.get(msg.id);
        if (item?.kind === 'error' && item.retryPrompt !== undefined) void this.session.prompt(item.retryPrompt);
        return;
      }
    }
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
    this.batcher.discard();
    this.stopProgress();
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.onDidDisposeEmitter.fire();
    this.onDidDisposeEmitter.dispose();
  }
}

/** Opens a file the agent pointed at (absolute path, 1-based line): within the session's folders, or after asking. */
async function openLocation(session: AgentSession, filePath: string, line: number | undefined): Promise<void> {
  const resolved = await session.requests.pathToOpen(filePath);
  if (resolved === undefined) {
    void vscode.window.showWarningMessage(vscode.l10n.t("The agent pointed at {0}, which is outside the session's folders; it was not opened.", forMessage(filePath, 300)));
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(resolved));
  const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
}

/**
 * Links from agent output: http(s) go to VS Code's opener (with its own link
 * confirmation for untrusted domains), file links within the session's folders
 * open in the editor; nothing else.
 */
async function openLink(session: AgentSession, href: string, log: vscode.LogOutputChannel): Promise<void> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(href, true);
  } catch {
    log.warn(`refused a malformed link from the agent: ${href.slice(0, 200)}`);
    return;
  }
  if (uri.scheme === 'http' || uri.scheme === 'https') {
    await vscode.env.openExternal(uri);
  } else if (uri.scheme === 'file' && (uri.authority === '' || uri.authority === 'localhost')) {
    const m = /^L?(\d+)/.exec(uri.fragment);
    await openLocation(session, uri.fsPath, m ? Number(m[1]) : undefined);
  } else {
    log.warn(`refused a link with scheme "${uri.scheme}"${uri.authority ? ` and host "${uri.authority}"` : ''} from the agent`);
  }
}

/** Owns every chat panel and restores them after a window reload. */
export class ChatPanelManager implements vscode.Disposable, vscode.WebviewPanelSerializer<PersistedPanelState> {
  private readonly panels = new Set<ChatPanel>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly lookupAgent: (id: string) => AgentDefinition | undefined,
    private readonly createSession: (agent: AgentDefinition, cwd?: string) => AgentSession,
    private readonly diffs: DiffDocuments,
    private readonly attachments: AttachmentSources,
    private readonly attention?: AttentionDeps,
  ) {
    this.disposables.push(vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, this));
  }

  /**
   * Opens a past session: reveals its panel when it is open (or opening — two
   * opens share one request), else loads, resumes or shows its archive.
   */
  openPast(agent: AgentDefinition, sessionId: string, cwd?: string): ChatPanel {
    const existing = this.find(agent.id, sessionId);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const p = this.create(agent, cwd);
    p.session.targetSessionId = sessionId;
    void p.session.openPast(sessionId);
    return p;
  }

  find(agentId: string, sessionId: string): ChatPanel | undefined {
    return [...this.panels].find((p) => p.agentId === agentId && (p.session.id === sessionId || p.session.targetSessionId === sessionId));
  }

  private create(agent: AgentDefinition, cwd?: string): ChatPanel {
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      agent.name,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      // Find in the transcript (Ctrl/Cmd+F) with VS Code's own find widget.
      { ...ChatPanel.webviewOptions(this.extensionUri), retainContextWhenHidden: false, enableFindWidget: true },
    );
    return this.track(new ChatPanel(panel, this.extensionUri, this.createSession(agent, cwd), this.log, this.diffs, this.attachments, this.attention));
  }

  /** Opens a panel for a fork of a session of `agent` (its history shown, then a new session). */
  openFork(agent: AgentDefinition, source: { sessionId: string; title: string }, cwd?: string): ChatPanel {
    const p = this.create(agent, cwd);
    void p.session.past.forkFrom(source);
    return p;
  }

  /** Opens a panel for a new session of `agent` in `cwd` and starts it. */
  open(agent: AgentDefinition, cwd?: string): ChatPanel {
    const p = this.create(agent, cwd);
    void p.session.start();
    return p;
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: PersistedPanelState | undefined): Promise<void> {
    const agentId = typeof state?.agentId === 'string' ? state.agentId : '';
    const agent = this.lookupAgent(agentId);
    if (!agent) {
      panel.dispose();
      return;
    }
    // The agent process did not survive the reload: the panel offers to start again.
    const session = this.createSession(agent);
    this.track(new ChatPanel(panel, this.extensionUri, session, this.log, this.diffs, this.attachments, this.attention));
    const sessionId = typeof state?.sessionId === 'string' ? state.sessionId : undefined;
    if (sessionId) {
      // The agent did not survive the reload: open the session again (load, resume or archive).
      session.targetSessionId = sessionId;
      void session.openPast(sessionId);
    } else {
      session.markStopped(vscode.l10n.t('The window was reloaded and {0} stopped. Restart it to start a new session.', agent.name));
    }
  }

  all(): readonly ChatPanel[] {
    return [...this.panels];
  }

  private readonly openedEmitter = new vscode.EventEmitter<ChatPanel>();
  /** A panel was opened (or restored after a reload). */
  readonly onDidOpen = this.openedEmitter.event;

  private track(p: ChatPanel): ChatPanel {
    this.panels.add(p);
    this.openedEmitter.fire(p);
    p.onDidDispose(() => this.panels.delete(p));
    return p;
  }

  dispose(): void {
    for (const p of this.panels) p.panel.dispose();
    this.panels.clear();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
