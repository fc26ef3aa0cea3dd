import type { HostToWebview, PanelAction, PanelInfo, PanelStatus, WebviewToHost } from '../shared/webviewProtocol';

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
const transcript = el<HTMLElement>('transcript');
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

const ACTION_LABELS: Record<PanelAction, string> = {
  restart: 'Restart',
  showLog: 'Show Log',
  signIn: 'Sign In…',
  stop: 'Stop',
};

function setStatus(s: PanelStatus): void {
  status.replaceChildren();
  status.hidden = s.text === '' && s.actions.length === 0;
  status.classList.toggle('error', s.severity === 'error');
  const text = document.createElement('span');
  text.className = 'status-text';
  text.textContent = s.text;
  status.append(text);
  for (const action of s.actions) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'status-action';
    b.dataset.action = action;
    b.textContent = ACTION_LABELS[action];
    b.addEventListener('click', () => vscode.postMessage({ type: 'action', action }));
    status.append(b);
  }
  transcript.setAttribute('aria-busy', String(s.busy));
  send.disabled = !s.inputEnabled;
  input.setAttribute('aria-disabled', String(!s.inputEnabled));
}

function init(panel: PanelInfo, s: PanelStatus): void {
  agentName.textContent = panel.agentName;
  sessionTitle.textContent = panel.title === panel.agentName ? '' : panel.title;
  saveState({ agentId: panel.agentId });
  setStatus(s);
}

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'init':
      init(msg.panel, msg.status);
      return;
    case 'status':
      setStatus(msg.status);
      return;
  }
});

function submit(): void {
  const text = input.value;
  if (text.trim() === '' || send.disabled) return;
  vscode.postMessage({ type: 'send', text });
  input.value = '';
  saveState({ draft: '' });
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
