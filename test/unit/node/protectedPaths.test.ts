// Protected paths: every default, the names themselves (`.git` as a file), and
// the spellings a case-insensitive or Windows file system opens as the same file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_PROTECTED_PATHS, SHORT_NAME_REASON, effectiveProtectedPaths, protectedMatcher } from '../../../src/node/protectedPaths';
import { caseInsensitiveAt, looksLikeShortName, normalizeRelPath, windowsSegment } from '../../../src/node/pathSpelling';

const tmpRoot = () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-prot2-')));

describe('protected paths: the defaults', () => {
  const root = tmpRoot();
  // Case-sensitive, POSIX rules: what each default protects as spelled.
  const match = protectedMatcher(DEFAULT_PROTECTED_PATHS, { platform: 'linux', caseInsensitive: () => false });
  const protectedBy = (rel: string) => match(path.join(root, ...rel.split('/')), [root]);

  it('package.json declares the same defaults', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
    assert.deepEqual(pkg.contributes.configuration.properties['acpAgents.files.protectedPaths'].default, DEFAULT_PROTECTED_PATHS);
  });

  const cases: [string, string][] = [
    ['.claude/settings.json', '.claude/**'],
    ['.claude/commands/deploy.md', '.claude/**'],
    ['.gemini/settings.json', '.gemini/**'],
    ['.codex/config.toml', '.codex/**'],
    ['.qwen/settings.json', '.qwen/**'],
    ['.opencode/opencode.json', '.opencode/**'],
    ['.mcp.json', '.mcp.json'],
    ['packages/web/.mcp.json', '.mcp.json'],
    ['.devcontainer.json', '.devcontainer.json'],
    ['.devcontainer/devcontainer.json', '.devcontainer/**'],
    ['.husky/pre-commit', '.husky/**'],
    ['.yarnrc.yml', '.yarnrc.yml'],
    // Package managers' files that name a program to run: Yarn 1's yarn-path, pnpm's hooks, Bun's preload.
    ['.yarnrc', '.yarnrc'],
    ['packages/app/.pnpmfile.cjs', '.pnpmfile.cjs'],
    ['bunfig.toml', 'bunfig.toml'],
    ['app.code-workspace', '*.code-workspace'],
    ['sub/team.code-workspace', '*.code-workspace'],
    ['.envrc', '.env*'], // direnv: already covered by .env*
    ['.env', '.env*'],
    ['.npmrc', '.npmrc'],
    ['.vscode/settings.json', '.vscode/**'],
    ['.github/workflows/ci.yml', '.github/workflows/**'],
    ['.git/config', '.git/**'],
    // The names themselves: a `.git` file points git at any directory; a folder created or replaced whole.
    ['.git', '.git/**'],
    ['vendor/lib/.git', '.git/**'],
    ['.claude', '.claude/**'],
    ['.vscode', '.vscode/**'],
    ['.husky', '.husky/**'],
    ['.github/workflows', '.github/workflows/**'],
  ];
  for (const [rel, glob] of cases) {
    it(`${rel} is protected by ${glob}`, () => assert.equal(protectedBy(rel), glob));
  }

  it('a real .git file (a gitfile) and a real .git folder are protected', () => {
    const r = tmpRoot();
    fs.writeFileSync(path.join(r, '.git'), 'gitdir: /elsewhere\n');
    assert.equal(match(path.join(r, '.git'), [r]), '.git/**');
    fs.mkdirSync(path.join(r, 'sub', '.git'), { recursive: true });
    assert.equal(match(path.join(r, 'sub', '.git'), [r]), '.git/**');
  });

  it('leaves ordinary files alone', () => {
    for (const rel of ['src/claude.ts', 'docs/.claude.md', 'mcp.json', 'README.md', '.github/ISSUE_TEMPLATE.md', 'code-workspace.md', '.gitignore', '.gitattributes', 'husky.config.js', 'yarnrc.yml']) {
      assert.equal(protectedBy(rel), undefined, rel);
    }
    assert.equal(protectedBy(''), undefined, 'the root itself');
  });
});

describe('protected paths: case', () => {
  const root = tmpRoot();
  it('on a case-insensitive file system, any case of a protected name is protected', () => {
    const match = protectedMatcher(DEFAULT_PROTECTED_PATHS, { platform: 'linux', caseInsensitive: () => true });
    for (const rel of ['.VSCODE/settings.json', '.Git/config', '.GIT', '.GitHub/Workflows/ci.yml', '.ENV', '.Claude/settings.json', 'App.Code-Workspace', '.MCP.json', '.Husky/pre-commit']) {
      assert.ok(match(path.join(root, ...rel.split('/')), [root]), rel);
    }
  });

  it('on a case-sensitive one, another case is another file', () => {
    const match = protectedMatcher(DEFAULT_PROTECTED_PATHS, { platform: 'linux', caseInsensitive: () => false });
    assert.equal(match(path.join(root, '.VSCODE', 'settings.json'), [root]), undefined);
  });

  it('a root spelled in another case is still the root on a case-insensitive file system', () => {
    const match = protectedMatcher(DEFAULT_PROTECTED_PATHS, { platform: 'linux', caseInsensitive: () => true });
    const other = path.join(path.dirname(root), path.basename(root).toUpperCase());
    assert.equal(match(path.join(other, '.vscode', 'tasks.json'), [root]), '.vscode/**');
  });

  it('macOS and Windows always match without regard to case', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const match = protectedMatcher(DEFAULT_PROTECTED_PATHS, { platform });
      assert.equal(match(path.join(root, '.VsCode', 'settings.json'), [root]), '.vscode/**', platform);
    }
  });

  it('probes the file system per folder: tmp is case-sensitive here; a name whose other case is the same inode means case-insensitive', function () {
    if (process.platform !== 'linux') this.skip(); // the probe's expectations are Linux's: tmp is case-sensitive there
    const plain = tmpRoot();
    fs.writeFileSync(path.join(plain, 'probe.txt'), 'x');
    assert.equal(caseInsensitiveAt(plain), false);
    // A hard link under the swapped-case name is what a case-insensitive volume looks like to stat().
    const folded = tmpRoot();
    fs.writeFileSync(path.join(folded, 'probe.txt'), 'x');
    fs.linkSync(path.join(folded, 'probe.txt'), path.join(folded, 'PROBE.TXT'));
    assert.equal(caseInsensitiveAt(folded), true);
    const match = protectedMatcher(DEFAULT_PROTECTED_PATHS);
    assert.equal(match(path.join(folded, '.VSCODE', 'settings.json'), [folded]), '.vscode/**', 'the probe decides the matching');
    assert.equal(match(path.join(plain, '.VSCODE', 'settings.json'), [plain]), undefined);
  });
});

describe('protected paths: Windows spellings', () => {
  it('normalizes segments as Windows opens them: trailing dots and spaces, alternate data streams', () => {
    assert.equal(windowsSegment('.git.', 'win32'), '.git');
    assert.equal(windowsSegment('.git . .', 'win32'), '.git');
    assert.equal(windowsSegment('.git::$INDEX_ALLOCATION', 'win32'), '.git');
    assert.equal(windowsSegment('settings.json::$DATA', 'win32'), 'settings.json');
    assert.equal(windowsSegment('.npmrc:hidden', 'win32'), '.npmrc');
    assert.equal(windowsSegment('.npmrc:hidden:$DATA', 'win32'), '.npmrc');
    assert.equal(windowsSegment('..', 'win32'), '..');
    assert.equal(windowsSegment('.git.', 'linux'), '.git.', 'other platforms keep the name');
    assert.equal(normalizeRelPath('.vscode.\\settings.json ', 'win32'), '.vscode/settings.json');
    assert.equal(normalizeRelPath('a\\b/c', 'linux'), 'a\\b/c');
  });

  it('short names: a name with ~ and a digit may be one on Windows only', () => {
    assert.equal(looksLikeShortName('GITHUB~1', 'win32'), true);
    assert.equal(looksLikeShortName('VSCODE~2.JSO', 'win32'), true);
    assert.equal(looksLikeShortName('notes~draft', 'win32'), false);
    assert.equal(looksLikeShortName('GITHUB~1', 'linux'), false);
  });

  const root = tmpRoot();
  const match = protectedMatcher(DEFAULT_PROTECTED_PATHS, { platform: 'win32' });
  const at = (...parts: string[]) => path.join(root, ...parts);
  const spellings: [string[], string][] = [
    [['.git.', 'config'], '.git/**'],
    [['.git ', 'hooks', 'pre-commit'], '.git/**'],
    [['.git::$INDEX_ALLOCATION', 'config'], '.git/**'],
    [['.vscode', 'settings.json::$DATA'], '.vscode/**'],
    [['.vscode', 'tasks.json.'], '.vscode/**'],
    [['.npmrc:stream'], '.npmrc'],
    [['.ENV.'], '.env*'],
    [['.mcp.json '], '.mcp.json'],
    [['.github.', 'WORKFLOWS', 'ci.yml'], '.github/workflows/**'],
    [['.Claude', 'settings.json'], '.claude/**'],
  ];
  for (const [parts, glob] of spellings) {
    it(`${parts.join('\\')} is protected by ${glob}`, () => assert.equal(match(at(...parts), [root]), glob));
  }

  it('a short name that did not resolve to a long one is treated as protected', () => {
    assert.equal(match(at('GITHUB~1', 'workflows', 'ci.yml'), [root]), SHORT_NAME_REASON);
    assert.equal(match(at('src', 'VSCODE~1', 'settings.json'), [root]), SHORT_NAME_REASON);
    assert.equal(match(at('src', 'main.ts'), [root]), undefined);
  });

  it('an existing folder whose real name has ~1 is what it is', () => {
    fs.mkdirSync(at('backup~1'));
    assert.equal(match(at('backup~1', 'notes.txt'), [root]), undefined);
  });
});

describe('protected paths: the user\'s entries', () => {
  const root = tmpRoot();
  const protectedBy = (user: unknown, rel: string) => protectedMatcher(effectiveProtectedPaths(user).globs, { platform: 'linux', caseInsensitive: () => false })(path.join(root, ...rel.split('/')), [root]);

  it('add to the defaults: a user who adds one glob keeps .git/, .vscode/, .env* protected', () => {
    const user = ['created/**'];
    assert.equal(protectedBy(user, 'created/new.txt'), 'created/**');
    assert.equal(protectedBy(user, '.git/hooks/pre-commit'), '.git/**');
    assert.equal(protectedBy(user, '.vscode/settings.json'), '.vscode/**');
    assert.equal(protectedBy(user, 'packages/app/.env.local'), '.env*');
    assert.equal(protectedBy(user, 'src/a.ts'), undefined);
    assert.deepEqual(effectiveProtectedPaths(user).globs, [...DEFAULT_PROTECTED_PATHS, 'created/**']);
  });

  it('drop a default only when named with a leading "!"; an empty list, junk or the defaults repeated change nothing', () => {
    const dropped = effectiveProtectedPaths(['!.husky/**', '! ./.npmrc', '!.nothing/**', 'extra']);
    assert.deepEqual(dropped.dropped, ['.husky/**', '.npmrc']);
    assert.deepEqual(dropped.unknown, ['.nothing/**'], 'a "!" that names no glob is reported');
    assert.equal(protectedBy(['!.husky/**'], '.husky/pre-commit'), undefined);
    assert.equal(protectedBy(['!.husky/**'], '.git/config'), '.git/**', 'the other defaults stay');
    assert.equal(protectedBy(['!extra', 'extra'], 'extra'), undefined, 'a user\'s own glob can be dropped too');
    for (const user of [[], undefined, 'x', [3, null, ''], [...DEFAULT_PROTECTED_PATHS]]) assert.deepEqual(effectiveProtectedPaths(user).globs, [...DEFAULT_PROTECTED_PATHS], JSON.stringify(user));
  });
});
