/**
 * The editor context as a service of the extension: one local MCP server
 * (`server.ts`) over VS Code's editor state (`vscodeEditor.ts`), and one grant
 * per session, handed to its agent next to the user's MCP servers while
 * `acpAgents.editorContext` is on.
 */
import type * as vscode from 'vscode';
import type { ClientRequestHandler } from '../../acp/clientRequests';
import type { EditorContextAccess } from '../../sessions/ports';
import { EditorContextServer } from './server';
import { vscodeEditorPort } from './vscodeEditor';

export class EditorContextService implements vscode.Disposable {
  private readonly server: EditorContextServer;
  private readonly port: ReturnType<typeof vscodeEditorPort>;

  constructor(
    private readonly opts: {
      /** dist/editorContextShim.js in the installed extension. */
      readonly shim: string;
      readonly version: string;
      readonly enabled: () => boolean;
      /** acpAgents.editorTools: the file and terminal tools are offered (user settings only). */
      readonly clientTools: () => boolean;
      /** Notes the session's secret so that no log shows it. */
      readonly secret: (value: string) => void;
      readonly log: (message: string) => void;
    },
  ) {
    this.port = vscodeEditorPort(opts.enabled);
    this.server = new EditorContextServer({ port: this.port, shim: opts.shim, node: process.execPath, version: opts.version, log: opts.log });
  }

  /**
   * Access for one session whose folders are `roots()`, its file and terminal services `client` (served
   * as tools while acpAgents.editorTools is on, or while `v2()`: the agent speaks ACP v2); undefined when the server cannot start (logged).
   */
  async forSession(roots: () => readonly string[], client?: ClientRequestHandler, v2?: () => boolean): Promise<EditorContextAccess | undefined> {
    try {
      // ACP v2 has no client fs/terminal methods: its agents get them as tools whatever acpAgents.editorTools says.
      const grant = await this.server.grant(roots, () => (client && (this.opts.clientTools() || v2?.() === true) ? client : undefined));
      this.opts.secret(grant.token);
      return { entry: () => (this.opts.enabled() ? grant.entry : undefined), dispose: () => grant.dispose() };
    } catch (err) {
      this.opts.log(`editor context: cannot start: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  dispose(): void {
    this.server.dispose();
    this.port.dispose();
  }
}
