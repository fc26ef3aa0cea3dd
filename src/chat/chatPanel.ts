import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentSession } from '../sessions/agentSession';
import {
  isWebviewToHost,
  type HostToWebview,
  type PanelInfo,
  type PanelStatus,
  type PersistedPanelState,
} from '../shared/webviewProtocol';
import { chatHtml } from './chatHtml';

export const CHAT_VIEW_TYPE = 'acpAgents.chat';

/** One chat panel: a webview showing one session of one agent. */
export class ChatPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private readonly info: PanelInfo;
  private readonly onDidDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDidDisposeEmitter.event;
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    readonly session: AgentSession,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const agent = session.def;
    this.info = { agentId: agent.id, agentName: agent.name, title: agent.name };
    panel.title = agent.name;
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'activity.svg');
    panel.webview.options = ChatPanel.webviewOptions(extensionUri);
    panel.webview.html = this.html();
    this.disposables.push(
      panel.webview.onDidReceiveMessage((msg: unknown) => this.onMessage(msg)),
      panel.onDidDispose(() => this.dispose()),
      session.onDidChangeStatus((status) => this.post({ type: 'status', status })),
      session,
    );
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
      title: this.info.title,
    });
  }

  private onMessage(msg: unknown): void {
    if (!isWebviewToHost(msg)) {
      this.log.warn('chat panel: ignored a malformed message from the webview');
      return;
    }
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'init', panel: this.info, status: this.session.status });
        return;
      case 'send':
        void this.session.prompt(msg.text);
        return;
      case 'action':
        void this.session.runAction(msg.action).then(undefined, (err: unknown) => this.log.error(`panel action ${msg.action} failed: ${String(err)}`));
        return;
    }
  }

  private post(message: HostToWebview): void {
    // Before `ready` the webview has no listener; `init` then carries the current state.
    if (!this.ready || this.disposed) return;
    void this.panel.webview.postMessage(message).then(undefined, (err: unknown) => {
      this.log.warn(`chat panel: postMessage failed: ${String(err)}`);
    });
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.onDidDisposeEmitter.fire();
    this.onDidDisposeEmitter.dispose();
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
    private readonly createSession: (agent: AgentDefinition) => AgentSession,
  ) {
    this.disposables.push(vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, this));
  }

  /** Opens a panel for a new session of `agent` and starts it. */
  open(agent: AgentDefinition): ChatPanel {
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      agent.name,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { ...ChatPanel.webviewOptions(this.extensionUri), retainContextWhenHidden: false },
    );
    const p = this.track(new ChatPanel(panel, this.extensionUri, this.createSession(agent), this.log));
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
    session.markStopped(`The window was reloaded and ${agent.name} stopped. Restart it to start a new session.`);
    this.track(new ChatPanel(panel, this.extensionUri, session, this.log));
  }

  all(): readonly ChatPanel[] {
    return [...this.panels];
  }

  private track(p: ChatPanel): ChatPanel {
    this.panels.add(p);
    p.onDidDispose(() => this.panels.delete(p));
    return p;
  }

  dispose(): void {
    for (const p of this.panels) p.panel.dispose();
    this.panels.clear();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
