// An in-memory ACP peer for unit tests: raw NDJSON on the other end of a pair
// of streams, so tests see exactly what goes over the wire.
import { PassThrough } from 'node:stream';
import { AcpConnection, type AcpConnectionOptions } from '../../../src/acp/connection';

export interface Peer {
  conn: AcpConnection;
  /** Raw messages the client sent, in order. */
  received: any[];
  logs: string[];
  send(message: object): void;
  sendRaw(text: string): void;
  next(predicate: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  end(): void;
}

export function connectPeer(extra: Partial<AcpConnectionOptions> = {}): Peer {
  const toClient = new PassThrough();
  const toAgent = new PassThrough();
  const logs: string[] = [];
  const conn = new AcpConnection({
    input: toClient,
    output: toAgent,
    clientInfo: { name: 'test', version: '0.0.0' },
    logger: { info: (m) => logs.push(`info: ${m}`), warn: (m) => logs.push(`warn: ${m}`), error: (m) => logs.push(`error: ${m}`) },
    ...extra,
  });
  const received: any[] = [];
  const waiters: { predicate: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  let buf = '';
  toAgent.setEncoding('utf8');
  toAgent.on('data', (d: string) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      received.push(msg);
      for (const w of [...waiters]) {
        if (w.predicate(msg)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(msg);
        }
      }
    }
  });
  return {
    conn,
    received,
    logs,
    send: (m) => toClient.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n'),
    sendRaw: (t) => toClient.write(t),
    next: (predicate, timeoutMs = 2000) => {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('peer: timed out waiting for a message')), timeoutMs);
        waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    end: () => toClient.end(),
  };
}
