// Scratch folders of no-folder sessions: only ours go, old ones by name and by
// last change, and links are never followed out.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeScratch, removeScratch, sweepScratch } from '../../../src/node/scratchFolders';
import { removeStaleTemps } from '../../../src/node/atomicWrite';

describe('platform: scratch folders', () => {
  it('removes one of ours; refuses a path of any other shape or place, and a link', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-scratch-'));
    const mine = makeScratch(root);
    fs.writeFileSync(path.join(mine, 'f'), 'x');
    const elsewhere = makeScratch(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-other-')));
    const link = path.join(root, '2020-01-01-abcdef12');
    fs.symlinkSync(elsewhere, link);
    assert.equal(await removeScratch(root, elsewhere), false, 'not under the root');
    assert.equal(await removeScratch(root, link), false, 'a link');
    assert.equal(await removeScratch(root, path.join(root, '..')), false);
    assert.ok(fs.existsSync(elsewhere));
    assert.equal(await removeScratch(root, mine), true);
    assert.equal(fs.existsSync(mine), false);
  });

  it('sweeps folders old by name and by last change; a recent change keeps an old-named one; links inside stay links', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-scratch-'));
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-target-'));
    fs.writeFileSync(path.join(target, 'keep'), 'x');
    const now = Date.parse('2026-06-01T00:00:00Z');
    const old = path.join(root, '2026-01-01-00000001');
    const touched = path.join(root, '2026-01-01-00000002');
    const young = path.join(root, '2026-05-30-00000003');
    for (const d of [old, touched, young]) fs.mkdirSync(d);
    fs.symlinkSync(target, path.join(old, 'out'));
    const jan = new Date('2026-01-02T00:00:00Z');
    fs.utimesSync(old, jan, jan);
    fs.utimesSync(young, jan, jan);
    fs.utimesSync(touched, new Date(now - 60_000), new Date(now - 60_000));
    assert.deepEqual(await sweepScratch(root, 7 * 86_400_000, now), [old]);
    assert.ok(fs.existsSync(path.join(target, 'keep')));
    assert.ok(fs.existsSync(touched) && fs.existsSync(young));
  });

  it('removeStaleTemps: a dead writer’s temporary file goes, a live one’s stays', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-tmp-'));
    const file = path.join(dir, 'sessions.json');
    const dead = `${file}.2147483646.tmp`;
    const live = `${file}.${process.ppid}.tmp`;
    for (const f of [dead, live]) fs.writeFileSync(f, '[');
    removeStaleTemps(file);
    assert.equal(fs.existsSync(dead), false);
    assert.equal(fs.existsSync(live), true);
  });
});
