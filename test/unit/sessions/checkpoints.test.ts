// Checkpoints (what each turn changed, for "Restore files to here") and hunks
// (for review by Keep / Undo), in plain Node with an in-memory file system.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diskIo } from '../../../src/node/storeIo';
import { Checkpoints, CHECKPOINTS_FORMAT, type FileBytes } from '../../../src/sessions/checkpoints/checkpoints';
import { SessionSidecar } from '../../../src/sessions/store/sessionSidecar';
import { hunks, keepHunk } from '../../../src/shared/hunks';

const b = (s: string) => Buffer.from(s, 'utf8');

/** Files as a map: what the agent and the user do to them between calls. */
function world(initial: Record<string, string>) {
  const files = new Map<string, Buffer>(Object.entries(initial).map(([k, v]) => [k, b(v)]));
  return {
    files,
    read: (f: string): FileBytes => files.get(f) ?? null,
    set: (f: string, v: string | null) => (v === null ? files.delete(f) : files.set(f, b(v))),
  };
}

const summary = (plan: ReturnType<Checkpoints['plan']>) => plan?.map((e) => `${e.path}:${e.action}:${e.target === undefined ? '?' : e.target === null ? '-' : e.target.toString()}${e.userEdited ? ':edited' : ''}`);

describe('Checkpoints', () => {
  it('restoring to a message puts every file back as the first later turn found it; files already so are left out', () => {
    const w = world({ '/a': 'a0', '/b': 'b0' });
    const cps = new Checkpoints(() => undefined, w.read);
    const t1 = cps.begin('one');
    cps.touch('/a', w.read('/a'));
    w.set('/a', 'a1');
    cps.touch('/new', null);
    w.set('/new', 'n1');
    cps.end();
    const t2 = cps.begin('two');
    // An own write the tracker learnt nothing about: the turn's start is known from turn one.
    cps.touch('/a', undefined);
    w.set('/a', 'a2');
    cps.touch('/b', w.read('/b'));
    w.set('/b', null);
    cps.end();
    assert.deepEqual(summary(cps.plan(t1)), ['/a:restore:a0', '/b:recreate:b0', '/new:delete:-']);
    assert.deepEqual(summary(cps.plan(t2)), ['/a:restore:a1', '/b:recreate:b0']);
    assert.equal(cps.restorable(t1), true);
    // Files already back: nothing left to do for them.
    w.set('/b', 'b0');
    assert.deepEqual(summary(cps.plan(t2)), ['/a:restore:a1']);
    assert.equal(cps.plan('cp999'), undefined);
  });

  it('agentLeft: what the last turn that touched a file left in it; unknown while a turn that touched it has not ended', () => {
    const w = world({ '/a': 'a0', '/b': 'b0' });
    const cps = new Checkpoints(() => undefined, w.read);
    assert.equal(cps.agentLeft('/a'), undefined, 'no turn yet');
    cps.begin('one');
    cps.touch('/a', w.read('/a'));
    w.set('/a', 'a1');
    cps.end();
    cps.begin('two');
    cps.touch('/b', w.read('/b'));
    w.set('/b', null);
    // Turn two runs (its end is recorded a second after it ends): /b unknown, /a as turn one left it.
    assert.equal(cps.agentLeft('/b'), undefined);
    assert.equal(cps.agentLeft('/a')?.toString(), 'a1');
    w.set('/a', 'user');
    cps.end();
    assert.equal(cps.agentLeft('/b'), null, 'deleted by the agent');
    assert.equal(cps.agentLeft('/a')?.toString(), 'a1', 'the user’s edit is not the agent’s');
  });

  it('a user edit after the agent’s last turn is flagged with what the agent left; unknown old bytes are listed as such, never guessed', () => {
    const w = world({ '/a': 'a0', '/u': 'u0' });
    const cps = new Checkpoints(() => undefined, w.read);
    const t1 = cps.begin('one');
    cps.touch('/a', w.read('/a'));
    w.set('/a', 'agent');
    cps.touch('/u', undefined); // changed on disk, old bytes unknown
    w.set('/u', 'u1');
    cps.end();
    w.set('/a', 'agent + user');
    const plan = cps.plan(t1)!;
    assert.deepEqual(summary(plan), ['/a:restore:a0:edited', '/u:unknown:?']);
    assert.equal(plan[0]!.userEdited!.agent!.toString(), 'agent');
  });

  it('an unknown start learnt later (git, a diff’s snapshot) becomes known; a turn that changed nothing is not restorable on its own', () => {
    const w = world({ '/a': 'a0' });
    const cps = new Checkpoints(() => undefined, w.read);
    const t1 = cps.begin('nothing');
    cps.end();
    assert.equal(cps.restorable(t1), false);
    const t2 = cps.begin('then');
    cps.touch('/a', undefined);
    cps.touch('/a', b('a0'));
    w.set('/a', 'a1');
    cps.end();
    assert.equal(cps.restorable(t1), true, 'a later turn changed files');
    assert.deepEqual(summary(cps.plan(t2)), ['/a:restore:a0']);
  });

  it('saved next to the archive and read back by a new instance (a reload); a damaged file is ignored', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-cp-'));
    const file = path.join(dir, 'agent', 's1.checkpoints.json');
    const store = new SessionSidecar(file, CHECKPOINTS_FORMAT, () => diskIo);
    try {
      const w = world({ '/a': 'a0', '/bin': '' });
      w.files.set('/bin', Buffer.from([0, 255, 1]));
      const cps = new Checkpoints(() => store, w.read);
      const t1 = cps.begin('one');
      cps.touch('/a', w.read('/a'));
      cps.touch('/bin', w.read('/bin'));
      w.set('/a', 'a1');
      w.set('/bin', 'text now');
      cps.end();
      await cps.save();
      const again = new Checkpoints(() => store, w.read);
      await again.load();
      assert.deepEqual(again.list(), [{ id: t1, text: 'one' }]);
      const plan = again.plan(t1)!;
      assert.deepEqual(summary(plan.filter((e) => e.path === '/a')), ['/a:restore:a0']);
      assert.deepEqual([...plan.find((e) => e.path === '/bin')!.target!], [0, 255, 1], 'bytes, not text');
      // The next checkpoint id does not reuse a loaded one.
      assert.notEqual(again.begin('two'), t1);
      fs.writeFileSync(file, '{not json');
      const broken = new Checkpoints(() => store, w.read);
      await broken.load();
      assert.deepEqual(broken.list(), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('contents are bounded: the oldest turns lose theirs first (their files become unknown), the newest stay restorable', () => {
    const w = world({});
    const cps = new Checkpoints(() => undefined, w.read);
    const big = (c: string) => c.repeat(9 * 1024 * 1024);
    const ids: string[] = [];
    for (const c of ['a', 'b', 'c', 'd', 'e']) {
      ids.push(cps.begin(c));
      w.set(`/${c}`, big(c));
      cps.touch(`/${c}`, w.read(`/${c}`));
      w.set(`/${c}`, 'small');
      cps.end();
    }
    const last = cps.plan(ids[4]!)!;
    assert.equal(last[0]!.action, 'restore');
    const first = cps.plan(ids[0]!)!;
    assert.equal(first.find((e) => e.path === '/a')!.action, 'unknown');
  });
});

describe('Hunks', () => {
  it('two separate changes are two hunks; keeping one leaves the other to decide', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
    const now = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n';
    const hs = hunks(before, now)!;
    assert.deepEqual(hs.map((h) => [h.line, h.oldText, h.newText]), [
      [1, 'two\n', 'TWO\n'],
      [7, 'eight\n', 'EIGHT\n'],
    ]);
    const kept = keepHunk(before, hs[1]!);
    assert.equal(kept, 'one\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n');
    assert.deepEqual(hunks(kept, now)!.map((h) => h.line), [1]);
    // Undoing one hunk in the text now: the other stays.
    const h0 = hs[0]!;
    assert.equal(now.slice(0, h0.newStart) + h0.oldText + now.slice(h0.newEnd), 'one\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n');
  });

  it('pure insertions and deletions, a last line without a newline, and identical texts', () => {
    assert.deepEqual(hunks('a\nb\n', 'a\nb\n'), []);
    const ins = hunks('a\nc\n', 'a\nb\nc\n')!;
    assert.deepEqual(ins.map((h) => [h.line, h.oldText, h.newText]), [[1, '', 'b\n']]);
    const del = hunks('a\nb\nc\n', 'a\nc\n')!;
    assert.deepEqual(del.map((h) => [h.line, h.oldText, h.newText, h.newStart, h.newEnd]), [[1, 'b\n', '', 2, 2]]);
    const tail = hunks('a\nb', 'a\nB')!;
    assert.deepEqual(tail.map((h) => [h.oldText, h.newText]), [['b', 'B']]);
    assert.equal(keepHunk('a\nb', tail[0]!), 'a\nB');
  });

  it('texts too large to diff get no hunks (whole-file Keep/Undo only)', () => {
    assert.equal(hunks('x'.repeat(1_500_000), 'y'.repeat(1_500_000)), undefined);
  });
});
