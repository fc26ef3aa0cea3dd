/**
 * The folders a session may touch, and what opening it sends the agent: its
 * cwd (the folder it was opened for, or an empty scratch folder — never the
 * host's cwd), the other workspace folders as additional directories, the MCP
 * servers handed to it, and the user's instructions.
 *
 * Context folders: the user adds a folder to a session (panel header, or the
 * Explorer's "Add Folder to Agent Session") when its agent advertises
 * `sessionCapabilities.additionalDirectories`. ACP sends additional
 * directories only with session/new, load and resume, so an added folder is
 * inside the session's boundary (fs/*, terminals, change tracking) at once,
 * and the agent is told of it the next time the session is loaded or resumed
 * (the notice and the chip say so). The folders are kept per session in
 * `<session>.folders.json` next to the archive and sent again on every
 * load/resume. A folder deleted since shows as missing and is not sent.
 *
 * Too wide a folder is refused (node/folderGrant.ts): a filesystem or
 * drive root, the user's home folder or one that holds it, and a folder that
 * holds one of the session's own folders or a workspace folder.
 *
 * The grant is for the folder the user chose, not for its path: each added
 * folder's real path is pinned when it is added, and kept with it in the
 * folders file (a folder stored before pins were kept is pinned when first
 * seen), so a later window finds a name swapped for a link. The boundary holds
 * only added folders that exist now at that real path — checked at every
 * request, so a folder deleted mid-turn is out at once (an agent cannot
 * recreate it through fs/write_text_file), and one replaced by a link leads
 * nowhere. Only the chip waits for the turn's end to say "missing".
 *
 * A fork keeps the source session's added folders: they are sent with
 * session/fork (or the new session) and saved under the new id.
 * No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import type { ClientRequestHandler } from '../../acp/clientRequests';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type * as acp from '@agentclientprotocol/sdk';
import type { McpSelection } from '../mcp/mcpServers';
import { isInside } from '../../node/pathPolicy';
import { tooWideToGrant, type TooWide } from '../../node/folderGrant';
import { forMessage } from '../../shared/nativeText';
import type { FolderView } from '../../shared/transcriptTypes';
import type { SessionParams } from '../openSession';
import type { SessionCore, SessionPart } from '../sessionCore';
import { parseSidecar, sessionSidecar, type SessionSidecar, type SidecarFormat } from '../store/sessionSidecar';
import type { EditorContextAccess } from '../ports';

/** Context folders per session, at most. */
const MAX_FOLDERS = 20;

const isPath = (f: unknown): f is string => typeof f === 'string' && f.length <= 4096 && path.isAbsolute(f) && !f.includes('\0');

/** The folders the user added to a session, and each one's real path when it was added. */
export interface StoredFolders {
  readonly folders: string[];
  readonly real: Map<string, string>;
}

/**
 * How the folders are kept: `{ v: 1, folders: [path…], real: { path: realPath } }`
 * (a file without `real` is one written before real paths were kept). Read
 * tolerantly: only absolute paths, no duplicates.
 */
export const FOLDERS_FORMAT: SidecarFormat<StoredFolders> = {
  kind: 'folders',
  version: 1,
  maxBytes: 1024 * 1024,
  empty: () => ({ folders: [], real: new Map() }),
  encode: ({ folders, real }) => ({ folders, real: Object.fromEntries(folders.flatMap((f) => (real.has(f) ? [[f, real.get(f)]] : []))) }),
  decode: ({ folders, real }) => {
    if (!Array.isArray(folders)) return { folders: [], real: new Map() };
    const out: string[] = [];
    const pins = new Map<string, string>();
    const storedPins = typeof real === 'object' && real !== null ? (real as Record<string, unknown>) : {};
    for (const f of folders) {
      if (!isPath(f)) continue;
      const p = path.resolve(f);
      if (out.includes(p)) continue;
      out.push(p);
      const pin = Object.hasOwn(storedPins, f) ? storedPins[f] : undefined;
      if (isPath(pin)) pins.set(p, path.resolve(pin));
      if (out.length >= MAX_FOLDERS) break;
    }
    return { folders: out, real: pins };
  },
};

/** The folders file, read tolerantly: a bad file is no folders (see FOLDERS_FORMAT). */
export function parseFolderFile(text: string): StoredFolders {
  return parseSidecar(FOLDERS_FORMAT, text);
}

/** The folders of a folders file (see parseFolderFile). */
export function parseFolders(text: string): string[] {
  return parseFolderFile(text).folders;
}

/** The real path of a folder that exists now; undefined when it does not (or is not a folder). */
const realFolder = (p: string): string | undefined => {
  try {
    return fs.statSync(p).isDirectory() ? fs.realpathSync.native(p) : undefined;
  } catch {
    return undefined;
  }
};

/** Why a folder too wide to grant is refused, in a sentence (`shown`: the folder, escaped). */
function tooWideReason(shown: string, wide: TooWide): string {
  switch (wide.kind) {
    case 'root':
      return l10n.t('{0} is the root of a drive or of the file system: a session may not be given all of it. Add the folder you work in.', shown);
    case 'home':
      return l10n.t('{0} is your home folder: a session may not be given it (it holds your shell profile, your keys and the editor\'s settings). Add the folder you work in.', shown);
    case 'holdsHome':
      return l10n.t('{0} holds your home folder: a session may not be given it. Add the folder you work in.', shown);
    case 'holds':
      return l10n.t('{0} holds {1}, a folder of this session or workspace: a session may not be given a folder around its own. Add a folder beside it instead.', shown, forMessage(wide.folder, 500));
  }
}

export class SessionFolders implements SessionPart {
  /** The cwd and the additional directories sent. */
  private sent: string[] = [];
  private scratch: string | undefined;
  /** The exits of the agent processes the scratch folder was handed to: it goes after them. */
  private readonly scratchHolders = new Set<Promise<unknown>>();
  private mcpNoticeShown = false;
  private worktreeSaid = false;
  /** The editor-context MCP server's grant for this session (its folders are `roots()`). */
  private editorContext: EditorContextAccess | undefined;
  /** The folders the user added to session `of` (absolute, resolved). */
  private added: string[] = [];
  private of: string | undefined;
  private reading: Promise<void> = Promise.resolve();
  /** Where the folders of session `of` are kept. */
  private store: SessionSidecar<StoredFolders> | undefined;
  /** Added folders found missing at the last check. */
  private missing = new Set<string>();
  /** Each added folder's real path when added (one stored without a pin: when first seen): what the grant is for. */
  private readonly real = new Map<string, string>();
  /** A fork's source folders, kept until the new session has an id. */
  private inherited: string[] | undefined;

  /** `cwd`: the folder the session was opened for (undefined: no folder open). */
  constructor(
    private readonly core: Pick<SessionCore, 'def' | 'services' | 'transcript' | 'emit' | 'log' | 'runtime' | 'sessionId'>,
    private readonly cwd: string | undefined,
    /** What the servers become when handed over (the MCP status part wraps stdio ones in its relay). */
    private readonly offer: (sel: McpSelection, rt: AgentRuntime, cwd: string) => Promise<acp.McpServer[]> = async (sel) => sel.servers,
    /** The session's own fs/* and terminal/* handler, lent to the editor's server as tools (acpAgents.editorTools). */
    private readonly client?: ClientRequestHandler,
  ) {}

  /** The user's answer to "may this folder be the session's root?" (asked once per session). */
  private rootAnswer: Promise<boolean> | undefined;

  /**
   * Whether the session's folder may be its root: asked once per session when it is outside the
   * workspace folders (a past session's folder, from the agent's list). Nothing that follows the
   * root — the agent's process, its folder trust, the editor context, MCP relays — starts before.
   */
  rootAllowed(): Promise<boolean> {
    const ask = this.core.services.confirmRoot;
    if (this.cwd === undefined || !ask) return Promise.resolve(true);
    this.rootAnswer ??= ask(this.core.def.name, this.cwd).catch(() => false);
    return this.rootAnswer;
  }

  /** The session's folder: the one it was opened for, or (no folder open) an empty scratch folder. */
  get workingFolder(): string {
    return this.cwd ?? (this.scratch ??= this.core.services.scratchRoot());
  }

  /** The roots sent (or the cwd before any were) and the folders the user added: the boundary for fs/terminal requests and for change tracking. */
  roots(): readonly string[] {
    const base = this.sent.length ? this.sent : [this.workingFolder];
    const more = this.added.filter((f) => !base.includes(f) && this.granted(f));
    return more.length ? [...base, ...more] : base;
  }

  /** An added folder exists now at the real path it had when first seen. */
  private granted(folder: string): boolean {
    const now = realFolder(folder);
    if (now === undefined) return false;
    const pinned = this.real.get(folder);
    if (pinned === undefined) this.real.set(folder, now);
    return pinned === undefined || pinned === now;
  }

  /**
   * Fork: the new session keeps the added folders of `sourceSessionId`. Read
   * before the fork opens (its parameters carry them), saved under the new
   * session's id when it is attached.
   */
  async inherit(sourceSessionId: string): Promise<void> {
    // No folders file: nothing added to the source.
    const { folders: stored, real: pins } = await this.sidecar(sourceSessionId).read();
    await this.reading;
    this.inherited = stored;
    this.added = [...stored];
    for (const [f, pin] of pins) this.real.set(f, pin);
    this.missing = new Set(stored.filter((f) => !this.granted(f)));
    if (stored.length) this.core.log(`context folders kept from ${sourceSessionId}: ${stored.join(', ')}`);
  }

  /** The folders the user added, as the chips show them. */
  list(): readonly FolderView[] {
    return this.added.map((p) => ({ path: p, name: path.basename(p) || p, missing: this.missing.has(p) }));
  }

  attached(rt: AgentRuntime, sessionId: string): void {
    this.sayWorktree();
    const reading = this.use(sessionId);
    // Add Folder at once; the stored chips when they are read.
    this.show(rt);
    void reading.then(() => this.show(rt));
  }

  /** A session in a git worktree of its own says so once: its branch, where it came from, what Finish does. */
  private sayWorktree(): void {
    const wt = this.cwd !== undefined && !this.worktreeSaid ? this.core.services.worktree?.(this.cwd) : undefined;
    if (!wt) return;
    this.worktreeSaid = true;
    const { core } = this;
    core.emit(
      core.transcript().addLocalNotice(
        'info',
        l10n.t('In a git worktree on branch {0}', wt.branch),
        l10n.t('{0} works in {1}, a worktree of {2} made from {3}. Its changes stay on branch {4} until you merge them back: ACP: Finish Worktree Session… (Merge Back, Keep Branch or Discard). The checkout at {2} is not among the session\'s folders.', core.def.name, this.cwd!, wt.repoTop, wt.baseLabel, wt.branch),
      ),
    );
  }

  turnBegan(): void {
    this.check();
  }

  turnEnded(): void {
    this.check();
  }

  /**
   * Adds a folder to the session; undefined when added, else why not (a
   * sentence for the user). Refused for an agent that does not advertise
   * additionalDirectories.
   */
  async add(folder: string): Promise<string | undefined> {
    const { def } = this.core;
    const rt = this.core.runtime();
    const id = this.core.sessionId();
    // The sentences go to a notification: the names in them are escaped (a folder may be named `[x](command:…)`).
    const name = forMessage(def.name, 100);
    if (!rt || !id) return l10n.t('The session with {0} is not open yet. Add the folder once it is connected.', name);
    if (!rt.capabilities.supportsAdditionalDirectories()) return l10n.t('{0} does not take additional folders (it does not advertise additionalDirectories).', name);
    if (typeof folder !== 'string' || !path.isAbsolute(folder) || folder.includes('\0')) return l10n.t('Only a folder given by its full path can be added to a session.');
    await this.use(id);
    const p = path.resolve(folder);
    const shown = forMessage(p, 500);
    // What the grant is for: the folder as it is now, pinned by its real path.
    const real = realFolder(p);
    if (real === undefined) return l10n.t('{0} is not a folder.', shown);
    if (this.roots().some((r) => isInside(p, r))) return l10n.t('{0} is already among the session\'s folders.', shown);
    const wide = tooWideToGrant([p, real], [...new Set([this.workingFolder, ...this.core.services.additionalDirectories(this.workingFolder), ...this.sent])]);
    if (wide) return tooWideReason(shown, wide);
    if (this.added.length >= MAX_FOLDERS) return l10n.t('A session can have at most {0} added folders.', MAX_FOLDERS);
    // A folder that holds added ones replaces them.
    this.added = [...this.added.filter((f) => !isInside(f, p)), p];
    this.missing.delete(p);
    this.real.set(p, real);
    this.save();
    this.show(rt);
    this.core.log(`context folder added: ${p}`);
    const { core } = this;
    core.emit(core.transcript().addLocalNotice('info', l10n.t('Folder added: {0}', path.basename(p) || p), l10n.t('{0} may read and change files in {1} from now on. The agent is told of the folder the next time this session is loaded or resumed.', def.name, p)));
    return undefined;
  }

  /** Removes an added folder (the chip's ×); false when it was not one. */
  remove(folder: string): boolean {
    const before = this.added.length;
    this.added = this.added.filter((f) => f !== folder);
    if (this.added.length === before) return false;
    this.missing.delete(folder);
    this.real.delete(folder);
    this.save();
    this.show(this.core.runtime());
    this.core.log(`context folder removed: ${folder}`);
    return true;
  }

  /** Looks again at which added folders still exist; the chips follow. */
  check(): void {
    const missing = new Set(this.added.filter((f) => !this.granted(f)));
    if (missing.size === this.missing.size && [...missing].every((f) => this.missing.has(f))) return;
    this.missing = missing;
    this.show(this.core.runtime());
  }

  /** For tests: the read of the stored folders and the writes so far are done. */
  async flushed(): Promise<void> {
    await this.reading;
    await this.store?.flushed();
  }

  private sidecar(sessionId: string): SessionSidecar<StoredFolders> {
    return sessionSidecar(this.core.services.archive, FOLDERS_FORMAT, this.core.def.id, sessionId, (m) => this.core.log(m));
  }

  /** The added folders of `sessionId`: read once per session id. */
  private use(sessionId: string | undefined): Promise<void> {
    if (sessionId === undefined || sessionId === this.of) return this.reading;
    this.of = sessionId;
    const store = (this.store = this.sidecar(sessionId));
    const inherited = this.inherited;
    this.inherited = undefined;
    if (inherited) {
      // A fork's first id: the source's folders are this session's now.
      if (inherited.length) this.save();
      return this.reading;
    }
    this.added = [];
    this.missing.clear();
    this.real.clear();
    this.reading = store.read().then(({ folders: stored, real }) => {
      if (this.of !== sessionId) return;
      for (const [f, pin] of real) if (!this.real.has(f)) this.real.set(f, pin);
      this.added = [...stored, ...this.added.filter((f) => !stored.includes(f))];
      this.missing = new Set(this.added.filter((f) => !this.granted(f)));
    });
    return this.reading;
  }

  private save(): void {
    void this.store?.write({ folders: [...this.added], real: new Map(this.real) });
  }

  /** The chips in the header (emitted only when they differ). */
  private show(rt: AgentRuntime | undefined): void {
    const t = this.core.transcript();
    const next = { canAdd: rt?.capabilities.supportsAdditionalDirectories() === true, list: this.list() };
    if (!next.canAdd && next.list.length === 0 && t.header.folders === undefined) return;
    if (JSON.stringify(next) === JSON.stringify(t.header.folders)) return;
    t.header.folders = next;
    this.core.emit([{ c: 'header' }]);
  }

  /** The session parameters every new/load/resume/fork carries. */
  async params(rt: AgentRuntime): Promise<SessionParams> {
    const { core } = this;
    const { def, services } = core;
    const cwd = this.workingFolder;
    if (this.scratch !== undefined) this.scratchHolders.add(rt.process.exited);
    let mcp = await services.mcpServers(rt, cwd, def.name);
    this.editorContext ??= await services.editorContext?.(() => this.roots(), this.client, () => core.runtime()?.protocolVersion === 2);
    const editor = this.editorContext?.entry();
    // The user's own server of the same name wins.
    if (editor && !mcp.servers.some((s) => s.name === editor.name)) mcp = { ...mcp, servers: [...mcp.servers, editor], own: editor.name };
    if (mcp.skipped.length > 0 && !this.mcpNoticeShown) {
      this.mcpNoticeShown = true;
      core.emit(core.transcript().addLocalNotice('info', l10n.t('Some MCP servers were not handed to {0}', def.name), mcp.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n')));
    }
    // Their status (and, for an agent known to ignore them, why) is the MCP status part's; what it leaves out, it says.
    const mcpServers = await this.offer(mcp, rt, cwd);
    if (mcpServers.length) core.log(`MCP servers sent: ${mcpServers.map((s) => s.name).join(', ')}`);
    // Load and resume are attached first: the session's own added folders go with them.
    await this.use(core.sessionId());
    this.check();
    const supported = rt.capabilities.supportsAdditionalDirectories();
    const workspace = supported && this.cwd !== undefined ? services.additionalDirectories(cwd) : [];
    const own = supported ? this.added.filter((f) => !this.missing.has(f) && f !== cwd && !workspace.includes(f)) : [];
    const extra = [...workspace, ...own];
    // The user's own folders stay out of `sent`: roots() adds them while they are added (a removal takes effect at once).
    this.sent = [cwd, ...workspace];
    // The user's instructions, re-sent on every new/load/resume (agents need not keep them).
    const instructions = rt.capabilities.supportsSystemPrompt() ? services.settings.instructions() : '';
    // An agent by URL with a pathMap is told its own machine's folders; one with none for the session's folder cannot open it.
    const named = (p: string) => (rt.paths ? rt.paths.toRemote(p) : p);
    const remoteCwd = named(cwd);
    if (remoteCwd === undefined) throw new Error(l10n.t('The pathMap of {0} maps no folder of its machine to {1}: add one for it ({2}).', def.name, cwd, rt.paths!.describe()));
    const remoteExtra = extra.map(named).filter((p): p is string => p !== undefined);
    if (remoteExtra.length < extra.length) core.log(`folders its pathMap does not map, not sent: ${extra.filter((p) => named(p) === undefined).join(', ')}`);
    return {
      cwd: remoteCwd,
      mcpServers,
      ...(remoteExtra.length ? { additionalDirectories: remoteExtra } : {}),
      ...(instructions ? { systemPrompt: { mode: 'append' as const, content: [{ type: 'text' as const, text: instructions }] } } : {}),
    };
  }

  /**
   * The scratch folder goes with its session, once the agent processes it was handed to exited
   * (unless the session is kept alive on the agent: the sweep at activation takes it later).
   */
  dispose(): void {
    const { services } = this.core;
    if (this.scratch && !services.settings.keepSessionsAlive()) services.releaseScratch(this.scratch, [...this.scratchHolders]);
    this.editorContext?.dispose();
  }
}
