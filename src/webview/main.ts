import './l10nInit';
import * as l10n from '@vscode/l10n';
import type { HostToWebview, PanelAction, PanelInfo, PanelStatus, WebviewToHost } from '../shared/webviewProtocol';
import type { HeaderState } from '../shared/transcriptTypes';
import { Composer } from './composer';
import { setDisplayRoot } from './render';
import { HeaderView } from './header';
import { McpSection } from './mcpSection';
import { PinStrip } from './pinStrip';
import { renderRestore } from './restoreCard';
import { renderWelcome } from './welcome';
import { TranscriptView } from './transcriptView';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

// Marks for the benchmark's breakdown (performance.getEntriesByType('mark')).
performance.mark('acp:script');
const vscode = acquireVsCodeApi();
const post = (m: WebviewToHost) => vscode.postMessage(m);

function el<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return node as T;
}

const agentName = el<HTMLSpanElement>('agent-name');
const transcriptEl = el<HTMLElement>('transcript');
const status = el<HTMLDivElement>('status');
const input = el<HTMLTextAreaElement>('input');
const changesEl = el<HTMLElement>('changes');

interface ViewState {
  agentId?: string;
  follow?: boolean;
  sessionId?: string;
  draft?: string;
  scrollTop?: number;
  /** The composer's history of sent prompts (bounded: see PromptHistory). */
  history?: unknown;
}
const saved = (vscode.getState() ?? {}) as ViewState;
if (typeof saved.draft === 'string') input.value = saved.draft;
function saveState(patch: Partial<ViewState>): void {
  vscode.setState({ ...((vscode.getState() ?? {}) as ViewState), ...patch });
}

const transcript = new TranscriptView(transcriptEl, post);
const header = new HeaderView(el('session-title'), el('controls'), el('usage'), post);
const pins = new PinStrip(post, (id) => transcript.reveal(id), (text) => announce(text));
el('header').after(pins.el);
const mcpSection = new McpSection(post, (a) => actionLabel(a));
pins.el.after(mcpSection.el);
const composer = new Composer(input, el('send'), el('stop'), el('commands'), post, (draft) => saveState({ draft }), el('chips'), el('attach'), { saved: saved.history, save: (history) => saveState({ history }) });
let info: PanelInfo | undefined;
let restoredScroll = false;
let streaming = false;

function actionLabel(action: PanelAction): string {
  switch (action) {
    case 'restart':
      return l10n.t('Restart');
    case 'reconnect':
      return l10n.t('Reconnect Now');
    case 'retry':
      return l10n.t('Retry');
    case 'showLog':
      return l10n.t('Show Log');
    case 'signIn':
      return l10n.t('Sign In…');
    case 'stop':
      return l10n.t('Stop');
    case 'newSession':
      return l10n.t('New Session');
    case 'fork':
      return l10n.t('Fork');
    case 'export':
      return l10n.t('Export');
    case 'trustSetting':
      return l10n.t('Open the Workspace Trust Setting');
    case 'agentSettings':
      return l10n.t('Open the Agents Setting');
  }
}

function setStatus(s: PanelStatus): void {
  status.replaceChildren();
  const actions = s.actions.filter((a) => a !== 'stop');
  status.hidden = s.text === '' && actions.length === 0;
  status.classList.toggle('error', s.severity === 'error');
  status.classList.toggle('loading', !!s.loading);
  const text = document.createElement('span');
  text.className = 'status-text';
  text.textContent = s.text;
  status.append(text);
  for (const action of actions) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'status-action';
    b.dataset.action = action;
    b.textContent = actionLabel(action);
    b.addEventListener('click', () => post({ type: 'action', action }));
    status.append(b);
  }
  const wasStreaming = streaming;
  streaming = s.busy;
  // The reply is announced once, when the turn ends (never chunk by chunk).
  if (wasStreaming && !s.busy) {
    const reply = transcript.lastText('agent');
    const said = reply && reply.length > 600 ? `${reply.slice(0, 600)}…` : reply;
    if (said) announce(info?.agentName ? l10n.t('{0} replied: {1}', info.agentName, said) : l10n.t('The agent replied: {0}', said));
  }
  transcriptEl.setAttribute('aria-busy', String(s.busy));
  document.body.classList.toggle('busy', s.busy);
  composer.setState(s.inputEnabled, s.busy && s.actions.includes('stop'));
  if (wasStreaming && !s.busy) transcript.finalizeStreams();
}

const queueEl = el<HTMLUListElement>('queue');
const followEl = el<HTMLButtonElement>('follow');

/** Follow the agent: off by default, kept across reloads of the panel. */
function setFollow(on: boolean, tell: boolean): void {
  followEl.setAttribute('aria-pressed', String(on));
  followEl.classList.toggle('on', on);
  saveState({ follow: on });
  if (tell) post({ type: 'follow', on });
}
followEl.addEventListener('click', () => setFollow(followEl.getAttribute('aria-pressed') !== 'true', true));
el<HTMLButtonElement>('fork').addEventListener('click', () => post({ type: 'action', action: 'fork' }));
el<HTMLButtonElement>('export').addEventListener('click', () => post({ type: 'action', action: 'export' }));

/** Messages waiting for their turn, in order: Send now, Edit (back into the composer), Remove. */
function renderQueue(queue: HeaderState['queue'], mode: HeaderState['sendNow']): void {
  const items = queue ?? [];
  queueEl.hidden = items.length === 0;
  queueEl.replaceChildren(
    ...items.map((q, i) => {
      const li = document.createElement('li');
      li.className = 'queued';
      li.dataset.id = q.id;
      const label = document.createElement('span');
      label.className = 'queued-text';
      label.textContent = q.attachments.length ? l10n.t('{0} (+{1} attached)', q.text, q.attachments.length) : q.text;
      label.title = q.text;
      const order = document.createElement('span');
      order.className = 'queued-order';
      order.textContent = `${i + 1}.`;
      const act = (action: 'sendNow' | 'edit' | 'remove', text: string, cls: string, ariaLabel: string) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `link-button ${cls}`;
        b.textContent = text;
        b.setAttribute('aria-label', ariaLabel);
        b.addEventListener('click', () => {
          if (action === 'edit') composer.takeBack(q.text);
          post({ type: 'queue', action, id: q.id });
        });
        return b;
      };
      const short = q.text.slice(0, 80);
      // What Send now does: into the running turn (the agent steers), or the turn is stopped for it, or (no turn) just sent.
      const sendNow =
        mode === 'steer'
          ? [l10n.t('Send now (steers the running turn)'), l10n.t('Send now into the running turn: {0}', short)]
          : mode === 'stop'
            ? [l10n.t('Send now (stops the turn)'), l10n.t('Stop the running turn and send now: {0}', short)]
            : [l10n.t('Send now'), l10n.t('Send now: {0}', short)];
      li.append(
        order,
        label,
        act('sendNow', sendNow[0]!, 'queued-send-now', sendNow[1]!),
        act('edit', l10n.t('Edit'), 'queued-edit', l10n.t('Edit: {0}', short)),
        act('remove', l10n.t('Remove'), 'queued-remove', l10n.t('Remove: {0}', short)),
      );
      return li;
    }),
  );
}

let lastHeader: HeaderState | undefined;
const welcomeEl = el<HTMLElement>('welcome');
/** An empty session shows what the agent offers; the first item replaces it. */
function updateWelcome(): void {
  renderWelcome(welcomeEl, lastHeader, info?.agentName ?? '', transcript.size === 0);
}

const announcer = el<HTMLElement>('announcer');
/** Said by screen readers, politely (role=status). */
function announce(text: string): void {
  announcer.textContent = '';
  requestAnimationFrame(() => (announcer.textContent = text));
}
const MAC = /Mac/i.test(navigator.platform);

/** The composer gets the keyboard when the panel does (and nothing in it has it yet). */
function focusComposer(): void {
  const active = document.activeElement;
  if (!active || active === document.body || active === document.documentElement) input.focus();
}
window.addEventListener('focus', focusComposer);

function setHeader(h: HeaderState): void {
  lastHeader = h;
  updateWelcome();
  renderQueue(h.queue, h.sendNow);
  pins.render(h.pins);
  mcpSection.render(h.mcp);
  header.render(h, info?.agentName ?? '');
  header.renderChanges(changesEl, h);
  renderRestore(transcriptEl, el('restore-slot'), h.restore, post);
  composer.setCommands(h.commands);
}

/** After a reload or when the panel comes back into view: where the user was (once the whole history is there). */
function restoreScroll(): void {
  if (restoredScroll || typeof saved.scrollTop !== 'number') return;
  restoredScroll = true;
  transcript.scrollTo(saved.scrollTop);
}

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'init':
      performance.mark('acp:init-received', { detail: msg.items.length });
      info = msg.panel;
      setDisplayRoot(msg.panel.cwd);
      agentName.textContent = msg.panel.agentName;
      saveState({ agentId: msg.panel.agentId });
      setFollow(saved.follow === true, saved.follow === true);
      transcript.reset(msg.items, msg.olderPending);
      setHeader(msg.header);
      setStatus(msg.status);
      if (document.hasFocus()) focusComposer();
      if (msg.olderPending === 0) restoreScroll();
      performance.mark('acp:init-applied');
      return;
    case 'older':
      transcript.prepend(msg.items, msg.remaining);
      updateWelcome();
      if (msg.remaining === 0) restoreScroll();
      return;
    case 'status':
      setStatus(msg.status);
      return;
    case 'focus':
      input.focus();
      return;
    case 'reveal':
      transcript.reveal(msg.id);
      return;
    case 'session':
      saveState({ sessionId: msg.sessionId });
      return;
    case 'attachments':
      composer.addAttachments(msg.add);
      return;
    case 'mentions':
      composer.setMentions(msg.requestId, msg.items);
      return;
    case 'composerNote':
      composer.setNote(msg.text);
      return;
    case 'editing':
      composer.edit(msg.id, msg.message, msg.text);
      return;
    case 'rewound':
      composer.rewound(msg.ok, msg.note);
      if (msg.note) announce(msg.note);
      return;
    case 'deltas': {
      transcript.apply(msg.deltas, streaming);
      // A permission request is announced with the keys that answer it.
      for (const d of msg.deltas) {
        if (d.t === 'add' && d.item.kind === 'permission' && d.item.state === 'pending') announce(l10n.t('Permission needed: {0}. {1} allows, {2} rejects.', d.item.title, MAC ? 'Control+Option+Y' : 'Alt+Y', MAC ? 'Control+Option+N' : 'Alt+N'));
      }
      for (const d of msg.deltas) if (d.t === 'header') setHeader(d.header);
      if (!welcomeEl.hidden) updateWelcome();
      return;
    }
  }
});

// Links inside rendered markdown: the host decides what may open.
transcriptEl.addEventListener('click', (e) => {
  const a = (e.target as HTMLElement).closest('a');
  if (!a) return;
  const href = a.getAttribute('data-href');
  e.preventDefault();
  if (href) post({ type: 'openLink', href });
});

/** A code block's Copy button, made when it is first needed (a pointer over the block, the keyboard in its item). */
function addCopyButton(block: Element): void {
  if (block.querySelector(':scope > .copy')) return;
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'copy';
  b.title = l10n.t('Copy');
  b.setAttribute('aria-label', l10n.t('Copy code'));
  b.textContent = l10n.t('Copy');
  b.addEventListener('click', () => {
    const code = block.querySelector('code')?.textContent ?? '';
    void navigator.clipboard.writeText(code).then(() => (b.textContent = l10n.t('Copied')));
  });
  block.append(b);
}

// Copy buttons on code blocks: for the mouse on hover; for the keyboard when focus enters the item
// (Up/Down or Tab), so that the buttons are next in the Tab order.
transcriptEl.addEventListener('pointerover', (e) => {
  const block = (e.target as HTMLElement).closest('.code-block');
  if (block) addCopyButton(block);
});
transcriptEl.addEventListener('focusin', (e) => {
  const item = (e.target as HTMLElement).closest('.item');
  if (item) for (const block of item.querySelectorAll('.code-block')) addCopyButton(block);
});

transcriptEl.addEventListener('scroll', () => saveState({ scrollTop: transcriptEl.scrollTop }), { passive: true });

post({ type: 'ready' });
