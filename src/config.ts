import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseJsonc } from './shared/jsonc';
import type { AutoApprove } from './sessions/policy/permissionPolicy';
import { effectiveProtectedPaths } from './node/protectedPaths';
import { DEFAULT_REGISTRY_URL } from './agents/registry/registrySource';
import { parseAgentSettings, PROTOCOL_CHOICES, type AgentDefinition, type AgentSettingsProblem, type ProtocolChoice } from './agents/agentDefinition';

export const SECTION = 'acpAgents';
export type TraceLevel = 'off' | 'messages' | 'verbose';


/**
 * Settings that decide what runs or what is approved. They are machine-scoped
 * and read from user/machine settings only (`inspect().globalValue`): a cloned
 * repository's workspace settings can never widen what an agent may do.
 */
const USER_ONLY_SETTINGS = [
  'agents',
  'mcpServers',
  'permissions.autoApprove',
  'files.outsideRoots',
  'files.protectedPaths',
  'initializeTimeout',
  'passWorkspaceTrust',
  'terminals.outputLimitMB',
  'registry.url',
  'registry.pinnedVersions',
  'instructions',
  'trace',
  'editorContext',
  'editorTools',
  'protocolVersion',
  'newSessionIn',
  'worktreeFolder',
] as const;
export type UserOnlySetting = (typeof USER_ONLY_SETTINGS)[number];

/**
 * Typed access to the extension's settings. What decides what runs or what is
 * approved comes from user and machine settings only; the rest may come from
 * the workspace as VS Code merges it.
 */
export class Config {
  private get cfg(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  /** The user/machine value of a setting that must never come from a workspace. */
  private userValue(key: UserOnlySetting): unknown {
    const inspected = this.cfg.inspect<unknown>(key);
    return inspected?.globalValue ?? inspected?.defaultValue;
  }

  /**
   * The user-only settings that a workspace (workspace file or folder settings)
   * tries to set, with where. They are ignored; the caller reports them.
   */
  workspaceOverrides(): { key: UserOnlySetting; where: string }[] {
    const found = new Map<string, { key: UserOnlySetting; where: string }>();
    const note = (key: UserOnlySetting, where: string) => found.set(`${key}\u0000${where}`, { key, where });
    // The files themselves too: VS Code may hide a machine-scoped value a workspace sets.
    const fromFile = (file: string | undefined, where: string, pick: (v: Record<string, unknown>) => unknown) => {
      if (!file) return;
      try {
        const v = pick((parseJsonc(fs.readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>);
        if (typeof v === 'object' && v !== null) for (const key of USER_ONLY_SETTINGS) if (`${SECTION}.${key}` in v) note(key, where);
      } catch {
        // missing or unreadable: nothing to report
      }
    };
    const wsFile = vscode.workspace.workspaceFile;
    fromFile(wsFile?.scheme === 'file' ? wsFile.fsPath : undefined, 'the workspace settings', (v) => v.settings);
    for (const f of vscode.workspace.workspaceFolders ?? []) fromFile(path.join(f.uri.fsPath, '.vscode', 'settings.json'), `${f.name}/.vscode/settings.json`, (v) => v);
    for (const key of USER_ONLY_SETTINGS) {
      if (this.cfg.inspect<unknown>(key)?.workspaceValue !== undefined) note(key, 'the workspace settings');
      for (const f of vscode.workspace.workspaceFolders ?? []) {
        if (vscode.workspace.getConfiguration(SECTION, f.uri).inspect<unknown>(key)?.workspaceFolderValue !== undefined) note(key, `${f.name}/.vscode/settings.json`);
      }
    }
    return [...found.values()];
  }

  /** Agents from user (global) settings; workspace and folder values are ignored on purpose. */
  agents(): { agents: AgentDefinition[]; problems: AgentSettingsProblem[] } {
    return parseAgentSettings(this.userValue('agents') ?? []);
  }

  /** Where New Session opens a session in a git repository: its folder, a new worktree, or asked. User settings only. */
  newSessionIn(): 'folder' | 'ask' | 'worktree' {
    const v = this.userValue('newSessionIn');
    return v === 'ask' || v === 'worktree' ? v : 'folder';
  }

  /** Where worktrees for sessions are made (an absolute folder; empty: the extension's storage). User settings only. */
  worktreeFolder(): string {
    const v = this.userValue('worktreeFolder');
    return typeof v === 'string' ? v : '';
  }

  defaultAgent(): string {
    const v = this.cfg.get<unknown>('defaultAgent');
    return typeof v === 'string' ? v.trim() : '';
  }

  /** User settings only: a repository cannot switch on a trace of everything its agents are sent and say. */
  trace(): TraceLevel {
    const v = this.userValue('trace');
    return v === 'messages' || v === 'verbose' ? v : 'off';
  }

  /** How long an agent may take to answer `initialize` (first runs through npx are slow). */
  initializeTimeoutMs(): number {
    const v = this.userValue('initializeTimeout');
    return typeof v === 'number' && v >= 1 ? Math.round(v * 1000) : 60_000;
  }

  /** The ACP version offered to agents whose acpAgents.agents entry names none: "1" (default while v2 is a Preview), "2" or "auto". User settings only. */
  protocolVersion(): ProtocolChoice {
    const v = this.userValue('protocolVersion');
    return (PROTOCOL_CHOICES as readonly unknown[]).includes(v) ? (v as ProtocolChoice) : '1';
  }

  /**
   * User settings only: whether an agent that keeps its own folder trust (Gemini CLI) is told
   * that this trusted workspace is trusted. `{ "<agent id>": false }` turns it off; default on.
   */
  passWorkspaceTrust(agentId: string): boolean {
    const v = this.userValue('passWorkspaceTrust');
    return !(typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Record<string, unknown>)[agentId] === false);
  }

  autoApprove(): AutoApprove {
    const v = this.userValue('permissions.autoApprove');
    return v === 'read' || v === 'edits' || v === 'all' ? v : 'never';
  }

  /** The ACP Registry index to install agents from (https, or http on this machine). */
  registryUrl(): string {
    const v = this.userValue('registry.url');
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : DEFAULT_REGISTRY_URL;
  }

  /** Registry agents the user pinned (id → the version kept): no update is offered or installed for them. From user settings only. */
  pinnedVersions(): Readonly<Record<string, string>> {
    const v = this.userValue('registry.pinnedVersions');
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter(([k, x]) => typeof x === 'string' && k.length <= 200));
  }

  /** Pins a registry agent at `version` (undefined: unpins it), in user settings. */
  async pinVersion(id: string, version: string | undefined): Promise<void> {
    const next: Record<string, string> = { ...this.pinnedVersions() };
    if (version === undefined) delete next[id];
    else next[id] = version;
    await this.cfg.update('registry.pinnedVersions', Object.keys(next).length ? next : undefined, vscode.ConfigurationTarget.Global);
  }

  /** Instructions sent to agents that take a system prompt; from user settings only (a repository's AGENTS.md is the agent's to read). */
  instructions(): string {
    const v = this.userValue('instructions');
    return typeof v === 'string' ? v.trim().slice(0, 100_000) : '';
  }

  /** Notifications when a session needs you and you are not looking at it. */
  notifications(): boolean {
    return this.cfg.get<unknown>('notifications') !== false;
  }

  keepSessionsAlive(): boolean {
    return this.cfg.get<unknown>('sessions.keepAliveOnClose') === true;
  }

  archiveMaxBytes(): number {
    const v = this.cfg.get<unknown>('sessions.archiveMaxMB');
    return (typeof v === 'number' && v > 0 ? v : 20) * 1024 * 1024;
  }

  outsideRootsPolicy(): 'ask' | 'deny' {
    return this.userValue('files.outsideRoots') === 'deny' ? 'deny' : 'ask';
  }

  /**
   * Globs (relative to a session folder, at any depth) that agents may write only after asking:
   * the defaults plus the user's entries, less the ones the user drops with `!glob`.
   */
  protectedPaths(): readonly string[] {
    return effectiveProtectedPaths(this.userValue('files.protectedPaths')).globs;
  }

  /** Ask why, in an input box, when the user undoes an agent's change (default on). */
  askReasonOnUndo(): boolean {
    return this.cfg.get<unknown>('changes.askReasonOnUndo') !== false;
  }

  saveAfterWrite(): boolean {
    return this.cfg.get<unknown>('files.saveAfterWrite') !== false;
  }

  /** Bytes of output kept per terminal when the agent gives no `outputByteLimit`. */
  terminalOutputLimitBytes(): number {
    const v = this.userValue('terminals.outputLimitMB');
    return Math.round((typeof v === 'number' && v > 0 ? Math.min(v, 256) : 1) * 1024 * 1024);
  }

  /** MCP servers from user settings only (workspace values go through the trust question instead). */
  /** Whether agents get the editor-context MCP server (user settings only; on unless turned off). */
  editorContext(): boolean {
    return this.userValue('editorContext') !== false;
  }

  /** Whether the editor's server also offers read_file, write_file and run_command (user settings only; off unless turned on). */
  editorTools(): boolean {
    return this.userValue('editorTools') === true;
  }

  mcpServers(): Record<string, unknown> {
    const v = this.userValue('mcpServers');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }

  /** MCP servers a workspace sets in `acpAgents.mcpServers` (workspace file or folder settings). */
  workspaceMcpServers(): { label: string; servers: Record<string, unknown> }[] {
    const out: { label: string; servers: Record<string, unknown> }[] = [];
    const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    // VS Code hides a machine-scoped value a workspace sets (inspect() does not return it): read the files too.
    const fromFile = (file: string | undefined, pick: (v: Record<string, unknown>) => unknown): unknown => {
      if (!file) return undefined;
      try {
        const v = pick((parseJsonc(fs.readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>);
        return isRecord(v) ? v[`${SECTION}.mcpServers`] : undefined;
      } catch {
        return undefined;
      }
    };
    const wsFile = vscode.workspace.workspaceFile;
    const top = this.cfg.inspect<unknown>('mcpServers')?.workspaceValue ?? fromFile(wsFile?.scheme === 'file' ? wsFile.fsPath : undefined, (v) => v.settings);
    if (isRecord(top)) out.push({ label: vscode.l10n.t('workspace acpAgents.mcpServers'), servers: top });
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const v = vscode.workspace.getConfiguration(SECTION, f.uri).inspect<unknown>('mcpServers')?.workspaceFolderValue ?? fromFile(path.join(f.uri.fsPath, '.vscode', 'settings.json'), (x) => x);
      if (isRecord(v)) out.push({ label: `${f.name}/.vscode/settings.json acpAgents.mcpServers`, servers: v });
    }
    return out;
  }
}

/** Settings problems and ignored workspace overrides, in the log, each said once. */
export class SettingsReport {
  private readonly reportedOverrides = new Set<string>();

  constructor(
    private readonly config: Config,
    private readonly warn: (message: string) => void,
  ) {}

  report(which: { agents?: boolean; overrides?: boolean } = { agents: true, overrides: true }): void {
    if (which.agents) for (const p of this.config.agents().problems) this.warn(p.message);
    if (!which.overrides) return;
    for (const o of this.config.workspaceOverrides()) {
      const key = `${o.key}\u0000${o.where}`;
      if (this.reportedOverrides.has(key)) continue;
      this.reportedOverrides.add(key);
      this.warn(
        `${o.where} sets acpAgents.${o.key}; it is ignored: this setting is read from your user settings only, so a repository cannot change what agents may run or do.${o.key === 'mcpServers' ? ' Its servers are offered for your trust instead.' : ''}`,
      );
    }
  }
}
