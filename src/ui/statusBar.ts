/**
 * The status bar item: the active (or last active) session's agent and state —
 * starting, ready, working with the time it has been working, needs you, error.
 * A click shows its panel (or offers a new session when none is open). Hidden
 * until a session was opened in this window.
 */
import * as vscode from 'vscode';
import type { AgentStatus } from '../agents/agentManager';
import type { ChatPanel } from '../chat/chatPanel';
import type { ChatPanelManager } from '../chat/panelManager';
import { forLabel, forMessage } from '../shared/nativeText';
import { agentStatusWords } from './sessionTree';

/** The agents' state, as the Sessions view reads it: one truth for both. */
export interface AgentStates {
  status(agentId: string): AgentStatus;
  readonly onDidChangeStatus: (listener: (agentId: string) => void) => { dispose(): void };
}

const FOCUS_COMMAND = 'acpAgents.showActiveSession';

export class SessionStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('acpAgents.session', vscode.StatusBarAlignment.Left, 50);
  private readonly disposables: vscode.Disposable[] = [this.item];
  private current: ChatPanel | undefined;
  private workingSince: number | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly panels: ChatPanelManager,
    private readonly agents: AgentStates,
  ) {
    this.item.name = vscode.l10n.t('ACP Session');
    this.item.command = FOCUS_COMMAND;
    this.disposables.push(
      vscode.commands.registerCommand(FOCUS_COMMAND, () => {
        if (this.current && panels.all().includes(this.current)) this.current.reveal();
        else void vscode.commands.executeCommand('acpAgents.newSession');
      }),
      panels.onDidOpen((p) => this.watch(p)),
      agents.onDidChangeStatus((id) => {
        if (this.current?.session.def.id === id) this.update();
      }),
    );
    for (const p of panels.all()) this.watch(p);
  }

  private watch(p: ChatPanel): void {
    const subs = [
      p.panel.onDidChangeViewState(() => {
        if (p.panel.active) this.show(p);
        else this.update();
      }),
      p.session.onDidChangeStatus(() => this.update()),
      p.session.onDidChangeTranscript((changes) => {
        if (changes.some((c) => (c.c === 'add' || c.c === 'put') && (c.item.kind === 'permission' || c.item.kind === 'elicitation'))) this.update();
      }),
    ];
    p.onDidDispose(() => {
      for (const s of subs) s.dispose();
      if (this.current === p) this.show(this.panels.all().find((o) => o.panel.active) ?? this.panels.all().at(-1));
    });
    this.show(p);
  }

  private show(p: ChatPanel | undefined): void {
    if (p !== this.current) this.workingSince = undefined;
    this.current = p;
    this.update();
  }

  /** The panel keyboard commands act on: the active one, else the last one that was. */
  get panel(): ChatPanel | undefined {
    return this.current && this.panels.all().includes(this.current) ? this.current : undefined;
  }

  /** For keybindings' `when`: the current session works (for a user's own Stop key; Escape in the panel is the webview's), a permission waits (Alt+Y / Alt+N answer it). */
  private setContext(working: boolean, permission: boolean): void {
    if (working !== this.ctxWorking) void vscode.commands.executeCommand('setContext', 'acpAgents.sessionWorking', (this.ctxWorking = working));
    if (permission !== this.ctxPermission) void vscode.commands.executeCommand('setContext', 'acpAgents.permissionPending', (this.ctxPermission = permission));
  }
  private ctxWorking: boolean | undefined;
  private ctxPermission: boolean | undefined;

  /** What the item says now. */
  private update(): void {
    const p = this.current;
    this.setContext(!!p && p.session.status.busy && p.session.status.actions.includes('stop'), !!p && p.session.transcript.items.some((i) => i.kind === 'permission' && i.state === 'pending'));
    if (!p) {
      this.item.text = `$(hubot) ${vscode.l10n.t('ACP: no session')}`;
      this.item.tooltip = vscode.l10n.t('No chat panel is open. Click to start a session.');
      this.item.backgroundColor = undefined;
      this.stopTicker();
      if (this.visible) this.item.show();
      return;
    }
    const s = p.session.status;
    const name = p.session.def.name;
    const waiting = p.session.transcript.items.some((i) => (i.kind === 'permission' || i.kind === 'elicitation') && i.state === 'pending');
    const working = s.busy && s.actions.includes('stop');
    let state: string;
    let icon = '$(hubot)';
    this.item.backgroundColor = undefined;
    if (s.severity === 'error') {
      state = vscode.l10n.t('error');
      icon = '$(error)';
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    } else if (waiting || p.attention?.needsYou) {
      state = vscode.l10n.t('needs you');
      icon = '$(bell-dot)';
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else if (working) {
      this.workingSince ??= Date.now();
      const secs = Math.floor((Date.now() - this.workingSince) / 1000);
      state = vscode.l10n.t('working {0}', `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`);
      icon = '$(loading~spin)';
    } else if (s.busy) state = vscode.l10n.t('starting');
    // A session that takes no prompt (restored after a reload, read-only, ended): the agent's own
    // state, as the Sessions view says it — never "stopped" for an agent that runs.
    else state = s.inputEnabled ? vscode.l10n.t('ready') : agentStatusWords(this.agents.status(p.session.def.id));
    if (!working) this.workingSince = undefined;
    if (working) this.startTicker();
    else this.stopTicker();
    // The agent's name, the session's title and the status text (which may quote the agent) are untrusted.
    this.item.text = `${icon} ${forLabel(name, 60)}: ${state}`;
    this.item.tooltip = `${forLabel(name, 100)} — ${forLabel(p.panel.title, 300)}${s.text ? `\n${forMessage(s.text, 500)}` : ''}\n${vscode.l10n.t('Click to show the panel.')}`;
    this.item.show();
    this.visible = true;
  }

  /** Shown (once a session was opened in this window). */
  visible = false;

  private startTicker(): void {
    this.ticker ??= setInterval(() => this.update(), 1000);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  dispose(): void {
    this.stopTicker();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
