/**
 * What gemini-cli would load from a folder once it is told to trust it
 * (`GEMINI_CLI_TRUST_WORKSPACE=true`, agents/quirks.ts), and the user's answer
 * about it. A trusted folder's `.gemini/settings.json` starts its `mcpServers`
 * at session/new and applies its hooks, tool and auto-accept settings; its
 * `.gemini/commands` become slash commands; `.gemini/.env` (or `.env`) fills
 * gemini's environment, which its tools and MCP servers inherit. None of it may
 * run unasked: the flag is passed only for folders with none of it, or whose
 * files (hashed) the user accepted in the same kind of dialog as a workspace
 * `mcp.json`. A "no" is kept until the window closes; a changed file asks again.
 * No `vscode` import.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, type ParseError } from 'jsonc-parser';
import { OrderedQueue } from '../acp/orderedQueue';

/** One file (or folder) gemini-cli would load, and what it holds, in words. */
export interface GeminiConfigItem {
  /** Relative to the folder, with `/`. */
  readonly file: string;
  /** Repository text in it (server names, commands): escape before showing. */
  readonly detail: string;
}

export interface GeminiFolderConfig {
  readonly folder: string;
  readonly items: readonly GeminiConfigItem[];
  /** Of the folder's path and every file listed (names and contents). */
  readonly hash: string;
}

/** Top-level settings that make gemini-cli run nothing: only the look of its UI. */
const HARMLESS_SETTINGS = new Set(['$schema', 'ui']);
/** Bytes of one file read for the hash (its size is hashed too). */
const MAX_FILE_BYTES = 1024 * 1024;
/** Files of `.gemini/commands` looked at, and how deep. */
const MAX_COMMAND_FILES = 500;
const MAX_COMMAND_DEPTH = 6;

const cut = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

function readHead(file: string): { bytes: Buffer; size: number } | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return undefined;
    const bytes = Buffer.alloc(Math.min(st.size, MAX_FILE_BYTES));
    const n = fs.readSync(fd, bytes, 0, bytes.length, 0);
    return { bytes: bytes.subarray(0, n), size: st.size };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * What `.gemini/settings.json` would make gemini-cli do, in words; undefined when
 * nothing but harmless settings. A file that cannot be parsed counts as present.
 */
export function describeGeminiSettings(text: string): string | undefined {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'settings that could not be read as JSON (gemini-cli may still read them)';
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => !HARMLESS_SETTINGS.has(k));
  if (keys.length === 0) return undefined;
  const parts: string[] = [];
  const servers = obj.mcpServers;
  if (servers && typeof servers === 'object' && !Array.isArray(servers)) {
    const entries = Object.entries(servers as Record<string, unknown>);
    const shown = entries.slice(0, 10).map(([name, s]) => {
      const def = (s && typeof s === 'object' ? s : {}) as { command?: unknown; args?: unknown; url?: unknown; httpUrl?: unknown };
      const args = Array.isArray(def.args) ? def.args.filter((a): a is string => typeof a === 'string') : [];
      const what = typeof def.command === 'string' ? [def.command, ...args].join(' ') : String(def.httpUrl ?? def.url ?? '?');
      return `${cut(name, 60)}: ${cut(what, 300)}`;
    });
    parts.push(`MCP servers it starts at once: ${shown.join('; ')}${entries.length > shown.length ? ` (and ${entries.length - shown.length} more)` : ''}`);
  }
  const rest = keys.filter((k) => k !== 'mcpServers');
  if (rest.length) parts.push(`settings: ${rest.slice(0, 20).map((k) => cut(k, 40)).join(', ')}${['hooks', 'tools', 'autoAccept', 'security'].some((k) => rest.includes(k)) ? ' (hooks, tools and auto-accept run or allow commands)' : ''}`);
  return parts.join('. ');
}

/** The files under `.gemini/commands` (relative to the folder, sorted), bounded. */
function commandFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (rel: string, depth: number): void => {
    if (depth > MAX_COMMAND_DEPTH || out.length >= MAX_COMMAND_FILES) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(folder, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (out.length >= MAX_COMMAND_FILES) return;
      const child = `${rel}/${e.name}`;
      let dir = e.isDirectory();
      if (e.isSymbolicLink()) {
        try {
          dir = fs.statSync(path.join(folder, child)).isDirectory();
        } catch {
          continue;
        }
      }
      if (dir) walk(child, depth + 1);
      else out.push(child);
    }
  };
  walk('.gemini/commands', 0);
  return out;
}

/** What gemini-cli would load from `folder` when trusted; undefined when nothing. */
export function scanGeminiFolder(folder: string): GeminiFolderConfig | undefined {
  const items: GeminiConfigItem[] = [];
  const hashed: string[] = [];
  const settings = readHead(path.join(folder, '.gemini', 'settings.json'));
  if (settings) {
    const detail = describeGeminiSettings(settings.bytes.toString('utf8'));
    if (detail !== undefined) {
      items.push({ file: '.gemini/settings.json', detail });
      hashed.push('.gemini/settings.json');
    }
  }
  const commands = commandFiles(folder);
  if (commands.length) {
    items.push({ file: '.gemini/commands', detail: `custom commands: ${commands.length}${commands.length >= MAX_COMMAND_FILES ? '+' : ''} file(s)` });
    hashed.push(...commands);
  }
  for (const env of ['.gemini/.env', '.env']) {
    if (!readHead(path.join(folder, ...env.split('/')))) continue;
    items.push({ file: env, detail: 'environment variables for gemini-cli and every program it starts' });
    hashed.push(env);
  }
  if (items.length === 0) return undefined;
  return { folder, items, hash: hashFiles(folder, hashed) };
}

/** The folder's path, then each file's name, size and (first MiB of) content. */
function hashFiles(folder: string, files: readonly string[]): string {
  const h = createHash('sha256').update(`gemini-config\0${path.resolve(folder)}\0`);
  for (const rel of files) {
    const f = readHead(path.join(folder, ...rel.split('/')));
    h.update(`${rel}\0${f ? f.size : -1}\0`);
    if (f) h.update(f.bytes);
    h.update('\0');
  }
  return h.digest('hex');
}

/** Where the answers are kept (VS Code's workspaceState in the extension). */
export interface GeminiTrustMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

/** Asks about what the folders hold; true when the user lets gemini-cli load it. Escape is no. */
export type GeminiTrustUi = (agentName: string, found: readonly GeminiFolderConfig[]) => Promise<boolean>;

/** `none`: nothing to load; `trusted`: all of it accepted; `declined`: some not accepted (or not asked). */
export type GeminiRepoTrust = 'none' | 'trusted' | 'declined';

const KEY = 'acpAgents.trustedGeminiConfig';
/** Hashes kept per workspace, newest last. */
const MAX_KEPT = 200;

export class GeminiConfigTrust {
  private readonly declined = new Set<string>();
  private readonly asking = new OrderedQueue((_key, err) => this.log(`Gemini settings trust: ${String(err)}`));

  constructor(
    private readonly memento: GeminiTrustMemento,
    public ui: GeminiTrustUi,
    private readonly log: (message: string) => void = () => {},
    private readonly scan: (folder: string) => GeminiFolderConfig | undefined = scanGeminiFolder,
  ) {}

  private trusted(): string[] {
    const v = this.memento.get<unknown>(KEY);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  /** How many folders' settings the user let gemini-cli load in this workspace. */
  trustedCount(): number {
    return this.trusted().length;
  }

  /** Forgets every answer of this workspace (and this window's refusals). */
  async forgetAll(): Promise<void> {
    this.declined.clear();
    await this.memento.update(KEY, undefined);
  }

  /**
   * Whether gemini-cli may be told to trust `folders`. `ask`: show the dialog for
   * what is neither accepted nor declined yet; without it, that counts as declined.
   */
  async decide(agentName: string, folders: readonly string[], ask: boolean): Promise<GeminiRepoTrust> {
    let verdict: GeminiRepoTrust = 'declined';
    await this.asking.enqueue('ask', async () => {
      verdict = await this.decideNow(agentName, folders, ask);
    });
    return verdict;
  }

  private async decideNow(agentName: string, folders: readonly string[], ask: boolean): Promise<GeminiRepoTrust> {
    const found = [...new Set(folders)].flatMap((f) => this.scan(f) ?? []);
    if (found.length === 0) return 'none';
    const trusted = this.trusted();
    const open = found.filter((c) => !trusted.includes(c.hash));
    if (open.length === 0) return 'trusted';
    if (!ask || open.some((c) => this.declined.has(c.hash))) return 'declined';
    const yes = await this.ui(agentName, open).catch(() => false);
    for (const c of open) this.log(`Gemini settings in ${c.folder} (${c.items.map((i) => i.file).join(', ')}): ${yes ? 'trusted by the user' : 'not trusted; gemini-cli is not told to trust the folder'}`);
    if (!yes) {
      for (const c of open) this.declined.add(c.hash);
      return 'declined';
    }
    const kept = [...trusted.filter((h) => !open.some((c) => c.hash === h)), ...open.map((c) => c.hash)].slice(-MAX_KEPT);
    await this.memento.update(KEY, kept);
    return 'trusted';
  }
}
