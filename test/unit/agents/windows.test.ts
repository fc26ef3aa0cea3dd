// Windows-only behaviour, checked on any machine: how cmd.exe and a program's
// C runtime read a command line (simulated from their documented rules), the
// process-tree kill, and UNC paths.
import * as assert from 'node:assert/strict';
import { killTree } from '../../../src/agents/agentProcess';
import { quoteCommandForCmd, quoteForCmd } from '../../../src/agents/resolveCommand';
import { isUncPath } from '../../../src/platform/pathPolicy';

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

describe('Windows: cmd.exe quoting, process trees, UNC paths', () => {
  const nasty = ['plain', 'has space', 'a&b', 'a|b', '<in>', '(x)', '%PATH%', '!VAR!', '^caret', 'say "hi"', 'C:\\dir\\', 'back\\"slash', '', '--flag=a b', 'a\\\\b', '100%', '"', '\\'];

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

  it('an argument survives cmd /c, the batch file’s %* and the program’s argv parsing unchanged (as the model above reads them; no Windows runs here)', () => {
    const env = { PATH: 'C:\\Windows', VAR: 'x' };
    for (const arg of nasty) {
      const line = `npx.cmd ${quoteForCmd(arg)} next`;
      // cmd /d /s /c "…": percent and carets on the command line …
      const first = cmdCarets(cmdPercent(line, env));
      // … then the batch file passes %* on, and cmd reads the carets again (no second percent pass).
      const second = cmdCarets(first);
      assert.deepEqual(argv(second).slice(1), [arg, 'next'], `argument ${JSON.stringify(arg)} → ${line}`);
    }
  });

  it('the old quoting (carets inside quotes) fails this check, so the check can fail', () => {
    const old = (arg: string) => `"${arg.replace(/([%!^&|<>()])/g, '^$1')}"`;
    const line = `npx.cmd ${old('a&b')}`;
    assert.notDeepEqual(argv(cmdCarets(cmdCarets(cmdPercent(line, {})))).slice(1), ['a&b']);
  });

  it('a program path with spaces is quoted', () => {
    assert.equal(quoteCommandForCmd('C:\\Program Files\\nodejs\\npx.cmd'), '"C:\\Program Files\\nodejs\\npx.cmd"');
    assert.equal(quoteCommandForCmd('C:\\tools\\agent.cmd'), 'C:\\tools\\agent.cmd');
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
