/**
 * The messages between the extension host and the chat webview. Compiled by both
 * sides; every `switch` over them is exhaustive.
 */

export interface PanelInfo {
  readonly agentId: string;
  readonly agentName: string;
  readonly title: string;
  /** What the panel can do right now, in words, when input is not possible. */
  readonly status: string;
  readonly inputEnabled: boolean;
}

export type HostToWebview =
  | { readonly type: 'init'; readonly panel: PanelInfo }
  | { readonly type: 'status'; readonly status: string; readonly inputEnabled: boolean };

export type WebviewToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'send'; readonly text: string };

/** The state a panel persists across a window reload (through `WebviewPanelSerializer`). */
export interface PersistedPanelState {
  readonly agentId: string;
  readonly draft?: string;
  readonly scrollTop?: number;
}

export function isWebviewToHost(value: unknown): value is WebviewToHost {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { type?: unknown; text?: unknown };
  switch (m.type) {
    case 'ready':
      return true;
    case 'send':
      return typeof m.text === 'string';
    default:
      return false;
  }
}
