/**
 * The MCP relay (dist/mcpRelay.js): an agent starts it in place of one of the
 * user's stdio MCP servers (`node mcpRelay.js -- <command> <args…>`). It starts
 * the real server, passes the bytes of both directions on unchanged, and tells
 * the extension (the hub's socket, with the session's secret from `ACP_MCP_RELAY`)
 * that the server started, how many tools it listed, and how it ended. When the
 * extension cannot be reached, the server still works: only the report is lost.
 * It never writes the secret anywhere, nor passes it to the server.
 */
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import { McpPeek } from './peek';
import { parseConfig, RELAY_ENV, type RelayEvent } from './wire';

function main(): void {
  const sep = process.argv.indexOf('--', 2);
  const [command, ...args] = sep < 0 ? [] : process.argv.slice(sep + 1);
  const config = parseConfig(process.env[RELAY_ENV]);
  const env = { ...process.env };
  delete env[RELAY_ENV];
  if (!config?.keepElectron) delete env.ELECTRON_RUN_AS_NODE;
  if (!command) {
    process.stderr.write('acp mcp relay: no server command after "--"\n');
    process.exit(2);
  }

  const report = connect(config);
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], env, windowsHide: true, shell: process.platform === 'win32' && /\.(cmd|bat)$/i.test(command) });
  const peek = new McpPeek(report.send);
  let failed = false;
  child.on('error', (err) => {
    failed = true;
    report.send({ e: 'spawnFailed', message: err.message });
    process.stderr.write(`acp mcp relay: the MCP server could not be started: ${err.message}\n`);
    finish(127);
  });
  child.on('spawn', () => report.send({ e: 'spawned' }));

  // Agent → server, unchanged.
  process.stdin.on('data', (c: Buffer) => peek.fromClient.push(c));
  process.stdin.pipe(child.stdin);
  process.stdin.on('end', () => child.stdin.end());
  child.stdin.on('error', () => undefined);
  // Server → agent, unchanged.
  child.stdout.on('data', (c: Buffer) => peek.fromServer.push(c));
  child.stdout.pipe(process.stdout);
  process.stdout.on('error', () => undefined);

  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(sig, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    });
  }
  child.on('close', (code, signal) => {
    if (failed) return;
    report.send({ e: 'exit', code, signal });
    finish(code ?? (signal ? 128 + 15 : 1));
  });

  function finish(code: number): void {
    process.exitCode = code;
    process.stdin.destroy();
    report.end(() => process.exit(code));
    // Whatever still holds the loop open, the relay ends with its server.
    setTimeout(() => process.exit(code), 2000).unref();
  }
}

/** The report channel: lines queued until connected; on any failure, reports are dropped (never the server's bytes). */
function connect(config: ReturnType<typeof parseConfig>): { send: (e: RelayEvent) => void; end: (done: () => void) => void } {
  if (!config) return { send: () => undefined, end: (done) => done() };
  let broken = false;
  const socket = net.createConnection(config.socket);
  socket.on('error', () => {
    broken = true;
    socket.destroy();
  });
  socket.unref();
  socket.write(`${JSON.stringify({ token: config.token, server: config.server, pid: process.pid })}\n`);
  return {
    send: (e) => {
      if (!broken) socket.write(`${JSON.stringify(e)}\n`);
    },
    end: (done) => {
      if (broken) return done();
      socket.end(done);
    },
  };
}

main();
