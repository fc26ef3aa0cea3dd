// The skip lint (test/lint/noUnguardedSkip.mjs, `acp/no-unguarded-skip` in eslint.config.mjs) with
// ESLint's RuleTester: a skip passes only behind a real process.platform comparison that says why;
// a test without its function and every alias of a skip are flagged.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Linter, RuleTester, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';

const RULE = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'lint', 'noUnguardedSkip.mjs');

const inTest = (body: string) => `it('a test', function () {\n${body}\n});`;

const valid = [
  inTest("if (process.platform === 'win32') this.skip(); // the agent is a shell script"),
  inTest("// the probe's expectations are Linux's\nif (process.platform !== 'linux') {\n  this.skip();\n}"),
  inTest("if (['darwin', 'win32'].includes(process.platform)) this.skip(); // no /proc there"),
  inTest("if (process.platform === 'win32' && !process.env.CI) this.skip(); // why"),
  inTest("if ('win32' === process.platform || process.platform === 'darwin') this.skip(); // why"),
  "it('a test', fn);",
  "describe('a suite', () => { it('a test', async () => {}); });",
  "const d = describe; d('a suite', () => {});",
  "function it(title: string) { return title; } it('a helper of the same name');",
  "list.skip(3);",
  "const n = stream.skip;",
  "it('a test', (() => {}) as Mocha.Func);",
];

const invalid: { code: string; errors: number; what: RegExp }[] = [
  { code: "it.skip('a test', () => {});", errors: 1, what: /it\.skip\(\) is allowed only/ },
  { code: "describe.skip('a suite', () => {});", errors: 1, what: /describe\.skip\(\)/ },
  { code: "xit('a test', () => {});", errors: 1, what: /xit\(\)/ },
  { code: "it('a pending test');", errors: 1, what: /it\(\) without its function/ },
  { code: "describe('a pending suite');", errors: 1, what: /describe\(\) without its function/ },
  { code: "it('a test', undefined);", errors: 1, what: /without its function/ },
  { code: inTest('this.skip(); // flaky'), errors: 1, what: /this\.skip\(\)/ },
  { code: inTest("if (process.platform === 'win32') this.skip();"), errors: 1, what: /this\.skip\(\)/ },
  { code: inTest('if (/win/.test(process.platform)) this.skip(); // why'), errors: 1, what: /this\.skip\(\)/ },
  { code: inTest('if (process.platform) this.skip(); // why'), errors: 1, what: /this\.skip\(\)/ },
  { code: inTest('if (process.platform === other) this.skip(); // why'), errors: 1, what: /this\.skip\(\)/ },
  { code: inTest("if (process.platform === 'win32' || slow) this.skip(); // why"), errors: 1, what: /this\.skip\(\)/ },
  { code: inTest("if (process.platformName === 'win32') this.skip(); // why"), errors: 1, what: /this\.skip\(\)/ },
  { code: inTest("if (x /* process.platform === 'win32' */) this.skip(); // why"), errors: 1, what: /this\.skip\(\)/ },
  { code: "if (process.platform === 'win32') { // why\n  it('a test', function () { this.skip(); });\n}", errors: 1, what: /this\.skip\(\)/ },
  { code: "const s = it.skip;\ns('a test', () => {});", errors: 1, what: /it\.skip as a value/ },
  { code: "const d = describe;\nd.skip('a suite', () => {});", errors: 1, what: /describe\.skip\(\)/ },
  { code: "describe['skip']('a suite', () => {});", errors: 1, what: /describe\.skip\(\)/ },
  { code: "const { skip } = it;\nskip('a test', () => {});", errors: 1, what: /taking skip out of it/ },
  { code: "const x = xit;\nx('a test', () => {});", errors: 2, what: /xit as a value|xit\(\)/ },
  { code: inTest('const self = this;\nself.skip();'), errors: 1, what: /self\.skip\(\)/ },
  { code: inTest('const s = this.skip;\ns();'), errors: 1, what: /this\.skip as a value/ },
];

describe('the skip lint (acp/no-unguarded-skip)', () => {
  let rule: Rule.RuleModule;
  before(async () => {
    rule = ((await import(RULE)) as { noUnguardedSkip: Rule.RuleModule }).noUnguardedSkip;
  });

  /** Runs RuleTester on the cases, its describe/it made plain calls; returns each case that failed, with why. */
  function ruleTester(cases: { valid: string[]; invalid: { code: string; errors: number }[] }): string[] {
    const failures: string[] = [];
    const saved = { describe: RuleTester.describe, it: RuleTester.it, itOnly: RuleTester.itOnly };
    RuleTester.describe = (_title: string, fn: () => void) => fn();
    RuleTester.it = (title: string, fn: () => void) => {
      try {
        fn();
      } catch (err) {
        failures.push(`${title}\n    ${(err as Error).message.split('\n').join('\n    ')}`);
      }
    };
    RuleTester.itOnly = RuleTester.it;
    try {
      new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' } }).run('no-unguarded-skip', rule, {
        valid: cases.valid,
        invalid: cases.invalid.map((c) => ({ code: c.code, errors: c.errors })),
      });
    } finally {
      Object.assign(RuleTester, saved);
    }
    return failures;
  }

  it('allows a skip behind a real process.platform comparison with a comment, and what is no skip', () => {
    const failures = ruleTester({ valid, invalid: [] });
    assert.deepEqual(failures, [], failures.join('\n'));
  });

  it('flags each skip that is unguarded, behind no real comparison, without a comment, pending, or aliased', () => {
    const failures = ruleTester({ valid: [], invalid });
    assert.deepEqual(failures, [], failures.join('\n'));
  });

  it('says what it flagged', () => {
    const config = [{ plugins: { acp: { rules: { 'no-unguarded-skip': rule } } }, rules: { 'acp/no-unguarded-skip': 'error' as const }, languageOptions: { parser: tseslint.parser, ecmaVersion: 2024 as const, sourceType: 'module' as const } }];
    for (const c of invalid) {
      const messages = new Linter({ configType: 'flat' }).verify(c.code, config).map((m) => m.message);
      assert.equal(messages.length, c.errors, `${c.code}\n${messages.join('\n')}`);
      assert.ok(messages.every((m) => c.what.test(m)), `${c.code}\n${messages.join('\n')}`);
    }
  });
});
