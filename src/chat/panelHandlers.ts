/**
 * What the host does with each message from a chat panel's webview: one
 * handler per message type, in a table whose type names every member of
 * `WebviewToHost` — a message type without a handler does not compile.
 * A handler sees the panel only through `PanelHost`.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../sessions/agentSession';
import { attachmentsOf, userOrdinal } from '../sessions/parts/rewind';
import type { Attachment, Mention } from '../shared/attachments';
import { currentBytes } from '../services/files/restoreFiles';
import { forMessage } from '../shared/nativeText';
import { REBUILD_MAX_BYTES } from '../shared/patch';
import type { HostToWebview, WebviewToHost } from '../shared/webviewProtocol';
import type { AttachmentSources } from './attachmentSources';
import { addContextFolder } from './contextFolders';
import type { DiffDocuments } from './diffDocuments';
import { externalOpener } from './externalOpener';
import type { Follower } from './follow';
import type { OfferedFiles } from './offeredFiles';

/** What a handler may use of its panel. */
export interface PanelHost {
  readonly session: AgentSession;
  readonly panel: vscode.WebviewPanel;
  readonly log: vscode.LogOutputChannel;
  readonly diffs: DiffDocuments;
  readonly attachments: AttachmentSources;
  /** The files the host gave this panel's webview (only those, or files in the session's folders, may be sent). */
  readonly offered: OfferedFiles;
  readonly follower: Follower;
  post(message: HostToWebview): void;
  /** The webview (re)connected: a snapshot, then deltas. */
  connected(): void;
  /** Older history: the batch just before `before`. */
  sendOlder(before: string, pending: number): void;
}

type Handlers = { readonly [K in WebviewToHost['type']]: (msg: Extract<WebviewToHost, { type: K }>, panel: PanelHost) => void };

/** Hands attachments to the webview, noting them as this panel's to send. */
function offer(p: PanelHost, add: readonly Attachment[]): void {
  p.offered.note(add);
  p.post({ type: 'attachments', add });
}

/** The real path of a file URI inside one of the session's folders, else undefined. */
function insideSession(p: PanelHost, uri: string): string | undefined {
  try {
    const u = vscode.Uri.parse(uri, true);
    return u.scheme === 'file' ? p.session.requests.pathInside(u.fsPath) : undefined;
  } catch {
    return undefined;
  }
}

/** Edit (the composer's text) or Retry of an earlier message: restore, fork before it, send there; the webview hears how it ended. */
function rewind(p: PanelHost, messageId: string, text: string, attachments: readonly Attachment[]): void {
  void p.session.rewind.start(messageId, text, attachments).then(
    (o) => p.post({ type: 'rewound', ok: o.ok, ...(o.note !== undefined ? { note: o.note } : {}) }),
    (err: unknown) => {
      p.log.warn(`rewind: ${String(err)}`);
      p.post({ type: 'rewound', ok: false, note: vscode.l10n.t('Not rewound: something went wrong (see the log). Nothing was changed.') });
    },
  );
}

const HANDLERS: Handlers = {
  ready: (_msg, p) => p.connected(),
  older: (msg, p) => p.sendOlder(msg.before, msg.pending),
  send: (msg, p) => {
    const { ok, refused } = p.offered.vet(msg.attachments ?? [], (uri) => insideSession(p, uri));
    if (refused.length) {
      p.log.warn(`send: left out ${refused.length} attachment(s) this panel was never given and that are outside the session's folders`);
      p.post({ type: 'composerNote', text: vscode.l10n.t('{0} was not sent: it was not attached here, and it is outside the session\'s folders. Use Attach… to pick it.', forMessage(refused.join(', '), 200)) });
    }
    if (msg.rewind !== undefined) rewind(p, msg.rewind, msg.text, ok);
    else void p.session.prompt(msg.text, ok);
  },
  rewind: (msg, p) => {
    const item = p.session.transcript.get(msg.id);
    if (item?.kind !== 'user') return p.post({ type: 'rewound', ok: false, note: vscode.l10n.t('That message cannot be edited or retried here.') });
    // The message's own files and images: back in the composer for Edit, sent again for Retry. A message
    // replayed by the agent carries what the agent says it carried: its files pass the same check as a
    // send's (offered to this panel, or inside the session's folders), never offered on its word.
    const own = attachmentsOf(item);
    const { ok: attachments, refused } = p.offered.vet(own.attachments, (uri) => insideSession(p, uri));
    const leftOut = [...own.leftOut, ...refused];
    if (refused.length) {
      p.log.warn(`rewind: left out ${refused.length} attachment(s) of the message that are outside the session's folders and were never attached here`);
      p.post({ type: 'composerNote', text: vscode.l10n.t('{0} was not sent: it was not attached here, and it is outside the session\'s folders. Use Attach… to pick it.', forMessage(refused.join(', '), 200)) });
    }
    if (msg.action === 'retry') return rewind(p, msg.id, item.text, attachments);
    const n = userOrdinal(p.session.transcript.items, msg.id);
    if (n === undefined) return p.post({ type: 'rewound', ok: false, note: vscode.l10n.t('That message cannot be edited or retried here.') });
    p.post({ type: 'editing', id: msg.id, message: n, text: item.text });
    if (attachments.length) offer(p, attachments);
    if (leftOut.length) p.post({ type: 'composerNote', text: vscode.l10n.t('Not put back (only their names were kept): {0}. Attach them again if they are needed.', forMessage(leftOut.join(', '), 200)) });
  },
  attach: (_msg, p) => void p.attachments.pick().then((add) => add.length && offer(p, add)),
  dropUris: (msg, p) => {
    const { add, refused } = p.attachments.fromUris(msg.uris, (fsPath) => p.session.requests.pathInside(fsPath) !== undefined);
    if (add.length) offer(p, add);
    if (refused.length) {
      p.log.info(`refused ${refused.length} dropped item(s) that are not files in the session's folders`);
      p.post({ type: 'composerNote', text: refused.slice(0, 3).join('\n') + (refused.length > 3 ? `\n${vscode.l10n.t('… and {0} more.', refused.length - 3)}` : '') });
    }
  },
  findFiles: (msg, p) => {
    const answer = (items: readonly Mention[]): void => {
      p.offered.listed(msg.requestId, items.map((m) => m.attachment));
      p.post({ type: 'mentions', requestId: msg.requestId, items });
    };
    void p.attachments.mentions(msg.query, answer).then(answer, (err: unknown) => p.log.warn(`mentions: ${String(err)}`));
  },
  mentionPicked: (msg, p) => {
    if (!p.offered.picked(msg.requestId, msg.uri)) p.log.warn('mentions: a pick that no recent @-mention list showed was ignored');
  },
  action: (msg, p) => {
    // Export is the editor's business (a Markdown document), not the session's.
    if (msg.action === 'export') {
      p.panel.reveal(undefined, false);
      void vscode.commands.executeCommand('acpAgents.exportTranscript').then(undefined, (err: unknown) => p.log.warn(`export failed: ${String(err)}`));
      return;
    }
    // The settings an MCP status points to (user settings: neither is read from a workspace).
    if (msg.action === 'trustSetting' || msg.action === 'agentSettings') {
      const setting = msg.action === 'trustSetting' ? 'acpAgents.passWorkspaceTrust' : 'acpAgents.agents';
      void vscode.commands.executeCommand('workbench.action.openSettings', setting).then(undefined, (err: unknown) => p.log.warn(`open settings failed: ${String(err)}`));
      return;
    }
    void p.session.runAction(msg.action).then(undefined, (err: unknown) => p.log.error(`panel action ${msg.action} failed: ${String(err)}`));
  },
  permission: (msg, p) => void p.session.permissions.answer(msg.id, msg.optionId),
  permissionReason: (msg, p) => void p.session.rejectReasons.give(msg.id, msg.reason),
  openLocation: (msg, p) => void openLocation(p.session, msg.path, msg.line).then(undefined, (err: unknown) => p.log.warn(`open location failed: ${String(err)}`)),
  openDiff: (msg, p) => {
    const item = p.session.transcript.get(msg.id);
    const content = item && (item.kind === 'tool' || item.kind === 'permission') ? item.content[msg.index] : undefined;
    if (content?.type === 'diff') void p.diffs.open(content.path, content.oldText, content.newText);
    else if (content?.type === 'patch') {
      // v2 sends hunks, not texts: the file as it is now (only inside the session's folders) gives the rest.
      const now = async () => {
        const file = await p.session.requests.pathToOpen(content.path);
        const bytes = file === undefined ? undefined : currentBytes(file);
        return bytes === null || bytes === undefined || bytes.length > REBUILD_MAX_BYTES ? undefined : bytes.toString('utf8');
      };
      void now().then((text) => p.diffs.openPatch(content, text)).then(undefined, (err: unknown) => p.log.warn(`open diff failed: ${String(err)}`));
    }
  },
  openLink: (msg, p) => void openLink(p.session, msg.href, p.log).then(undefined, (err: unknown) => p.log.warn(`open link failed: ${String(err)}`)),
  setConfig: (msg, p) => void p.session.settings.setConfigOption(msg.configId, msg.value),
  setMode: (msg, p) => void p.session.settings.setMode(msg.modeId),
  setModel: (msg, p) => void p.session.settings.setModel(msg.modelId),
  follow: (msg, p) => p.follower.set(msg.on),
  elicitation: (msg, p) => {
    const item = p.session.transcript.get(msg.id);
    if (item?.kind !== 'elicitation' || item.state !== 'pending') return;
    // A page is opened only on the user's click on Open, where its full address and host are shown.
    if (msg.action === 'accept' && item.mode === 'url' && item.url) void externalOpener.open(vscode.Uri.parse(item.url, true));
    void p.session.elicitations.answer(msg.id, msg.action, msg.values).then(undefined, (err: unknown) => p.log.warn(`elicitation answer failed: ${String(err)}`));
  },
  queue: (msg, p) => {
    // Edit: the message's attachments go back to the composer whole (the queue shown in the header has no image bytes).
    const add = msg.action === 'edit' ? p.session.queue.attachments(msg.id) : undefined;
    void p.session.queue.act(msg.action, msg.id).then((done) => {
      if (done && add?.length) offer(p, add);
    }, (err: unknown) => p.log.warn(`queue: ${String(err)}`));
  },
  stopSubagent: (msg, p) => void p.session.subagents.cancel(msg.sessionId).then(undefined, (err: unknown) => p.log.warn(`stopping a subagent failed: ${String(err)}`)),
  change: (msg, p) => {
    const c = p.session.checkpoints.changes;
    const file = msg.path;
    const run = async (): Promise<unknown> => {
      switch (msg.action) {
        case 'reviewAll':
          return await c.reviewAll();
        case 'keepAll': {
          const files = c.list().map((e) => e.path);
          c.keepAll();
          for (const f of files) p.session.rejectReasons.keptChange(f);
          return true;
        }
        case 'revertAll':
          return await c.revertAll();
        case 'open':
          return file !== undefined && (await c.open(file));
        case 'keep':
          // Kept first; an edit the user made to the change goes with the next prompt.
          if (file === undefined || !c.has(file)) return false;
          c.keep(file);
          p.session.rejectReasons.keptChange(file);
          return true;
        case 'revert':
          // Done first; then the user may say why (never waited for).
          return file !== undefined && (await c.revert(file)) && (p.session.rejectReasons.undone(file), true);
      }
    };
    void run().then(undefined, (err: unknown) => p.log.warn(`changes: ${String(err)}`));
  },
  checkpoint: (msg, p) => {
    const r = p.session.checkpoints.restore;
    const run = async (): Promise<unknown> => {
      switch (msg.action) {
        case 'preview':
          return await p.session.checkpoints.preview(msg.id);
        case 'restore':
          return await r.restore(msg.id);
        case 'restoreKeep':
          return await r.restore(msg.id, true);
        case 'undo':
          return await r.undoRestore();
        case 'dismiss':
          return r.dismiss();
        case 'diff':
          return msg.path !== undefined && (await r.diff(msg.path));
      }
    };
    void run().then(undefined, (err: unknown) => p.log.warn(`restore: ${String(err)}`));
  },
  pin: (msg, p) => (msg.action === 'pin' ? p.session.pins.pin(msg.id) : p.session.pins.unpin(msg.id)),
  folder: (msg, p) => {
    if (msg.action === 'remove') p.session.folders.remove(msg.path ?? '');
    else void addContextFolder(p.session).then(undefined, (err: unknown) => p.log.warn(`adding a folder failed: ${String(err)}`));
  },
  retry: (msg, p) => {
    const item = p.session.transcript.get(msg.id);
    if (item?.kind === 'error' && item.retryPrompt !== undefined) void p.session.prompt(item.retryPrompt);
  },
};

/** Hands a (checked) message from the webview to its handler. */
export function handlePanelMessage(msg: WebviewToHost, panel: PanelHost): void {
  (HANDLERS[msg.type] as (msg: WebviewToHost, panel: PanelHost) => void)(msg, panel);
}

/** Opens a file the agent pointed at (absolute path, 1-based line): within the session's folders, or after asking. */
async function openLocation(session: AgentSession, filePath: string, line: number | undefined): Promise<void> {
  const resolved = await session.requests.pathToOpen(filePath);
  if (resolved === undefined) {
    void vscode.window.showWarningMessage(vscode.l10n.t("The agent pointed at {0}, which is outside the session's folders; it was not opened.", forMessage(filePath, 300)));
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(resolved));
  const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
}

/**
 * Links from agent output: http(s) go to VS Code's opener (with its own link
 * confirmation for untrusted domains), file links within the session's folders
 * open in the editor; nothing else.
 */
async function openLink(session: AgentSession, href: string, log: vscode.LogOutputChannel): Promise<void> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(href, true);
  } catch {
    log.warn(`refused a malformed link from the agent: ${href.slice(0, 200)}`);
    return;
  }
  if (uri.scheme === 'http' || uri.scheme === 'https') {
    await externalOpener.open(uri);
  } else if (uri.scheme === 'file' && (uri.authority === '' || uri.authority === 'localhost')) {
    const m = /^L?(\d+)/.exec(uri.fragment);
    await openLocation(session, uri.fsPath, m ? Number(m[1]) : undefined);
  } else {
    log.warn(`refused a link with scheme "${uri.scheme}"${uri.authority ? ` and host "${uri.authority}"` : ''} from the agent`);
  }
}
