/**
 * The `ws` library as its own bundle (dist/wsClient.js, esbuild.mjs's lazyWs): agentSocket.ts's
 * `import('ws')` loads it on an agent by URL's first connection. No `vscode` import.
 */
import WebSocket from 'ws';

export default WebSocket;
