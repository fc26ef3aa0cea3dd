/**
 * The folders a session may touch, and what opening it sends the agent: its
 * cwd (the folder it was opened for, or an empty scratch folder — never the
 * host's cwd), the other workspace folders as additional directories, the MCP
 * servers handed to it, and the user's instructions. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type * as acp from '@agentclientprotocol/sdk';
import type { McpSelection } from '../mcpServers';
import type { SessionParams } from '../openSession';
import type { SessionCore, SessionPart } from '../sessionCore';
import type { EditorContextAccess } from '../services';

export class SessionFolders implements SessionPart {
  /** The cwd and the additional directories sent. */
  private sent: string[] = [];
  private scratch: string | undefined;
  private mcpNoticeShown = false;
  /** The editor-context MCP server's grant for this session (its folders are `roots()`). */
  private editorContext: EditorContextAccess | undefined;

  /** `cwd`: the folder the session was opened for (undefined: no folder open). */
  constructor(
    private readonly core: Pick<SessionCore, 'def' | 'services' | 'transcript' | 'emit' | 'log'>,
    private readonly cwd: string | undefined,
    /** What the servers become when handed over (the MCP status part wraps stdio ones in its relay). */
    private readonly offer: (sel: McpSelection, rt: AgentRuntime) => Promise<acp.McpServer[]> = async (sel) => sel.servers,
  ) {}

  /** The session's folder: the one it was opened for, or (no folder open) an empty scratch folder. */
  get workingFolder(): string {
    return this.cwd ?? (this.scratch ??= this.core.services.scratchRoot());
  }

  /** The roots sent, or the cwd before any were: the boundary for fs/terminal requests and for change tracking. */
  roots(): readonly string[] {
    return this.sent.length ? this.sent : [this.workingFolder];
  }

  /** The session parameters every new/load/resume/fork carries. */
  async params(rt: AgentRuntime): Promise<SessionParams> {
    const { core } = this;
    const { def, services } = core;
    const cwd = this.workingFolder;
    const mcp = await services.mcpServers(rt, cwd, def.name);
    this.editorContext ??= await services.editorContext?.(() => this.roots());
    const editor = this.editorContext?.entry();
    // The user's own server of the same name wins.
    if (editor && !mcp.servers.some((s) => s.name === editor.name)) mcp.servers.push(editor);
    if (mcp.skipped.length > 0 && !this.mcpNoticeShown) {
      this.mcpNoticeShown = true;
      core.emit(core.transcript().addLocalNotice('info', l10n.t('Some MCP servers were not handed to {0}', def.name), mcp.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n')));
    }
    if (mcp.servers.length) core.log(`MCP servers sent: ${mcp.servers.map((s) => s.name).join(', ')}`);
    // Their status (and, for an agent known to ignore them, why) is the MCP status part's.
    const mcpServers = await this.offer(mcp, rt);
    const extra = rt.capabilities.supportsAdditionalDirectories() && this.cwd !== undefined ? services.additionalDirectories(cwd) : [];
    this.sent = [cwd, ...extra];
    // The user's instructions, re-sent on every new/load/resume (agents need not keep them).
    const instructions = rt.capabilities.supportsSystemPrompt() ? services.settings.instructions() : '';
    return {
      cwd,
      mcpServers,
      ...(extra.length ? { additionalDirectories: extra } : {}),
      ...(instructions ? { systemPrompt: { mode: 'append' as const, content: [{ type: 'text' as const, text: instructions }] } } : {}),
    };
  }

  /** The scratch folder goes with its session (unless the session is kept alive on the agent: the sweep at activation takes it later). */
  dispose(): void {
    const { services } = this.core;
    if (this.scratch && !services.settings.keepSessionsAlive()) services.releaseScratch(this.scratch);
    this.editorContext?.dispose();
  }
}
