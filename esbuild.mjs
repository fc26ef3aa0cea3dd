// Builds the extension (Node, CommonJS, `vscode` external) and the chat webview
// (browser) into dist/. Flags:
//   --production  minify, no sourcemaps (what the .vsix ships)
//   --watch       rebuild on change
//   --tests       transpile src/, test/ and bench/ file by file into out/ for mocha
//   --test-hooks  the extension exports `testing` (the integration tests' hooks);
//                 never in the .vsix (`npm run package` builds without it)
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');
const testHooks = process.argv.includes('--test-hooks');

/** @type {import('esbuild').Plugin} */
const reportProblems = {
  name: 'report-problems',
  setup(build) {
    build.onEnd((result) => {
      for (const { text, location } of [...result.errors, ...result.warnings]) {
        const where = location ? `${location.file}:${location.line}:${location.column}: ` : '';
        console.error(`${where}${text}`);
      }
      if (watch) console.log(`[watch] build finished with ${result.errors.length} error(s)`);
    });
  },
};

/**
 * markdown-it imports only `decodeHTML` from `entities`, but the package's
 * index also builds the encoder's 23 KB table at load (a side effect, so no
 * tree-shaking drops it). Its own `entities/lib/decode.js` entry has the decoder alone.
 * @type {import('esbuild').Plugin}
 */
const entitiesDecodeOnly = {
  name: 'entities-decode-only',
  setup(build) {
    build.onResolve({ filter: /^entities$/ }, async (args) => {
      if (!/[\\/]markdown-it[\\/]/.test(args.importer)) return undefined;
      const r = await build.resolve('entities/lib/decode.js', { kind: args.kind, resolveDir: args.resolveDir });
      return r.errors.length ? { errors: r.errors } : { path: r.path };
    });
  },
};

/**
 * proper-lockfile (the stores' lock between windows, src/node/storeLock.ts)
 * loads graceful-fs, which patches `fs.close` for the whole process, and
 * signal-exit 3, which wraps `process.emit` and `process.reallyExit`. In the
 * extension host both would reach every other extension. It gets plain `fs`,
 * and an exit hook that does nothing: a lock still held when the host exits
 * goes stale in 2 s and the next window takes it over.
 * @type {import('esbuild').Plugin}
 */
const noGlobalPatches = {
  name: 'no-global-patches',
  setup(build) {
    build.onResolve({ filter: /^(graceful-fs|signal-exit)$/ }, (args) => {
      if (!/[\\/]proper-lockfile[\\/]/.test(args.importer)) return undefined;
      return args.path === 'graceful-fs' ? { path: 'fs', external: true } : { path: 'signal-exit', namespace: 'no-exit-hook' };
    });
    build.onLoad({ filter: /.*/, namespace: 'no-exit-hook' }, () => ({ contents: 'module.exports = function onExit() { return function remove() {}; };', loader: 'js' }));
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  legalComments: production ? 'none' : 'inline',
  logLevel: 'silent',
  plugins: [reportProblems, noGlobalPatches],
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'), __ACP_TEST_HOOKS__: String(testHooks) },
};

/**
 * The registry's archive code (tar, yauzl: about 90 KB) is not in extension.js: the installer's
 * `import('./archive')` loads dist/registryArchive.js when an agent is installed, not at activation.
 * @type {import('esbuild').Plugin}
 */
const lazyArchive = {
  name: 'lazy-archive',
  setup(build) {
    build.onResolve({ filter: /^\.\/archive\.js$/ }, (args) =>
      args.kind === 'dynamic-import' && /[\\/]registry[\\/]installer\.ts$/.test(args.importer) ? { path: './registryArchive.js', external: true } : undefined,
    );
  },
};

/**
 * The WebSocket library (`ws`: about 57 KB) is not in extension.js either: an agent by URL's first connection
 * (`import('ws')` in src/agents/agentSocket.ts) loads dist/wsClient.js.
 * @type {import('esbuild').Plugin}
 */
const lazyWs = {
  name: 'lazy-ws',
  setup(build) {
    build.onResolve({ filter: /^ws$/ }, (args) =>
      args.kind === 'dynamic-import' && /[\\/]agents[\\/]agentSocket\.ts$/.test(args.importer) ? { path: './wsClient.js', external: true } : undefined,
    );
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const bundles = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    mainFields: ['module', 'main'],
    plugins: [...common.plugins, lazyArchive, lazyWs],
    // import() as require(): the extension host's CommonJS loader, as for the rest of the bundle.
    supported: { 'dynamic-import': false },
  },
  {
    // The registry's archive unpacking (see lazyArchive), loaded by the installer on an install.
    ...common,
    entryPoints: ['src/agents/registry/archive.ts'],
    outfile: 'dist/registryArchive.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
  },
  {
    // The WebSocket client of agents by URL (see lazyWs), loaded on their first connection.
    ...common,
    entryPoints: ['src/agents/wsClient.ts'],
    outfile: 'dist/wsClient.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
  },
  {
    // bzip2 is unpacked in a child process (a bomb costs that process, never the extension host).
    ...common,
    entryPoints: ['src/agents/registry/bz2Worker.ts'],
    outfile: 'dist/bz2Worker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
  },
  {
    // The MCP relay an agent runs in place of a stdio MCP server (src/node/mcpRelay/main.ts).
    ...common,
    entryPoints: ['src/node/mcpRelay/main.ts'],
    outfile: 'dist/mcpRelay.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    // The editor-context MCP server as agents start it: a stdio shim back to the extension (Node built-ins only).
    ...common,
    entryPoints: ['src/services/editorContext/shim.ts'],
    outfile: 'dist/editorContextShim.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    plugins: [reportProblems, entitiesDecodeOnly],
    // For the benchmark's breakdown: when the bundle starts evaluating (before its dependencies).
    banner: { js: "performance.mark('acp:bundle');" },
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

/** The codicon font and its CSS, for the webview. */
function copyCodicons() {
  const from = path.join('node_modules', '@vscode', 'codicons', 'dist');
  fs.copyFileSync(path.join(from, 'codicon.ttf'), path.join('dist', 'codicon.ttf'));
  fs.writeFileSync(path.join('dist', 'codicon.css'), codiconCss(fs.readFileSync(path.join(from, 'codicon.css'), 'utf8')));
}

/** codicon.css with the font URL the webview preloads. */
function codiconCss(original) {
  // Without the cache-busting query, so that the webview can preload the font by the same URL.
  const css = original.replace(/codicon\.ttf\?[^"')]*/g, 'codicon.ttf');
  if (!/url\("\.\/codicon\.ttf"\)/.test(css)) throw new Error('dist/codicon.css: the font URL is not "./codicon.ttf" (the webview preloads it by that URL)');
  return css;
}

/**
 * The .vsix's codicons: only the icons the panel can show. An icon is kept when
 * its name appears as a string anywhere in the bundles or the panel's CSS (icon
 * names are string literals: `icon('check')`, TOOL_ICONS…), so the set is a
 * superset of those used; its glyphs are cut out of the font with subset-font.
 * The font of all ~650 icons is 123 KB; the hundred or so kept are a few KB.
 */
async function subsetCodicons() {
  const { default: subsetFont } = await import('subset-font');
  const from = path.join('node_modules', '@vscode', 'codicons', 'dist');
  const css = codiconCss(fs.readFileSync(path.join(from, 'codicon.css'), 'utf8'));
  const texts = ['dist/webview.js', 'dist/extension.js', 'media/chat.css'].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const rule = /^\.codicon-([a-z0-9-]+):before \{ content: "\\([0-9a-f]+)" \}\n/gm;
  const kept = [];
  const out = css.replace(rule, (line, name, hex) => {
    const named = new RegExp(`["'\`]${name}["'\`]|codicon-${name}\\b`).test(texts);
    if (!named) return '';
    kept.push(String.fromCodePoint(parseInt(hex, 16)));
    return line;
  });
  if (kept.length < 10) throw new Error(`dist/codicon.css: only ${kept.length} icons found in the bundles; is the icon lookup broken?`);
  const font = await subsetFont(fs.readFileSync(path.join(from, 'codicon.ttf')), kept.join(''), { targetFormat: 'truetype' });
  fs.writeFileSync(path.join('dist', 'codicon.ttf'), font);
  fs.writeFileSync(path.join('dist', 'codicon.css'), out);
}

/**
 * dist/ThirdPartyNotices.txt: the licence of every package whose code the
 * bundles contain (read from esbuild's metafile), plus the codicon font, so the
 * minified bundles (which drop legal comments) ship the notices they owe.
 * @param {import('esbuild').Metafile[]} metafiles
 */
const MIT_TEXT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

function writeNotices(metafiles) {
  const dirs = new Set(['node_modules/@vscode/codicons']);
  for (const m of metafiles) {
    for (const input of Object.keys(m.inputs)) {
      const at = input.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const parts = input.slice(at + 'node_modules/'.length).split('/');
      const name = parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (name) dirs.add(input.slice(0, at) + 'node_modules/' + name);
    }
  }
  const sections = [...dirs].map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
    // A package that ships no licence text (e.g. @vscode/l10n) but declares MIT gets the MIT text with its author.
    if (!file && !(pkg.license === 'MIT' && author)) throw new Error(`${pkg.name}: no licence file to ship in ThirdPartyNotices.txt`);
    const text = file ? fs.readFileSync(path.join(dir, file), 'utf8').trim() : `Copyright (c) ${author}\n\n${MIT_TEXT}`;
    return `${pkg.name} ${pkg.version} (${pkg.license ?? 'see below'})\n${'-'.repeat(72)}\n${text}\n`;
  });
  sections.sort();
  const head = 'ACP Agents for VS Code includes the following third-party software. Their licences follow.\n\n';
  fs.writeFileSync(path.join('dist', 'ThirdPartyNotices.txt'), head + sections.join('\n'));
}

function listTs(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts') && !d.name.endsWith('.d.ts'))
    .map((d) => path.join(d.parentPath ?? d.path, d.name));
}

async function main() {
  if (tests) {
    fs.rmSync('out', { recursive: true, force: true });
    await esbuild.build({
      entryPoints: [...listTs('src'), ...listTs('test'), ...listTs('bench')],
      outdir: 'out',
      outbase: '.',
      bundle: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'warning',
      define: { __ACP_TEST_HOOKS__: 'true' },
    });
    return;
  }
  if (watch) {
    fs.mkdirSync('dist', { recursive: true });
    copyCodicons();
    const contexts = await Promise.all(bundles.map((b) => esbuild.context(b)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('[watch] watching src/ for changes');
    return;
  }
  fs.rmSync('dist', { recursive: true, force: true });
  const results = await Promise.all(bundles.map((b) => esbuild.build({ ...b, metafile: true })));
  if (results.some((r) => r.errors.length > 0)) process.exit(1);
  if (production) await subsetCodicons();
  else copyCodicons();
  writeNotices(results.flatMap((r) => (r.metafile ? [r.metafile] : [])));
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
