/**
 * The life of a session as its panel shows it: a small state machine of
 * phases, each with exactly one status line, busy flag, input state and set of
 * actions. Pure: no `vscode`, no agent — unit-tested in plain Node.
 */
import * as l10n from '@vscode/l10n';
import { Emitter } from '../shared/events';
import type { PanelStatus } from '../shared/webviewProtocol';

export type SessionPhase =
  /** Nothing yet, or the panel came back after a reload without its agent. */
  | { readonly kind: 'idle'; readonly text: string }
  | { readonly kind: 'starting' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'resuming' }
  /** Connected and waiting for a prompt; `text` says to what (after a turn: nothing). */
  | { readonly kind: 'ready'; readonly text: string }
  | { readonly kind: 'working' }
  | { readonly kind: 'stopping' }
  /** Stop was sent and the agent has not stopped in time. */
  | { readonly kind: 'stuck'; readonly seconds: number }
  | { readonly kind: 'needsSignIn' }
  /** Starting, opening or a turn failed, or the agent exited: `needsAuth` offers Sign In instead of Restart, `reconnect` Reconnect Now. */
  | { readonly kind: 'failed'; readonly text: string; readonly needsAuth?: boolean; readonly reconnect?: boolean }
  /**
   * An agent by URL lost its connection and is being connected again (parts/reconnect.ts). Typing goes on:
   * what is sent meanwhile waits in the queue, and goes once the session is open again.
   */
  | { readonly kind: 'reconnecting'; readonly text: string }
  /** `session/load` answered "not found". */
  | { readonly kind: 'notFound' }
  /** An archived transcript that cannot continue; `retry`: the agent failed to open the session, and may be asked again. */
  | { readonly kind: 'readOnly'; readonly text: string; readonly error?: boolean; readonly retry?: boolean };

type PhaseKind = SessionPhase['kind'];

/** The one status line each phase shows. */
export function statusOf(phase: SessionPhase, agentName: string): PanelStatus {
  switch (phase.kind) {
    case 'idle':
      return { text: phase.text, busy: false, inputEnabled: false, actions: phase.text === notStarted() ? [] : ['restart'] };
    case 'starting':
      return { text: l10n.t('Starting {0}…', agentName), busy: true, inputEnabled: false, actions: [] };
    case 'loading':
      return { text: l10n.t('Loading the session from {0}…', agentName), busy: true, inputEnabled: false, actions: [], loading: true };
    case 'resuming':
      return { text: l10n.t('Resuming the session with {0}…', agentName), busy: true, inputEnabled: false, actions: [] };
    case 'ready':
      return { text: phase.text, busy: false, inputEnabled: true, actions: [] };
    case 'working':
      // Typing goes on while the agent works: what is sent then is queued.
      return { text: '', busy: true, inputEnabled: true, actions: ['stop'] };
    case 'stopping':
      return { text: l10n.t('Stopping…'), busy: true, inputEnabled: false, actions: [] };
    case 'stuck':
      return { text: l10n.t('{0} has not stopped {1} s after Stop. Restart it?', agentName, phase.seconds), busy: true, inputEnabled: false, actions: ['restart', 'showLog'], severity: 'error' };
    case 'needsSignIn':
      return { text: l10n.t('{0} needs you to sign in.', agentName), busy: false, inputEnabled: true, actions: ['signIn', 'showLog'], severity: 'info' };
    case 'failed':
      return { text: phase.text, busy: false, inputEnabled: false, actions: [phase.needsAuth ? 'signIn' : phase.reconnect ? 'reconnect' : 'restart', 'showLog'], severity: 'error' };
    case 'reconnecting':
      return { text: phase.text, busy: false, inputEnabled: true, actions: ['reconnect', 'showLog'], severity: 'error' };
    case 'notFound':
      return { text: l10n.t('This session no longer exists on the agent.'), busy: false, inputEnabled: false, actions: ['showLog'], severity: 'error' };
    case 'readOnly':
      return { text: phase.text, busy: false, inputEnabled: false, actions: phase.retry ? ['retry', 'newSession', 'showLog'] : ['newSession'], ...(phase.error ? { severity: 'error' as const } : {}) };
  }
}

/** The first phase's line (a function: translated once the bundle is loaded, not when this module is). */
function notStarted(): string {
  return l10n.t('Not started.');
}

/** Which phases may follow which: anything else is a bug, logged and refused. */
const NEXT: Record<PhaseKind, readonly PhaseKind[]> = {
  idle: ['starting', 'loading', 'resuming', 'readOnly', 'failed', 'idle'],
  starting: ['ready', 'failed', 'needsSignIn', 'starting'],
  loading: ['ready', 'failed', 'notFound', 'loading'],
  resuming: ['ready', 'failed', 'readOnly', 'resuming'],
  ready: ['working', 'starting', 'loading', 'resuming', 'failed', 'ready', 'needsSignIn', 'idle', 'stopping'],
  working: ['ready', 'stopping', 'failed', 'needsSignIn', 'working', 'starting'],
  stopping: ['ready', 'stuck', 'failed', 'needsSignIn', 'stopping'],
  stuck: ['ready', 'failed', 'starting', 'needsSignIn', 'stopping', 'stuck'],
  needsSignIn: ['ready', 'starting', 'working', 'failed', 'needsSignIn'],
  failed: ['starting', 'loading', 'resuming', 'ready', 'failed', 'needsSignIn', 'readOnly', 'reconnecting'],
  reconnecting: ['reconnecting', 'failed', 'starting', 'loading', 'resuming', 'ready', 'needsSignIn'],
  notFound: ['readOnly', 'starting', 'failed'],
  readOnly: ['loading', 'resuming', 'starting', 'readOnly', 'failed'],
};

export class SessionState {
  private phaseNow: SessionPhase = { kind: 'idle', text: notStarted() };
  private readonly emitter = new Emitter<PanelStatus>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly agentName: string,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  get phase(): SessionPhase {
    return this.phaseNow;
  }

  get status(): PanelStatus {
    return statusOf(this.phaseNow, this.agentName);
  }

  /** Moves to `next`; returns false (and changes nothing) for a transition the machine does not allow. */
  set(next: SessionPhase): boolean {
    if (!NEXT[this.phaseNow.kind].includes(next.kind)) {
      this.log(`status: refused ${this.phaseNow.kind} → ${next.kind}`);
      return false;
    }
    this.phaseNow = next;
    this.emitter.fire(this.status);
    return true;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
