import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { noUnguardedSkip } from './test/lint/noUnguardedSkip.mjs';

/**
 * The floors of the code, bottom to top. A module may import from its own
 * floor and the floors below it, never from one above (ARCHITECTURE.md,
 * "Layers"). Only the shell floor may import `vscode`.
 */
const FLOORS = [
  { name: 'shared', may: ['shared'] },
  { name: 'acp', may: ['shared', 'acp'] },
  { name: 'node', may: ['shared', 'node'] },
  { name: 'agents', may: ['shared', 'acp', 'node', 'agents'] },
  { name: 'sessions', may: ['shared', 'acp', 'node', 'agents', 'sessions'] },
];
const ALL = ['shared', 'acp', 'node', 'agents', 'sessions', 'services', 'chat', 'ui', 'commands'];
const TOP = ['extension', 'ctx', 'config', 'logging'];

/** no-restricted-imports patterns that forbid every folder not in `may`, the top-level shell files, and `vscode`. */
function restrict(may, { vscode = false, node = true, top = TOP } = {}) {
  const forbidden = ALL.filter((f) => !may.includes(f));
  const patterns = [
    ...forbidden.map((f) => ({ group: [`**/${f}/*`, `../${f}`, `./${f}`], message: `this floor may not import from ${f}/ (it is above it): see ARCHITECTURE.md "Layers"` })),
    { group: top.flatMap((t) => [`../${t}`, `../../${t}`]), message: 'the shell (extension, ctx, config, logging) is the top floor: pass what you need in instead' },
  ];
  if (!node) patterns.push({ group: ['node:*'], message: 'shared/ runs in the webview too: no Node modules' });
  return ['error', { paths: vscode ? [] : [{ name: 'vscode', message: 'only the shell (services/, chat/, ui/, commands/, extension.ts, ctx.ts, config.ts, logging.ts) imports vscode' }], patterns }];
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '**/*.js', 'test-results/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false }],
      eqeqeq: ['error', 'smart'],
      // protocol.ts follows vscode-languageserver-node: one namespace per method.
      '@typescript-eslint/no-namespace': 'off',
    },
  },
  // No test is skipped but behind a platform guard that says why (issue 26; the rule: test/lint/noUnguardedSkip.mjs).
  { files: ['test/**/*.ts', 'test/**/*.mjs'], plugins: { acp: { rules: { 'no-unguarded-skip': noUnguardedSkip } } }, rules: { 'acp/no-unguarded-skip': 'error' } },
  // The floors: no import runs back up.
  ...FLOORS.map((f) => ({ files: [`src/${f.name}/**/*.ts`], rules: { 'no-restricted-imports': restrict(f.may, { node: f.name !== 'shared' }) } })),
  { files: ['src/services/**/*.ts'], rules: { 'no-restricted-imports': restrict(['shared', 'acp', 'node', 'agents', 'sessions', 'services'], { vscode: true }) } },
  { files: ['src/chat/**/*.ts', 'src/ui/**/*.ts'], rules: { 'no-restricted-imports': restrict(['shared', 'acp', 'node', 'agents', 'sessions', 'services', 'chat', 'ui'], { vscode: true }) } },
  // Commands are the shell's: they get the Ctx (and through it everything); only extension.ts is above them.
  { files: ['src/commands/**/*.ts'], rules: { 'no-restricted-imports': restrict(ALL, { vscode: true, top: ['extension'] }) } },
  // The shell's own settings and logs sit below the Ctx that holds them.
  { files: ['src/config.ts', 'src/logging.ts'], rules: { 'no-restricted-imports': restrict(['shared', 'acp', 'node', 'agents', 'sessions', 'services'], { vscode: true, top: ['extension', 'ctx'] }) } },
  {
    // The webview is a browser bundle: it shares only src/shared with the extension.
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'the webview runs in a browser' }],
          patterns: [
            { group: ['../*', '!../shared', '!../shared/*'], message: 'the webview imports only from src/shared' },
            { group: ['node:*'], message: 'the webview runs in a browser' },
          ],
        },
      ],
    },
  },
  // Guards against regrowth (issue 25): past 500 lines a file holds more than one feature — give one its own
  // file (a session part, see ARCHITECTURE.md "How to add a session feature"). A warning, shown in the lint output.
  { files: ['src/sessions/**/*.ts', 'src/chat/**/*.ts', 'src/webview/**/*.ts'], rules: { 'max-lines': ['warn', { max: 500 }] } },
  // Errors (issue 36): the session facade and the composition root kept small. A new session feature is a part
  // (at most 3 lines of agentSession.ts); ctx.ts only builds and connects, the wiring lives with its module.
  { files: ['src/sessions/agentSession.ts'], rules: { 'max-lines': ['error', { max: 400 }] } },
  { files: ['src/ctx.ts'], rules: { 'max-lines': ['error', { max: 300 }] } },
  {
    // The item views, a folder down: the rest of the webview, and src/shared.
    files: ['src/webview/items/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'the webview runs in a browser' }],
          patterns: [
            { group: ['../../*', '!../../shared', '!../../shared/*'], message: 'the webview imports only from src/shared' },
            { group: ['node:*'], message: 'the webview runs in a browser' },
          ],
        },
      ],
    },
  },
  {
    // Test and benchmark scripts: linted, with the Node (and, in page callbacks, browser) globals they run with.
    files: ['test/**/*.mjs', 'bench/**/*.mjs', '*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.mocha, ...globals.browser },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'smart'],
    },
  },
);
