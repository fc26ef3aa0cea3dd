/**
 * The composition root: every service of the extension, built once, in
 * dependency order (nothing refers forward), and the few shell-level helpers
 * the commands share. extension.ts makes one Ctx and registers the command
 * table against it (rust-analyzer's editors/code does the same).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentDefinition } from './agents/agentDefinition';
import { AgentManager } from './agents/agentManager';
import { AgentRegistry } from './agents/registry/agentRegistry';
import { AuthService } from './agents/auth';
import { sweepScratch } from './node/scratchFolders';
import { SecretValues } from './agents/redact';
import { SignInStore } from './agents/signInStore';
import { AttachmentSources } from './chat/attachmentSources';
import { sessionServices } from './chat/sessionPorts';
import type { SessionServices } from './sessions/ports';
import type { ChatPanel } from './chat/chatPanel';
import { ChatPanelManager } from './chat/panelManager';
import { McpRelays } from './services/mcpRelays';
import { WaitingOnYou } from './chat/waitingOnYou';
import { FileTouches } from './sessions/checkpoints/fileTouches';
import { DiffDocuments } from './chat/diffDocuments';
import { Config, SECTION, SettingsReport } from './config';
import { HunkReview } from './services/files/hunkReview';
import { ElicitationService } from './services/elicitation';
import { SessionStatusBar } from './ui/statusBar';
import { FileService } from './services/files/fileService';
import { McpServerSources } from './services/mcpServerSources';
import { EditorContextService } from './services/editorContext/service';
import { TerminalService } from './services/terminals';
import { agentHostUi, workspaceCwd, workspaceFolderPaths } from './services/workspaceFolders';
import { Logs } from './logging';
import { AgentSession } from './sessions/agentSession';
import { CLIENT_METHODS } from './sessions/clientMethods';
import { McpTrust } from './sessions/mcp/mcpTrust';
import { GeminiConfigTrust } from './agents/geminiWorkspace';
import { geminiTrustPrompt } from './ui/geminiTrustPrompt';
import { SessionRootQuestion } from './ui/sessionRootPrompt';
import { SessionIndex } from './sessions/store/sessionIndex';
import { SessionSync } from './sessions/store/sessionSync';
import { TranscriptArchive } from './sessions/store/transcriptArchive';
import { quickPickPrompter, runInTerminal } from './ui/authPrompts';
import { askMcpTrust } from './ui/mcpTrustPrompt';
import { AgentPicker } from './ui/agentPicker';
import { AgentDiagnosticsView, liveMcpStatus, selectionMcpStatus } from './ui/agentDiagnostics';
import { RegistryInstall } from './ui/registryInstall';
import type { RegistryPickItem } from './ui/registryPicker';
import { SessionTreeProvider } from './ui/sessionTree';
import { UserMessages } from './ui/userMessages';
import { confirmModal, pickSession, pickWorkspaceFolder } from './ui/modalPrompts';
import { Worktrees } from './services/worktrees';
import { worktreePrompts } from './ui/worktreePrompts';

/** For the tests: a session opened as if no folder were open. */
export const NO_FOLDER = '\u0000no-folder';

export class Ctx implements vscode.Disposable {
  readonly version: string;
  readonly storage: string;
  /** Where sessions opened with no folder work (node/scratchFolders.ts). */
  readonly scratchDir: string;
  readonly config = new Config();
  /** Settings problems and ignored workspace overrides, said in the log. */
  readonly settings: SettingsReport;
  readonly messages = new UserMessages();
  /** Secrets met at run time; with the stored sign-in values, no output channel ever shows them. */
  readonly secrets = new SecretValues();
  readonly signInStore: SignInStore;
  readonly logs: Logs;
  readonly log: vscode.LogOutputChannel;
  readonly elicitation: ElicitationService;
  /** Sessions open in panels: an agent that crashes is restarted only while one uses it. */
  private readonly liveSessions = new Set<AgentSession>();
  /** Agents from the ACP Registry: the list, and those installed. */
  readonly registry: AgentRegistry;
  readonly agents: AgentManager;
  /** Installs from the ACP Registry, and the daily update check. */
  readonly installs: RegistryInstall;
  readonly agentPicker: AgentPicker;
  readonly auth: AuthService;
  readonly index: SessionIndex;
  readonly archive: TranscriptArchive;
  /** Which turns of which sessions changed which files (ACP: Sessions That Changed This File). */
  readonly fileTouches: FileTouches;
  /** The index in step with what agents list and delete. */
  readonly sync: SessionSync;
  readonly diffs = new DiffDocuments();
  /** Review by hunks (Keep/Undo) of the files open sessions changed. */
  readonly review = new HunkReview(
    () => [...this.liveSessions].map((s) => s.checkpoints.changes),
    (changes) => [...this.liveSessions].find((s) => s.checkpoints.changes === changes)?.rejectReasons,
  );
  readonly files: FileService;
  readonly terminals: TerminalService;
  readonly mcpTrust: McpTrust;
  /** The user's answers about what gemini-cli would load from the workspace once trusted. */
  readonly geminiTrust: GeminiConfigTrust;
  /** "Open this session in a folder outside the workspace?" (a listed session's cwd); scratch folders and our worktrees are not. */
  readonly sessionRoots = new SessionRootQuestion(workspaceFolderPaths, () => [this.scratchDir, ...this.worktrees.dirsFor(workspaceFolderPaths())]);
  /** Sessions in git worktrees of their own, and the questions about them (the tests answer them). */
  readonly worktrees: Worktrees;
  worktreeUi = worktreePrompts;
  /** The MCP servers sessions get (mcp.json files, settings, trust). */
  readonly mcp: McpServerSources;
  readonly mcpRelays: McpRelays;
  /** The editor's own MCP server (selection, editors, problems, symbols), handed to every session's agent. */
  readonly editorContext: EditorContextService;
  readonly attachments = new AttachmentSources();
  /** Agent diagnostics: the view and the text "Copy Diagnostics" copies. */
  readonly diagnostics: AgentDiagnosticsView;
  readonly panels: ChatPanelManager;
  readonly statusBar: SessionStatusBar;
  readonly tree: SessionTreeProvider;
  /** Sessions waiting for the user's answer: the Sessions view's badge, the rows, the tabs. */
  readonly waiting: WaitingOnYou;
  readonly treeView: vscode.TreeView<unknown>;
  private readonly disposables: vscode.Disposable[] = [];

  /** Replaceable answers (the tests answer them). */
  confirm = confirmModal;
  readonly workspaceCwd = workspaceCwd;
  /** Why the user undid an agent's change (chat/sessionPorts.ts). */
  undoReasonBox = (options: vscode.InputBoxOptions): Thenable<string | undefined> => vscode.window.showInputBox(options);
  folderPicker = pickWorkspaceFolder;
  /** Picks one of an agent's past sessions (the tests answer it). */
  sessionPicker: <T extends vscode.QuickPickItem>(items: T[], title: string) => Promise<T | undefined> = pickSession;
  /** The checklist of Manage Trusted Workspace MCP Servers (the tests answer it). */
  trustPicker: <T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions & { canPickMany: true }) => Thenable<T[] | undefined> = (items, options) => vscode.window.showQuickPick(items, options);
  /** Sees every registry quick pick as it opens (the tests drive it). */
  registryPickCreated: ((qp: vscode.QuickPick<RegistryPickItem>) => void) | undefined;

  constructor(readonly extension: vscode.ExtensionContext) {
    this.version = String((extension.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    this.storage = extension.globalStorageUri.fsPath;
    this.scratchDir = path.join(this.storage, 'scratch');
    this.signInStore = new SignInStore(extension.secrets, extension.globalState);
    this.logs = new Logs(() => [...this.secrets.list(), ...this.signInStore.secretValues()]);
    this.log = this.logs.channel('ACP Agents');
    this.settings = new SettingsReport(this.config, (m) => this.log.warn(m));
    this.elicitation = new ElicitationService((m) => this.log.info(`elicitation: ${m}`));
    const snapshot = vscode.Uri.joinPath(extension.extensionUri, 'media', 'registry-snapshot.json').fsPath;
    this.registry = AgentRegistry.at(this.storage, snapshot, () => this.config.registryUrl(), (m) => this.log.info(`registry: ${m}`));
    this.registry.installer.sweep();
    void this.sweepScratch();
    this.geminiTrust = new GeminiConfigTrust(extension.workspaceState, geminiTrustPrompt(), (m) => this.log.info(m));
    this.agents = new AgentManager({
      config: this.config,
      log: this.log,
      messages: this.messages,
      ui: agentHostUi(),
      extensionVersion: this.version,
      logs: this.logs,
      secrets: this.secrets,
      runDir: path.join(this.storage, 'run'),
      storedEnv: (id) => this.signInStore.storedEnv(id),
      clientMethods: CLIENT_METHODS,
      elicitation: this.elicitation,
      hasSessionsOn: (runtime) => [...this.liveSessions].some((s) => s.isOpenOn(runtime)),
      installed: () => this.registry.definitions(),
      geminiConfig: (name, folders, ask) => this.geminiTrust.decide(name, folders, ask),
    });
    this.auth = new AuthService(this.agents, this.signInStore, this.messages, quickPickPrompter, runInTerminal);
    this.index = new SessionIndex(path.join(this.storage, 'sessions.json'), {
      onProblem: (m) => {
        this.log.warn(m);
        void this.messages.show('warning', m);
      },
      onWriteError: (err) => this.messages.storeWriteFailed((m) => this.log.error(m), vscode.l10n.t('the list of sessions'), err),
      log: (m) => this.log.warn(m),
    });
    this.archive = new TranscriptArchive(path.join(this.storage, 'archive'), () => this.config.archiveMaxBytes(), (err) => this.messages.storeWriteFailed((m) => this.log.error(m), vscode.l10n.t('the session history (archive)'), err));
    this.fileTouches = new FileTouches(path.join(this.storage, 'file-touches.json'), (m) => this.log.warn(m));
    this.worktrees = new Worktrees(path.join(this.storage, 'worktrees.json'), path.join(this.storage, 'worktrees'), () => this.config.worktreeFolder(), (m) => this.log.info(m), workspaceFolderPaths);
    this.sync = new SessionSync({
      agents: this.agents,
      index: this.index,
      folders: workspaceFolderPaths,
      defaultCwd: workspaceCwd,
      warn: (m) => this.log.warn(m),
    });
    this.files = new FileService(this.config, (m) => this.log.info(`files: ${m}`));
    this.terminals = new TerminalService(() => this.config.terminalOutputLimitBytes());
    this.mcpTrust = new McpTrust(extension.workspaceState, askMcpTrust, (m) => this.log.info(m));
    this.mcp = new McpServerSources(this.config, this.storage, this.secrets, this.mcpTrust, () => this.agents.neutralFolder());
    const mcpStatus = liveMcpStatus((id) => this.panels.all().filter((p) => p.agentId === id).map((p) => p.session), selectionMcpStatus(this.mcp, this.mcpTrust, () => this.workspaceCwd()));
    this.diagnostics = new AgentDiagnosticsView({ agents: this.agents, secrets: () => [...this.secrets.list(), ...this.signInStore.secretValues()], extensionVersion: this.version, mcpStatus });
    this.mcpRelays = new McpRelays(extension.extensionUri.fsPath, this.secrets, (m) => this.log.info(m));
    this.editorContext = new EditorContextService({
      shim: vscode.Uri.joinPath(extension.extensionUri, 'dist', 'editorContextShim.js').fsPath,
      version: this.version,
      enabled: () => this.config.editorContext(),
      clientTools: () => this.config.editorTools(),
      secret: (v) => this.secrets.add(v),
      log: (m) => this.log.info(m),
    });
    const services = sessionServices(this);
    this.panels = new ChatPanelManager(extension.extensionUri, this.log, (id) => this.agents.find(id), (def, cwd) => this.newSession(def, cwd, services), this.diffs, this.attachments, {
      enabled: () => this.config.notifications(),
      notify: (message, ...actions) => this.messages.show('info', message, ...actions),
    });
    this.statusBar = new SessionStatusBar(this.panels, this.agents);
    this.waiting = new WaitingOnYou(this.panels);
    this.tree = new SessionTreeProvider(() => this.agents.definitions(), (id) => this.agents.status(id), this.index, {
      mcp: (agentId, sessionId) => this.panels.find(agentId, sessionId)?.session.mcp,
      waiting: (agentId, sessionId) => this.waiting.has(agentId, sessionId),
      protocol: (agentId) => this.agents.runtime(agentId)?.protocolVersion,
      worktree: (cwd) => this.worktrees.of(cwd),
    });
    this.treeView = vscode.window.createTreeView('acpAgents.sessions', { treeDataProvider: this.tree, showCollapseAll: true });
    this.disposables.push(this.waiting, this.waiting.showAsBadge(this.treeView, () => this.tree.refresh()));
    this.installs = new RegistryInstall({
      registry: this.registry,
      agents: this.agents,
      messages: this.messages,
      log: this.log,
      state: extension.globalState,
      confirm: (m, d, a) => this.confirm(m, d, a),
      configuredIds: () => new Set(this.config.agents().agents.map((a) => a.id)),
      pickCreated: (qp) => this.registryPickCreated?.(qp),
      installed: () => this.tree.refresh(),
      pinned: () => this.config.pinnedVersions(),
    });
    this.agentPicker = new AgentPicker({ agents: this.agents, registry: this.registry, messages: this.messages, install: (entry) => this.installs.install(entry) });
    this.disposables.push(
      this.statusBar,
      this.log,
      this.registry,
      this.agents,
      this.terminals,
      this.editorContext,
      this.attachments,
      this.diffs,
      this.review,
      this.diagnostics,
      this.panels,
      this.mcpRelays,
      this.tree,
      this.treeView,
      { dispose: () => void Promise.all([this.index.flush(), this.archive.flush()]) },
      this.fileTouches,
    );
  }

  /** Removes the old scratch folders of no-folder sessions (at activation); returns those removed. */
  async sweepScratch(): Promise<string[]> {
    const gone = await sweepScratch(this.scratchDir);
    if (gone.length) this.log.info(`removed ${gone.length} old scratch folder(s)`);
    return gone;
  }

  /** Whether an open panel uses the agent. */
  inUse = (agentId: string): boolean => [...this.liveSessions].some((s) => s.def.id === agentId);

  private newSession(def: AgentDefinition, cwd: string | undefined, services: SessionServices): AgentSession {
    const session = new AgentSession(def, this.agents, this.auth, cwd === NO_FOLDER ? undefined : (cwd ?? this.workspaceCwd()), services);
    this.liveSessions.add(session);
    const watched = [this.review.watch(session.checkpoints.changes), session.mcp.onDidChange(() => this.tree.refresh())];
    session.onDidDispose(() => {
      this.liveSessions.delete(session);
      watched.forEach((w) => w.dispose());
    });
    return session;
  }

  /** The agent with this id; throws when none is configured (or built in). */
  agent(id: string): AgentDefinition {
    const def = this.agents.find(id);
    if (!def) throw new Error(vscode.l10n.t('No agent with id "{0}" is configured in acpAgents.agents.', id));
    return def;
  }

  activePanel(): ChatPanel | undefined {
    return this.panels.all().find((p) => p.panel.active);
  }

  /** Keeps the tree and the session list in step with the agents and the settings. */
  watch(): void {
    this.disposables.push(
      this.index.onDidChange(() => this.tree.refresh()),
      this.registry.onDidChangeInstalled(() => this.tree.refresh()),
      this.agents.onDidChangeStatus((id) => {
        this.tree.refresh();
        this.sync.statusChanged(id);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SECTION)) this.settings.report({ overrides: true });
        if (e.affectsConfiguration(`${SECTION}.agents`)) {
          this.settings.report({ agents: true });
          this.tree.refresh();
        }
      }),
    );
  }

  dispose(): void {
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
