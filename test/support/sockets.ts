import * as net from 'node:net';

/** Connects to a local socket server and writes `head`; resolves with what came back once the server closed the connection. */
export function closedWith(address: string, head: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(address, () => s.write(head));
    let got = '';
    s.on('data', (c) => (got += c.toString()));
    s.on('error', () => undefined);
    s.on('close', () => resolve(got));
  });
}
