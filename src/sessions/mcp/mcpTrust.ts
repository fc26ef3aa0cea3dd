/**
 * Which workspace-defined MCP servers the user trusted, per workspace: the
 * exact definition (hashed) must have been shown and accepted before it is
 * handed to an agent (which starts it). Declining is remembered until the
 * window closes, so one "no" is not asked again for every session. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { OrderedQueue } from '../../acp/orderedQueue';
import { forMessage } from '../../shared/nativeText';
import type { WorkspaceMcpServer } from './mcpServers';

/** Where trust is kept (VS Code's workspaceState in the extension). */
export interface TrustMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

/** Asks about servers not trusted yet; resolves with the hashes the user trusts. */
export type McpTrustUi = (agentName: string, servers: readonly WorkspaceMcpServer[]) => Promise<readonly string[]>;

const KEY = 'acpAgents.trustedMcpServers';

export class McpTrust {
  private readonly declined = new Set<string>();
  /** One question at a time (two panels starting together ask once). */
  private readonly asking = new OrderedQueue((_key, err) => this.log(`MCP trust: ${String(err)}`));

  constructor(
    private readonly memento: TrustMemento,
    public ui: McpTrustUi,
    private readonly log: (message: string) => void = () => {},
  ) {}

  trusted(): Set<string> {
    const v = this.memento.get<unknown>(KEY);
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  }

  isTrusted(hash: string): boolean {
    return this.trusted().has(hash);
  }

  async setTrusted(hashes: Iterable<string>): Promise<void> {
    const list = [...new Set(hashes)];
    await this.memento.update(KEY, list.length ? list : undefined);
    for (const h of list) this.declined.delete(h);
  }

  /** Forgets every trust decision of this workspace (and this window's refusals). */
  async forgetAll(): Promise<void> {
    this.declined.clear();
    await this.memento.update(KEY, undefined);
  }

  /** Asks about the servers neither trusted nor declined in this window; remembers the answer. */
  async resolve(agentName: string, servers: readonly WorkspaceMcpServer[]): Promise<void> {
    await this.asking.enqueue('trust', async () => {
      const trusted = this.trusted();
      const open = servers.filter((s) => !trusted.has(s.hash) && !this.declined.has(s.hash));
      if (open.length === 0) return;
      const yes = new Set(await this.ui(agentName, open).catch(() => [] as string[]));
      for (const s of open) {
        if (yes.has(s.hash)) trusted.add(s.hash);
        else this.declined.add(s.hash);
        this.log(`MCP server "${s.name}" from ${s.label} (${s.display}): ${yes.has(s.hash) ? 'trusted by the user' : 'not trusted; it is not handed to agents'}`);
      }
      await this.setTrusted(trusted);
    });
  }
}

/** Environment entries shown per server, and characters per value (the hash covers all of them, whole). */
const SHOWN_ENV = 30;
const SHOWN_VALUE = 120;

/**
 * The servers as the trust question lists them: name, where defined, the command
 * line or URL, and every env entry it sets (`NAME="value"`, quoted, cut short).
 * All of it comes from a workspace file: escaped for native UI (no link or codicon syntax).
 */
export function trustListText(servers: readonly WorkspaceMcpServer[]): string {
  return servers
    .map((s) => {
      const head = `• ${forMessage(s.name, 100)} (${forMessage(s.label, 100)}):\n    ${forMessage(s.display, 1000)}`;
      const env = s.env ?? [];
      if (!env.length) return head;
      const value = (v: string) => JSON.stringify(v.length > SHOWN_VALUE ? `${v.slice(0, SHOWN_VALUE - 1)}…` : v);
      const shown = env.slice(0, SHOWN_ENV).map((e) => `${forMessage(e.name, 100)}=${forMessage(value(e.value), SHOWN_VALUE + 20)}`);
      const more = env.length > SHOWN_ENV ? [l10n.t('and {0} more', env.length - SHOWN_ENV)] : [];
      return `${head}\n    ${l10n.t('with env:')} ${[...shown, ...more].join(', ')}`;
    })
    .join('\n');
}
