// The one local socket server with the secret handshake (the MCP relays' hub and
// the editor-context server stand on it): a login with a wrong, malformed or
// revoked secret is closed unanswered; a login that does not come in time, or a
// login line over its bound, ends the connection; after the login, lines over
// their bound are dropped (and said) or cut; each session's connections, those
// not logged in yet and all of them are capped; dispose ends everything.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { LocalSocketServer, type LineHandler, type LocalConnection, type LocalSocketOptions } from '../../../src/node/localSocketServer';
import { closedWith } from '../../support/sockets';

/** A login line: the secret, a space, a name. */
const parseLogin = (line: string) => {
  const [secret, name, ...rest] = line.split(' ');
  return secret && /^[0-9a-f]{64}$/.test(secret) && name && !rest.length ? { secret, login: name } : undefined;
};

function server(opts: Partial<LocalSocketOptions<string>> = {}, logs: string[] = []) {
  return new LocalSocketServer<string>({ name: 'acp-test-ls', label: 'test server', log: (m) => logs.push(m), loginMs: 5_000, maxLoginBytes: 200, perSession: 8, parseLogin, ...opts });
}

/** Serves a session by echoing each line back as `name: line`, and recording it. */
const echo =
  (heard: string[], extra: Partial<LineHandler> = {}) =>
  (conn: LocalConnection, name: string): LineHandler => ({
    maxLineBytes: 1000,
    line: (text) => {
      heard.push(`${name}: ${text}`);
      conn.socket.write(`${name}: ${text}\n`);
    },
    ...extra,
  });


/** Connects, writes `head`, and waits for the first answer (kept open) or the close, whichever comes first. */
function firstAnswer(address: string, head: string): Promise<{ s: net.Socket; answer: string | 'closed' }> {
  return new Promise((resolve) => {
    const s = net.connect(address, () => s.write(head));
    s.on('error', () => undefined);
    s.once('data', (c) => resolve({ s, answer: c.toString() }));
    s.once('close', () => resolve({ s, answer: 'closed' }));
  });
}

/** Resolves true when `s` closes within `ms`, false otherwise. */
const closesWithin = (s: net.Socket, ms: number) => Promise.race([new Promise<boolean>((r) => s.once('close', () => r(true))), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);

describe('local socket server: the secret handshake', function () {
  this.timeout(20_000);
  let ls: LocalSocketServer<string>;
  afterEach(() => ls?.dispose());

  it('a wrong, malformed or revoked secret is closed with nothing written; the right one is served', async () => {
    ls = server();
    const heard: string[] = [];
    const a = await ls.open(echo(heard));
    assert.match(a.secret, /^[0-9a-f]{64}$/);
    assert.equal(await closedWith(a.address, `${'f'.repeat(64)} x\nhello\n`), '', 'a secret of the right shape that is not one');
    assert.equal(await closedWith(a.address, `${a.secret.slice(0, 63)} x\nhello\n`), '', 'one digit short');
    assert.equal(await closedWith(a.address, `${a.secret}\nhello\n`), '', 'a login the parser refuses');
    assert.equal(await closedWith(a.address, `\n${a.secret} x\nhello\n`), '', 'an empty first line');
    // The control: the same lines with the secret are served.
    const ok = await firstAnswer(a.address, `${a.secret} x\nhello\n`);
    assert.equal(ok.answer, 'x: hello\n');
    ok.s.destroy();
    const b = await ls.open(echo(heard));
    assert.equal(b.address, a.address, 'one listener for every session');
    b.dispose();
    assert.equal(await closedWith(b.address, `${b.secret} y\nhello\n`), '', 'a disposed session');
    assert.deepEqual(heard, ['x: hello']);
  });

  it('disposing a session ends its connections, not the others’', async () => {
    ls = server();
    const a = await ls.open(echo([]));
    const b = await ls.open(echo([]));
    const ca = await firstAnswer(a.address, `${a.secret} a\nhi\n`);
    const cb = await firstAnswer(b.address, `${b.secret} b\nhi\n`);
    assert.deepEqual([ca.answer, cb.answer], ['a: hi\n', 'b: hi\n']);
    a.dispose();
    assert.ok(await closesWithin(ca.s, 5_000), 'the disposed session’s connection is ended');
    cb.s.write('again\n');
    assert.equal(await new Promise((r) => cb.s.once('data', (c) => r(c.toString()))), 'b: again\n');
    cb.s.destroy();
  });

  it('the socket lives in a private folder, removed with the server; after dispose nothing opens', async function () {
    ls = server();
    const a = await ls.open(echo([]));
    if (process.platform !== 'win32') {
      assert.equal(fs.statSync(path.dirname(a.address)).mode & 0o777, 0o700);
      ls.dispose();
      assert.equal(fs.existsSync(path.dirname(a.address)), false);
    } else ls.dispose();
    await assert.rejects(ls.open(echo([])), /closed/);
  });

  it('a connection that does not log in within loginMs is closed, a half-written login too', async () => {
    ls = server({ loginMs: 200 });
    const a = await ls.open(echo([]));
    for (const head of ['', a.secret]) {
      const s = net.connect(a.address, () => s.write(head));
      s.on('error', () => undefined);
      const t0 = Date.now();
      assert.ok(await closesWithin(s, 5_000), `closed by the server (${JSON.stringify(head.slice(0, 8))})`);
      assert.ok(Date.now() - t0 >= 150, 'not before its time');
    }
    // In time: served, and its timer does not end it later. The sign that its time has passed: a
    // connection opened after it, that does not log in, is closed by its own timer.
    const ok = await firstAnswer(a.address, `${a.secret} x\nhi\n`);
    assert.equal(ok.answer, 'x: hi\n');
    const idle = net.connect(a.address);
    idle.on('error', () => undefined);
    assert.ok(await closesWithin(idle, 5_000));
    ok.s.write('late\n');
    assert.equal(await new Promise((r) => ok.s.once('data', (c) => r(c.toString()))), 'x: late\n', 'a logged-in connection outlives the login time');
    ok.s.destroy();
  });
});

describe('local socket server: bounds', function () {
  this.timeout(20_000);
  let ls: LocalSocketServer<string>;
  afterEach(() => ls?.dispose());

  it('a login line over maxLoginBytes ends the connection as it crosses the bound, before any newline', async () => {
    ls = server({ loginMs: 60_000, maxLoginBytes: 100 });
    const a = await ls.open(echo([]));
    const s = net.connect(a.address, () => s.write('a'.repeat(101)));
    s.on('error', () => undefined);
    assert.ok(await closesWithin(s, 5_000), 'closed long before the login time');
    // The control: a login of 100 bytes is within the bound.
    const name = 'n'.repeat(100 - 65);
    const ok = await firstAnswer(a.address, `${a.secret} ${name}\nhi\n`);
    assert.equal(ok.answer, `${name}: hi\n`);
    ok.s.destroy();
  });

  it('after the login, a line over maxLineBytes: dropped and said by tooLong, the next one served; without tooLong, cut', async () => {
    ls = server();
    const heard: string[] = [];
    let tooLong = 0;
    const a = await ls.open(echo(heard, { maxLineBytes: 50, tooLong: () => void tooLong++ }));
    const c = await firstAnswer(a.address, `${a.secret} x\nfirst\n`);
    const next = new Promise((r) => c.s.once('data', (d) => r(d.toString())));
    for (let i = 0; i < 10; i++) c.s.write('z'.repeat(100));
    c.s.write('\nsecond\n');
    assert.equal(await next, 'x: second\n');
    assert.equal(tooLong, 1, 'said once, as it crossed the bound');
    assert.deepEqual(heard, ['x: first', 'x: second']);
    c.s.destroy();
    const b = await ls.open(echo(heard, { maxLineBytes: 50 }));
    const d = await firstAnswer(b.address, `${b.secret} y\nfirst\n`);
    d.s.write(`${'z'.repeat(60)}\nsecond\n`);
    assert.ok(await closesWithin(d.s, 5_000), 'cut');
    assert.deepEqual(heard, ['x: first', 'x: second', 'y: first']);
  });

  it('perSession: the connection over a session’s cap is refused and logged; other sessions are served; a freed place is taken again', async () => {
    const logs: string[] = [];
    ls = server({ perSession: 2 }, logs);
    const a = await ls.open(echo([]));
    const b = await ls.open(echo([]));
    const one = await firstAnswer(a.address, `${a.secret} 1\nhi\n`);
    const two = await firstAnswer(a.address, `${a.secret} 2\nhi\n`);
    assert.deepEqual([one.answer, two.answer], ['1: hi\n', '2: hi\n']);
    const over = await firstAnswer(a.address, `${a.secret} 3\nhi\n`);
    assert.equal(over.answer, 'closed');
    assert.ok(logs.some((l) => /test server: a session already has 2 connections/.test(l)), logs.join('\n'));
    const other = await firstAnswer(b.address, `${b.secret} b\nhi\n`);
    assert.equal(other.answer, 'b: hi\n', 'another session is not affected');
    one.s.destroy();
    // The server sees the close a little after the client: retried until the place is free.
    let again: { s: net.Socket; answer: string } | undefined;
    for (let i = 0; i < 100 && again?.answer !== '4: hi\n'; i++) again = await firstAnswer(a.address, `${a.secret} 4\nhi\n`);
    assert.equal(again?.answer, '4: hi\n');
    for (const s of [two.s, other.s, again!.s]) s.destroy();
  });

  it('maxPending: connections not logged in beyond the cap are closed at once; logging in frees a place', async () => {
    ls = server({ maxPending: 2, loginMs: 60_000 });
    const a = await ls.open(echo([]));
    const idle = [net.connect(a.address), net.connect(a.address)];
    for (const s of idle) s.on('error', () => undefined);
    await Promise.all(idle.map((s) => new Promise((r) => s.once('connect', r))));
    // The third waits in the queue of the server until the two are accepted: it is closed, unanswered.
    const third = await firstAnswer(a.address, `${a.secret} 3\nhi\n`);
    assert.equal(third.answer, 'closed');
    // One of the idle ones logs in: its place is free again.
    const logged = new Promise((r) => idle[0]!.once('data', (c) => r(c.toString())));
    idle[0]!.write(`${a.secret} 1\nhi\n`);
    assert.equal(await logged, '1: hi\n');
    const fourth = await firstAnswer(a.address, `${a.secret} 4\nhi\n`);
    assert.equal(fourth.answer, '4: hi\n');
    for (const s of [...idle, fourth.s]) s.destroy();
  });

  it('maxConnections: no more than that many open at once, logged in or not', async () => {
    ls = server({ maxConnections: 2 });
    const a = await ls.open(echo([]));
    const one = await firstAnswer(a.address, `${a.secret} 1\nhi\n`);
    const two = await firstAnswer(a.address, `${a.secret} 2\nhi\n`);
    assert.deepEqual([one.answer, two.answer], ['1: hi\n', '2: hi\n']);
    const three = await firstAnswer(a.address, `${a.secret} 3\nhi\n`);
    assert.equal(three.answer, 'closed');
    for (const s of [one.s, two.s]) s.destroy();
  });

  it('dispose ends every connection, logged in or not', async () => {
    ls = server();
    const a = await ls.open(echo([]));
    const served = await firstAnswer(a.address, `${a.secret} x\nhi\n`);
    const waiting = net.connect(a.address);
    waiting.on('error', () => undefined);
    await new Promise((r) => waiting.once('connect', r));
    const closed = [closesWithin(served.s, 5_000), closesWithin(waiting, 5_000)];
    ls.dispose();
    assert.deepEqual(await Promise.all(closed), [true, true]);
  });
});
