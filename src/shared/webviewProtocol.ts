/**
 * The messages between the extension host and the chat webview. Compiled by both
 * sides; every `switch` over them is exhaustive.
 */

export type PanelAction = 'restart' | 'showLog' | 'signIn' | 'stop';

export interface PanelStatus {
  /** What is going on, in words ('' when there is nothing to say). */
  readonly text: string;
  readonly busy: boolean;
  readonly inputEnabled: boolean;
  readonly actions: readonly PanelAction[];
  readonly severity?: 'info' | 'error';
}

export interface PanelInfo {
  readonly agentId: string;
  readonly agentName: string;
  readonly title: string;
}

export type HostToWebview =
  | { readonly type: 'init'; readonly panel: PanelInfo; readonly status: PanelStatus }
  | { readonly type: 'status'; readonly status: PanelStatus };

export type WebviewToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'send'; readonly text: string }
  | { readonly type: 'action'; readonly action: PanelAction };

/** The state a panel persists across a window reload (through `WebviewPanelSerializer`). */
export interface PersistedPanelState {
  readonly agentId: string;
  readonly draft?: string;
  readonly scrollTop?: number;
}

const ACTIONS: readonly string[] = ['restart', 'showLog', 'signIn', 'stop'];

export function isWebviewToHost(value: unknown): value is WebviewToHost {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { type?: unknown; text?: unknown; action?: unknown };
  switch (m.type) {
    case 'ready':
      return true;
    case 'send':
      return typeof m.text === 'string';
    case 'action':
      return typeof m.action === 'string' && ACTIONS.includes(m.action);
    default:
      return false;
  }
}
