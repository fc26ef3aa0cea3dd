// Windows-only behaviour, checked on any machine: how cmd.exe and a program's
// C runtime read the command line that cross-spawn builds (cross-spawn loaded
// as on win32; cmd and the C runtime simulated from their documented rules),
// the process-tree kill, and UNC paths.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { killTree } from '../../../src/agents/agentProcess';
import { unsafeBatchArgument } from '../../../src/node/spawnProgram';
import { isUncPath } from '../../../src/node/pathPolicy';
import { startServer, systemCmd } from '../../../src/node/mcpRelay/launch';

/** cmd.exe phase 1 on a command line: %NAME% of a defined variable is replaced; anything else stays. */
function cmdPercent(line: string, env: Record<string, string>): string {
  return line.replace(/%([^%]+)%/g, (m, name: string) => env[name.toUpperCase()] ?? m);
}

/** cmd.exe phase 2: `"` toggles quoting (unless escaped); outside quotes `^x` is `x`; metacharacters outside quotes must be escaped. */
function cmdCarets(line: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (!quoted && c === '^') {
      out += line[++i] ?? '';
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && '&|<>()'.includes(c)) throw new Error(`cmd would treat ${c} as an operator in ${JSON.stringify(line)}`);
    out += c;
  }
  return out;
}

/** The C runtime's argv rules (CommandLineToArgvW). */
function argv(line: string): string[] {
  const args: string[] = [];
  let cur = '';
  let inArg = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') {
      let n = 0;
      while (line[i] === '\\') {
        n++;
        i++;
      }
      if (line[i] === '"') {
        cur += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) cur += '"';
        else {
          quoted = !quoted;
        }
      } else {
        cur += '\\'.repeat(n);
        i--;
      }
      inArg = true;
    } else if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = !quoted;
      inArg = true;
    } else if (!quoted && (c === ' ' || c === '\t')) {
      if (inArg) args.push(cur);
      cur = '';
      inArg = false;
    } else {
      cur += c;
      inArg = true;
    }
  }
  if (inArg) args.push(cur);
  return args;
}

type Parse = (command: string, args: string[], options: object) => { command: string; args: string[]; file?: string; options: { windowsVerbatimArguments?: boolean } };

/** cross-spawn's own parser as it is on Windows: its modules (and which/isexe) decide the platform when loaded. */
function crossSpawnParseOnWin32(): Parse {
  const ours = (k: string) => /node_modules[\\/](cross-spawn|which|isexe|path-key)[\\/]/.test(k);
  const forget = () => Object.keys(require.cache).filter(ours).forEach((k) => delete require.cache[k]);
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  forget();
  Object.defineProperty(process, 'platform', { value: 'win32' });
  try {
    return (createRequire(__filename)('cross-spawn') as { _parse: Parse })._parse;
  } finally {
    Object.defineProperty(process, 'platform', platform);
    forget();
  }
}

/** What a batch file's program receives: cmd /d /s /c "…" (percent, carets), then the batch's %* read again by cmd (carets), then argv. */
function throughCmd(parsed: ReturnType<Parse>, batch: boolean): string[] {
  assert.equal(parsed.command, process.env.comspec || 'cmd.exe');
  assert.deepEqual(parsed.args.slice(0, 3), ['/d', '/s', '/c']);
  assert.equal(parsed.options.windowsVerbatimArguments, true);
  // /s: the outer quotes go, the rest is the command line.
  const line = parsed.args[3]!.replace(/^"(.*)"$/s, '$1');
  let read = cmdCarets(cmdPercent(line, { PATH: 'C:\\Windows', VAR: 'x' }));
  if (batch) read = cmdCarets(read);
  return argv(read).slice(1);
}

describe('Windows: cross-spawn quoting through cmd.exe, process trees, UNC paths', () => {
  const nasty = ['plain', 'has space', 'a&b', 'a|b', '<in>', '(x)', '%PATH%', '!VAR!', '^caret', 'C:\\dir\\', '', '--flag=a b', 'a\\\\b', '100%', '\\', 'a;b,c', 'x*?', '`tick`'];
  const quoted = ['say "hi"', 'back\\"slash', '"', 'a"&calc&"', '"|x'];
  let dir = '';
  let parse: Parse;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'win-'));
    fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'npx.cmd'), '@node "%~dp0\\npx-cli.js" %*\r\n');
    fs.writeFileSync(path.join(dir, 'node_modules', '.bin', 'tool.cmd'), '@node "%~dp0\\..\\tool\\cli.js" %*\r\n');
    parse = crossSpawnParseOnWin32();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the argv model reads Microsoft’s documented examples as documented (so it is a model of Windows, not of the quoting)', () => {
    // "Parsing C++ command-line arguments" (learn.microsoft.com, cpp/c-language/parsing-c-command-line-arguments), its table of examples.
    const documented: [string, string[]][] = [
      ['"abc" d e', ['abc', 'd', 'e']],
      ['a\\\\b d"e f"g h', ['a\\\\b', 'de fg', 'h']],
      ['a\\\\\\"b c d', ['a\\"b', 'c', 'd']],
      ['a\\\\\\\\"b c" d e', ['a\\\\b c', 'd', 'e']],
      ['a"b"" c d', ['ab" c d']],
    ];
    for (const [line, args] of documented) assert.deepEqual(argv(`prog ${line}`).slice(1), args, line);
    // cmd.exe: ^ escapes outside quotes only; an unescaped & outside quotes is an operator.
    assert.equal(cmdCarets('echo ^&x "^&y"'), 'echo &x "^&y"');
    assert.throws(() => cmdCarets('echo a&b'), /operator/);
  });

  it('a .cmd shim in node_modules/.bin gets every argument unchanged, quotes included', () => {
    const shim = path.join(dir, 'node_modules', '.bin', 'tool.cmd');
    for (const arg of [...nasty, ...quoted]) {
      assert.deepEqual(throughCmd(parse(shim, [arg, 'next'], {}), true), [arg, 'next'], `argument ${JSON.stringify(arg)}`);
      assert.equal(unsafeBatchArgument(shim, [arg], 'win32'), undefined);
    }
  });

  it('npx.cmd (a batch file elsewhere) gets every argument without a double quote unchanged', () => {
    const npx = path.join(dir, 'npx.cmd');
    for (const arg of nasty) assert.deepEqual(throughCmd(parse(npx, [arg, 'next'], {}), true), [arg, 'next'], `argument ${JSON.stringify(arg)}`);
    assert.equal(unsafeBatchArgument(npx, nasty, 'win32'), undefined);
  });

  it('an argument with a double quote for such a batch file is refused: cmd would run what follows it', () => {
    const npx = path.join(dir, 'npx.cmd');
    // Why: escaped once, the batch's %* exposes the & after the quote to cmd.
    assert.throws(() => throughCmd(parse(npx, ['a"&calc&"'], {}), true), /operator/);
    for (const arg of quoted) assert.equal(unsafeBatchArgument(npx, ['ok', arg], 'win32'), arg);
    assert.equal(unsafeBatchArgument('C:\\tools\\agent.exe', quoted, 'win32'), undefined);
    assert.equal(unsafeBatchArgument('/usr/bin/npx', quoted, 'linux'), undefined);
  });

  it('the MCP relay starts a .cmd server through cross-spawn: cmd.exe from SystemRoot (never an inherited COMSPEC), arguments unchanged, a double quote refused', () => {
    const npx = path.join(dir, 'npx.cmd');
    const saved = { comspec: process.env.comspec, COMSPEC: process.env.COMSPEC, SystemRoot: process.env.SystemRoot };
    const restore = () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    };
    try {
      process.env.COMSPEC = 'C:\\ws\\evil.exe';
      process.env.comspec = 'C:\\ws\\evil.exe';
      process.env.SystemRoot = 'D:\\Win';
      let parsed: ReturnType<Parse> | undefined;
      const spawn = (c: string, a: readonly string[], o: object) => {
        parsed = parse(c, [...a], o);
        return { fake: true } as never;
      };
      const args = ['-y', 'pkg', ...nasty];
      const started = startServer({ command: npx, args, env: { A: '1' } }, { platform: 'win32', processEnv: process.env, spawn });
      assert.ok(!('refused' in started));
      assert.equal(parsed?.command, 'D:\\Win\\System32\\cmd.exe', 'cmd.exe from SystemRoot');
      assert.deepEqual(throughCmd(parsed, true), args, 'every argument as given (& | % ( ) … escaped for cmd)');
      // Under C:\Program Files (where npx.cmd is by default), the space is escaped, not a split.
      parsed = undefined;
      startServer({ command: 'C:\\Program Files\\nodejs\\npx.cmd', args: ['-y', 'pkg'], env: {} }, { platform: 'win32', processEnv: process.env, spawn });
      assert.match(parsed!.args[3]!, /^"C:\\Program\^ Files\\nodejs\\npx\.cmd /);
      // An argument cmd.exe cannot pass to a batch file unchanged: not started at all.
      parsed = undefined;
      const refused = startServer({ command: npx, args: ['a"&calc&"'], env: {} }, { platform: 'win32', processEnv: process.env, spawn });
      assert.ok('refused' in refused && /double quote/.test(refused.refused));
      assert.equal(parsed, undefined);
    } finally {
      restore();
    }
    assert.equal(systemCmd({ SYSTEMROOT: 'E:\\W' }), 'E:\\W\\System32\\cmd.exe');
    assert.equal(systemCmd({ SystemRoot: 'relative' }), 'C:\\Windows\\System32\\cmd.exe');
  });

  it('a program is found by PATHEXT, and a .cmd one runs through cmd', () => {
    // which (cross-spawn's lookup) appends the PATHEXT entries as written: .CMD (this file system minds case).
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'yarn.CMD'), '@node yarn.js %*\r\n');
    const parsed = parse('yarn', ['-y', 'x'], { env: { PATH: bin } });
    assert.equal(parsed.file, path.join(bin, 'yarn.CMD'));
    assert.deepEqual(throughCmd(parsed, true), ['-y', 'x']);
  });

  it('stopping kills the whole tree: taskkill /T /F on Windows, the process group elsewhere', () => {
    const calls: string[] = [];
    const run = { kill: (p: number, s: NodeJS.Signals) => void calls.push(`kill ${p} ${s}`), spawn: (c: string, a: string[]) => void calls.push(`${c} ${a.join(' ')}`) };
    assert.equal(killTree(1234, 'SIGTERM', 'win32', run), true);
    assert.equal(killTree(1234, 'SIGTERM', 'linux', run), true);
    assert.deepEqual(calls, ['taskkill /pid 1234 /T /F', 'kill -1234 SIGTERM']);
    const gone = { kill: () => { throw new Error('ESRCH'); }, spawn: () => {} };
    assert.equal(killTree(1, 'SIGKILL', 'linux', gone), false);
  });

  it('UNC and device paths are recognised on Windows only', () => {
    for (const p of ['\\\\server\\share\\x', '//server/share/x', '\\\\?\\C:\\x', '\\\\.\\pipe\\p']) assert.equal(isUncPath(p, 'win32'), true, p);
    assert.equal(isUncPath('C:\\x', 'win32'), false);
    assert.equal(isUncPath('//server/share', 'linux'), false);
  });
});
