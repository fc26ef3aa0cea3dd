/**
 * The MCP relay for sessions (sessions/parts/mcpStatus.ts): the hub's socket,
 * the relay program shipped with the extension (dist/mcpRelay.js), and the
 * program that runs it — the extension host's own Node (`process.execPath`,
 * with ELECTRON_RUN_AS_NODE=1 in the server's env, which VS Code's Electron
 * needs and plain Node, as in code-server, ignores). Each session's secret goes
 * on the redaction list before any relay is started with it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SecretValues } from '../agents/redact';
import { McpRelayHub, type RelayListener } from '../platform/mcpRelay/hub';
import type { McpRelayService } from '../sessions/services';

export class McpRelays implements McpRelayService {
  private readonly hub: McpRelayHub;
  private readonly script: string;

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

  dispose(): void {
    this.hub.dispose();
  }
}
