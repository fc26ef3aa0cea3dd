/**
 * The editor-context MCP server as an agent starts it: a stdio process (run by
 * the extension host's own Node, `ELECTRON_RUN_AS_NODE=1`) that connects to the
 * extension's local socket, presents its session's secret, and then passes
 * bytes both ways. The MCP itself is served in the extension (`server.ts`).
 * Bundled alone into dist/editorContextShim.js; Node built-ins only.
 */
import * as net from 'node:net';

const address = process.env.ACP_EDITOR_CONTEXT_SOCKET;
const token = process.env.ACP_EDITOR_CONTEXT_TOKEN;
if (!address || !token) {
  process.stderr.write('vscode-editor: started without its connection to VS Code (ACP_EDITOR_CONTEXT_SOCKET, ACP_EDITOR_CONTEXT_TOKEN)\n');
  process.exit(2);
}
const socket = net.connect(address, () => {
  socket.write(`${token}\n`);
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
});
socket.on('error', (err) => {
  process.stderr.write(`vscode-editor: cannot reach VS Code: ${err.message}\n`);
  process.exit(1);
});
socket.on('close', () => process.exit(0));
process.stdin.on('end', () => socket.end());
