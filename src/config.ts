import * as vscode from 'vscode';
import type { AutoApprove } from './sessions/permissionPolicy';
import { parseAgentSettings, type AgentDefinition, type AgentSettingsProblem } from './agents/agentDefinition';

export const SECTION = 'acpAgents';
export type TraceLevel = 'off' | 'messages' | 'verbose';

/**
 * Typed access to the extension's settings. Agent commands are read from user
 * and machine settings only: a cloned repository's workspace settings can never
 * make the extension spawn a program.
 */
export class Config {
  private get cfg(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  /** Agents from user (global) settings; workspace and folder values are ignored on purpose. */
  agents(): { agents: AgentDefinition[]; problems: AgentSettingsProblem[] } {
    const inspected = this.cfg.inspect<unknown>('agents');
    return parseAgentSettings(inspected?.globalValue ?? inspected?.defaultValue ?? []);
  }

  defaultAgent(): string {
    const v = this.cfg.get<unknown>('defaultAgent');
    return typeof v === 'string' ? v.trim() : '';
  }

  trace(): TraceLevel {
    const v = this.cfg.get<unknown>('trace');
    return v === 'messages' || v === 'verbose' ? v : 'off';
  }

  /** How long an agent may take to answer `initialize` (first runs through npx are slow). */
  initializeTimeoutMs(): number {
    const v = this.cfg.get<unknown>('initializeTimeout');
    return typeof v === 'number' && v >= 1 ? Math.round(v * 1000) : 60_000;
  }

  autoApprove(): AutoApprove {
    const v = this.cfg.get<unknown>('permissions.autoApprove');
    return v === 'read' || v === 'edits' || v === 'all' ? v : 'never';
  }

  keepSessionsAlive(): boolean {
    return this.cfg.get<unknown>('sessions.keepAliveOnClose') === true;
  }

  archiveMaxBytes(): number {
    const v = this.cfg.get<unknown>('sessions.archiveMaxMB');
    return (typeof v === 'number' && v > 0 ? v : 20) * 1024 * 1024;
  }

  outsideRootsPolicy(): 'ask' | 'deny' {
    return this.cfg.get<unknown>('files.outsideRoots') === 'deny' ? 'deny' : 'ask';
  }

  saveAfterWrite(): boolean {
    return this.cfg.get<unknown>('files.saveAfterWrite') !== false;
  }

  mcpServers(): Record<string, unknown> {
    const v = this.cfg.get<unknown>('mcpServers');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }
}
