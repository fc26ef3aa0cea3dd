/**
 * The session's MCP status: every server handed to the agent (or left out) and
 * what became of it, shown in the panel's header (`header.mcp`) and read by the
 * sessions tree and diagnostics through `statuses()`. Stdio servers are handed
 * over wrapped in the relay (`wrapStdio`), whose reports arrive here through the
 * session's registration with the hub. After a whole turn, a watched server the
 * agent never started says so — with the reason where it is known (Gemini CLI's
 * folder trust). No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import type { AgentRuntime } from '../../agents/agentRuntime';
import { mcpServersIgnored, trustPassedNote, type McpIgnored } from '../../agents/quirks';
import type { RelayRegistration } from '../../node/mcpRelay/hub';
import type { RelayEvent } from '../../node/mcpRelay/wire';
import { Emitter, type Event } from '../../shared/events';
import { oneLine } from '../../shared/nativeText';
import type { McpStatusView } from '../../shared/transcriptTypes';
import { offerOverHttp, refusesStdio, unreachableFromRemote, type HttpOffer } from '../mcp/mcpOverHttp';
import type { McpSelection } from '../mcp/mcpServers';
import { afterTurn, applyEvent, initialStatuses, statusText, wrapStdio, type McpServerStatus } from '../mcp/mcpStatus';
import type { SessionCore, SessionPart } from '../sessionCore';

export class McpStatus implements SessionPart {
  private list: McpServerStatus[] = [];
  private note: string | undefined;
  private known: McpIgnored | undefined;
  private registration: RelayRegistration | undefined;
  /** The loopback HTTP serving of this offer's stdio servers (an agent that refuses stdio). */
  private http: HttpOffer | undefined;
  /** Bumped on every offer: reports for an earlier offer's registration are dropped. */
  private generation = 0;
  private readonly changed = new Emitter<void>();
  /** The statuses changed (the tree's tooltip follows). */
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly core: Pick<SessionCore, 'def' | 'services' | 'transcript' | 'emit' | 'log'>) {}

  /** Read-only: every server of the last offer, in order (handed over first, then those left out). */
  statuses(): readonly McpServerStatus[] {
    return this.list;
  }

  /** A line about the trust passed on to the agent (item 4), when it was. */
  trustNote(): string | undefined {
    return this.note;
  }

  /**
   * The servers to send in a new/load/resume/fork: stdio ones wrapped in the relay
   * when it can run; the statuses start over.
   */
  async offer(sel: McpSelection, rt: AgentRuntime, cwd: string): Promise<acp.McpServer[]> {
    const { core } = this;
    const gen = ++this.generation;
    this.registration?.dispose();
    this.registration = undefined;
    this.http?.dispose();
    this.http = undefined;
    // An agent by URL cannot reach this machine's stdio or loopback servers: left out, saying why.
    const remote = rt.process.spec.remote;
    if (remote) {
      const out = unreachableFromRemote(sel.servers, core.def.name, remote.url);
      if (out.length) {
        const names = new Set(out.map((s) => s.name));
        sel = { ...sel, servers: sel.servers.filter((s) => !names.has(s.name)), skipped: [...sel.skipped, ...out] };
        core.log(`MCP: ${out.map((s) => s.name).join(', ')} left out: ${out[0]!.reason}`);
      }
    }
    const stdio = sel.servers.filter((s): s is acp.McpServerStdio => !('url' in s));
    let relay: Awaited<ReturnType<NonNullable<typeof core.services.mcpRelay>['register']>>;
    if (stdio.length && core.services.mcpRelay) {
      try {
        relay = await core.services.mcpRelay.register((server, e, conn) => {
          if (gen === this.generation) this.report(server, e, conn);
        });
      } catch (err) {
        core.log(`MCP relay unavailable, servers are handed over unwatched: ${String(err)}`);
      }
    }
    if (gen !== this.generation) {
      relay?.registration.dispose();
      return sel.servers;
    }
    this.registration = relay?.registration;
    let servers = relay
      ? sel.servers.map((s) => ('url' in s ? s : wrapStdio(s, { node: relay.node, script: relay.script, socket: relay.registration.socket, token: relay.registration.token })))
      : sel.servers;
    // An agent that refuses stdio gets them over loopback HTTP, or they are left out saying why.
    if (refusesStdio(rt)) {
      const http = await offerOverHttp(servers, rt, core.def.name, cwd, core.services.mcpRelay, core.log);
      if (gen !== this.generation) {
        http.dispose();
        return servers;
      }
      this.http = http;
      servers = http.servers;
      if (http.skipped.length) {
        const out = new Set(http.skipped.map((s) => s.name));
        sel = { ...sel, servers: sel.servers.filter((s) => !out.has(s.name)), skipped: [...sel.skipped, ...http.skipped] };
        core.log(`MCP: ${http.skipped[0]!.reason}`);
      }
    }
    const info = rt.initializeResult?.agentInfo;
    const env = rt.process.spec.env;
    const allowed = core.services.settings.passWorkspaceTrust?.(core.def.id) ?? true;
    this.known = sel.servers.length ? mcpServersIgnored(info, env, allowed, rt.process.spec.trustWithheld === true) : undefined;
    this.note = [sel.servers.length ? trustPassedNote(info, env) : undefined, this.http?.note].filter(Boolean).join(' ') || undefined;
    if (this.note) core.log(`MCP: ${this.note}`);
    this.list = initialStatuses(sel.servers, sel.skipped, () => relay !== undefined, sel.own);
    // An agent known not to start them: said at once (a server it starts anyway still shows as started).
    if (this.known) {
      const k = this.known;
      this.list = this.list.map((s) => (s.state === 'offered' ? { ...s, state: 'notStarted' as const, reason: k.reason, ...(k.action ? { action: k.action } : {}) } : s));
      core.log(k.reason);
      core.emit(core.transcript().addLocalNotice('warning', l10n.t('{0} may not start your MCP servers', core.def.name), k.reason));
    }
    this.publish();
    return servers;
  }

  private report(server: string, e: RelayEvent, conn: number): void {
    const i = this.list.findIndex((s) => s.name === server && s.observed);
    const s = this.list[i];
    if (!s) return;
    const next = applyEvent(s, e, conn);
    if (next === s) return;
    this.list = this.list.map((x, j) => (j === i ? next : x));
    // The reason is the relay's or the server's text: one line in the log, bounded (no forged log lines).
    if (e.e !== 'initialized') this.core.log(oneLine(`MCP server "${server}": ${statusText(next)}`, 500));
    this.publish();
  }

  turnEnded(): void {
    const next = this.list.map((s) => afterTurn(s, this.known));
    if (next.some((s, i) => s !== this.list[i])) {
      this.list = next;
      this.publish();
    }
  }

  attached(): void {
    // A load or resume replaced the transcript: its header gets the status again.
    this.publish();
  }

  /** The status as the panel shows it (text only). */
  views(): McpStatusView[] {
    return this.list.map((s) => ({ name: s.name, state: s.state, text: statusText(s), ...(s.action ? { action: s.action } : {}), ...(s.toolNames?.length ? { tools: s.toolNames.join(', ') } : {}) }));
  }

  private publish(): void {
    const h = this.core.transcript().header;
    h.mcp = this.list.length ? { servers: this.views(), ...(this.note ? { note: this.note } : {}) } : undefined;
    this.core.emit([{ c: 'header' }]);
    this.changed.fire();
  }

  dispose(): void {
    this.generation++;
    this.registration?.dispose();
    this.registration = undefined;
    this.http?.dispose();
    this.http = undefined;
    this.changed.dispose();
  }
}
