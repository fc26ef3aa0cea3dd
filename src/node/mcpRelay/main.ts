/**
 * The MCP relay (dist/mcpRelay.js): an agent starts it in place of one of the
 * user's stdio MCP servers (`node mcpRelay.js -- <command> <args…>`). It starts
 * the real server, passes the bytes of both directions on unchanged, and tells
 * the extension (the hub's socket, with the session's secret from `ACP_MCP_RELAY`)
 * that the server started, how many tools it listed, and how it ended. When the
 * extension cannot be reached, the server still works: only the report is lost.
 * It never writes the secret anywhere, nor passes it to the server. The server's
 * own env comes in the same settings and is applied to the server only
 * (launch.ts), which also decides how the server is started on Windows.
 */
import * as net from 'node:net';
import { serverEnv, startServer } from './launch';
import { McpPeek } from './peek';
import { oneLine } from '../../shared/nativeText';
import { parseConfig, RELAY_ENV, type RelayEvent } from './wire';

function main(): void {
  const sep = process.argv.indexOf('--', 2);
  const [command, ...args] = sep < 0 ? [] : process.argv.slice(sep + 1);
  const config = parseConfig(process.env[RELAY_ENV]);
  // The relay's settings (the secret, the server's env) stay out of anything it starts.
  delete process.env[RELAY_ENV];
  const env = serverEnv(process.env, config);
  if (!command) {
    process.stderr.write('acp mcp relay: no server command after "--"\n');
    process.exit(2);
  }

  const report = connect(config);
  const started = startServer({ command, args, env });
  if ('refused' in started) {
    report.send({ e: 'spawnFailed', message: started.refused });
    process.stderr.write(`acp mcp relay: the MCP server was not started: ${oneLine(started.refused)}\n`);
    process.exitCode = 127;
    return void report.end(() => process.exit(127));
  }
  const child = started;
  const { stdin, stdout } = child;
  // Both are pipes (launch.ts); without them there is nothing to relay.
  if (!stdin || !stdout) return void report.end(() => process.exit(1));
  const peek = new McpPeek(report.send);
  let failed = false;
  child.on('error', (err) => {
    failed = true;
    report.send({ e: 'spawnFailed', message: err.message });
    process.stderr.write(`acp mcp relay: the MCP server could not be started: ${oneLine(err.message)}\n`);
    finish(127);
  });
  child.on('spawn', () => report.send({ e: 'spawned' }));

  // Agent → server, unchanged.
  process.stdin.on('data', (c: Buffer) => peek.fromClient.push(c));
  process.stdin.pipe(stdin);
  process.stdin.on('end', () => stdin.end());
  stdin.on('error', () => undefined);
  // Server → agent, unchanged.
  stdout.on('data', (c: Buffer) => peek.fromServer.push(c));
  stdout.pipe(process.stdout);
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
