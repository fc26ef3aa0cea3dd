/**
 * Hooks for the integration tests: what the user was shown, and ways to answer
 * the questions a person would. Bundled only into the test build (esbuild
 * `--test-hooks`); the .vsix ships without them.
 */
import * as vscode from 'vscode';
import type { DecodedInitialize } from './acp/decode';
import type { SpawnSpec } from './agents/agentProcess';
import type { AuthPrompter } from './agents/auth';
import { ChatPanel } from './chat/chatPanel';
import { externalOpener } from './chat/externalOpener';
import type { Mention } from './shared/attachments';
import { NO_FOLDER, type Ctx } from './ctx';
import { nativeElicitationUi, type ElicitationUi, type ElicitationWindow } from './services/elicitation';
import { accessMessage } from './services/files/fileService';
import { diskIo, fullDiskIo } from './node/storeIo';
import type { AccessAnswer, AccessQuestion } from './sessions/policy/accessGate';
import type { WorkspaceMcpServer } from './sessions/mcp/mcpServers';
import { geminiTrustPrompt } from './ui/geminiTrustPrompt';
import type { RegistryPickItem } from './ui/registryPicker';
import type { ShownMessage } from './ui/userMessages';
import type { Worktree } from './services/worktrees';
import { worktreePrompts } from './ui/worktreePrompts';

export interface WorktreeAnswers {
  pick(shown: { title: string; labels: readonly string[]; descriptions: readonly string[] }): Promise<string | undefined>;
  input(shown: { title: string; prompt: string; value: string; validate(text: string): Promise<string | undefined> }): Promise<string | undefined>;
}

/** What a native dialog of an elicitation showed (a modal, a quick pick, an input box). */
export interface ShownDialog {
  readonly kind: 'modal' | 'pick' | 'input';
  readonly message: string;
  readonly detail?: string;
  /** The buttons, or the quick pick's item labels. */
  readonly items: readonly string[];
  readonly title?: string;
  readonly placeHolder?: string;
}

/** A stand-in for the window functions the elicitation dialogs call: `answer` sees each and picks a button or label (undefined: Escape). */
function dialogWindow(answer: (shown: ShownDialog) => Promise<string | undefined>): ElicitationWindow {
  const modal = async (message: string, options: vscode.MessageOptions, ...items: string[]) => await answer({ kind: 'modal', message, ...(options.detail !== undefined ? { detail: options.detail } : {}), items });
  const pick = async (items: readonly vscode.QuickPickItem[], options?: vscode.QuickPickOptions) => {
    const label = await answer({ kind: 'pick', message: '', items: items.map((i) => i.label), ...(options?.title !== undefined ? { title: options.title } : {}), ...(options?.placeHolder !== undefined ? { placeHolder: options.placeHolder } : {}) });
    const hit = items.find((i) => i.label === label);
    return options?.canPickMany ? (hit ? [hit] : undefined) : hit;
  };
  const input = async (options?: vscode.InputBoxOptions) => await answer({ kind: 'input', message: options?.prompt ?? '', items: [], ...(options?.title !== undefined ? { title: options.title } : {}) });
  return { showInformationMessage: modal, showWarningMessage: modal, showQuickPick: pick, showInputBox: input } as unknown as ElicitationWindow;
}

export interface TestHooks {
  messages(): readonly ShownMessage[];
  setAuthPrompter(prompter: AuthPrompter | undefined): void;
  agentPid(agentId: string): number | undefined;
  initializeResult(agentId: string): DecodedInitialize | undefined;
  traceLines(): readonly string[];
  sessions(agentId: string): readonly { sessionId: string; title?: string; cwd: string; source: string }[];
  /** Writes the session index and archive now. */
  flushStores(): Promise<void>;
  /** Answers the folder question of a multi-root workspace. */
  setFolderPicker(picker: (() => Promise<vscode.WorkspaceFolder | undefined>) | undefined): void;
  /** Answers confirmations (e.g. Delete), given what the dialog says. */
  setConfirm(answer: ((message: string, detail: string, action: string) => Promise<boolean>) | undefined): void;
  setElicitationUi(ui: ElicitationUi | undefined): void;
  /** Elicitations outside a session through the real dialog texts, answered by `answer`. */
  setElicitationDialogs(answer: ((shown: ShownDialog) => Promise<string | undefined>) | undefined): void;
  /** How many elicitations outside a session wait behind the one being asked. */
  elicitationsQueued(): number;
  /** The first line of the native access question (outside the folders, or a protected path). */
  accessQuestionText(q: AccessQuestion): string;
  /** The Sessions view's items for an agent: its own and its sessions'. */
  treeItems(agentId: string): { agent: vscode.TreeItem; sessions: vscode.TreeItem[] };
  /** The Sessions view's badge (sessions waiting for the user), as VS Code shows it. */
  sessionsBadge(): vscode.ViewBadge | undefined;
  /** Answers "may the agent touch a path outside the session's folders (or a protected one)?" with yes/no. */
  setOutsideAnswer(answer: ((agent: string, action: string, path: string) => Promise<boolean>) | undefined): void;
  /** Answers access questions with the full choice (once, for the session, deny, deny for the turn). */
  setAccessAnswer(answer: ((q: AccessQuestion) => Promise<AccessAnswer | undefined>) | undefined): void;
  /** Answers "trust these workspace MCP servers?" with the hashes trusted. */
  setMcpTrustAnswer(answer: ((agent: string, servers: readonly WorkspaceMcpServer[]) => Promise<readonly string[]>) | undefined): void;
  forgetMcpTrust(): Promise<void>;
  /** The real "trust the workspace's Gemini settings?" dialog, its window answered by `answer` (a button, or undefined: Escape); undefined: the real window again. */
  setGeminiTrustDialog(answer: ((shown: ShownDialog) => Promise<string | undefined>) | undefined): void;
  forgetGeminiTrust(): Promise<void>;
  /** The real "open this session in a folder outside the workspace?" dialog, answered by `answer` (undefined: Escape); undefined: the real window again. */
  setSessionRootDialog(answer: ((shown: ShownDialog) => Promise<string | undefined>) | undefined): void;
  /** The last lines written to any of the extension's output channels (after redaction). */
  logLines(): readonly string[];
  /** A mark in the log (lines written so far), and the lines written after one: a full buffer drops old lines, never new ones. */
  logMark(): number;
  logLinesSince(mark: number): readonly string[];
  launchSpec(agentId: string): Promise<SpawnSpec>;
  /** Opens a new session as when no folder is open (the session gets a scratch root). */
  openChatWithoutFolder(agentId: string): ChatPanel;
  hasArchive(agentId: string, sessionId: string): boolean;
  /** How many updates the local archive of a session holds. */
  archiveLength(agentId: string, sessionId: string): Promise<number>;
  stopAllAgents(): Promise<void>;
  /** The chat panel commands act on (the active one). */
  activePanel(): ChatPanel | undefined;
  /** What an @-mention of `query` offers (as the panel gets it). */
  /** `onLate`: the whole list again once slow symbol providers answer. */
  mentions(query: string, onLate?: (items: readonly Mention[]) => void): Promise<readonly Mention[]>;
  /** The extension's global storage folder (installed agents live in agents/, the registry cache in registry/). */
  storagePath(): string;
  /** Sees every registry quick pick as it opens. */
  watchRegistryPicks(watch: ((qp: vscode.QuickPick<RegistryPickItem>) => void) | undefined): void;
  /** Asks the registry again: where the list came from and its ids. */
  refreshRegistry(): Promise<{ from: string; ids: string[]; error?: string }>;
  /** Answers the Resume Session picker: given the sessions offered, the id picked. */
  setSessionPicker(pick: ((offered: readonly { label: string; description?: string; detail?: string; sessionId: string }[]) => Promise<string | undefined>) | undefined): void;
  /** Runs the daily update check as if at `now`; the updates it announced. */
  checkForUpdates(now: number): Promise<string[]>;
  /** The status bar item as shown. */
  statusBar(): { text: string; tooltip: string; visible: boolean };
  /** Runs between fs/* checking a path and using it (e.g. to swap a folder for a link), and between Undo's check of a file and its write ('revert'). */
  setBetweenCheckAndUse(hook: ((file: string, action: 'read' | 'write' | 'revert') => Promise<void>) | undefined): void;
  /** The protected-path glob (acpAgents.files.protectedPaths as in force) a file falls under, if any. */
  protectedGlob(file: string, roots: readonly string[]): string | undefined;
  /** Gives the stores (the session index, the archive and what sessions keep beside it, the file touches) a full disk (every write fails with ENOSPC), or the real one back. */
  setDiskFull(full: boolean): void;
  /** A chat panel restored as after a reload, from the state it saved (agent id, session id). */
  restorePanel(state: { agentId: string; sessionId?: string }): Promise<ChatPanel | undefined>;
  /** Where sessions opened with no folder work. */
  scratchDir(): string;
  /** The sweep of old scratch folders that runs at activation; the folders removed. */
  sweepScratch(): Promise<string[]>;
  /** Sees every page a chat panel would open in the browser instead of opening it (undefined: open for real again). */
  watchOpenExternal(watch: ((uri: vscode.Uri) => void) | undefined): void;
  /** Answers Manage Trusted Workspace MCP Servers' checklist: given the items offered (checked or not), the labels left checked (undefined: Escape); undefined: the real quick pick again. */
  setTrustPicker(pick: ((offered: readonly { label: string; description?: string; picked?: boolean }[]) => Promise<readonly string[] | undefined>) | undefined): void;
  /** Answers the notifications the extension shows (ctx.messages) with one of their actions (undefined: dismissed); undefined: shown for real again. */
  setMessageAnswer(answer: ((shown: ShownMessage) => Promise<string | undefined>) | undefined): void;
  /** Hands a panel a message as if its webview had posted it (checked like one). */
  postFromWebview(panel: ChatPanel, message: unknown): void;
  /** Answers "why undo the agent's change?" (the text typed; undefined: Escape); undefined: the real input box again. */
  setUndoReasonAnswer(answer: ((shown: ShownDialog) => Promise<string | undefined>) | undefined): void;
  /**
   * Answers the worktree questions: a pick with the label chosen (undefined: Escape), an input with the text typed
   * (`validate`: what the box would say of a text); undefined: the real quick pick and input box again.
   */
  setWorktreeUi(ui: WorktreeAnswers | undefined): void;
  /** The worktrees made for sessions. */
  worktrees(): readonly Worktree[];
}

export function testHooks(ctx: Ctx): TestHooks {
  const defaults = { openExternal: externalOpener.open, sessionPicker: ctx.sessionPicker, prompter: ctx.auth.prompter, askAccess: ctx.files.askAccess, mcpUi: ctx.mcpTrust.ui, elicitationUi: ctx.elicitation.ui, confirm: ctx.confirm, folderPicker: ctx.folderPicker, rootModal: ctx.sessionRoots.modal, trustPicker: ctx.trustPicker, undoReasonBox: ctx.undoReasonBox };
  return {
    messages: () => ctx.messages.history(),
    setDiskFull: (full) => void (ctx.archive.io = ctx.index.io = ctx.fileTouches.io = full ? fullDiskIo() : diskIo),
    restorePanel: async (state) => {
      const panel = vscode.window.createWebviewPanel('acpAgents.chat', state.agentId, vscode.ViewColumn.Active, ChatPanel.webviewOptions(ctx.extension.extensionUri));
      await ctx.panels.deserializeWebviewPanel(panel, state);
      return ctx.panels.all().find((p) => p.panel === panel);
    },
    scratchDir: () => ctx.scratchDir,
    sweepScratch: () => ctx.sweepScratch(),
    watchOpenExternal: (watch) =>
      void (externalOpener.open = watch
        ? async (uri) => {
            watch(uri);
            return true;
          }
        : defaults.openExternal),
    setTrustPicker: (pick) =>
      void (ctx.trustPicker = pick
        ? async (items) => {
            const labels = await pick(items.map((i) => ({ label: i.label, ...(i.description !== undefined ? { description: i.description } : {}), ...(i.picked !== undefined ? { picked: i.picked } : {}) })));
            return labels && items.filter((i) => labels.includes(i.label));
          }
        : defaults.trustPicker),
    setMessageAnswer: (answer) => void (ctx.messages.answer = answer),
    setWorktreeUi: (ui) =>
      void (ctx.worktreeUi = ui
        ? {
            pick: async (items, title) => {
              const label = await ui.pick({ title, labels: items.map((i) => i.label), descriptions: items.map((i) => i.description ?? '') });
              return items.find((i) => i.label === label);
            },
            input: async (o) =>
              await ui.input({
                title: o.title ?? '',
                prompt: o.prompt ?? '',
                value: o.value ?? '',
                validate: async (text) => {
                  const said = await o.validateInput?.(text);
                  return typeof said === 'string' ? said : (said?.message ?? undefined);
                },
              }),
          }
        : worktreePrompts),
    worktrees: () => ctx.worktrees.all(),
    setUndoReasonAnswer: (answer) =>
      void (ctx.undoReasonBox = answer ? async (o) => await answer({ kind: 'input', message: o.prompt ?? '', items: [], ...(o.title !== undefined ? { title: o.title } : {}) }) : defaults.undoReasonBox),
    postFromWebview: (panel, message) => (panel as unknown as { onMessage(m: unknown): void }).onMessage(message),
    setBetweenCheckAndUse: (hook) => void (ctx.files.betweenCheckAndUse = hook),
    protectedGlob: (file, roots) => ctx.files.protectedGlob(file, roots),
    statusBar: () => ({ text: ctx.statusBar.item.text, tooltip: String(ctx.statusBar.item.tooltip ?? ''), visible: ctx.statusBar.visible }),
    setAuthPrompter: (p) => void (ctx.auth.prompter = p ?? defaults.prompter),
    agentPid: (id) => ctx.agents.runtime(id)?.pid,
    initializeResult: (id) => ctx.agents.runtime(id)?.initializeResult,
    traceLines: () => ctx.agents.traceLines(),
    sessions: (id) => ctx.index.forAgent(id),
    setOutsideAnswer: (answer) => void (ctx.files.askAccess = answer ? async (q) => ((await answer(q.agentName, q.action, q.path)) ? 'once' : 'deny') : defaults.askAccess),
    setAccessAnswer: (answer) => void (ctx.files.askAccess = answer ?? defaults.askAccess),
    setMcpTrustAnswer: (answer) => void (ctx.mcpTrust.ui = answer ?? defaults.mcpUi),
    forgetMcpTrust: () => ctx.mcpTrust.forgetAll(),
    setGeminiTrustDialog: (answer) =>
      void (ctx.geminiTrust.ui = geminiTrustPrompt(
        answer ? async (message, options, ...items) => await answer({ kind: 'modal', message, ...(options.detail !== undefined ? { detail: options.detail } : {}), items }) : undefined,
      )),
    forgetGeminiTrust: () => ctx.geminiTrust.forgetAll(),
    setSessionRootDialog: (answer) =>
      void (ctx.sessionRoots.modal = answer
        ? async (message, options, ...items) => await answer({ kind: 'modal', message, ...(options.detail !== undefined ? { detail: options.detail } : {}), items })
        : defaults.rootModal),
    logLines: () => ctx.logs.lines(),
    logMark: () => ctx.logs.mark(),
    logLinesSince: (mark) => ctx.logs.linesSince(mark),
    openChatWithoutFolder: (id) => ctx.panels.open(ctx.agent(id), NO_FOLDER),
    launchSpec: async (id) => await ctx.agents.launchSpec(ctx.agent(id), ctx.workspaceCwd()),
    setElicitationUi: (ui) => void (ctx.elicitation.ui = ui ?? defaults.elicitationUi),
    setConfirm: (answer) => void (ctx.confirm = answer ? async (message, detail, action) => await answer(message, detail, action) : defaults.confirm),
    setElicitationDialogs: (answer) => void (ctx.elicitation.ui = answer ? nativeElicitationUi(dialogWindow(answer)) : defaults.elicitationUi),
    elicitationsQueued: () => ctx.elicitation.queued,
    accessQuestionText: (q) => accessMessage(q),
    treeItems: (agentId) => {
      const agent = ctx.agent(agentId);
      return { agent: ctx.tree.getTreeItem({ kind: 'agent', agent }), sessions: ctx.tree.getChildren({ kind: 'agent', agent }).map((n) => ctx.tree.getTreeItem(n)) };
    },
    sessionsBadge: () => ctx.treeView.badge,
    hasArchive: (agentId, sessionId) => ctx.archive.has(agentId, sessionId),
    archiveLength: async (agentId, sessionId) => (await ctx.archive.read(agentId, sessionId)).length,
    setFolderPicker: (picker) => void (ctx.folderPicker = picker ?? defaults.folderPicker),
    flushStores: async () => {
      await ctx.index.flush();
      await ctx.archive.flush();
      await ctx.fileTouches.flush();
    },
    stopAllAgents: () => ctx.agents.stopAll(),
    mentions: (query, onLate) => ctx.attachments.mentions(query, onLate),
    activePanel: () => ctx.activePanel(),
    storagePath: () => ctx.storage,
    watchRegistryPicks: (watch) => void (ctx.registryPickCreated = watch),
    checkForUpdates: (now) => ctx.installs.checkForUpdates(now),
    setSessionPicker: (pick) =>
      void (ctx.sessionPicker = pick
        ? async (items) => {
            const offered = items.map((i) => ({ label: i.label, description: i.description, detail: i.detail, sessionId: (i as unknown as { session: { sessionId: string } }).session.sessionId }));
            const id = await pick(offered);
            return items.find((_i, n) => offered[n]?.sessionId === id);
          }
        : defaults.sessionPicker),
    refreshRegistry: async () => {
      const list = await ctx.registry.source.refresh();
      return { from: list.from, ids: list.agents.map((a) => a.id), ...(list.error ? { error: list.error } : {}) };
    },
  };
}
