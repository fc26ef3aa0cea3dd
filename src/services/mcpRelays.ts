/**
 * The MCP relay for sessions (sessions/parts/mcpStatus.ts): the hub's socket,
 * the relay program shipped with the extension (dist/mcpRelay.js), and the
 * program that runs it — the extension host's own Node (`process.execPath`,
 * with ELECTRON_RUN_AS_NODE=1 in the server's env, which VS Code's Electron
 * needs and plain Node, as in code-server, ignores). Each session's secret goes
 * on the redaction list before any relay is started with it.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SecretValues } from '../agents/redact';
import { McpHttpBridge } from '../node/mcpRelay/httpBridge';
import { McpRelayHub, type RelayListener } from '../node/mcpRelay/hub';
import { spawnProgram } from '../node/spawnProgram';
import type { McpRelayService } from '../sessions/ports';

export class McpRelays implements McpRelayService {
  private readonly hub: McpRelayHub;
  private readonly script: string;
  private bridge: McpHttpBridge | undefined;

  constructor(
    extensionPath: string,
    private readonly secrets: SecretValues,
    private readonly log: (m: string) => void,
  ) {
    this.hub = new McpRelayHub(log);
    this.script = path.join(extensionPath, 'dist', 'mcpRelay.js');
  }

  async register(listener: RelayListener): ReturnType<McpRelayService['register']> {
    if (!fs.existsSync(this.script)) {
      this.log(`MCP relay: ${this.script} is missing; MCP servers are handed over unwatched`);
      return undefined;
    }
    const registration = await this.hub.register(listener);
    this.secrets.add(registration.token);
    return { registration, node: process.execPath, script: this.script };
  }

  /**
   * Stdio servers (as the agent would start them: wrapped in the relay) served over loopback
   * HTTP for an agent that refuses stdio: the extension starts each one, in `cwd`, when the agent
   * opens an MCP session with it. The session's bearer token goes on the redaction list first.
   */
  async serveHttp(servers: readonly acp.McpServerStdio[], cwd: string): ReturnType<NonNullable<McpRelayService['serveHttp']>> {
    this.bridge ??= new McpHttpBridge(this.log);
    const reg = await this.bridge.register(
      servers.map((s) => ({
        name: s.name,
        start: () => spawnProgram(s.command, [...s.args], { cwd, env: { ...process.env, ...Object.fromEntries(s.env.map((e) => [e.name, e.value])) }, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true }),
      })),
    );
    this.secrets.add(reg.token);
    const headers = [{ name: 'Authorization', value: `Bearer ${reg.token}` }];
    return { servers: servers.map((s, i) => ({ type: 'http' as const, name: s.name, url: reg.urls[i]!, headers })), dispose: () => reg.dispose() };
  }

  dispose(): void {
    this.bridge?.dispose();
    this.hub.dispose();
  }
}
