// An agent's program that is only on the login shell's PATH (a GUI-started editor misses nvm,
// volta, Homebrew): findProgram asks $SHELL for its PATH (`$SHELL -ilc 'printf …"$PATH"'`) and
// looks there. Real shells: temp scripts standing in for the user's login shell, whose "profile"
// puts a temp bin folder on PATH, then run the command in /bin/sh. Each test has its own shell
// (the PATH is read once per shell and cached).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findProgram, loginShellPath } from '../../../src/agents/resolveCommand';

describe('agents/resolveCommand: the login shell’s PATH', function () {
  this.timeout(20_000);
  let dir = '';
  let savedShell: string | undefined;

  beforeEach(function () {
    if (process.platform === 'win32') this.skip(); // no login shell there: the lookup is POSIX only
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-login-shell-')));
    savedShell = process.env.SHELL;
  });
  afterEach(() => {
    if (savedShell === undefined) delete process.env.SHELL;
    else process.env.SHELL = savedShell;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const executable = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, { mode: 0o755 });
    return file;
  };

  /**
   * A login shell: records each run (its arguments) in `runs`, prints `noise` first (a profile's
   * banner), puts `bin` first on PATH, then runs the command it was given.
   */
  function fakeShell(name: string, bin: string, body = '') {
    const runs = path.join(dir, `${name}.runs`);
    const shell = executable(
      path.join(dir, name),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${runs}'\n${body}\necho 'Welcome to the fake login shell'\nPATH='${bin}':/usr/bin:/bin; export PATH\nexec /bin/sh -c "$2"\n`,
    );
    return { shell, runs: () => (fs.existsSync(runs) ? fs.readFileSync(runs, 'utf8').split('\n').filter(Boolean) : []) };
  }

  it('finds a program that is only on the login shell’s PATH, and hands back that PATH; a program on no PATH is not found', async () => {
    const bin = path.join(dir, 'shell-bin');
    const prog = executable(path.join(bin, 'acp-only-in-login-shell'), '#!/bin/sh\necho hi\n');
    const { shell, runs } = fakeShell('login-sh', bin);
    process.env.SHELL = shell;
    const empty = path.join(dir, 'empty-bin');
    fs.mkdirSync(empty);

    const found = await findProgram('acp-only-in-login-shell', { pathEnv: empty, cwd: dir });
    assert.deepEqual(found, { file: prog, shellPath: `${bin}:/usr/bin:/bin` }, 'the banner before the marker is ignored');
    assert.deepEqual(runs(), [`-ilc printf '__ACP_AGENTS_PATH__%s__ACP_AGENTS_PATH__' "$PATH"`], 'asked as an interactive login shell');

    assert.equal(await findProgram('acp-on-no-path-at-all', { pathEnv: empty, cwd: dir }), undefined);
    // A file that is there but not executable is not a program.
    fs.writeFileSync(path.join(bin, 'acp-not-executable'), 'x', { mode: 0o644 });
    assert.equal(await findProgram('acp-not-executable', { pathEnv: empty, cwd: dir }), undefined);
    assert.equal(runs().length, 1, 'the shell was asked once: its PATH is cached');
  });

  it('a program on the editor’s own PATH is taken from there, without running the shell', async () => {
    const own = path.join(dir, 'own-bin');
    const prog = executable(path.join(own, 'acp-on-own-path'), '#!/bin/sh\n');
    const { shell, runs } = fakeShell('unused-sh', path.join(dir, 'shell-bin'));
    process.env.SHELL = shell;
    assert.deepEqual(await findProgram('acp-on-own-path', { pathEnv: own, cwd: dir }), { file: prog });
    assert.deepEqual(runs(), [], 'no shell started');
  });

  it('a login shell that hangs is given up on after the timeout: nothing found, nothing waited for', async () => {
    // The profile starts something that never ends (not exec'd: a child of the shell holds its output open).
    const { shell, runs } = fakeShell('hanging-sh', path.join(dir, 'shell-bin'), 'sleep 8');
    const started = Date.now();
    assert.equal(await loginShellPath(shell, 300), undefined);
    const took = Date.now() - started;
    assert.ok(took < 3000, `gave up after ${took} ms, not when the shell ended`);
    assert.equal(runs().length, 1, 'the shell did run');
  });

  it('a login shell that fails, prints no PATH, or floods its output gives no PATH', async () => {
    const failing = executable(path.join(dir, 'failing-sh'), '#!/bin/sh\necho "PATH=/somewhere"\nexit 1\n');
    assert.equal(await loginShellPath(failing, 5000), undefined, 'a failing shell');
    const silent = executable(path.join(dir, 'silent-sh'), '#!/bin/sh\necho "no marker here: /usr/bin"\n');
    assert.equal(await loginShellPath(silent, 5000), undefined, 'no marked PATH printed');
    // Over execFile's output bound (1 MiB by default) before the PATH: the lookup gives up rather than buffer it.
    const bin = path.join(dir, 'shell-bin');
    const { shell: flooding } = fakeShell('flooding-sh', bin, "head -c 2000000 /dev/zero | tr '\\0' x");
    assert.equal(await loginShellPath(flooding, 5000), undefined, 'a flood of output');
    // The same shell without the flood does give its PATH (the case above fails for the flood, not the shell).
    const { shell: quiet } = fakeShell('quiet-sh', bin);
    assert.equal(await loginShellPath(quiet, 5000), `${bin}:/usr/bin:/bin`);
    assert.equal(await loginShellPath('', 5000), undefined, 'no $SHELL');
  });
});
