import type { HostToWebview, PanelInfo, WebviewToHost } from '../shared/webviewProtocol';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

function el<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return node as T;
}

const agentName = el<HTMLSpanElement>('agent-name');
const sessionTitle = el<HTMLSpanElement>('session-title');
const status = el<HTMLDivElement>('status');
const input = el<HTMLTextAreaElement>('input');
const send = el<HTMLButtonElement>('send');
const composer = el<HTMLFormElement>('composer');

interface ViewState {
  agentId?: string;
  draft?: string;
}
const saved = (vscode.getState() ?? {}) as ViewState;
if (typeof saved.draft === 'string') input.value = saved.draft;

function saveState(patch: Partial<ViewState>): void {
  vscode.setState({ ...((vscode.getState() ?? {}) as ViewState), ...patch });
}

function setStatus(text: string, inputEnabled: boolean): void {
  status.textContent = text;
  status.hidden = text === '';
  send.disabled = !inputEnabled;
  input.setAttribute('aria-disabled', String(!inputEnabled));
}

function init(panel: PanelInfo): void {
  agentName.textContent = panel.agentName;
  sessionTitle.textContent = panel.title === panel.agentName ? '' : panel.title;
  saveState({ agentId: panel.agentId });
  setStatus(panel.status, panel.inputEnabled);
}

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'init':
      init(msg.panel);
      return;
    case 'status':
      setStatus(msg.status, msg.inputEnabled);
      return;
  }
});

function submit(): void {
  const text = input.value;
  if (text.trim() === '' || send.disabled) return;
  vscode.postMessage({ type: 'send', text });
}

composer.addEventListener('submit', (e) => {
  e.preventDefault();
  submit();
});
input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    submit();
  }
});
input.addEventListener('input', () => saveState({ draft: input.value }));

vscode.postMessage({ type: 'ready' });
