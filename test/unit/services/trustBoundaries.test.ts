// Pure parts of the trust boundaries: the access question queue, protected
// paths, the bounded terminal buffer and panel text, and the turn baseline.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AccessGate, type AccessAnswer, type AccessQuestion } from '../../../src/sessions/policy/accessGate';
import { OutputBuffer } from '../../../src/services/outputBuffer';
import { DEFAULT_PROTECTED_PATHS, protectedMatcher } from '../../../src/node/protectedPaths';
import { TurnBaseline } from '../../../src/services/files/turnBaseline';
import { mergeTerminalText } from '../../../src/shared/terminalText';

describe('access questions: one at a time, remembered for the session', () => {
  const q = (p: string, reason: 'outside' | 'protected' = 'outside', action: AccessQuestion['action'] = 'read') => ({ agentName: 'A', action, path: p, reason, roots: ['/ws'] });

  it('queues questions instead of stacking them: the second is asked only after the first is answered', async () => {
    const asked: string[] = [];
    const answers: ((a: AccessAnswer | undefined) => void)[] = [];
    const gate = new AccessGate((x) => {
      asked.push(x.path);
      return new Promise((r) => answers.push(r));
    });
    const first = gate.ask(q('/o/1'));
    const second = gate.ask(q('/o/2'));
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(asked, ['/o/1'], 'only one question on screen');
    answers[0]!('once');
    assert.equal(await first, true);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(asked, ['/o/1', '/o/2']);
    answers[1]!(undefined);
    assert.equal(await second, false, 'Escape denies');
  });

  it('"for this session" covers the path or its folder (same kind of access only); "deny all for this turn" stops the rest until the next turn', async () => {
    const script: AccessAnswer[] = ['session-path', 'session-folder', 'deny-turn', 'once'];
    const asked: string[] = [];
    const gate = new AccessGate(async (x) => {
      asked.push(`${x.reason}:${x.action}:${x.path}`);
      return script.shift();
    });
    assert.equal(await gate.ask(q('/o/a.txt')), true);
    assert.equal(await gate.ask(q('/o/a.txt')), true, 'remembered');
    assert.equal(await gate.ask(q('/o/a.txt', 'outside', 'write')), true, 'a write is asked again (folder answer)');
    assert.equal(await gate.ask(q('/o/b.txt', 'outside', 'write')), true, 'the folder covers b.txt for writes');
    assert.equal(await gate.ask(q('/o/.git/config', 'protected', 'write')), false, 'protected: asked separately; denied for the turn');
    assert.equal(await gate.ask(q('/x/1')), false);
    assert.equal(await gate.ask(q('/x/2')), false);
    assert.equal(asked.length, 3, asked.join(' | '));
    gate.newTurn();
    assert.equal(await gate.ask(q('/x/3')), true);
    assert.equal(asked.length, 4);
  });
});

describe('protected paths: allowed by file only', () => {
  it('the question offers no "its folder" option for a protected path, and allowing one file leaves the others protected', async () => {
    const seen: (string | undefined)[] = [];
    const gate = new AccessGate(async (x) => {
      seen.push(x.folder);
      return 'session-path';
    });
    assert.equal(await gate.ask({ agentName: 'A', action: 'write', path: '/ws/.env', reason: 'protected', roots: ['/ws'] }), true);
    assert.equal(await gate.ask({ agentName: 'A', action: 'write', path: '/ws/.env', reason: 'protected', roots: ['/ws'] }), true);
    assert.equal(await gate.ask({ agentName: 'A', action: 'write', path: '/ws/.vscode/settings.json', reason: 'protected', roots: ['/ws'] }), true);
    assert.deepEqual(seen, [undefined, undefined], 'asked for each file, never offered its folder');
  });
});

describe('protected paths', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-prot-'));
  const match = protectedMatcher(DEFAULT_PROTECTED_PATHS);
  it('match the defaults at any depth, and nothing else; package.json declares the same defaults', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
    assert.deepEqual(pkg.contributes.configuration.properties['acpAgents.files.protectedPaths'].default, DEFAULT_PROTECTED_PATHS);
    for (const p of ['.vscode/settings.json', '.git/hooks/pre-commit', '.github/workflows/ci.yml', '.devcontainer/devcontainer.json', '.env', '.env.local', 'pkg/.env.production', '.npmrc', 'sub/.vscode/tasks.json']) {
      assert.ok(match(path.join(root, p), [root]), p);
    }
    for (const p of ['src/env.ts', 'README.md', '.github/ISSUE_TEMPLATE.md', 'docs/.vscodeignore', 'environment.txt']) assert.equal(match(path.join(root, p), [root]), undefined, p);
    assert.equal(match(path.join(root, '.vscode', 'x.json'), [root]), '.vscode/**');
  });
});

describe('terminal output: bounded, O(1) appends', () => {
  it('keeps the newest bytes of a huge stream within the limit', () => {
    const b = new OutputBuffer(1024 * 1024);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 1024; i++) b.append(chunk); // 64 MiB (bench/terminal prints how long this takes)
    b.append(Buffer.from('THE END'));
    assert.equal(b.size, 1024 * 1024);
    assert.equal(b.truncated, true);
    assert.ok(b.text().endsWith('THE END'));
    assert.equal(b.text().length, 1024 * 1024);
  });
  it('a chunk larger than the limit keeps its tail; a zero limit keeps nothing', () => {
    const b = new OutputBuffer(4);
    b.append(Buffer.from('abcdefgh'));
    assert.equal(b.text(), 'efgh');
    const z = new OutputBuffer(0);
    z.append(Buffer.from('abc'));
    assert.equal(z.text(), '');
  });
  it('the panel’s text: appended in order, overlaps applied once, a gap restarts it, the newest part kept', () => {
    let v = mergeTerminalText({}, 'hello ', 0, false);
    v = mergeTerminalText(v, 'world', 6, false);
    assert.deepEqual(v, { output: 'hello world', truncated: false, end: 11 });
    v = mergeTerminalText(v, 'world!', 6, false);
    assert.equal(v.output, 'hello world!', 'the overlap is not repeated');
    v = mergeTerminalText(v, 'later', 500, false);
    assert.deepEqual(v, { output: 'later', truncated: true, end: 505 });
    v = mergeTerminalText(v, 'x'.repeat(100), 505, false, 50);
    assert.equal(v.output.length, 50);
  });
});

describe('turn baseline: what existed, and what git had clean', () => {
  it('knows files that existed; a clean tracked file’s bytes come from git, a dirty one’s are read when the turn begins (never HEAD’s), an untracked one’s are unknown', async function () {
    this.timeout(20_000);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-base-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 't');
    fs.writeFileSync(path.join(root, 'clean.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // Latin-1 "café"
    fs.writeFileSync(path.join(root, 'dirty.txt'), 'committed\n');
    git('add', '.');
    git('commit', '-q', '-m', 'init');
    fs.writeFileSync(path.join(root, 'dirty.txt'), 'edited before the turn\n');
    fs.writeFileSync(path.join(root, 'untracked.txt'), 'u\n');
    const b = new TurnBaseline([root]);
    await b.ready;
    assert.equal(b.existed(path.join(root, 'clean.txt')), true);
    assert.equal(b.existed(path.join(root, 'new.txt')), false);
    // The agent rewrites the clean file (sed -i): git still knows its bytes from before the turn.
    fs.writeFileSync(path.join(root, 'clean.txt'), 'rewritten\n');
    assert.deepEqual(await b.bytesBefore(path.join(root, 'clean.txt')), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    // The agent then deletes the dirty file: what it held when the turn began is still known.
    fs.rmSync(path.join(root, 'dirty.txt'));
    assert.equal((await b.bytesBefore(path.join(root, 'dirty.txt')))?.toString(), 'edited before the turn\n', 'not HEAD: what the file held');
    assert.equal(await b.bytesBefore(path.join(root, 'untracked.txt')), undefined);
    // An earlier turn's checkpoint knows better than git.
    const known = new TurnBaseline([root], (f) => (f.endsWith('clean.txt') ? Buffer.from('from the checkpoint\n') : undefined));
    assert.equal((await known.bytesBefore(path.join(root, 'clean.txt')))?.toString(), 'from the checkpoint\n');
  });
});
