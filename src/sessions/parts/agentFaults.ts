/**
 * Known faults of an agent explained in the session as they happen: the entries of
 * agents/quirks.ts that change nothing and only tell the user what went wrong on the
 * agent's side, and what works instead. Once per session each. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type { DecodedUpdate } from '../../acp/decode';
import { quirksFor } from '../../agents/quirks';
import type { SessionCore, SessionPart } from '../sessionCore';

/** What codex-acp's tool call says when its MCP approval was cancelled (by the user, or, over v2, by itself). */
const MCP_CANCELLED = 'user cancelled MCP tool call';

const errorMessage = (raw: unknown): string | undefined => {
  const error = typeof raw === 'object' && raw !== null ? (raw as { error?: unknown }).error : undefined;
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
};

export class AgentFaults implements SessionPart {
  private readonly said = new Set<string>();

  constructor(private readonly core: SessionCore) {}

  update(u: DecodedUpdate, _child: string | undefined, live: boolean): void {
    if (!live || u.sessionUpdate !== 'tool_call_update' || u.status !== 'failed') return;
    const rt = this.core.runtime();
    if (rt?.protocolVersion !== 2 || errorMessage(u.rawOutput) !== MCP_CANCELLED || this.said.has('v2-mcp-approval-cancelled')) return;
    const agentInfo = rt.initializeResult?.agentInfo;
    const q = quirksFor(agentInfo).find((x) => x.id === 'v2-mcp-approval-cancelled');
    if (!q) return;
    this.said.add(q.id);
    this.core.log(`compatibility: ${q.match.name} ${String(agentInfo?.version)}: ${q.does} (${q.issue})`);
    this.core.emit(
      this.core
        .transcript()
        .addLocalNotice(
          'warning',
          l10n.t('The agent cancelled its own question before an MCP tool: the tool did not run.'),
          l10n.t('Over ACP v2 this agent cannot ask before an MCP tool runs (its question lacks the title v2 requires), so it cancels it without asking you. Over ACP v1 it asks: set this agent\u2019s "protocolVersion" to "1". A mode that does not ask before MCP tools also runs them. This is a known issue of the agent ({0}).', q.issue),
        ),
    );
  }

  dispose(): void {}
}
