// Removing a scratch folder an agent can still write: a folder swapped for a
// link to an outside folder while the removal runs never leads the removal out.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { removeScratch, removeScratchAfter } from '../../../src/node/scratchFolders';
import { removeTree } from '../../../src/node/safeRemove';

const FILES = 40;

/** A real process that keeps swapping `<dir>/sub` for a link to `outside` and back, as an agent could. */
function startRacer(dir: string, outside: string): Promise<ChildProcessWithoutNullStreams> {
  const script = `
    const fs = require('node:fs');
    const [sub, hold, outside] = process.argv.slice(1);
    let said = false;
    for (;;) {
      try {
        fs.renameSync(sub, hold);
        fs.symlinkSync(outside, sub);
        if (!said) { said = true; process.stdout.write('swapping\\n'); }
        fs.unlinkSync(sub);
        fs.renameSync(hold, sub);
      } catch {}
    }`;
  const child = spawn(process.execPath, ['-e', script, path.join(dir, 'sub'), path.join(dir, 'held'), outside], { stdio: 'pipe' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.once('data', () => resolve(child));
  });
}

function fill(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(dir, `f${i}`), 'x');
}

const stop = (child: ChildProcessWithoutNullStreams): Promise<void> =>
  new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe('platform: removing a tree an agent can still change', () => {
  let base: string;
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-rmtree-')));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  for (const byPath of [false, true]) {
    const walk = byPath ? 'by path' : 'through descriptors where it can';
    it(`a subfolder swapped for a link to an outside folder between listing and removing: the outside stays (${walk})`, async () => {
      const outside = path.join(base, 'outside');
      fill(outside);
      const dir = path.join(base, 'tree');
      const seen: string[] = [];
      const swap = () => {
        fs.renameSync(path.join(dir, 'sub'), path.join(base, 'moved'));
        fs.symlinkSync(outside, path.join(dir, 'sub'));
      };
      const log: string[] = [];
      // At the top (listed: `sub` is a folder) and one level down (inside `sub`, listed, before its files go).
      for (const at of [dir, path.join(dir, 'sub')]) {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.rmSync(path.join(base, 'moved'), { recursive: true, force: true });
        // `sub` holds files named as the outside's are: a walk led through the link would unlink those.
        fill(path.join(dir, 'sub'));
        fill(path.join(dir, 'sub', 'deeper'));
        await removeTree(dir, {
          byPath,
          log: (m) => void log.push(m),
          between: (d) => {
            seen.push(d);
            if (d === at) swap();
          },
        });
        assert.equal(fs.readdirSync(outside).length, FILES, `outside files deleted (swap at ${at}); ${log.join('; ')}`);
        assert.ok(fs.existsSync(outside) && fs.lstatSync(outside).isDirectory());
      }
      assert.ok(seen.includes(dir) && seen.includes(path.join(dir, 'sub')), `the seam ran: ${seen.join(', ')}`);
    });
  }

  it('removes a whole tree, links inside as links (their targets stay), and refuses a link or a file at the top', async () => {
    const outside = path.join(base, 'outside');
    fill(outside);
    const dir = path.join(base, 'tree');
    fill(path.join(dir, 'a', 'b', 'c'));
    fs.symlinkSync(outside, path.join(dir, 'a', 'dirlink'));
    fs.symlinkSync(path.join(outside, 'f0'), path.join(dir, 'a', 'b', 'filelink'));
    const top = path.join(base, 'toplink');
    fs.symlinkSync(outside, top);
    assert.equal(await removeTree(top), false);
    assert.equal(await removeTree(path.join(outside, 'f1')), false);
    for (const byPath of [false, true]) {
      if (byPath) fill(path.join(dir, 'a', 'b'));
      assert.equal(await removeTree(dir, { byPath }), true);
      assert.equal(fs.existsSync(dir), false);
    }
    assert.equal(fs.readdirSync(outside).length, FILES);
    assert.ok(fs.lstatSync(top).isSymbolicLink());
  });

  it('a scratch folder goes only after the agent process that had it exited', async () => {
    const root = path.join(base, 'scratch');
    const dir = path.join(root, '2026-01-01-0000beef');
    fs.mkdirSync(dir, { recursive: true });
    // A real process standing in for the agent: it writes a file in the folder when told, and exits when told.
    const agent = spawn(process.execPath, ['-e', `
      const fs = require('node:fs');
      process.stdin.setEncoding('utf8');
      process.stdin.on('data', (d) => {
        if (d.includes('write')) { fs.writeFileSync(process.argv[1] + '/late', 'x'); process.stdout.write('wrote\\n'); }
        if (d.includes('exit')) process.exit(0);
      });
      process.stdout.write('up\\n');`, dir], { stdio: 'pipe' });
    // A failed check must not leave it running (mocha would wait on it).
    try {
      const said = (word: string) =>
        new Promise<void>((resolve, reject) => {
          const on = (chunk: Buffer) => {
            if (!chunk.toString().includes(word)) return;
            agent.stdout.off('data', on);
            resolve();
          };
          agent.stdout.on('data', on);
          agent.once('exit', () => reject(new Error(`the stand-in agent exited before saying "${word}"`)));
        });
      await said('up');
      const exited = new Promise<void>((resolve) => agent.once('exit', () => resolve()));
      let done = false;
      const removal = removeScratchAfter(root, dir, [exited]).then((r) => {
        done = true;
        return r;
      });
      // The positive signal: a folder released at the same moment with no agent (and more in it) is gone already.
      const control = path.join(root, '2026-01-01-0000cafe');
      fill(path.join(control, 'a', 'b'));
      assert.equal(await removeScratchAfter(root, control, []), true);
      assert.equal(fs.existsSync(control), false);
      assert.equal(done, false, 'removed while its agent ran');
      assert.ok(fs.existsSync(dir), 'removed while its agent ran');
      // The session ended; its agent still runs and still writes in the folder: nothing is removed under it.
      const wrote = said('wrote');
      agent.stdin.write('write\n');
      await wrote;
      assert.equal(done, false, 'removed while its agent ran');
      assert.ok(fs.existsSync(path.join(dir, 'late')));
      agent.stdin.write('exit\n');
      assert.equal(await removal, true);
      assert.equal(fs.existsSync(dir), false);
    } finally {
      if (agent.exitCode === null && agent.signalCode === null) agent.kill();
    }
  });

  // /proc/self/fd walking is Linux's: elsewhere the walk re-checks by path, which a swap timed between
  // the check and the unlink (microseconds) can still beat — the file comment of safeRemove.ts says so.
  if (process.platform !== 'linux') return;

  it('a racing process that keeps swapping a subfolder for a link to an outside folder never gets an outside file deleted (many rounds)', async function () {
    this.timeout(180_000);
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-race-')));
    const root = path.join(base, 'scratch');
    const outside = path.join(base, 'outside');
    fs.mkdirSync(root);
    // One scratch folder name, made anew each round (built aside, then renamed in: the racer never writes into it half-made).
    const dir = path.join(root, '2026-01-01-0000abcd');
    fill(path.join(dir, 'sub'));
    const racer = await startRacer(dir, outside);
    let lost = 0;
    let rounds = 0;
    try {
      for (let round = 0; round < 80 && lost === 0; round++) {
        rounds++;
        fill(outside);
        if (round > 0) {
          const staging = path.join(base, `staging-${round}`);
          fill(path.join(staging, 'sub'));
          fs.renameSync(staging, dir);
        }
        await removeScratch(root, dir);
        lost += FILES - fs.readdirSync(outside).length;
        // What the removal left (it may stop at a swap), moved out of the racer's reach before it is cleared.
        if (fs.existsSync(dir)) fs.renameSync(dir, path.join(base, `left-${round}`));
      }
    } finally {
      await stop(racer);
    }
    assert.equal(lost, 0, `outside files deleted after ${rounds} round(s)`);
    fs.rmSync(base, { recursive: true, force: true });
  });
});
