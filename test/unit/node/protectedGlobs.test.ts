// Globs are checked as globs: a search glob that spells a protected name with
// wildcards (`.e*`, `.en[v]`, `{.env,README.md}`, `*.env`, `.gi?/config`, `.g*/**`)
// names protected paths; ordinary globs do not.
import * as assert from 'node:assert/strict';
import { globMayNameProtected } from '../../../src/node/protectedGlobs';
import { DEFAULT_PROTECTED_PATHS } from '../../../src/node/protectedPaths';

const names = (glob: string, base: readonly string[] = []) => globMayNameProtected(base, glob, DEFAULT_PROTECTED_PATHS);

describe('platform: protected globs (a glob checked as a glob)', () => {
  it('the issue\'s five spellings of .env and .git/config, and a glob that matches protected files without naming them', () => {
    const got = Object.fromEntries(['.e*', '.en[v]', '{.env,README.md}', '*.env', '.gi?/config', '.g*/**'].map((g) => [g, names(g)]));
    assert.deepEqual(got, {
      '.e*': '.env*',
      '.en[v]': '.env*',
      '{.env,README.md}': '.env*',
      '*.env': '.env*',
      '.gi?/config': '.git/**',
      '.g*/**': '.git/**',
    });
  });

  it('more: any depth, a base inside the folder, classes, groups, case, every default pattern', () => {
    for (const [glob, base] of [
      ['**/.e*', []],
      ['src/**/.en?', []],
      ['*/.env.*', []],
      ['.e*', ['packages', 'app']],
      ['work*/*.yml', ['.github']],
      ['.github/w*/**', []],
      ['.[e]nv.local', []],
      ['@(.env|x)', []],
      ['.ENV', []],
      ['.env.pr[o]d', []],
      ['.npm?c', []],
      ['bun*.toml', []],
      ['*.code-w*', []],
      ['.v*/settings.json', []],
      ['.husk[y]/pre-commit', []],
      ['.cla*/**', []],
      ['*', []],
      ['**/*', []],
      ['.*', []],
      ['.en*rc', []],
      ['*.production', []],
      ['*.local', ['apps', 'web']],
    ] as const) {
      assert.notEqual(names(glob, base), undefined, `${[...base, glob].join('/')} names a protected path`);
    }
  });

  it('ordinary globs do not: they still auto-approve', () => {
    for (const glob of ['src/**/*.ts', '*.md', '**/*.{ts,tsx}', 'docs/*.md', '**/node_modules/**', '*.{ts,js}', 'src/*.ts', '**/*.md', '.eslintrc.*', '.gitignore', 'test/**/*.test.ts', 'README*', 'package*.json']) {
      assert.equal(names(glob), undefined, glob);
    }
  });

  it('a glob whose alternatives hold a slash cannot be told apart segment by segment, nor a very long one: asked', () => {
    assert.notEqual(names('{src/a,.git/b}/*'), undefined);
    assert.equal(names(`{${Array.from({ length: 300 }, (_, i) => `a${i}`).join(',')}}`), 'a glob too long to check');
  });

  it('a user\'s own protected pattern counts too', () => {
    assert.equal(globMayNameProtected([], 'secr?ts/*.json', ['secrets/**']), 'secrets/**');
    assert.equal(globMayNameProtected([], 'src/*.json', ['secrets/**']), undefined);
  });
});
