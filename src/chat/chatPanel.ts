import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import {
  isWebviewToHost,
  type HostToWebview,
  type PanelInfo,
  type PersistedPanelState,
} from '../shared/webviewProtocol';
import { chatHtml } from './chatHtml';

export const CHAT_VIEW_TYPE = 'acpAgents.chat';

/** One chat panel: a webview showing one session of one agent. */
export class ChatPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private readonly pending: HostToWebview[] = [];
  private info: PanelInfo;
  private readonly onDidDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDidDisposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    agent: Pick<AgentDefinition, 'id' | 'name'>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.info = {
      agentId: agent.id,
      agentName: agent.name,
      title: agent.name,
      status: 'No session yet: sessions arrive in a later version.',
      inputEnabled: false,
    };
    panel.title = agent.name;
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'activity.svg');
    panel.webview.options = ChatPanel.webviewOptions(extensionUri);
    panel.webview.html = this.html();
    this.disposables.push(
      panel.webview.onDidReceiveMessage((msg: unknown) => this.onMessage(msg)),
      panel.onDidDispose(() => this.dispose()),
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

  persistedState(): PersistedPanelState {
    return { agentId: this.info.agentId };
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
      this.log.warn(`chat panel: ignored a malformed message from the webview`);
      return;
    }
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'init', panel: this.info });
        for (const m of this.pending.splice(0)) this.post(m);
        return;
      case 'send':
        this.log.info(`chat panel (${this.info.agentId}): prompt not sent, no session is connected`);
        return;
    }
  }

  private post(message: HostToWebview): void {
    if (!this.ready) {
      if (message.type !== 'init') this.pending.push(message);
      return;
    }
    void this.panel.webview.postMessage(message).then(undefined, (err: unknown) => {
      this.log.warn(`chat panel: postMessage failed: ${String(err)}`);
    });
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  dispose(): void {
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
    private readonly lookupAgent: (id: string) => Pick<AgentDefinition, 'id' | 'name'> | undefined,
  ) {
    this.disposables.push(vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, this));
  }

  open(agent: Pick<AgentDefinition, 'id' | 'name'>): ChatPanel {
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      agent.name,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { ...ChatPanel.webviewOptions(this.extensionUri), retainContextWhenHidden: false },
    );
    return this.track(new ChatPanel(panel, this.extensionUri, agent, this.log));
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: PersistedPanelState | undefined): Promise<void> {
    const agentId = typeof state?.agentId === 'string' ? state.agentId : '';
    const agent = this.lookupAgent(agentId) ?? { id: agentId || 'unknown', name: agentId || 'Unknown agent' };
    this.track(new ChatPanel(panel, this.extensionUri, agent, this.log));
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
