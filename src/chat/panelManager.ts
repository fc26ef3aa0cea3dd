import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { AgentSession } from '../sessions/agentSession';
import type { RewindRequest } from '../sessions/ports';
import type { PersistedPanelState } from '../shared/webviewProtocol';
import type { AttachmentSources } from './attachmentSources';
import type { AttentionDeps } from './attention';
import { ChatPanel } from './chatPanel';
import type { DiffDocuments } from './diffDocuments';

const CHAT_VIEW_TYPE = 'acpAgents.chat';

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

  /** Opens a panel for a fork taken before an earlier message (Edit, Retry), which then sends the new text: whether the fork was made. */
  async openRewind(agent: AgentDefinition, source: { sessionId: string; title: string }, rewind: RewindRequest, cwd?: string): Promise<boolean> {
    return await this.create(agent, cwd).session.past.forkFrom(source, rewind);
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
      // Words about this panel's session only: the agent's state is the Sessions view's and the status bar's (AgentManager).
      session.markStopped(vscode.l10n.t('The window was reloaded and the session of this panel ended with it. Restart to start a new session with {0}.', agent.name));
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
