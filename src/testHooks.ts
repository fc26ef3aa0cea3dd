/**
 * Hooks for the integration tests: what the user was shown, and ways to answer
 * the questions a person would. Bundled only into the test build (esbuild
 * `--test-hooks`); the .vsix ships without them.
 */
import type * as vscode from 'vscode';
import type { DecodedInitialize } from './acp/decode';
import type { SpawnSpec } from './agents/agentProcess';
import type { AuthPrompter } from './agents/auth';
import type { ChatPanel } from './chat/chatPanel';
import type { Mention } from './shared/attachments';
import { NO_FOLDER, type Ctx } from './ctx';
import type { ElicitationUi } from './host/elicitation';
import type { AccessAnswer, AccessQuestion } from './sessions/accessGate';
import type { WorkspaceMcpServer } from './sessions/mcpServers';
import type { RegistryPickItem } from './ui/registryPicker';
import type { ShownMessage } from './ui/userMessages';

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
  /** Answers "may the agent touch a path outside the session's folders (or a protected one)?" with yes/no. */
  setOutsideAnswer(answer: ((agent: string, action: string, path: string) => Promise<boolean>) | undefined): void;
  /** Answers access questions with the full choice (once, for the session, deny, deny for the turn). */
  setAccessAnswer(answer: ((q: AccessQuestion) => Promise<AccessAnswer | undefined>) | undefined): void;
  /** Answers "trust these workspace MCP servers?" with the hashes trusted. */
  setMcpTrustAnswer(answer: ((agent: string, servers: readonly WorkspaceMcpServer[]) => Promise<readonly string[]>) | undefined): void;
  forgetMcpTrust(): Promise<void>;
  /** The last lines written to any of the extension's output channels (after redaction). */
  logLines(): readonly string[];
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
  setSessionPicker(pick: ((offered: readonly { label: string; sessionId: string }[]) => Promise<string | undefined>) | undefined): void;
  /** Runs the daily update check as if at `now`; the updates it announced. */
  checkForUpdates(now: number): Promise<string[]>;
  /** The status bar item as shown. */
  statusBar(): { text: string; tooltip: string; visible: boolean };
}

export function testHooks(ctx: Ctx): TestHooks {
  const defaults = { sessionPicker: ctx.sessionPicker, prompter: ctx.auth.prompter, askAccess: ctx.files.askAccess, mcpUi: ctx.mcpTrust.ui, elicitationUi: ctx.elicitation.ui, confirm: ctx.confirm, folderPicker: ctx.folderPicker };
  return {
    messages: () => ctx.messages.history(),
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
    logLines: () => ctx.logs.lines(),
    openChatWithoutFolder: (id) => ctx.panels.open(ctx.agent(id), NO_FOLDER),
    launchSpec: async (id) => await ctx.agents.launchSpec(ctx.agent(id), ctx.workspaceCwd()),
    setElicitationUi: (ui) => void (ctx.elicitation.ui = ui ?? defaults.elicitationUi),
    setConfirm: (answer) => void (ctx.confirm = answer ? async (message, detail, action) => await answer(message, detail, action) : defaults.confirm),
    hasArchive: (agentId, sessionId) => ctx.archive.has(agentId, sessionId),
    archiveLength: async (agentId, sessionId) => (await ctx.archive.read(agentId, sessionId)).length,
    setFolderPicker: (picker) => void (ctx.folderPicker = picker ?? defaults.folderPicker),
    flushStores: async () => {
      await ctx.index.flush();
      await ctx.archive.flush();
    },
    stopAllAgents: () => ctx.agents.stopAll(),
    mentions: (query, onLate) => ctx.attachments.mentions(query, onLate),
    activePanel: () => ctx.activePanel(),
    storagePath: () => ctx.storage,
    watchRegistryPicks: (watch) => void (ctx.registryPickCreated = watch),
    checkForUpdates: (now) => ctx.checkForUpdates(now),
    setSessionPicker: (pick) =>
      void (ctx.sessionPicker = pick
        ? async (items) => {
            const offered = items.map((i) => ({ label: i.label, sessionId: (i as unknown as { session: { sessionId: string } }).session.sessionId }));
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
