import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DecodedInitialize } from './acp/decode';
import type { AgentDefinition } from './agents/agentDefinition';
import { AgentManager, type AgentStatus } from './agents/agentManager';
import { AuthService, type AuthPrompter } from './agents/auth';
import { ChatPanelManager, type ChatPanel } from './chat/chatPanel';
import { AttachmentSources, readText } from './chat/attachmentSources';
import { ElicitationService, type ElicitationUi } from './host/elicitation';
import { FileService } from './host/fileService';
import { TerminalService } from './host/terminals';
import { DiffDocuments } from './chat/diffDocuments';
import { Config, SECTION } from './config';
import { AgentSession, type SessionStores } from './sessions/agentSession';
import { selectMcpServers, type McpSource, parseMcpJson, withoutUntrusted, type WorkspaceMcpServer } from './sessions/mcpServers';
import { McpTrust } from './sessions/mcpTrust';
import { Logs } from './logging';
import { looksSecret, SecretValues } from './agents/redact';
import type { AccessAnswer, AccessQuestion } from './host/accessGate';
import type { SpawnSpec } from './agents/agentProcess';
import { SessionIndex } from './sessions/sessionIndex';
import { SessionTreeProvider, type SessionTreeNode } from './sessions/sessionTree';
import { TranscriptArchive } from './sessions/transcriptArchive';
import { UserMessages, type ShownMessage } from './userMessages';

/** What the extension exports: used by the integration tests and by other extensions. */
export interface AcpAgentsApi {
  readonly version: string;
  /** Configured agents and built-in presets. */
  agents(): readonly AgentDefinition[];
  agentStatus(agentId: string): AgentStatus;
  /** Opens a chat panel with a new session of an agent, as "ACP: New Session…" does after the pick. */
  openChat(agentId: string): ChatPanel;
  /** Opens a past session of an agent that can load sessions (`session/load`). */
  openPastSession(agentId: string, sessionId: string): ChatPanel;
  panels(): readonly ChatPanel[];
  /** For tests: what the user was shown, and a way to answer sign-in questions. */
  readonly testing: {
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
    /** Answers confirmations (e.g. Delete). */
    setConfirm(answer: (() => Promise<boolean>) | undefined): void;
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
    stopAllAgents(): Promise<void>;
  };
}

let manager: AgentManager | undefined;
/** For the tests: a session opened as if no folder were open. */
const NO_FOLDER = '\u0000no-folder';

export function activate(context: vscode.ExtensionContext): AcpAgentsApi {
  const activationStart = performance.now();
  // Secrets met at run time plus the ones in SecretStorage: no output channel ever shows them.
  const secrets = new SecretValues();
  const authRef: { current?: AuthService } = {};
  const logs = new Logs(() => [...secrets.list(), ...(authRef.current?.secretValues() ?? [])]);
  const log = logs.channel('ACP Agents');
  const config = new Config();
  const messages = new UserMessages();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  context.subscriptions.push(log);

  const reportSettingsProblems = () => {
    for (const p of config.agents().problems) log.warn(p.message);
  };
  reportSettingsProblems();

  // Settings that decide what runs or is approved are read from user settings only; say so once when a workspace sets them.
  const reportedOverrides = new Set<string>();
  const reportWorkspaceOverrides = () => {
    for (const o of config.workspaceOverrides()) {
      const key = `${o.key}\u0000${o.where}`;
      if (reportedOverrides.has(key)) continue;
      reportedOverrides.add(key);
      log.warn(`${o.where} sets acpAgents.${o.key}; it is ignored: this setting is read from your user settings only, so a repository cannot change what agents may run or do.${o.key === 'mcpServers' ? ' Its servers are offered for your trust instead.' : ''}`);
    }
  };
  reportWorkspaceOverrides();

  const storage = context.globalStorageUri.fsPath;
  const elicitation = new ElicitationService((m) => log.info(`elicitation: ${m}`));
  // The manager and the auth service need each other: the manager asks auth for stored env values.
  const panelsRef: { current?: ChatPanelManager } = {};
  manager = new AgentManager({
    config,
    log,
    messages,
    extensionVersion: version,
    logs,
    secrets,
    runDir: path.join(storage, 'run'),
    storedEnv: (id) => authRef.current?.storedEnv(id) ?? Promise.resolve({}),
    agentRequests: { 'elicitation/create': (name, params) => elicitation.create(name, params) },
    agentNotifications: { 'elicitation/complete': (_name, params) => elicitation.complete(params) },
    inUse: (id) => panelsRef.current?.all().some((p) => p.agentId === id) ?? false,
  });
  const agents = manager;
  const signIn = new AuthService(agents, context.secrets, context.globalState, messages);
  authRef.current = signIn;
  const defaultPrompter = signIn.prompter;

  const workspaceCwd = () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const index = new SessionIndex(path.join(storage, 'sessions.json'));
  const archive = new TranscriptArchive(path.join(storage, 'archive'), () => config.archiveMaxBytes());
  const diffs = new DiffDocuments();
  const files = new FileService(config, (m) => log.info(`files: ${m}`));
  const terminals = new TerminalService(() => config.terminalOutputLimitBytes());
  const mcpTrust = new McpTrust(context.workspaceState, askMcpTrust, (m) => log.info(m));
  const defaultMcpTrustUi = mcpTrust.ui;
  const selectMcp = (cwd: string, caps: { canHttp: boolean; canSse: boolean }) => {
    const sel = selectMcpServers(mcpSources(config, storage), caps, { env: process.env, workspaceFolder: cwd, cwd, pathEnv: process.env.PATH, onEnv: (n, v) => (looksSecret(n, v) ? secrets.add(v) : undefined) });
    for (const server of sel.servers) {
      for (const pair of [...('env' in server ? server.env : []), ...('headers' in server ? server.headers : [])]) if (looksSecret(pair.name, pair.value)) secrets.add(pair.value);
      const userinfo = 'url' in server ? /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]+)@/i.exec(server.url)?.[1] : undefined;
      // user:password → the password; a lone token → the token.
      if (userinfo) secrets.add(userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : userinfo);
    }
    return sel;
  };
  const stores: SessionStores = {
    index,
    archive,
    mcpServers: async (rt, cwd, agentName) => {
      const sel = selectMcp(cwd, { canHttp: rt.capabilities.mcpHttp, canSse: rt.capabilities.mcpSse });
      if (sel.fromWorkspace.length) await mcpTrust.resolve(agentName, sel.fromWorkspace);
      return withoutUntrusted(sel, (h) => mcpTrust.isTrusted(h));
    },
    scratchRoot: () => {
      const dir = path.join(storage, 'scratch', `${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    additionalDirectories: (cwd) => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath).filter((f) => f !== cwd),
    newSession: (def) => void vscode.commands.executeCommand('acpAgents.newSession', def.id),
    readText,
    files,
    terminals,
    diffs,
  };
  const attachments = new AttachmentSources();
  const defaultAskAccess = files.askAccess;
  const defaultElicitationUi = elicitation.ui;
  const panels = new ChatPanelManager(context.extensionUri, log, (id) => agents.find(id), (def, cwd) => new AgentSession(def, agents, signIn, config, cwd === NO_FOLDER ? undefined : (cwd ?? workspaceCwd()), stores), diffs, attachments);
  panelsRef.current = panels;
  const tree = new SessionTreeProvider(() => agents.definitions(), (id) => agents.status(id), index);
  const treeView = vscode.window.createTreeView('acpAgents.sessions', { treeDataProvider: tree, showCollapseAll: true });
  index.onDidChange(() => tree.refresh());

  /** Sessions an agent lists (started elsewhere too), merged into the index. */
  const listInto = async (agent: AgentDefinition): Promise<void> => {
    const rt = agents.runtime(agent.id);
    if (!rt?.capabilities.canListSessions) return;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      let cursor: string | undefined;
      for (let page = 0; page < 50; page++) {
        const r = await rt.connection.listSessions({ cwd: folder.uri.fsPath, ...(cursor ? { cursor } : {}) });
        const listed = (Array.isArray(r?.sessions) ? r.sessions : []).filter((x) => typeof x?.sessionId === 'string').map((x) => ({ ...x, cwd: typeof x.cwd === 'string' ? x.cwd : folder.uri.fsPath }));
        index.mergeListed(agent.id, listed);
        cursor = typeof r?.nextCursor === 'string' && r.nextCursor ? r.nextCursor : undefined;
        if (!cursor) break;
      }
    }
  };
  const lastStatus = new Map<string, string>();
  context.subscriptions.push(
    agents,
    terminals,
    attachments,
    diffs,
    panels,
    tree,
    treeView,
    { dispose: () => void index.flush() },
    { dispose: () => void archive.flush() },
    agents.onDidChangeStatus((id) => {
      tree.refresh();
      const agent = agents.find(id);
      const status = agents.status(id);
      const was = lastStatus.get(id);
      lastStatus.set(id, status);
      // Each time an agent (re)starts, merge the sessions it lists.
      if (agent && status === 'running' && was === 'starting') {
        void listInto(agent).then(undefined, (err: unknown) => log.warn(`session/list of ${agent.name} failed: ${String(err)}`));
      }
    }),
  );

  let confirm = async (message: string, detail: string, action: string): Promise<boolean> =>
    (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;

  /** In a multi-root workspace, asks which folder the session works in. */
  let folderPicker = async (): Promise<vscode.WorkspaceFolder | undefined> => await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Pick the folder the agent works in' });
  const pickFolder = async (): Promise<string | undefined | null> => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length <= 1) return folders[0]?.uri.fsPath;
    const f = await folderPicker();
    return f ? f.uri.fsPath : null;
  };

  const openChat = (agentId: string): ChatPanel => {
    const agent = agents.find(agentId);
    if (!agent) throw new Error(`No agent with id "${agentId}" is configured in acpAgents.agents.`);
    return panels.open(agent);
  };

  const statusWords: Record<AgentStatus, string> = {
    'not-started': 'not started',
    starting: 'starting…',
    running: 'running',
    'needs-sign-in': 'needs sign-in',
    failed: 'failed',
    stopped: 'stopped',
  };

  const pickAgent = async (title: string, filter: (a: AgentDefinition) => boolean = () => true): Promise<AgentDefinition | undefined> => {
    const all = agents.definitions().filter(filter);
    if (all.length === 0) {
      await messages.show('info', 'No agent is running.');
      return undefined;
    }
    const configured = all.filter((a) => a.source === 'settings');
    const presets = all.filter((a) => a.source === 'preset');
    const item = (agent: AgentDefinition) => ({
      label: agent.name,
      description: statusWords[agents.status(agent.id)],
      detail: agent.description ?? [agent.command, ...agent.args].join(' '),
      agent,
    });
    const items: (vscode.QuickPickItem & { agent?: AgentDefinition })[] = [
      ...(configured.length ? [{ label: 'Your agents', kind: vscode.QuickPickItemKind.Separator }, ...configured.map(item)] : []),
      ...(presets.length ? [{ label: 'Built-in', kind: vscode.QuickPickItemKind.Separator }, ...presets.map(item)] : []),
    ];
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Pick an agent', matchOnDescription: true, matchOnDetail: true });
    return picked?.agent;
  };

  const agentFromArg = (arg: unknown): AgentDefinition | undefined => {
    if (typeof arg === 'string') return agents.find(arg);
    if (typeof arg === 'object' && arg !== null && 'agent' in arg) return (arg as { agent: AgentDefinition }).agent;
    return undefined;
  };
  const activeAgent = (): AgentDefinition | undefined => {
    const active = panels.all().find((p) => p.panel.active);
    return active ? agents.find(active.agentId) : undefined;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('acpAgents.newSession', async (arg?: unknown) => {
      let agent = agentFromArg(arg);
      if (!agent) {
        const preferred = config.defaultAgent();
        agent = (preferred && agents.find(preferred)) || (await pickAgent('ACP: New Session'));
      }
      if (!agent) return;
      const cwd = await pickFolder();
      if (cwd !== null) panels.open(agent, cwd);
    }),
    vscode.commands.registerCommand('acpAgents.openSession', (node?: SessionTreeNode) => {
      if (node?.kind !== 'session') return;
      panels.openPast(node.agent, node.entry.sessionId, node.entry.cwd);
    }),
    vscode.commands.registerCommand('acpAgents.deleteSession', async (node?: SessionTreeNode) => {
      if (node?.kind !== 'session') return;
      const { agent, entry } = node;
      if (!(await confirm(`Delete the session "${entry.title || entry.sessionId}" of ${agent.name}?`, 'Its local history is removed, and the agent is asked to delete it where it supports that.', 'Delete'))) return;
      panels.find(agent.id, entry.sessionId)?.panel.dispose();
      try {
        const rt = agents.runtime(agent.id);
        if (rt?.capabilities.canDeleteSession) await rt.connection.deleteSession(entry.sessionId);
      } catch (err) {
        log.warn(`session/delete failed: ${String(err)}`);
      }
      index.remove(agent.id, entry.sessionId);
      await archive.delete(agent.id, entry.sessionId);
    }),
    vscode.commands.registerCommand('acpAgents.refreshSessions', async () => {
      for (const agent of agents.definitions()) {
        if (agents.runtime(agent.id)) await listInto(agent).then(undefined, (err: unknown) => log.warn(`session/list of ${agent.name} failed: ${String(err)}`));
      }
      tree.refresh();
    }),
    vscode.commands.registerCommand('acpAgents.resumeSession', async (arg?: unknown) => {
      const agent = agentFromArg(arg) ?? (await pickAgent('ACP: Resume Session — pick the agent'));
      if (!agent) return;
      const cwd = workspaceCwd();
      let rt;
      try {
        rt = await agents.ensureRunning(agent, cwd);
      } catch (err) {
        await messages.show('error', String((err as Error).message ?? err), 'Show Log').then((c) => c && agents.showLog(agent.id));
        return;
      }
      if (!rt.capabilities.canListSessions || !rt.capabilities.canLoadSession) {
        await messages.show('info', `${agent.name} cannot list and load its past sessions (it does not advertise session/list and session/load).`);
        return;
      }
      const sessions: { sessionId: string; title?: string | null; updatedAt?: string | null; cwd: string }[] = [];
      let cursor: string | undefined;
      try {
        for (let page = 0; page < 50; page++) {
          const r = await signIn.withAuth(agent, cwd, (x) => x.connection.listSessions({ ...(cwd ? { cwd } : {}), ...(cursor ? { cursor } : {}) }));
          for (const s of Array.isArray(r?.sessions) ? r.sessions : []) if (typeof s?.sessionId === 'string') sessions.push(s);
          cursor = typeof r?.nextCursor === 'string' && r.nextCursor ? r.nextCursor : undefined;
          if (!cursor) break;
        }
      } catch (err) {
        await messages.show('error', `Listing the sessions of ${agent.name} failed: ${String((err as Error).message ?? err)}`);
        return;
      }
      if (sessions.length === 0) {
        await messages.show('info', `${agent.name} has no past sessions for this folder.`);
        return;
      }
      sessions.sort((a, b) => String(b.updatedAt ?? '').localeCompare(String(a.updatedAt ?? '')));
      const picked = await vscode.window.showQuickPick(
        sessions.map((s) => ({ label: s.title || s.sessionId, description: s.updatedAt ? new Date(s.updatedAt).toLocaleString() : undefined, detail: s.cwd, session: s })),
        { title: `ACP: Resume Session — ${agent.name}`, placeHolder: 'Pick a session to open', matchOnDescription: true, matchOnDetail: true },
      );
      if (!picked) return;
      index.mergeListed(agent.id, sessions);
      panels.openPast(agent, picked.session.sessionId, picked.session.cwd);
    }),
    vscode.commands.registerCommand('acpAgents.cancel', async () => {
      const active = panels.all().find((p) => p.panel.active) ?? panels.all().find((p) => p.session.isBusy);
      if (active?.session.isBusy) await active.session.cancel();
      else vscode.window.setStatusBarMessage('ACP: nothing is running.', 3000);
    }),
    vscode.commands.registerCommand('acpAgents.restartAgent', async (arg?: unknown) => {
      const agent = agentFromArg(arg) ?? activeAgent() ?? (await pickAgent('ACP: Restart Agent', (a) => agents.status(a.id) !== 'not-started'));
      if (!agent) return;
      try {
        await agents.restart(agent.id, workspaceCwd());
        for (const p of panels.all()) if (p.agentId === agent.id && !p.session.id) await p.session.start();
      } catch (err) {
        await messages.show('error', String((err as Error).message ?? err), 'Show Log').then((c) => c && agents.showLog(agent.id));
      }
    }),
    vscode.commands.registerCommand('acpAgents.showLog', async (arg?: unknown) => {
      const agent = agentFromArg(arg) ?? activeAgent();
      agents.showLog(agent?.id);
    }),
    vscode.commands.registerCommand('acpAgents.signIn', async (arg?: unknown) => {
      const agent = agentFromArg(arg) ?? activeAgent() ?? (await pickAgent('ACP: Sign In'));
      if (agent) await signIn.signIn(agent, workspaceCwd());
    }),
    vscode.commands.registerCommand('acpAgents.signOut', async (arg?: unknown) => {
      const agent = agentFromArg(arg) ?? activeAgent() ?? (await pickAgent('ACP: Sign Out', (a) => agents.status(a.id) !== 'not-started'));
      if (agent) await signIn.signOut(agent, workspaceCwd());
    }),
    vscode.commands.registerCommand('acpAgents.manageMcpTrust', async () => {
      const defined = new Map<string, WorkspaceMcpServer>();
      for (const f of vscode.workspace.workspaceFolders ?? [undefined]) {
        const cwd = f?.uri.fsPath ?? storage;
        for (const w of selectMcp(cwd, { canHttp: true, canSse: true }).fromWorkspace) defined.set(w.hash, w);
      }
      const trusted = mcpTrust.trusted();
      if (defined.size === 0) {
        if (trusted.size === 0) return void (await messages.show('info', 'This workspace defines no MCP servers, and none is trusted.'));
        const forget = 'Forget Them';
        if ((await messages.show('info', `This workspace defines no MCP servers now; ${trusted.size} earlier definition(s) are still trusted.`, forget)) === forget) await mcpTrust.forgetAll();
        return;
      }
      const picked = await vscode.window.showQuickPick(
        [...defined.values()].map((w) => ({ label: w.name, description: w.label, detail: w.display, picked: trusted.has(w.hash), hash: w.hash })),
        { title: 'ACP: Trusted Workspace MCP Servers', placeHolder: 'Checked servers are handed to agents (which start them); uncheck to revoke', canPickMany: true, ignoreFocusOut: true },
      );
      if (!picked) return;
      await mcpTrust.setTrusted(picked.map((p) => p.hash));
      log.info(`workspace MCP servers trusted: ${picked.map((p) => p.label).join(', ') || 'none'}`);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) reportWorkspaceOverrides();
      if (e.affectsConfiguration(`${SECTION}.agents`)) {
        reportSettingsProblems();
        tree.refresh();
      }
    }),
  );

  log.info(`ACP Agents ${version} activated in ${vscode.env.appName} ${vscode.version} (${(performance.now() - activationStart).toFixed(1)} ms)`);
  return {
    version,
    agents: () => agents.definitions(),
    agentStatus: (id) => agents.status(id),
    openChat,
    openPastSession: (agentId, sessionId) => {
      const agent = agents.find(agentId);
      if (!agent) throw new Error(`No agent with id "${agentId}".`);
      return panels.openPast(agent, sessionId, index.get(agentId, sessionId)?.cwd);
    },
    panels: () => panels.all(),
    testing: {
      messages: () => messages.history(),
      setAuthPrompter: (p) => {
        signIn.prompter = p ?? defaultPrompter;
      },
      agentPid: (id) => agents.runtime(id)?.pid,
      initializeResult: (id) => agents.runtime(id)?.initializeResult,
      traceLines: () => agents.traceLines(),
      sessions: (id) => index.forAgent(id),
      setOutsideAnswer: (answer) => {
        files.askAccess = answer ? async (q) => ((await answer(q.agentName, q.action, q.path)) ? 'once' : 'deny') : defaultAskAccess;
      },
      setAccessAnswer: (answer) => {
        files.askAccess = answer ?? defaultAskAccess;
      },
      setMcpTrustAnswer: (answer) => {
        mcpTrust.ui = answer ?? defaultMcpTrustUi;
      },
      forgetMcpTrust: () => mcpTrust.forgetAll(),
      logLines: () => logs.lines(),
      openChatWithoutFolder: (id) => {
        const agent = agents.find(id);
        if (!agent) throw new Error(`No agent with id "${id}".`);
        return panels.open(agent, NO_FOLDER);
      },
      launchSpec: async (id) => {
        const def = agents.find(id);
        if (!def) throw new Error(`No agent with id "${id}".`);
        return await agents.launchSpec(def, workspaceCwd());
      },
      setElicitationUi: (ui) => {
        elicitation.ui = ui ?? defaultElicitationUi;
      },
      setConfirm: (answer) => {
        confirm = answer ? async () => await answer() : async (message, detail, action) => (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
      },
      hasArchive: (agentId, sessionId) => archive.has(agentId, sessionId),
      setFolderPicker: (picker) => {
        folderPicker = picker ?? (async () => await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Pick the folder the agent works in' }));
      },
      flushStores: async () => {
        await index.flush();
        await archive.flush();
      },
      stopAllAgents: () => agents.stopAll(),
    },
  };
}

/**
 * MCP servers in increasing priority: the user's mcp.json, the workspace's
 * .vscode/mcp.json and workspace-level acpAgents.mcpServers (both handed over
 * only once the user trusts each definition), then the user's acpAgents.mcpServers.
 */
function mcpSources(config: Config, globalStorage: string): McpSource[] {
  const sources: McpSource[] = [];
  const read = (file: string, label: string, origin: 'user' | 'workspace') => {
    try {
      if (fs.existsSync(file)) sources.push({ label, servers: parseMcpJson(fs.readFileSync(file, 'utf8')), origin });
    } catch {
      sources.push({ label: `${label} (unreadable)`, servers: {}, origin });
    }
  };
  // globalStorage is <user data>/User/globalStorage/<extension>: mcp.json sits in User/.
  read(path.join(globalStorage, '..', '..', 'mcp.json'), 'user mcp.json', 'user');
  if (vscode.workspace.isTrusted) {
    for (const f of vscode.workspace.workspaceFolders ?? []) read(path.join(f.uri.fsPath, '.vscode', 'mcp.json'), `${f.name}/.vscode/mcp.json`, 'workspace');
    for (const w of config.workspaceMcpServers()) sources.push({ label: w.label, servers: w.servers, origin: 'workspace' });
  }
  sources.push({ label: 'acpAgents.mcpServers', servers: config.mcpServers(), origin: 'user' });
  return sources;
}

/** The native trust question: the exact command lines and URLs, in a modal. Escape trusts nothing. */
async function askMcpTrust(agentName: string, servers: readonly WorkspaceMcpServer[]): Promise<readonly string[]> {
  const trust = servers.length === 1 ? 'Trust and Start It' : 'Trust and Start Them';
  const choice = await vscode.window.showWarningMessage(
    `This workspace defines ${servers.length === 1 ? 'an MCP server' : `${servers.length} MCP servers`} that ${agentName} would start. Trust ${servers.length === 1 ? 'it' : 'them'}?`,
    {
      modal: true,
      detail: `${servers.map((s) => `• ${s.name} (${s.label}):\n    ${s.display}`).join('\n')}\n\nThey run as you, with your files and network. Trust them only if you trust this repository; \${env:…} values are not filled in for servers a workspace defines. Change this later with "ACP: Manage Trusted Workspace MCP Servers…".`,
    },
    trust,
  );
  return choice === trust ? servers.map((s) => s.hash) : [];
}

/** Nothing may be left running: every agent is stopped (stdin EOF → SIGTERM → SIGKILL). */
export async function deactivate(): Promise<void> {
  await manager?.stopAll();
  manager = undefined;
}
