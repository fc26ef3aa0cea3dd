/** Commands about sessions: new, open, resume, delete, refresh, stop. */
import * as vscode from 'vscode';
import { forLabel, forMessage } from '../shared/nativeText';
import type { AgentDefinition } from '../agents/agentDefinition';
import { addContextFolder } from '../chat/contextFolders';
import { transcriptMarkdown } from '../sessions/transcript/forkTranscript';
import type { RewindRequest } from '../sessions/ports';
import { listedSessions, type ListedSession } from '../sessions/store/sessionSync';
import { isAttachment, type Attachment } from '../shared/attachments';
import type { PermissionItem } from '../shared/transcriptTypes';
import type { SessionTreeNode } from '../ui/sessionTree';
import { discoverRepo } from '../services/safeGit';
import { agentFromArg, pickFolder, showError } from './helpers';
import { startInWorktree } from './worktrees';
import type { CommandFactory } from './types';

const newSession: CommandFactory = (ctx) => async (arg?: unknown) => {
  let agent = agentFromArg(ctx, arg);
  // An id of the ACP Registry not installed yet: installed first.
  if (!agent && typeof arg === 'string') {
    agent = await ctx.installs.install(arg, 'tell');
    if (!agent) return;
  }
  if (!agent) {
    const preferred = ctx.config.defaultAgent();
    agent = (preferred && ctx.agents.find(preferred)) || (await ctx.agentPicker.pick(vscode.l10n.t('ACP: New Session'), undefined, { registry: true }));
  }
  if (!agent) return undefined;
  const cwd = await pickFolder(ctx);
  if (cwd === null) return undefined;
  // acpAgents.newSessionIn: a folder in a git repository may get a worktree of its own.
  const mode = ctx.config.newSessionIn();
  if (cwd !== undefined && mode !== 'folder' && (await discoverRepo(cwd))) {
    const inWorktree = { label: vscode.l10n.t('In a New Worktree'), description: vscode.l10n.t('on a new branch, apart from other sessions') };
    const where = mode === 'worktree' ? inWorktree : await ctx.worktreeUi.pick([{ label: vscode.l10n.t('In the Folder'), description: forLabel(cwd, 300) }, inWorktree], vscode.l10n.t('ACP: New Session'), vscode.l10n.t('Where {0} works', forLabel(agent.name, 100)));
    if (!where) return undefined;
    if (where === inWorktree) return await startInWorktree(ctx, agent, cwd);
  }
  return ctx.panels.open(agent, cwd);
};

const openSession: CommandFactory = (ctx) => (node?: SessionTreeNode) => {
  if (node?.kind !== 'session') return;
  ctx.panels.openPast(node.agent, node.entry.sessionId, node.entry.cwd);
};

/**
 * Fork Session: a sidebar session, `{ agentId, sessionId }` (the panel's Fork), or
 * the active panel's session — into a new panel with its history.
 */
const forkSession: CommandFactory = (ctx) => async (arg?: unknown) => {
  let agent: AgentDefinition | undefined;
  let sessionId: string | undefined;
  const node = arg as SessionTreeNode | undefined;
  if (node?.kind === 'session') ({ agent, sessionId } = { agent: node.agent, sessionId: node.entry.sessionId });
  else if (typeof arg === 'object' && arg !== null && typeof (arg as { agentId?: unknown }).agentId === 'string') {
    agent = ctx.agents.find((arg as { agentId: string }).agentId);
    sessionId = typeof (arg as { sessionId?: unknown }).sessionId === 'string' ? (arg as { sessionId: string }).sessionId : undefined;
  } else {
    const active = ctx.activePanel();
    agent = active?.session.def;
    sessionId = active?.session.id;
  }
  if (!agent || !sessionId) {
    void ctx.messages.show('info', vscode.l10n.t('Fork Session works on an open chat panel with a session, or on a session in the sidebar.'));
    return;
  }
  const entry = ctx.index.get(agent.id, sessionId);
  const source = { sessionId, title: entry?.title || agent.name };
  const cwd = entry?.cwd ?? ctx.activePanel()?.session.cwd;
  // An Edit or Retry of an earlier message (a panel's rewind): taken before that message; says whether it was made.
  const rewind = asRewind((arg as { rewind?: unknown } | undefined)?.rewind);
  if (rewind) return await ctx.panels.openRewind(agent, source, rewind, cwd);
  ctx.panels.openFork(agent, source, cwd);
  return undefined;
};

/** A rewind in a command's argument, checked (a command may be run by anyone). */
function asRewind(v: unknown): RewindRequest | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Record<string, unknown>;
  const ok = typeof r.message === 'number' && Number.isSafeInteger(r.message) && r.message >= 1 && typeof r.quote === 'string' && typeof r.text === 'string' && Array.isArray(r.attachments) && r.attachments.length <= 100 && r.attachments.every(isAttachment);
  return ok ? { message: r.message as number, quote: (r.quote as string).slice(0, 400), text: r.text as string, attachments: r.attachments as Attachment[] } : undefined;
}

/** The keyboard into the current session's composer (a new session when none is open). */
const focusComposer: CommandFactory = (ctx) => () => {
  const p = ctx.statusBar.panel ?? ctx.panels.all().at(-1);
  if (!p) return vscode.commands.executeCommand('acpAgents.newSession');
  p.focusComposer();
  return true;
};

/** Answers the current session's oldest pending permission request without the mouse: its allow (or reject) option, once before always. */
const answerPermission =
  (allow: boolean): CommandFactory =>
  (ctx) =>
  () => {
    const p = ctx.statusBar.panel;
    const item = p?.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.state === 'pending');
    if (!p || !item) {
      void ctx.messages.show('info', vscode.l10n.t('No permission request is waiting.'));
      return false;
    }
    const kinds = allow ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
    const option = kinds.map((k) => item.options.find((o) => o.kind === k)).find((o) => o !== undefined);
    if (!option) {
      void ctx.messages.show('info', allow ? vscode.l10n.t('{0} offers no allow option for "{1}": answer it in the panel.', forMessage(p.session.def.name, 100), forMessage(item.title, 200)) : vscode.l10n.t('{0} offers no reject option for "{1}": answer it in the panel.', forMessage(p.session.def.name, 100), forMessage(item.title, 200)));
      p.reveal();
      return false;
    }
    return p.session.permissions.answer(item.id, option.optionId);
  };

/** The active panel's conversation as a Markdown document (untitled: save it where you like). */
const exportTranscript: CommandFactory = (ctx) => async () => {
  const active = ctx.activePanel();
  if (!active) {
    void ctx.messages.show('info', vscode.l10n.t('Export Transcript works on an open chat panel.'));
    return;
  }
  const s = active.session;
  const title = (s.id ? ctx.index.get(s.def.id, s.id)?.title : undefined) || s.transcript.header.title || s.def.name;
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: transcriptMarkdown(s.transcript.items, title, true) });
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
};

/** Add Folder to Agent Session (the Explorer, on a folder): to the active chat panel's session, the only one open, or one the user picks. */
const addFolderToSession: CommandFactory = (ctx) => async (uri?: vscode.Uri) => {
  const open = ctx.panels.all().filter((p) => p.session.id !== undefined);
  let panel = ctx.activePanel() ?? (open.length === 1 ? open[0] : undefined);
  if (!panel && open.length > 1) {
    const picked = await vscode.window.showQuickPick(
      open.map((p) => ({ label: forLabel(p.session.transcript.header.title || p.session.def.name), description: forLabel(p.session.def.name), panel: p })),
      { title: vscode.l10n.t('Add Folder to Agent Session'), placeHolder: vscode.l10n.t('Which session gets the folder?') },
    );
    panel = picked?.panel;
    if (!picked) return;
  }
  if (!panel) {
    void ctx.messages.show('info', vscode.l10n.t('Add Folder to Agent Session works on an open session: start one first.'));
    return;
  }
  await addContextFolder(panel.session, uri instanceof vscode.Uri ? uri : undefined, (message) => ctx.messages.show('error', message));
};

const deleteSession: CommandFactory = (ctx) => async (node?: SessionTreeNode) => {
  if (node?.kind !== 'session') return;
  const { agent, entry } = node;
  if (!(await ctx.confirm(vscode.l10n.t('Delete the session "{0}" of {1}?', forMessage(entry.title || entry.sessionId, 200), forMessage(agent.name, 100)), vscode.l10n.t('Its local history is removed, and the agent is asked to delete it where it supports that.'), vscode.l10n.t('Delete')))) return;
  ctx.panels.find(agent.id, entry.sessionId)?.panel.dispose();
  // Remembered first: even if the agent cannot be reached now, a later session/list never brings it back.
  ctx.index.remove(agent.id, entry.sessionId, { agentPending: true });
  await ctx.archive.delete(agent.id, entry.sessionId);
  // The agent is asked to delete it too, started for that when it is not running.
  await ctx.sync.flushDeletes(agent, { start: true });
};

const refreshSessions: CommandFactory = (ctx) => async () => {
  for (const agent of ctx.agents.definitions()) {
    if (ctx.agents.runtime(agent.id)) await ctx.sync.listInto(agent).then(undefined, (err: unknown) => ctx.log.warn(`session/list of ${agent.name} failed: ${String(err)}`));
  }
  ctx.tree.refresh();
};

const resumeSession: CommandFactory = (ctx) => async (arg?: unknown) => {
  const agent = agentFromArg(ctx, arg) ?? (await ctx.agentPicker.pick(vscode.l10n.t('ACP: Resume Session — pick the agent')));
  if (!agent) return;
  const cwd = ctx.workspaceCwd();
  let rt;
  try {
    rt = await ctx.agents.ensureRunning(agent, cwd);
  } catch (err) {
    await showError(ctx, agent, err);
    return;
  }
  const caps = rt.capabilities;
  if (!caps.canLoad() && !caps.canResume()) {
    await ctx.messages.show('info', vscode.l10n.t('{0} cannot reopen past sessions (it advertises neither session/load nor session/resume). Its sessions in the sidebar open from the local archive.', forMessage(agent.name, 100)));
    return;
  }
  const sessions: ListedSession[] = [];
  if (caps.canList()) {
    try {
      // Asked and answered in an agent by URL's own names where it has a pathMap (sessionSync.ts), signed in first if need be.
      sessions.push(...(await listedSessions(rt, cwd, (p) => ctx.auth.withAuth(agent, cwd, (x) => x.connection.listSessions(p)))));
    } catch (err) {
      await ctx.messages.show('error', vscode.l10n.t('Listing the sessions of {0} failed: {1}', forMessage(agent.name, 100), forMessage(String((err as Error).message ?? err))));
      return;
    }
  } else {
    // It cannot list: the sessions opened here with it (for this folder) are the ones it can resume.
    for (const e of ctx.index.forAgent(agent.id)) if (!cwd || e.cwd === cwd) sessions.push({ sessionId: e.sessionId, title: e.title ?? null, updatedAt: new Date(e.updatedAt).toISOString(), cwd: e.cwd });
  }
  // Deleted here: never offered again, whatever the agent lists.
  const offered = sessions.filter((s) => !ctx.index.isDeleted(agent.id, s.sessionId));
  if (offered.length === 0) {
    await ctx.messages.show('info', vscode.l10n.t('{0} has no past sessions for this folder.', forMessage(agent.name, 100)));
    return;
  }
  offered.sort((a, b) => String(b.updatedAt ?? '').localeCompare(String(a.updatedAt ?? '')));
  const picked = await ctx.sessionPicker(
    offered.map((s) => ({ label: forLabel(s.title || s.sessionId), description: s.updatedAt ? new Date(s.updatedAt).toLocaleString() : undefined, detail: forLabel(s.cwd, 500), session: s })),
    vscode.l10n.t('ACP: Resume Session — {0}', forLabel(agent.name)),
  );
  if (!picked) return;
  ctx.index.mergeListed(agent.id, offered);
  ctx.panels.openPast(agent, picked.session.sessionId, picked.session.cwd);
};

const cancel: CommandFactory = (ctx) => async () => {
  const active = ctx.activePanel() ?? ctx.panels.all().find((p) => p.session.isBusy);
  if (active?.session.isBusy) await active.session.cancel();
  else vscode.window.setStatusBarMessage(vscode.l10n.t('ACP: nothing is running.'), 3000);
};

export const sessionCommands = {
  'acpAgents.newSession': newSession,
  'acpAgents.openSession': openSession,
  'acpAgents.deleteSession': deleteSession,
  'acpAgents.forkSession': forkSession,
  'acpAgents.exportTranscript': exportTranscript,
  'acpAgents.addFolderToSession': addFolderToSession,
  'acpAgents.focusComposer': focusComposer,
  'acpAgents.allowPermission': answerPermission(true),
  'acpAgents.rejectPermission': answerPermission(false),
  'acpAgents.refreshSessions': refreshSessions,
  'acpAgents.resumeSession': resumeSession,
  'acpAgents.cancel': cancel,
} as const;
