/**
 * "Waiting on you": which open sessions wait for the user — a permission request or a
 * question nobody has answered. The Sessions view's badge counts them, the session's row
 * and its panel tab show it, and the mark clears as soon as the user answers.
 */
import * as vscode from 'vscode';
import type { ChatPanel } from './chatPanel';

interface Watched {
  waiting: boolean;
  readonly subscriptions: vscode.Disposable[];
}

/** The panels a tracker watches: those open now and those opened later. */
export interface WaitingPanels {
  all(): readonly ChatPanel[];
  readonly onDidOpen: vscode.Event<ChatPanel>;
}

export class WaitingOnYou implements vscode.Disposable {
  private readonly watched = new Map<ChatPanel, Watched>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** The set of waiting sessions changed. */
  readonly onDidChange = this.changed.event;
  private readonly opened: vscode.Disposable;

  constructor(panels: WaitingPanels) {
    for (const p of panels.all()) this.watch(p);
    this.opened = panels.onDidOpen((p) => this.watch(p));
  }

  /** The count as a view's badge, kept current; `changed` also runs on each change. */
  showAsBadge(view: vscode.TreeView<unknown>, changed: () => void): vscode.Disposable {
    return this.onDidChange(() => {
      const n = this.count;
      view.badge = n > 0 ? { value: n, tooltip: n === 1 ? vscode.l10n.t('1 session is waiting for you') : vscode.l10n.t('{0} sessions are waiting for you', n) } : undefined;
      changed();
    });
  }

  /** How many sessions wait for the user. */
  get count(): number {
    let n = 0;
    for (const w of this.watched.values()) if (w.waiting) n++;
    return n;
  }

  /** Whether the session `sessionId` of `agentId` waits for the user. */
  has(agentId: string, sessionId: string): boolean {
    for (const [p, w] of this.watched) if (w.waiting && p.agentId === agentId && (p.session.id ?? p.session.targetSessionId) === sessionId) return true;
    return false;
  }

  private watch(p: ChatPanel): void {
    if (this.watched.has(p)) return;
    const w: Watched = { waiting: false, subscriptions: [] };
    this.watched.set(p, w);
    // A request is added to the transcript before it is counted as pending, and settled
    // before its answer is sent: read the count once the change has been handled.
    let scheduled = false;
    const later = (): void => {
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        this.update(p);
      });
    };
    w.subscriptions.push(
      p.session.onDidChangeTranscript((changes) => {
        for (const c of changes) if (c.c === 'remove' || ((c.c === 'add' || c.c === 'put') && (c.item.kind === 'permission' || c.item.kind === 'elicitation'))) return later();
      }),
      p.session.onDidResetTranscript(later),
      p.session.onDidChangeStatus(later),
      p.onDidDispose(() => {
        for (const d of w.subscriptions) d.dispose();
        this.watched.delete(p);
        if (w.waiting) this.changed.fire();
      }),
    );
    this.update(p);
  }

  private update(p: ChatPanel): void {
    const w = this.watched.get(p);
    if (!w) return;
    const waiting = p.session.waitingForUser > 0;
    if (waiting === w.waiting) return;
    w.waiting = waiting;
    p.attention?.setWaiting(waiting);
    this.changed.fire();
  }

  dispose(): void {
    this.opened.dispose();
    for (const w of this.watched.values()) for (const d of w.subscriptions) d.dispose();
    this.watched.clear();
    this.changed.dispose();
  }
}
