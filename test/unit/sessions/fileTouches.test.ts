import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Checkpoints } from '../../../src/sessions/checkpoints/checkpoints';
import { FileTouches, TOUCH_LIMITS, touchKey, type TurnTouch } from '../../../src/sessions/checkpoints/fileTouches';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'acp-touches-'));
const turn = (over: Partial<TurnTouch> = {}): TurnTouch => ({ agentId: 'a', sessionId: 's1', turnId: 'cp1', text: 'do it', at: 1000, files: ['/w/x.ts'], ...over });

describe('FileTouches (Sessions That Changed This File)', () => {
  it('answers the turns that changed a file, newest first, and only those', async () => {
    const t = new FileTouches(path.join(tmp(), 'touches.json'));
    t.record(turn({ turnId: 'cp1', at: 1000, files: ['/w/x.ts', '/w/y.ts'] }));
    t.record(turn({ turnId: 'cp2', at: 3000, files: ['/w/x.ts'] }));
    t.record(turn({ sessionId: 's2', turnId: 'cp1', at: 2000, files: ['/w/y.ts'] }));
    assert.deepEqual((await t.turnsThatChanged('/w/x.ts')).map((r) => `${r.sessionId}/${r.turnId}`), ['s1/cp2', 's1/cp1']);
    assert.deepEqual((await t.turnsThatChanged('/w/y.ts')).map((r) => `${r.sessionId}/${r.turnId}`), ['s2/cp1', 's1/cp1']);
    assert.deepEqual(await t.turnsThatChanged('/w/z.ts'), []);
    assert.deepEqual((await t.turnsThatChanged('/w/sub/../x.ts')).length, 2, 'the path is compared normalized');
  });

  it('two windows writing the same file lose nothing: each write merges what is on disk', async () => {
    const file = path.join(tmp(), 'touches.json');
    const one = new FileTouches(file);
    const two = new FileTouches(file);
    one.record(turn({ sessionId: 'from-one', at: 1 }));
    two.record(turn({ sessionId: 'from-two', at: 2 }));
    await one.flush();
    await two.flush();
    one.record(turn({ sessionId: 'from-one', turnId: 'cp2', at: 3 }));
    await one.flush();
    const seen = (await new FileTouches(file).turnsThatChanged('/w/x.ts')).map((r) => `${r.sessionId}/${r.turnId}`);
    assert.deepEqual(seen, ['from-one/cp2', 'from-two/cp1', 'from-one/cp1']);
  });

  it('is bounded: the oldest turns go, files per turn and prompt text are cut', async () => {
    const file = path.join(tmp(), 'touches.json');
    const t = new FileTouches(file);
    for (let i = 0; i < TOUCH_LIMITS.turns + 5; i++) t.record(turn({ turnId: `cp${i}`, at: i }));
    t.record(turn({ turnId: 'big', at: 1e9, text: 'p'.repeat(5000), files: Array.from({ length: TOUCH_LIMITS.filesPerTurn + 50 }, (_, i) => `/w/f${i}`) }));
    await t.flush();
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as TurnTouch[];
    assert.equal(stored.length, TOUCH_LIMITS.turns);
    assert.ok(!stored.some((r) => r.turnId === 'cp0' || r.turnId === 'cp5'), 'the oldest went first');
    const big = stored.find((r) => r.turnId === 'big')!;
    assert.equal(big.files.length, TOUCH_LIMITS.filesPerTurn);
    assert.equal(big.text.length, TOUCH_LIMITS.text);
  });

  it('a file that is not JSON, or records that are not records, start it again without failing', async () => {
    const file = path.join(tmp(), 'touches.json');
    fs.writeFileSync(file, '[{"agentId":"a","sessionId":"s1","turnId":"cp1","at":1,"files":["/w/x.ts"]}');
    const logs: string[] = [];
    const t = new FileTouches(file, (m) => logs.push(m));
    assert.deepEqual(await t.turnsThatChanged('/w/x.ts'), []);
    assert.match(logs.join('\n'), /is not JSON/);
    fs.writeFileSync(file, JSON.stringify([null, 7, { agentId: 'a' }, { ...turn(), files: ['relative.ts', 42, '/w/x.ts'] }]));
    assert.deepEqual((await t.turnsThatChanged('/w/x.ts')).map((r) => r.files), [['/w/x.ts']]);
    t.record(turn({ turnId: 'cp9', at: 9 }));
    await t.flush();
    assert.equal((JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]).length, 2, 'the good record kept, the new one added');
  });

  it('compares paths folded where the file system folds them', () => {
    assert.equal(touchKey('C:\\Work\\A.ts', 'win32'), touchKey('c:\\work\\a.ts', 'win32'));
    assert.equal(touchKey('/Users/me/A.ts', 'darwin'), touchKey('/users/me/a.ts', 'darwin'));
    assert.notEqual(touchKey('/home/me/A.ts', 'linux'), touchKey('/home/me/a.ts', 'linux'));
  });

  it('a checkpoint turn that changed files reports them when it ends; one that changed nothing does not', () => {
    const ended: { id: string; text: string; files: string[] }[] = [];
    const cp = new Checkpoints(() => undefined, () => null, (t) => ended.push(t));
    cp.begin('nothing happens');
    cp.end();
    cp.begin('write two files');
    cp.touch('/w/a.ts', null);
    cp.touch('/w/b.ts', Buffer.from('b'));
    cp.end();
    assert.deepEqual(ended.map((t) => [t.id, t.text, t.files]), [['cp2', 'write two files', ['/w/a.ts', '/w/b.ts']]]);
  });
});
