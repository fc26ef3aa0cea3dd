// Spawning through cross-spawn on this machine (POSIX): a program found on PATH
// gets its arguments exactly, and stopping it still kills its whole process group.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentProcess } from '../../../src/agents/agentProcess';
import { findExecutable } from '../../../src/agents/resolveCommand';
import { isAlive } from '../../support/processes';

/** Alive and not a zombie (an orphan may wait unreaped where PID 1 reaps nothing, as in some containers). */
function running(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return isAlive(pid);
  }
}

function output(p: AgentProcess): Promise<string> {
  let out = '';
  p.child.stdout.setEncoding('utf8');
  p.child.stdout.on('data', (d: string) => (out += d));
  return p.exited.then(() => out);
}

describe('spawnProgram (real processes, cross-spawn)', function () {
  this.timeout(15_000);
  let dir = '';
  before(function () {
    if (process.platform === 'win32') this.skip(); // shebang scripts and process groups are POSIX (windows.test.ts covers Windows)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spawn-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function script(name: string, body: string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
    fs.chmodSync(file, 0o755);
    return file;
  }

  it('a program found on PATH receives every argument unchanged (no shell in between)', async () => {
    script('echo-args', `exec "${process.execPath}" -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' -- "$@"`);
    const resolved = findExecutable('echo-args', { pathEnv: `/nonexistent:${dir}`, cwd: '/' });
    assert.equal(resolved, path.join(dir, 'echo-args'));
    const args = ['plain', 'has space', 'a&b', 'a|b;c', '$(touch pwned)', '`id`', '%PATH%', '$HOME', 'say "hi"', "it's", '*', '', 'back\\slash\\', 'ünï\ncode'];
    const p = new AgentProcess({ command: resolved!, args, cwd: dir, env: { ...process.env } });
    const out = await output(p);
    assert.equal((await p.exited).code, 0);
    assert.deepEqual(JSON.parse(out), args);
    assert.equal(fs.existsSync(path.join(dir, 'pwned')), false);
  });

  it('stopping kills the process group: a grandchild that ignores SIGTERM dies too', async () => {
    const file = script('parent', `trap '' TERM\nsleep 60 &\necho $!\nwait`);
    const p = new AgentProcess({ command: file, args: [], cwd: dir, env: { ...process.env } }, () => {}, { termAfterMs: 100, killAfterMs: 200 });
    const grandchild = await new Promise<number>((resolve) => p.child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    assert.ok(running(grandchild));
    const exit = await p.stop();
    assert.equal(exit.requested, true);
    // The kill went to the group: give the grandchild's SIGKILL a moment to land, then it is gone.
    for (let i = 0; i < 50 && running(grandchild); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(running(grandchild), false);
  });

  it('a program that does not exist is reported as ENOENT, not thrown', async () => {
    const p = new AgentProcess({ command: path.join(dir, 'missing'), args: [], cwd: dir, env: { ...process.env } });
    const exit = await p.exited;
    assert.equal((exit.spawnError as NodeJS.ErrnoException | undefined)?.code, 'ENOENT');
  });
});
