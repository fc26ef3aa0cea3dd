// The file checkpoints part: the Changes list in the header, change tracking
// during a turn (diffs noted only while one runs), and checkpoints kept per
// session id, linked again to the user messages of history.
import * as assert from 'node:assert/strict';
import { decodeSessionUpdate } from '../../../../src/acp/decode';
import type { AccessContext, AccessGate } from '../../../../src/sessions/policy/accessGate';
import { FileCheckpoints } from '../../../../src/sessions/parts/fileCheckpoints';
import type { ChangeEntry, TurnObserver } from '../../../../src/sessions/ports';
import { Emitter } from '../../../../src/shared/events';
import { fakeCore } from './fakeCore';

function setup(sweep: () => Promise<void> = async () => undefined) {
  const tracker: string[] = [];
  const changed = new Emitter<void>();
  let list: ChangeEntry[] = [];
  const observers: TurnObserver[] = [];
  const stores: string[] = [];
  const trackerAccess: (() => AccessContext)[] = [];
  const f = fakeCore({
    changeTracker: (_sensitive: unknown, access: () => AccessContext) => ({
      onDidChange: (trackerAccess.push(access), changed.event),
      observe: (o: TurnObserver) => void observers.push(o),
      noteDiff: (file: string, _old: string | null, _new: string, roots: readonly string[]) => void tracker.push(`diff ${file} in ${roots.join()}`),
      settle: (final?: boolean) => void tracker.push(final ? 'settle final' : 'settle'),
      watch: (roots: readonly string[]) => void tracker.push(`watch ${roots.join()}`),
      sweep: async () => {
        tracker.push('sweep');
        await sweep();
      },
      unwatch: () => void tracker.push('unwatch'),
      list: () => list,
      dispose: () => void tracker.push('disposed'),
    }),
  });
  (f.core.services.archive as { sidecarFile: (a: string, sid: string, kind: string) => string }).sidecarFile = (_a, sid, kind) => (stores.push(sid), `/nonexistent/${sid}.${kind}.json`);
  const access: AccessContext = { agentName: 'Fake', roots: ['/ws'], gate: {} as AccessGate };
  const part = new FileCheckpoints(f.core, () => access);
  return { f, part, tracker, trackerAccess, access, changed, observers, stores, setList: (l: ChangeEntry[]) => (list = l) };
}

const diff = (status?: string) => decodeSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 't1', ...(status ? { status } : {}), content: [{ type: 'diff', path: '/ws/a.ts', oldText: 'a', newText: 'b' }] }, []);

describe('sessions/parts: file checkpoints', () => {
  it('the Changes list goes in the header when it changes', () => {
    const { f, changed, setList } = setup();
    setList([{ path: '/ws/a.ts', name: 'a.ts', added: false, canRevert: true }]);
    changed.fire();
    assert.equal(f.transcript.header.changes?.[0]?.name, 'a.ts');
    assert.deepEqual(f.emitted, [{ c: 'header' }]);
  });

  it('a turn watches the folders; its diffs are noted only while it runs, and a finished call settles', () => {
    const { f, part, tracker } = setup();
    part.update(diff());
    assert.deepEqual(tracker, [], 'replayed history changes nothing');
    f.state.busy = true;
    part.turnBegan();
    part.update(diff());
    part.update(diff('completed'));
    part.turnEnded();
    assert.deepEqual(tracker, ['watch /ws', 'diff /ws/a.ts in /ws', 'diff /ws/a.ts in /ws', 'settle', 'settle']);
  });

  it('a second after a turn ends: the folders are listed again (sweep), then the last settle and the watch ends (turnSettled resolves); a failed sweep is logged, a turn begun meanwhile keeps its watch', async () => {
    const plain = setup();
    const failing = setup(async () => {
      throw new Error('EACCES');
    });
    let release: () => void = () => undefined;
    let sweeping: () => void = () => undefined;
    const sweepStarted = new Promise<void>((r) => (sweeping = r));
    const slow = setup(() => {
      sweeping();
      return new Promise<void>((r) => (release = r));
    });
    for (const s of [plain, failing, slow]) {
      s.f.state.busy = true;
      s.part.turnBegan();
      s.f.state.busy = false;
      s.part.turnEnded();
    }
    await Promise.all([plain.part.turnSettled(), failing.part.turnSettled()]);
    assert.deepEqual(plain.tracker, ['watch /ws', 'settle', 'sweep', 'settle final', 'unwatch']);
    assert.deepEqual(failing.tracker, ['watch /ws', 'settle', 'sweep', 'settle final', 'unwatch']);
    assert.match(failing.f.logs.join('\n'), /listing the folders after the turn failed: Error: EACCES/);
    // The next turn began while the slow listing ran: its watch must stay.
    await sweepStarted;
    slow.f.state.busy = true;
    slow.part.turnBegan();
    let settled = false;
    const done = slow.part.turnSettled().then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false, 'not settled while the listing runs');
    release();
    await done;
    assert.deepEqual(slow.tracker, ['watch /ws', 'settle', 'sweep', 'watch /ws']);
  });

  it('"Restore files to here" clicked just after a turn: its preview waits until the turn settled (its checkpoint complete)', async function () {
    this.timeout(5_000); // a settle of a second
    let release: () => void = () => undefined;
    const s = setup(() => new Promise<void>((r) => (release = r)));
    const previewed: string[] = [];
    (s.part.restore as { preview: (cp: string) => void }).preview = (cp) => void previewed.push(cp);
    s.f.state.busy = true;
    s.part.turnBegan();
    s.f.state.busy = false;
    s.part.turnEnded();
    const shown = s.part.preview('cp-1');
    await new Promise((r) => setTimeout(r, 1_200));
    assert.deepEqual(previewed, [], 'not while the turn settles (its listing still runs)');
    release();
    await shown;
    assert.deepEqual(previewed, ['cp-1']);
  });

  it('a turn that began and ended while the last one was still settling keeps its watch until its own end settles', async function () {
    this.timeout(5_000); // two settles of a second each
    let release: () => void = () => undefined;
    let sweeps = 0;
    let sweeping: () => void = () => undefined;
    const firstSweep = new Promise<void>((r) => (sweeping = r));
    const s = setup(() => {
      if (++sweeps > 1) return Promise.resolve();
      sweeping();
      return new Promise<void>((r) => (release = r));
    });
    s.f.state.busy = true;
    s.part.turnBegan();
    s.f.state.busy = false;
    s.part.turnEnded();
    const first = s.part.turnSettled();
    await firstSweep;
    // A queued message's turn: it begins and ends while the first turn's listing still runs.
    s.f.state.busy = true;
    s.part.turnBegan();
    s.f.state.busy = false;
    s.part.turnEnded();
    release();
    await first;
    assert.deepEqual(s.tracker, ['watch /ws', 'settle', 'sweep', 'watch /ws', 'settle'], "the first turn's end left the second turn's watch alone");
    await s.part.turnSettled();
    assert.deepEqual(s.tracker.slice(5), ['sweep', 'settle final', 'unwatch'], "the second turn's own end settles");
  });

  it('keeps checkpoints per session id: each new checkpoint store is observed by the tracker, the same id is read once', async () => {
    const { part, observers, stores } = setup();
    assert.equal(observers.length, 1, 'checkpoints exist before the session has an id (kept nowhere)');
    part.attached(undefined, 's1');
    await part.relink('s1');
    part.attached(undefined, 's2');
    assert.equal(observers.length, 3);
    assert.ok(stores.includes('s1') && stores.includes('s2'));
    const id = part.begin('a prompt');
    assert.match(id, /\S/);
    part.dispose();
  });

  // That Revert and Undo are then checked like the agent's writes: checkpoints.test.ts (integration), "links the agent planted…".
  it("hands the tracker the session's own access context (one getter, returning it)", () => {
    const { trackerAccess, access } = setup();
    assert.equal(trackerAccess.length, 1);
    assert.equal(trackerAccess[0]!(), access);
  });
});
