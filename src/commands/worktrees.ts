/**
 * Sessions in git worktrees (services/worktrees.ts): New Session in a Worktree,
 * New Session's "in a new worktree" (acpAgents.newSessionIn), and Finish
 * Worktree Session (Merge back, Keep branch, Discard, open it as a folder).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import type { ChatPanel } from '../chat/chatPanel';
import type { Ctx } from '../ctx';
import { WorktreeError, type Worktree, type WorktreeStart } from '../services/worktrees';
import { forLabel, forMessage } from '../shared/nativeText';
import type { SessionTreeNode } from '../ui/sessionTree';
import { agentFromArg, pickFolder } from './helpers';
import type { CommandFactory } from './types';

/** At most this many paths are named in a question or a message. */
const NAMED = 8;

const named = (paths: readonly string[]): string => {
  const shown = paths.slice(0, NAMED).map((p) => forMessage(p, 200)).join(', ');
  return paths.length > NAMED ? vscode.l10n.t('{0} and {1} more', shown, paths.length - NAMED) : shown;
};

/** A branch name suggested for a new worktree: `acp/<agent>-<month><day>-<hour><minute>`. */
function suggestedBranch(agent: AgentDefinition): string {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  const id = agent.id.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 40) || 'agent';
  return `acp/${id}-${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}

/**
 * Makes a worktree of `folder`'s repository (the user picks where it starts and
 * names its branch) and opens a session of `agent` in it. Undefined when the
 * user cancelled or it could not be made (then a message said why).
 */
export async function startInWorktree(ctx: Ctx, agent: AgentDefinition, folder: string): Promise<ChatPanel | undefined> {
  try {
    ctx.worktrees.reload();
    const src = await ctx.worktrees.source(folder);
    const short = src.head.slice(0, 8);
    type StartItem = vscode.QuickPickItem & { start: WorktreeStart };
    const head: StartItem = { label: vscode.l10n.t('Current HEAD'), description: src.headBranch ? `${forLabel(src.headBranch, 100)} · ${short}` : vscode.l10n.t('detached at {0}', short), start: {} };
    const others = src.branches.filter((b) => b !== src.headBranch).map((b): StartItem => ({ label: forLabel(b, 200), description: vscode.l10n.t('local branch'), start: { branch: b } }));
    const from = others.length ? await ctx.worktreeUi.pick([head, ...others], vscode.l10n.t('New worktree of {0}', forLabel(src.git.repo.top, 200)), vscode.l10n.t('Where the worktree starts')) : head;
    if (!from) return undefined;
    const branch = await ctx.worktreeUi.input({
      title: vscode.l10n.t('New worktree of {0}', forLabel(src.git.repo.top, 200)),
      prompt: vscode.l10n.t('The new branch the session works on (from {0})', forLabel(from.start.branch ?? src.headBranch ?? short, 100)),
      value: suggestedBranch(agent),
      validateInput: (v) => ctx.worktrees.checkBranch(src.git, v.trim()),
    });
    if (branch === undefined) return undefined;
    const wt = await ctx.worktrees.create(src, branch.trim(), from.start);
    ctx.tree.refresh();
    if (src.uncommitted.length) void ctx.messages.show('info', vscode.l10n.t('The worktree starts from the last commit: the uncommitted changes in {0} are not in it ({1}).', forMessage(src.git.repo.top, 500), named(src.uncommitted)));
    // A folder inside the repository (a package of a monorepo): the same folder of the worktree.
    const rel = path.relative(src.git.repo.top, fs.realpathSync.native(folder));
    const cwd = rel && !rel.startsWith('..') && !path.isAbsolute(rel) && fs.existsSync(path.join(wt.dir, rel)) ? path.join(wt.dir, rel) : wt.dir;
    return ctx.panels.open(agent, cwd);
  } catch (err) {
    if (!(err instanceof WorktreeError)) throw err;
    void ctx.messages.show('error', err.message);
    return undefined;
  }
}

/** ACP: New Session in a Worktree… (an agent id or tree node, else the default agent or a pick). */
const newSessionInWorktree: CommandFactory = (ctx) => async (arg?: unknown) => {
  const preferred = ctx.config.defaultAgent();
  const agent = agentFromArg(ctx, arg) ?? ((preferred && ctx.agents.find(preferred)) || (await ctx.agentPicker.pick(vscode.l10n.t('ACP: New Session in a Worktree'))));
  if (!agent) return undefined;
  const folder = await pickFolder(ctx);
  if (folder === null) return undefined;
  if (folder === undefined) {
    void ctx.messages.show('info', vscode.l10n.t('Open a folder in a git repository to start a session in a worktree of it.'));
    return undefined;
  }
  return await startInWorktree(ctx, agent, folder);
};

/** The worktree a command is about: a Sessions view row's, the active panel's, else one the user picks. */
async function worktreeFromArg(ctx: Ctx, arg: unknown): Promise<Worktree | undefined> {
  ctx.worktrees.reload();
  const node = arg as SessionTreeNode | undefined;
  const cwd = node?.kind === 'session' ? node.entry.cwd : typeof arg === 'string' ? arg : ctx.activePanel()?.session.cwd;
  const wt = ctx.worktrees.of(cwd);
  if (wt || (cwd !== undefined && arg !== undefined)) return wt;
  const all = ctx.worktrees.all();
  if (!all.length) return undefined;
  const picked = await ctx.worktreeUi.pick(
    all.map((w) => ({ label: forLabel(w.branch, 200), description: forLabel(w.dir, 300), w })),
    vscode.l10n.t('ACP: Finish Worktree Session'),
    vscode.l10n.t('Pick a session worktree'),
  );
  return picked?.w;
}

/** Closes the panels whose session works in the worktree (its folder is about to go). */
function closePanels(ctx: Ctx, wt: Worktree): void {
  for (const p of ctx.panels.all()) if (ctx.worktrees.of(p.session.cwd) === wt) p.panel.dispose();
}

/** ACP: Finish Worktree Session…: Merge back, Keep branch, Discard, or open the worktree as a folder. */
const finishWorktree: CommandFactory = (ctx) => async (arg?: unknown) => {
  const wt = await worktreeFromArg(ctx, arg);
  if (!wt) {
    void ctx.messages.show('info', vscode.l10n.t('Finish Worktree Session works on a session in a worktree: its panel, or its row in the Sessions view.'));
    return undefined;
  }
  const branch = forMessage(wt.branch, 200);
  const changed = await ctx.worktrees.uncommitted(wt);
  type Choice = vscode.QuickPickItem & { id: 'merge' | 'keep' | 'discard' | 'window' | 'workspace' | 'forget' };
  // Its repository gone (moved or deleted): git can do nothing with it any more; it can only be forgotten.
  if (await ctx.worktrees.repositoryGone(wt)) {
    const forget: Choice = { id: 'forget', label: vscode.l10n.t('Forget Worktree'), description: vscode.l10n.t('its repository {0} is gone; the folder is left as it is', forLabel(wt.repoTop, 200)) };
    if ((await ctx.worktreeUi.pick([forget], vscode.l10n.t('Worktree {0}', forLabel(wt.branch, 100)), vscode.l10n.t('Its repository is gone'))) !== forget) return undefined;
    await ctx.worktrees.forget(wt);
    ctx.tree.refresh();
    return 'forget';
  }
  const items: Choice[] = [
    { id: 'merge', label: vscode.l10n.t('Merge Back'), description: vscode.l10n.t('merge {0} into the checkout at {1}', forLabel(wt.branch, 100), forLabel(wt.repoTop, 200)) },
    { id: 'keep', label: vscode.l10n.t('Keep Branch'), description: vscode.l10n.t('commit to {0}, remove the worktree folder', forLabel(wt.branch, 100)) },
    { id: 'discard', label: vscode.l10n.t('Discard'), description: vscode.l10n.t('remove the worktree and the branch {0}', forLabel(wt.branch, 100)) },
    { id: 'window', label: vscode.l10n.t('Open Worktree in New Window') },
    { id: 'workspace', label: vscode.l10n.t('Add Worktree to Workspace') },
  ];
  const choice = await ctx.worktreeUi.pick(items, vscode.l10n.t('Worktree {0}', forLabel(wt.branch, 100)), changed === undefined ? vscode.l10n.t('Its folder is gone') : vscode.l10n.t('Uncommitted changes: {0}', changed.length));
  if (!choice) return undefined;
  const pending = changed?.length ? vscode.l10n.t('Its uncommitted changes ({0}) are committed on {1} first.', named(changed), branch) : vscode.l10n.t('It has no uncommitted changes.');
  switch (choice.id) {
    case 'merge': {
      // Not while an agent may still be writing there: a commit would catch half-written files.
      const busy = ctx.panels.all().find((p) => ctx.worktrees.of(p.session.cwd) === wt && p.session.isBusy);
      if (busy) {
        void ctx.messages.show('info', vscode.l10n.t('{0} is still working in the worktree: stop it or wait for its turn to end, then Merge Back.', forMessage(busy.session.def.name, 100)));
        return 'busy';
      }
      if (!(await ctx.confirm(vscode.l10n.t('Merge branch {0} into the checkout at {1}?', branch, forMessage(wt.repoTop, 500)), `${pending} ${vscode.l10n.t('The merge is made in {0}, into the branch checked out there; if files would conflict, you are told which before anything there changes.', forMessage(wt.repoTop, 500))}`, vscode.l10n.t('Merge Back')))) return undefined;
      const message = vscode.l10n.t('Work of an ACP agent session');
      let r = await ctx.worktrees.mergeBack(wt, message);
      if (r.kind === 'would-conflict') {
        const resolve = vscode.l10n.t('Merge and Resolve');
        const detail = vscode.l10n.t('Nothing in {0} has changed yet. Merging leaves the conflicts there for you to resolve in the merge editor and commit (or undo the merge with git merge --abort).', forMessage(wt.repoTop, 500));
        if (!(await ctx.confirm(vscode.l10n.t('Merging {0} into {1} would conflict in {2}. Merge anyway?', branch, forMessage(r.into, 200), named(r.files)), detail, resolve))) return 'would-conflict';
        r = await ctx.worktrees.mergeBack(wt, message, { conflicts: true });
      }
      switch (r.kind) {
        case 'merged':
          void ctx.messages.show('info', vscode.l10n.t('Merged {0} into {1} at {2}.', branch, forMessage(r.into, 200), forMessage(wt.repoTop, 500)));
          break;
        case 'nothing':
          void ctx.messages.show('info', vscode.l10n.t('Nothing to merge: {1} has everything of {0} already.', branch, forMessage(r.into, 200)));
          break;
        case 'conflicts':
          void ctx.messages.show('warning', vscode.l10n.t('Merging {0} into {1} left conflicts in {2}: resolve them in the merge editor, then commit in {3}.', branch, forMessage(r.into, 200), named(r.files), forMessage(wt.repoTop, 500)));
          await openConflict(vscode.Uri.file(`${wt.repoTop}/${r.files[0]}`));
          break;
        case 'refused':
          void ctx.messages.show('error', r.why);
          break;
        case 'would-conflict':
          break;
      }
      return r.kind;
    }
    case 'keep':
    case 'discard': {
      const keep = choice.id === 'keep';
      const question = keep ? vscode.l10n.t('Remove the worktree folder {0} and keep branch {1}?', forMessage(wt.dir, 500), branch) : vscode.l10n.t('Discard the worktree {0} and its branch {1}?', forMessage(wt.dir, 500), branch);
      const lost = changed?.length ? vscode.l10n.t('Its uncommitted changes are lost: {0}.', named(changed)) : vscode.l10n.t('It has no uncommitted changes.');
      const commits = keep ? undefined : await ctx.worktrees.unmerged(wt);
      const unmerged = commits ? vscode.l10n.t('Commits on {0} not merged yet, lost with it: {1}.', branch, commits) : vscode.l10n.t('Every commit on {0} is merged already.', branch);
      const detail = keep ? `${pending} ${vscode.l10n.t('Files git ignores in the folder are deleted with it. Sessions open in it are closed.')}` : `${lost} ${commits === undefined ? vscode.l10n.t('The commits on {0} are lost unless merged.', branch) : unmerged} ${vscode.l10n.t('Sessions open in it are closed.')}`;
      if (!(await ctx.confirm(question, detail, keep ? vscode.l10n.t('Keep Branch') : vscode.l10n.t('Discard')))) return undefined;
      closePanels(ctx, wt);
      const why = keep ? await ctx.worktrees.keep(wt, vscode.l10n.t('Work of an ACP agent session')) : await ctx.worktrees.discard(wt);
      ctx.tree.refresh();
      if (why) void ctx.messages.show('error', why);
      return why ? 'refused' : choice.id;
    }
    case 'window':
      return await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(wt.dir), { forceNewWindow: true });
    case 'workspace':
      return vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, { uri: vscode.Uri.file(wt.dir), name: vscode.l10n.t('{0} (worktree)', wt.branch) });
    case 'forget':
      return undefined;
  }
};

/** A conflicted file in VS Code's merge editor (through the built-in git extension), else as a document. */
async function openConflict(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.commands.executeCommand('git.openMergeEditor', uri);
  } catch {
    await vscode.window.showTextDocument(uri, { preview: false });
  }
}

export const worktreeCommands = {
  'acpAgents.newSessionInWorktree': newSessionInWorktree,
  'acpAgents.finishWorktree': finishWorktree,
} as const;
