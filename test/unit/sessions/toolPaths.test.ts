// Every path a tool call names: locations, diffs, path-like rawInput values and
// patch bodies, resolved against the cwd and the home folder.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { isPathKey, isPatternKey, looksRooted, patchPaths, resolveToolGlob, resolveToolPath, toolCallPaths, type ToolCallView } from '../../../src/sessions/policy/toolPaths';

const ctx = { cwd: '/ws', home: '/home/u', platform: 'linux' as const };
const resolvedOf = (call: ToolCallView) => toolCallPaths(call, ctx).paths.map((p) => p.resolved);

describe('tool paths: what a tool call names', () => {
  it('resolves relative paths against the cwd, ~ and $HOME against the home folder, file: URIs to paths', () => {
    assert.equal(resolveToolPath('.vscode/settings.json', ctx), '/ws/.vscode/settings.json');
    // A .. is left for the file system (after any link before it), never collapsed as text: see realPathLoose.
    assert.equal(resolveToolPath('../x', ctx), '/ws/../x');
    assert.equal(resolveToolPath('~', ctx), '/home/u');
    assert.equal(resolveToolPath('~/.bashrc', ctx), '/home/u/.bashrc');
    assert.equal(resolveToolPath('$HOME/.ssh/id_rsa', ctx), '/home/u/.ssh/id_rsa');
    assert.equal(resolveToolPath('~other/.bashrc', ctx), undefined, 'another user’s home cannot be placed');
    assert.equal(resolveToolPath('a\0b', ctx), undefined);
    assert.equal(resolveToolPath('https://example.com/x', ctx), undefined);
    if (process.platform !== 'win32') assert.equal(resolveToolPath('file:///etc/passwd', ctx), '/etc/passwd');
    const win = { cwd: 'C:\\ws', home: 'C:\\Users\\u', platform: 'win32' as const };
    assert.equal(resolveToolPath('~\\.bashrc', win), 'C:\\Users\\u\\.bashrc');
    assert.equal(resolveToolPath('src\\a.ts', win), 'C:\\ws\\src\\a.ts');
    assert.equal(resolveToolPath('\\\\server\\share\\x', win), undefined, 'a UNC path is never placed');
  });

  it('finds locations, diff paths and path-like keys in rawInput at any depth (also arrays, also in JSON text)', () => {
    const call: ToolCallView = {
      locations: [{ path: 'a.ts' }],
      diffPaths: ['/ws/b.ts'],
      rawInput: JSON.stringify({
        file_path: 'c.ts',
        content: 'path: not/a/path',
        edits: [{ filePath: 'd.ts' }, { newPath: '~/e.ts' }],
        paths: ['f.ts', 'g.ts'],
        options: { destination: '/tmp/h', url: 'https://example.com', dest: 'https://example.com/i' },
        count: 3,
      }),
    };
    assert.deepEqual(resolvedOf(call), ['/ws/a.ts', '/ws/b.ts', '/ws/c.ts', '/ws/d.ts', '/home/u/e.ts', '/ws/f.ts', '/ws/g.ts', '/tmp/h']);
    const froms = toolCallPaths(call, ctx).paths.map((p) => p.from);
    assert.deepEqual(froms.slice(0, 4), ['locations', 'diff', 'rawInput.file_path', 'rawInput.edits[0].filePath']);
  });

  it('knows path keys by name and by ending', () => {
    for (const k of ['path', 'file_path', 'filePath', 'filename', 'file', 'target', 'destination', 'dest', 'new_path', 'newPath', 'old_path', 'source', 'paths', 'notebook_path', 'target_file', 'cwd', 'workdir']) assert.ok(isPathKey(k), k);
    for (const k of ['content', 'command', 'pattern', 'old_string', 'description', 'url']) assert.ok(!isPathKey(k), k);
  });

  it('reads apply_patch headers and unified-diff header pairs in any string', () => {
    const body = ['*** Begin Patch', '*** Add File: new.txt', '+x', '*** Update File: src/a.ts', '*** Move to: ../elsewhere/a.ts', '*** Delete File: old.txt', '*** End Patch'].join('\n');
    assert.deepEqual(patchPaths(body), ['new.txt', 'src/a.ts', '../elsewhere/a.ts', 'old.txt']);
    assert.deepEqual(patchPaths('--- a/x.ts\t2024-01-01\n+++ b/.github/workflows/x.yml\n@@ -1 +1 @@\n'), ['x.ts', '.github/workflows/x.yml']);
    assert.deepEqual(patchPaths('--- /dev/null\n+++ b/new.ts\n'), ['new.ts']);
    assert.deepEqual(patchPaths('intro\n---\nnot a header\n--- just a dash line'), [], 'a --- line with no +++ after it is not a header');
    assert.deepEqual(resolvedOf({ rawInput: { command: ['apply_patch', body] } }), ['/ws/new.txt', '/ws/src/a.ts', '/ws/../elsewhere/a.ts', '/ws/old.txt']);
    assert.deepEqual(resolvedOf({ rawInput: '*** Update File: ~/.profile' }), ['/home/u/.profile'], 'a rawInput that is not JSON is searched as text');
  });

  it('says when it stopped at a bound (too deep, too many values), so the caller cannot be sure', () => {
    let deep: unknown = { path: 'x' };
    for (let i = 0; i < 20; i++) deep = { inner: deep };
    assert.equal(toolCallPaths({ rawInput: deep }, ctx).truncated, true);
    const wide = { items: Array.from({ length: 10_000 }, (_, i) => ({ n: i })) };
    assert.equal(toolCallPaths({ rawInput: wide }, ctx).truncated, true);
    const many = { paths: Array.from({ length: 500 }, (_, i) => `f${i}`) };
    assert.equal(toolCallPaths({ rawInput: many }, ctx).truncated, true);
    assert.equal(toolCallPaths({ rawInput: { path: 'x', content: 'y' } }, ctx).truncated, false);
    assert.equal(path.posix.isAbsolute(toolCallPaths({ rawInput: { path: 'x' } }, ctx).paths[0]!.resolved!), true);
  });

  it('places a glob by the folder its non-magic part leads to, relative to the call\'s own path; a wildcard part that may lead out cannot be placed', () => {
    assert.deepEqual(resolveToolGlob('~/.ssh/*', ctx), { base: '/home/u/.ssh', glob: '*', pattern: '/home/u/.ssh/*' });
    assert.deepEqual(resolveToolGlob('/etc/**/*.conf', ctx), { base: '/etc', glob: '**/*.conf', pattern: '/etc/**/*.conf' });
    assert.deepEqual(resolveToolGlob('**/*.ts', ctx), { base: '/ws', glob: '**/*.ts', pattern: '/ws/**/*.ts' });
    assert.deepEqual(resolveToolGlob('.env*', ctx), { base: '/ws', glob: '.env*', pattern: '/ws/.env*' });
    assert.deepEqual(resolveToolGlob('*.ts', ctx, 'src'), { base: '/ws/src', glob: '*.ts', pattern: '/ws/src/*.ts' });
    assert.deepEqual(resolveToolGlob('*', ctx, '~/.aws'), { base: '/home/u/.aws', glob: '*', pattern: '/home/u/.aws/*' });
    assert.deepEqual(resolveToolGlob('/etc/*', ctx, 'src'), { base: '/etc', glob: '*', pattern: '/etc/*' }, 'an absolute glob ignores the call\'s path');
    assert.equal(resolveToolGlob('../../*', ctx)?.base, '/ws/../..', 'a .. before the wildcards is left for the file system');
    for (const escaping of ['{/etc,src}/*', 'src/{..,x}/*', 'src/*/../../x', '@(~|src)/*', '{C:/Windows,src}/*', '*/{$HOME,x}']) assert.equal(resolveToolGlob(escaping, ctx), undefined, escaping);
    assert.deepEqual(resolveToolGlob('src/**/*.{ts,tsx}', ctx), { base: '/ws/src', glob: '**/*.{ts,tsx}', pattern: '/ws/src/**/*.{ts,tsx}' }, 'ordinary braces are fine');
    assert.deepEqual(resolveToolGlob('C:\\Users\\u\\*', { cwd: 'C:\\ws', home: 'C:\\Users\\u', platform: 'win32' }), { base: 'C:\\Users\\u', glob: '*', pattern: 'C:\\Users\\u\\*' });
  });

  it('reads search tools\' patterns and globs, paths with wildcards, and keys that are paths', () => {
    for (const k of ['pattern', 'glob', 'include', 'file_pattern', 'globs', 'exclude']) assert.ok(isPatternKey(k), k);
    for (const k of ['path', 'content', 'command']) assert.ok(!isPatternKey(k), k);
    for (const s of ['/etc', '~/x', '~', '$HOME/x', 'C:\\x', 'file:///x', '../x', 'a/../b']) assert.ok(looksRooted(s), s);
    for (const s of ['src/a.ts', 'a..b', '...args', 'name']) assert.ok(!looksRooted(s), s);
    const found = (rawInput: unknown) => toolCallPaths({ rawInput }, ctx).paths.map((p) => `${p.from}=${p.resolved ?? '?'}${p.pattern !== undefined && p.pattern !== p.resolved ? ` ${p.pattern}` : ''}`);
    assert.deepEqual(found({ pattern: '/home/u/.ssh/*' }), ['rawInput.pattern (glob)=/home/u/.ssh /home/u/.ssh/*']);
    assert.deepEqual(found({ pattern: 'TODO', path: 'src', glob: '*.ts' }), ['rawInput.pattern (glob)=/ws/src/TODO', 'rawInput.path=/ws/src', 'rawInput.glob (glob)=/ws/src /ws/src/*.ts']);
    assert.deepEqual(found({ pattern: 'TODO: fix' }), [], 'a regular expression that reads like a scheme is no path');
    assert.deepEqual(found({ paths: ['{..,src}/x'] }), ['rawInput.paths[0]=/ws/{..,src}/x', 'rawInput.paths[0] (glob)=?']);
    assert.deepEqual(found({ changes: { '/home/u/.bashrc': { type: 'add', content: 'x' }, 'src/a.ts': { type: 'update', unified_diff: '', move_path: '/tmp/b.ts' } } }), [
      'rawInput.changes["/home/u/.bashrc"] (key)=/home/u/.bashrc',
      'rawInput.changes["src/a.ts"] (key)=/ws/src/a.ts',
      'rawInput.changes.src/a.ts.move_path=/tmp/b.ts',
    ]);
    assert.deepEqual(found({ headers: { accept: 'x' }, env: { '~/.ssh/config': 'x' } }), ['rawInput.env["~/.ssh/config"] (key)=/home/u/.ssh/config'], 'a key that starts somewhere of its own counts anywhere');
  });
});
