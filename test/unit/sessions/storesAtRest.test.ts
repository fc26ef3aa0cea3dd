// The session index and archive on disk: damaged files read as far as they can
// be, merged writes, a failing disk that loses nothing, the cut turn found at
// the end of an archive. (The same cases run in the real host in
// test/integration/dataAtRest.test.ts; here the edges.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diskIo, fullDiskIo } from '../../../src/node/storeIo';
import { SessionIndex } from '../../../src/sessions/store/sessionIndex';
import { TranscriptArchive } from '../../../src/sessions/store/transcriptArchive';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'acp-rest-'));
const entry = (sessionId: string, updatedAt = 1) => ({ agentId: 'a', sessionId, cwd: '/w', createdAt: 1, updatedAt, source: 'local' });

describe('stores at rest', () => {
  it('an index in the one-line form of older versions, cut short: its whole entries are kept, and it is said', () => {
    const file = path.join(tmp(), 'sessions.json');
    fs.writeFileSync(file, JSON.stringify([entry('s1'), entry('s2')]).slice(0, -45));
    const problems: string[] = [];
    const idx = new SessionIndex(file, { onProblem: (m) => problems.push(m) });
    assert.deepEqual(idx.forAgent('a').map((e) => e.sessionId), ['s1']);
    assert.equal(problems.length, 1);
  });

  it('a damaged line in the middle is skipped; the lines around it are kept', () => {
    const file = path.join(tmp(), 'sessions.json');
    fs.writeFileSync(file, `[\n${JSON.stringify(entry('s1'))},\n{"agentId":"a","sess\u0000\n${JSON.stringify(entry('s3'))}\n]\n`);
    const problems: string[] = [];
    const idx = new SessionIndex(file, { onProblem: (m) => problems.push(m) });
    assert.deepEqual(idx.forAgent('a').map((e) => e.sessionId).sort(), ['s1', 's3']);
    assert.match(problems[0]!, /1 unreadable part/);
  });

  it('merging on write: another window’s sessions are adopted, the newer state of one wins (a later delete too)', async () => {
    const file = path.join(tmp(), 'sessions.json');
    const mine = new SessionIndex(file);
    mine.touch('a', 'both', '/w', 100);
    mine.touch('a', 'mine', '/w', 100);
    await mine.flush();
    const theirs = new SessionIndex(file);
    theirs.touch('a', 'theirs', '/w', 200);
    theirs.remove('a', 'mine', {}, 300);
    await theirs.flush();
    mine.touch('a', 'both', '/w', 400);
    await mine.flush();
    assert.deepEqual(mine.forAgent('a').map((e) => e.sessionId), ['both', 'theirs']);
    const onDisk = new SessionIndex(file);
    assert.equal(onDisk.get('a', 'both')?.updatedAt, 400);
    assert.equal(onDisk.isDeleted('a', 'mine'), true);
  });

  it('a full disk: the index says so once, and writes everything once it can', async () => {
    const file = path.join(tmp(), 'sessions.json');
    const errors: unknown[] = [];
    const idx = new SessionIndex(file, { onWriteError: (e) => errors.push(e) });
    idx.io = fullDiskIo();
    idx.touch('a', 's1', '/w');
    await idx.flush();
    await idx.flush();
    assert.equal(errors.length, 1);
    assert.equal((errors[0] as NodeJS.ErrnoException).code, 'ENOSPC');
    assert.equal(fs.existsSync(file), false);
    idx.io = diskIo;
    await idx.flush();
    assert.deepEqual(new SessionIndex(file).forAgent('a').map((e) => e.sessionId), ['s1']);
  });

  it('the archive on a full disk: said once, nothing dropped, written in order once it can', async () => {
    const dir = tmp();
    const errors: unknown[] = [];
    const ar = new TranscriptArchive(dir, () => 1 << 20, (e) => errors.push(e));
    const real = ar.io;
    ar.io = fullDiskIo();
    ar.append('a', 's', { n: 1 });
    await ar.flush();
    ar.append('a', 's', { n: 2 });
    await ar.flush();
    assert.equal(errors.length, 1);
    ar.io = real;
    await ar.flush();
    assert.deepEqual((await ar.read('a', 's')).map((l) => l.u), [{ n: 1 }, { n: 2 }]);
  });

  it('an archive cut mid-line: the next write starts a line of its own; reading skips the cut line and counts it', async () => {
    const dir = tmp();
    const first = new TranscriptArchive(dir, () => 1 << 20);
    const file = first.fileOf('a', 's');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify({ t: 1, u: { n: 1 } })}\n{"t":2,"u":{"n"`);
    const ar = new TranscriptArchive(dir, () => 1 << 20);
    ar.append('a', 's', { n: 3 });
    await ar.flush();
    let unreadable = 0;
    const read: unknown[] = [];
    for await (const batch of ar.lines('a', 's', 2000, (n) => (unreadable = n))) read.push(...batch.map((l) => l.u));
    assert.deepEqual(read, [{ n: 1 }, { n: 3 }]);
    assert.equal(unreadable, 1);
  });

  it('the last turn of an archive: open when it began and nothing ended it', async () => {
    const ar = new TranscriptArchive(tmp(), () => 1 << 20);
    ar.append('a', 's', { sessionUpdate: '_turn_begin' });
    ar.append('a', 's', { sessionUpdate: '_turn_end', stopReason: 'end_turn' });
    assert.equal(await ar.lastTurnOpen('a', 's'), false);
    ar.append('a', 's', { sessionUpdate: '_turn_begin' });
    ar.append('a', 's', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '"sessionUpdate":"_turn_end"' } });
    assert.equal(await ar.lastTurnOpen('a', 's'), true, 'text that quotes a mark is not a mark');
    assert.equal(await ar.lastTurnOpen('a', 'none'), false);
  });
});
