// The session index and the archive on disk, in the real host: a damaged last
// line, a full disk, two windows writing one index (one after the other, and at
// the same instant through the store lock), a lock left by a killed window, and a
// writer killed with SIGKILL in the middle of a write (real child processes
// running the store code).
import * as assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lockPathOf } from '../../src/node/storeLock';
import { SessionIndex } from '../../src/sessions/store/sessionIndex';
import { api, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

/** The index module as built for the tests (a child process runs the same code as the host). */
const INDEX_MODULE = path.resolve(__dirname, '..', '..', 'src', 'sessions', 'store', 'sessionIndex.js');

/** Runs the real SessionIndex in another process: `body` gets `index` (on `file`) and `report(line)`. */
function otherProcess(file: string, body: string) {
  const code = `const { SessionIndex } = require(${JSON.stringify(INDEX_MODULE)}); const index = new SessionIndex(${JSON.stringify(file)}); const report = (l) => process.stdout.write(l + '\\n'); (async () => { ${body} })().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
  const child = spawn(process.env.ACP_TEST_NODE || process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out, errors: () => err };
}

/** Another window as a process of its own: the store code as built, through the same store lock (test/support/storeWriter.ts). */
function otherWindow(args: string[]): ChildProcess {
  const writer = path.resolve(__dirname, '..', 'support', 'storeWriter.js');
  return fork(writer, args, { execPath: process.env.ACP_TEST_NODE || process.execPath, execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
}

const messageFrom = (child: ChildProcess, want: (m: unknown) => boolean) =>
  new Promise<unknown>((resolve, reject) => {
    child.on('message', (m) => want(m) && resolve(m));
    child.on('exit', (code) => reject(new Error(`the other window exited (${code}) first`)));
  });

/** What the store lock wrote to the log: a write without the lock, a lock taken over while held. */
const lockLines = (lines: readonly string[]) => lines.filter((l) => l.includes('store lock:'));

const entriesIn = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as { agentId: string; sessionId: string }[];

describe('Data at rest: the index and the archive survive damage, a full disk, two windows, a stale lock and SIGKILL', function () {
  this.timeout(60_000);

  afterEach(async () => {
    const a = await api();
    a.testing.setDiskFull(false);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('an archive whose last line was cut: the rest is shown, with a notice that a line was skipped', async () => {
    const a = await api();
    const file = path.join(a.testing.storagePath(), 'archive', 'fake-default', 'torn-tail.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const line = (u: unknown) => `${JSON.stringify({ t: 1, u })}\n`;
    fs.writeFileSync(file, line({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'kept question' } }) + line({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'kept answer' } }) + '{"t":2,"u":{"sessionUpdate":"agent_mess');
    const past = a.openPastSession('fake-default', 'torn-tail');
    await waitForStatus(past, 'the archive', (s) => /Read-only/.test(s.text));
    const items = past.session.transcript.items;
    assert.ok(items.some((i) => i.kind === 'user' && i.text === 'kept question'));
    assert.ok(JSON.stringify(items).includes('kept answer'));
    assert.ok(
      items.some((i) => i.kind === 'notice' && /1 line\(s\) of the archive could not be read/.test((i as { title: string }).title)),
      JSON.stringify(items.filter((i) => i.kind === 'notice')),
    );
  });

  it('an index whose last line was cut: the other sessions are kept, and the user is told', async () => {
    const a = await api();
    await a.testing.flushStores();
    const file = path.join(a.testing.storagePath(), 'sessions.json');
    const kept = { agentId: 'fake-default', sessionId: 'kept-before-damage', cwd: '/w', createdAt: 1, updatedAt: 1, source: 'local' };
    const good = fs.existsSync(file) ? entriesIn(file) : [];
    fs.writeFileSync(file, `[\n${[...good, kept].map((e) => JSON.stringify(e)).join(',\n')},\n{"agentId":"fake-default","sessionId":"torn","cw`);
    const before = a.testing.messages().length;
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    await a.testing.flushStores();
    const ids = entriesIn(file).map((e) => e.sessionId);
    assert.ok(ids.includes('kept-before-damage'), 'the session before the damaged line is still listed');
    assert.ok(ids.includes(panel.session.id!), 'the new session is listed');
    for (const e of good) assert.ok(ids.includes(e.sessionId), `${e.sessionId} kept`);
    const warned = a.testing.messages().slice(before).filter((m) => m.severity === 'warning' && /list of sessions .* was damaged/.test(m.message));
    assert.equal(warned.length, 1, JSON.stringify(a.testing.messages().slice(before)));
  });

  it('a full disk: one clear error per store, the turn goes on, and what could not be written is written once there is room', async () => {
    const a = await api();
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    const id = panel.session.id!;
    await a.testing.flushStores();
    const before = a.testing.messages().length;
    a.testing.setDiskFull(true);
    assert.equal(await panel.session.prompt('written on a full disk'), 'end_turn', 'the turn goes on');
    await a.testing.flushStores();
    assert.equal(await panel.session.prompt('and a second turn'), 'end_turn');
    await a.testing.flushStores();
    const errors = a.testing.messages().slice(before).filter((m) => m.severity === 'error');
    // Both stores had something to write (the archive the turns, the index the session's new title): each says so once, over two turns.
    assert.deepEqual(errors.map((e) => /ACP: (.+?) could not be saved/.exec(e.message)?.[1]).sort(), ['the list of sessions', 'the session history (archive)'], `said once per store: ${JSON.stringify(errors)}`);
    for (const e of errors) assert.match(e.message, /could not be saved \(ENOSPC; is the disk full\?\)/);
    assert.ok(panel.status.inputEnabled && panel.status.severity !== 'error', `the session is still usable: ${JSON.stringify(panel.status)}`);
    a.testing.setDiskFull(false);
    await a.testing.flushStores();
    const archived = fs.readFileSync(path.join(a.testing.storagePath(), 'archive', 'fake-default', `${id}.jsonl`), 'utf8');
    assert.ok(archived.includes('written on a full disk') && archived.includes('and a second turn'), 'both prompts reached the archive after all');
    const title = a.testing.sessions('fake-default').find((s) => s.sessionId === id)?.title;
    assert.equal(title, 'written on a full disk');
    assert.ok(entriesIn(path.join(a.testing.storagePath(), 'sessions.json')).some((e) => e.sessionId === id && (e as { title?: string }).title === 'written on a full disk'));
  });

  it('two windows writing one index: no session of either is lost (re-read, merged by id, replaced)', async () => {
    const a = await api();
    const file = path.join(a.testing.storagePath(), 'sessions.json');
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    await a.testing.flushStores();
    const other = otherProcess(file, `for (let i = 0; i < 10; i++) { index.touch('other-window', 'w2-' + i, '/w2'); await index.flush(); }`);
    assert.equal(await other.exited, 0, other.errors());
    // This window, which read the file before the other wrote, writes again.
    const second = a.openChat('fake-default');
    await waitForStatus(second, 'connected', connected);
    await a.testing.flushStores();
    const ids = entriesIn(file).map((e) => e.sessionId);
    for (let i = 0; i < 10; i++) assert.ok(ids.includes(`w2-${i}`), `the other window's w2-${i} is kept`);
    assert.ok(ids.includes(panel.session.id!) && ids.includes(second.session.id!), 'this window’s sessions are kept');
    assert.equal(a.testing.sessions('other-window').length, 10, 'and this window now knows the other’s sessions');
  });

  it('two windows writing one index at the same instant, through the store lock: no session of either is lost', async () => {
    const a = await api();
    const file = path.join(a.testing.storagePath(), 'sessions.json');
    const logBefore = a.testing.logMark();
    const rounds = 100;
    // The other window: each round a window opens, adds its session, writes the index and closes.
    const other = otherWindow(['index', file, 'outside', String(rounds)]);
    await messageFrom(other, (m) => m === 'ready');
    const done = messageFrom(other, (m) => typeof m === 'object' && m !== null && 'done' in m) as Promise<{ log: string[] }>;
    let finished = false;
    void done.then(() => (finished = true), () => (finished = true));
    other.send('go');
    // Meanwhile this window opens sessions and writes its index (read, merge, replace) as fast as it can.
    const panels = [a.openChat('fake-default'), a.openChat('fake-default')];
    let writes = 0;
    while (!finished) {
      await a.testing.flushStores();
      writes++;
    }
    const { log } = await done;
    for (const p of panels) await waitForStatus(p, 'connected', connected);
    await a.testing.flushStores();
    const ids = new Set(entriesIn(file).map((e) => e.sessionId));
    const lost = Array.from({ length: rounds }, (_, i) => `outside-${i}`).filter((id) => !ids.has(id));
    assert.deepEqual(lost, [], `${lost.length} of the other window's ${rounds} sessions lost (this window wrote ${writes} times meanwhile)`);
    for (const p of panels) assert.ok(ids.has(p.session.id!), 'this window’s sessions are kept');
    assert.equal(a.testing.sessions('race').length, rounds, 'and this window knows all of the other’s');
    assert.deepEqual([...log, ...lockLines(a.testing.logLinesSince(logBefore))], [], 'every write of both had the lock');
    assert.equal(fs.existsSync(lockPathOf(file)), false, 'no lock left behind');
  });

  it('a lock left by a window killed with SIGKILL is taken over: this window’s next index write lands, with the lock', async () => {
    const a = await api();
    const file = path.join(a.testing.storagePath(), 'sessions.json');
    await a.testing.flushStores();
    const holder = otherWindow(['hold', file]);
    await messageFrom(holder, (m) => m === 'held');
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    assert.ok(fs.statSync(lockPathOf(file)).isDirectory(), 'the killed window left its lock');
    const logBefore = a.testing.logMark();
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    await a.testing.flushStores();
    assert.ok(entriesIn(file).some((e) => e.sessionId === panel.session.id), 'the new session is in the index');
    assert.deepEqual(lockLines(a.testing.logLinesSince(logBefore)), [], 'taken over within the wait, not written without the lock');
    assert.equal(fs.existsSync(lockPathOf(file)), false, 'and released');
  });

  it('a writer killed with SIGKILL in the middle of index writes leaves the old or the new index, never a torn one', async () => {
    const dir = fs.mkdtempSync(path.join(process.env.ACP_TEST_TMP ?? path.dirname(INDEX_MODULE), 'index-kill-'));
    const file = path.join(dir, 'sessions.json');
    for (let round = 0; round < 5; round++) {
      const w = otherProcess(file, `for (let i = 0; i < 5000; i++) index.touch('a', 'bulk-' + i, '/w'); for (let n = 0; ; n++) { index.touch('a', 'round-${round}-' + n, '/w'); await index.flush(); report(String(n)); }`);
      await waitFor('some writes done', () => w.output().split('\n').length > 3 || undefined, 20_000);
      w.child.kill('SIGKILL');
      await w.exited;
      const entries = entriesIn(file);
      assert.ok(entries.length >= 5000, `a whole index (${entries.length} entries)`);
    }
    // The next start removes what a killed writer left beside it, and reads every entry.
    const index = new SessionIndex(file);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left behind');
    assert.ok(index.forAgent('a').length >= 5000);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
