/**
 * Activation: one Ctx (every service, see ctx.ts), the command table
 * (src/commands/), and the API other extensions — and, in the test build, the
 * integration tests — use.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type { AgentDefinition } from './agents/agentDefinition';
import type { AgentStatus } from './agents/agentManager';
import type { ChatPanel } from './chat/chatPanel';
import { registerCommands } from './commands/index';
import { keepTranslations } from './shared/translations';
import { Ctx } from './ctx';
import { testHooks, type TestHooks } from './testHooks';

/** Set by esbuild: true only in the test build (`--test-hooks`). */
declare const __ACP_TEST_HOOKS__: boolean;

/** What the extension exports: used by other extensions and by the integration tests. */
export interface AcpAgentsApi {
  readonly version: string;
  /** Configured agents and those installed from the ACP Registry. */
  agents(): readonly AgentDefinition[];
  agentStatus(agentId: string): AgentStatus;
  /** Opens a chat panel with a new session of an agent, as "ACP: New Session…" does after the pick. */
  openChat(agentId: string): ChatPanel;
  /** Opens a past session of an agent (load, resume or its archive). */
  openPastSession(agentId: string, sessionId: string): ChatPanel;
  panels(): readonly ChatPanel[];
  /** Only in the test build. */
  readonly testing?: TestHooks;
}

let current: Ctx | undefined;

export function activate(context: vscode.ExtensionContext): AcpAgentsApi {
  const activationStart = performance.now();
  // Modules without a vscode import (the transcript model, the protocol decoder) translate through @vscode/l10n.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  keepTranslations(vscode.l10n.bundle);
  const ctx = new Ctx(context);
  current = ctx;
  context.subscriptions.push(ctx, ...registerCommands(ctx));
  ctx.settings.report();
  // Where acpAgents.agents is read from, for the Sessions view's welcome: a remote's settings, a web server's, or these.
  const settingsHost = vscode.env.remoteName ? 'remote' : vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'local';
  void vscode.commands.executeCommand('setContext', 'acpAgents.settingsHost', settingsHost);
  ctx.watch();
  context.subscriptions.push(ctx.installs.scheduleUpdateCheck());
  ctx.log.info(`ACP Agents ${ctx.version} activated in ${vscode.env.appName} ${vscode.version} (${(performance.now() - activationStart).toFixed(1)} ms)`);
  return {
    version: ctx.version,
    agents: () => ctx.agents.definitions(),
    agentStatus: (id) => ctx.agents.status(id),
    openChat: (id) => ctx.panels.open(ctx.agent(id)),
    openPastSession: (agentId, sessionId) => ctx.panels.openPast(ctx.agent(agentId), sessionId, ctx.index.get(agentId, sessionId)?.cwd),
    panels: () => ctx.panels.all(),
    ...(__ACP_TEST_HOOKS__ ? { testing: testHooks(ctx) } : {}),
  };
}

/**
 * Nothing may be left running: every agent is stopped (stdin EOF → SIGTERM → SIGKILL). Nothing may be
 * lost either: what the stores still hold in their debounce (a title the agent sent just before a window
 * reload) is written before the promise settles, as the extension host exits once it has (within 5 s).
 */
export async function deactivate(): Promise<void> {
  const ctx = current;
  current = undefined;
  if (ctx) await Promise.all([ctx.index.flush(), ctx.archive.flush(), ctx.fileTouches.flush(), ctx.agents.stopAll()]);
}
