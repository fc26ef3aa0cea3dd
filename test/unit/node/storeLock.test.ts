// The store lock across real processes: several windows (forked Node processes
// running the stores as built) writing one session index, or one file-touches
// store, at the same instant lose nothing (the archive, only appended to, needs no lock); a lock left by a window killed with
// SIGKILL is taken over; one held too long is waited for a bounded time only.
import * as assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { STORE_LOCK, lockPathOf, withStoreLock } from '../../../src/node/storeLock';
import { FileTouches } from '../../../src/sessions/checkpoints/fileTouches';
import { SessionIndex } from '../../../src/sessions/store/sessionIndex';
import { TranscriptArchive, type ArchivedLine } from '../../../src/sessions/store/transcriptArchive';

const WRITER = path.resolve(__dirname, '..', '..', 'support', 'storeWriter.js');
const ROUNDS = 200;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'acp-lock-'));

const message = (child: ChildProcess, want: (m: unknown) => boolean) =>
  new Promise<unknown>((resolve, reject) => {
    child.on('message', (m) => want(m) && resolve(m));
    child.on('exit', (code) => reject(new Error(`the writer exited (${code}) first`)));
  });

/** `names.length` windows, each writing `rounds` entries of its own into `file` at once; the log lines they wrote. */
async function race(kind: 'index' | 'touches' | 'archive', file: string, names: readonly string[], rounds = ROUNDS): Promise<string[]> {
  const children = names.map((name) => fork(WRITER, [kind, file, name, String(rounds)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  await Promise.all(children.map((c) => message(c, (m) => m === 'ready')));
  const done = children.map((c) => message(c, (m) => typeof m === 'object' && m !== null && 'done' in m) as Promise<{ done: number; log: string[] }>);
  for (const c of children) c.send('go');
  const results = await Promise.all(done);
  return results.flatMap((r) => r.log);
}

/** A window that takes the lock of `file` and keeps it. */
async function holder(file: string): Promise<ChildProcess> {
  const child = fork(WRITER, ['hold', file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await message(child, (m) => m === 'held');
  return child;
}

const killed = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    child.on('exit', () => resolve());
    child.kill(signal);
  });

describe('store lock: windows writing one store at the same instant', function () {
  this.timeout(120_000);
  const NAMES = ['w1', 'w2', 'w3'];

  it(`the session index: ${NAMES.length} processes × ${ROUNDS} windows each adding a session at once, none lost, no lock left behind`, async () => {
    const dir = tmp();
    const file = path.join(dir, 'sessions.json');
    const log = await race('index', file, NAMES);
    const ids = new Set((JSON.parse(fs.readFileSync(file, 'utf8')) as { sessionId: string }[]).map((e) => e.sessionId));
    const lost = NAMES.flatMap((n) => Array.from({ length: ROUNDS }, (_, i) => `${n}-${i}`)).filter((id) => !ids.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${NAMES.length * ROUNDS} sessions lost`);
    assert.deepEqual(log, [], 'every write had the lock (none went ahead without it)');
    assert.deepEqual(fs.readdirSync(dir), ['sessions.json'], 'no lock directory or temporary file left');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`file touches: ${NAMES.length} processes × ${ROUNDS} windows each recording a turn at once, none lost, no lock left behind`, async () => {
    const dir = tmp();
    const file = path.join(dir, 'file-touches.json');
    const log = await race('touches', file, NAMES);
    const turns = new Set((JSON.parse(fs.readFileSync(file, 'utf8')) as { turnId: string }[]).map((t) => t.turnId));
    const lost = NAMES.flatMap((n) => Array.from({ length: ROUNDS }, (_, i) => `${n}-${i}`)).filter((id) => !turns.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${NAMES.length * ROUNDS} turns lost`);
    assert.deepEqual(log, [], 'every write had the lock');
    assert.deepEqual(fs.readdirSync(dir), ['file-touches.json'], 'no lock directory or temporary file left');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`the archive needs no lock: ${NAMES.length} processes × ${ROUNDS} windows appending to one session's archive at once, every line whole`, async () => {
    const dir = tmp();
    const log = await race('archive', dir, NAMES);
    assert.deepEqual(log, []);
    const unreadable: number[] = [];
    const lines: ArchivedLine[] = [];
    for await (const batch of new TranscriptArchive(dir, () => Infinity).lines('race', 'shared', 2000, (n) => unreadable.push(n))) lines.push(...batch);
    const seen = new Set(lines.map((l) => (l.u as { n: string }).n));
    const lost = NAMES.flatMap((n) => Array.from({ length: ROUNDS }, (_, i) => `${n}-${i}`)).filter((id) => !seen.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${NAMES.length * ROUNDS} lines lost`);
    assert.equal(lines.length, NAMES.length * ROUNDS);
    assert.deepEqual(unreadable, [], 'no torn line');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a lock left by a window killed with SIGKILL is taken over: the write lands with the lock, within the bound', async () => {
    const dir = tmp();
    const file = path.join(dir, 'sessions.json');
    await killed(await holder(file), 'SIGKILL');
    assert.ok(fs.statSync(lockPathOf(file)).isDirectory(), 'the killed window left its lock');
    const log: string[] = [];
    const index = new SessionIndex(file, { log: (m) => log.push(m) });
    index.touch('a', 'after-the-kill', '/w');
    await index.flush();
    assert.deepEqual(log, [], 'taken over, not written without the lock');
    assert.ok(fs.readFileSync(file, 'utf8').includes('after-the-kill'));
    assert.equal(fs.existsSync(lockPathOf(file)), false, 'and released');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a lock a live window keeps too long: waited for without blocking, then written without it (merged), said in the log, nothing lost', async () => {
    const dir = tmp();
    const file = path.join(dir, 'file-touches.json');
    const other = await holder(file);
    try {
      const log: string[] = [];
      const touches = new FileTouches(file, (m) => log.push(m));
      touches.record({ agentId: 'a', sessionId: 's', turnId: 't1', text: 'hello', at: 1, files: ['/w/a.txt'] });
      const order: string[] = [];
      const ticking = setTimeout(() => order.push('the event loop ran'), 100);
      await touches.flush().then(() => order.push('written'));
      clearTimeout(ticking);
      assert.deepEqual(order, ['the event loop ran', 'written'], 'the wait is no busy loop');
      assert.equal(log.length, 1, log.join('\n'));
      assert.match(log[0]!, new RegExp(`stayed locked by another window for ${STORE_LOCK.waitMs / 1000} s; writing without the lock`));
      assert.deepEqual((await touches.turnsThatChanged('/w/a.txt')).map((t) => t.turnId), ['t1'], 'the turn was written all the same');
      assert.ok(fs.existsSync(lockPathOf(file)), 'the other window’s lock is left to it');
    } finally {
      await killed(other, 'SIGTERM');
    }
    assert.equal(fs.existsSync(lockPathOf(file)), false, 'a window that exits normally removes its lock');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('work that fails still releases the lock; a folder that cannot be locked is written all the same', async () => {
    const dir = tmp();
    const file = path.join(dir, 'store.json');
    await assert.rejects(
      withStoreLock(file, async () => {
        assert.ok(fs.existsSync(lockPathOf(file)), 'held during the work');
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(fs.existsSync(lockPathOf(file)), false);
    // A store whose folder is a file: the lock fails with something other than "held".
    fs.writeFileSync(path.join(dir, 'nodir'), '');
    const log: string[] = [];
    assert.equal(await withStoreLock(path.join(dir, 'nodir', 'x.json'), async () => 'done', (m) => log.push(m)), 'done');
    assert.match(log[0]!, /could not lock .*x\.json .*writing without the lock/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
