// `npm run bench`: builds, then runs each benchmark and prints its numbers.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (/** @type {string[]} */ args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run(['esbuild.mjs', '--tests']);
run([path.join(root, 'out', 'bench', 'protocol.js')]);
run([path.join(root, 'out', 'bench', 'mcpRelay.js')]);
// The webview benchmarks run against the packaged .vsix in the real host.
const pkg = spawnSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (pkg.status !== 0) process.exit(pkg.status ?? 1);
run([path.join(root, 'bench', 'webview.mjs')]);
run([path.join(root, 'bench', 'terminal.mjs')]);
