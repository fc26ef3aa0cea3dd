/**
 * One question at a time about an agent's access to a path (outside the
 * session's folders, or a protected path inside them): questions are queued,
 * never stacked; the user can allow once, allow that path or folder for the
 * session, deny, or deny everything else asked in this turn. Escape denies.
 * No `vscode` import.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { OrderedQueue } from '../../acp/orderedQueue';
import { isInside, realPathLoose } from '../../node/pathPolicy';
import { caseInsensitiveAt, caseInsensitivePlatform } from '../../node/pathSpelling';

export type AccessAction = 'read' | 'write' | 'run a command in' | 'open';
type AccessReason = 'outside' | 'protected';
export type AccessAnswer = 'once' | 'session-path' | 'session-folder' | 'deny' | 'deny-turn';

export interface AccessQuestion {
  readonly agentName: string;
  readonly action: AccessAction;
  /** The resolved path (symlinks followed). */
  readonly path: string;
  readonly reason: AccessReason;
  /** For protected paths: the glob that protects it. */
  readonly glob?: string;
  /**
   * The folder "allow its folder for the session" would cover; undefined when none may be offered
   * (the path is itself that folder, it is protected, or the folder is the home folder, a file
   * system or drive root, or holds a session folder).
   */
  readonly folder?: string;
}

/** What `ask` needs besides the question: the session's folders (a folder holding one is never offered). */
export type AccessRequest = Omit<AccessQuestion, 'folder'> & { readonly roots: readonly string[] };

/**
 * Whether "allow its folder" may cover `folder`: never the home folder or one above it, a file
 * system or drive root, or a folder that is (or holds) one of the session's folders — allowing any
 * of those would hand the agent far more than the file it asked for.
 */
export function folderGrantable(folder: string, roots: readonly string[], home: string, platform: NodeJS.Platform = process.platform): boolean {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const resolve = (x: string) => (platform === process.platform ? realPathLoose(x) : p.resolve(x));
  const f = resolve(folder);
  if (p.dirname(f) === f) return false;
  const fold = caseInsensitivePlatform(platform) || (platform === process.platform && caseInsensitiveAt(f));
  const norm = (x: string) => (fold ? x.toLowerCase() : x);
  const inside = (child: string, parent: string) => {
    const rel = p.relative(norm(parent), norm(child));
    return rel === '' || (!rel.startsWith('..') && !p.isAbsolute(rel));
  };
  const guarded = [home, ...roots].filter((x) => x !== '').flatMap((x) => [x, resolve(x)]);
  return !guarded.some((g) => inside(g, f));
}

/** Asks the user; undefined (Escape, closed) means deny. */
export type AccessUi = (q: AccessQuestion) => Promise<AccessAnswer | undefined>;

export class AccessGate {
  private readonly queue = new OrderedQueue();
  private readonly allowedPaths = new Set<string>();
  private readonly allowedFolders = new Map<string, string[]>();
  private denyRestOfTurn = false;

  constructor(
    private readonly ui: AccessUi,
    private readonly log: (message: string) => void = () => {},
    /** The home folder (tests pass another); "allow its folder" never covers it. */
    private readonly home: string = os.homedir(),
  ) {}

  /** A new turn: "deny all for this turn" ends. */
  newTurn(): void {
    this.denyRestOfTurn = false;
  }

  /** Resolves true when the user allows (now or earlier in the session). Questions run one after another. */
  async ask(request: AccessRequest): Promise<boolean> {
    const { roots, ...q } = request;
    // A protected path is allowed by file only: its folder would cover every other protected file in it.
    const candidate = q.action === 'run a command in' || q.reason === 'protected' ? undefined : path.dirname(q.path);
    const folder = candidate !== undefined && folderGrantable(candidate, roots, this.home) ? candidate : undefined;
    const question: AccessQuestion = { ...q, ...(folder !== undefined ? { folder } : {}) };
    let allowed = false;
    await this.queue.enqueue('ask', async () => {
      allowed = await this.decide(question);
    });
    return allowed;
  }

  private scope(q: AccessQuestion): string {
    return `${q.reason}:${q.action === 'read' || q.action === 'open' ? 'read' : q.action}`;
  }

  private allowedBefore(q: AccessQuestion): boolean {
    const scope = this.scope(q);
    if (this.allowedPaths.has(`${scope}\u0000${q.path}`)) return true;
    return (this.allowedFolders.get(scope) ?? []).some((f) => isInside(q.path, f));
  }

  private async decide(q: AccessQuestion): Promise<boolean> {
    const what = `${q.action} ${q.path} (${q.reason === 'outside' ? "outside the session's folders" : `protected by ${q.glob ?? 'acpAgents.files.protectedPaths'}`})`;
    if (this.allowedBefore(q)) {
      this.log(`${what}: allowed earlier in this session`);
      return true;
    }
    if (this.denyRestOfTurn) {
      this.log(`${what}: refused (the user denied everything else in this turn)`);
      return false;
    }
    const answer = (await this.ui(q).catch(() => undefined)) ?? 'deny';
    const scope = this.scope(q);
    switch (answer) {
      case 'once':
        break;
      case 'session-path':
        this.allowedPaths.add(`${scope}\u0000${q.path}`);
        break;
      case 'session-folder': {
        // No folder was offered: an answer naming one covers the path only.
        if (q.folder === undefined) {
          this.allowedPaths.add(`${scope}\u0000${q.path}`);
          break;
        }
        const folders = this.allowedFolders.get(scope) ?? [];
        folders.push(q.folder);
        this.allowedFolders.set(scope, folders);
        break;
      }
      case 'deny-turn':
        this.denyRestOfTurn = true;
        break;
      case 'deny':
        break;
    }
    const allowed = answer === 'once' || answer === 'session-path' || answer === 'session-folder';
    this.log(`${what}: ${allowed ? `allowed by the user (${answer === 'once' ? 'once' : answer === 'session-path' || q.folder === undefined ? 'this path, for the session' : `the folder ${q.folder}, for the session`})` : answer === 'deny-turn' ? 'refused by the user, with the rest of this turn' : 'refused by the user'}`);
    return allowed;
  }
}

/** What a session hands the file service for one request: who asks, the folders it may use, and its gate. */
export interface AccessContext {
  readonly agentName: string;
  readonly roots: readonly string[];
  readonly gate: AccessGate;
}
