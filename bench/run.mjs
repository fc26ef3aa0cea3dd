// `npm run bench`: builds, then runs each benchmark and prints its numbers.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run(['esbuild.mjs', '--tests']);
run([path.join(root, 'out', 'bench', 'protocol.js')]);
