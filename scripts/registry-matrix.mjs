// npm run registry-matrix: every npx agent of the ACP Registry snapshot the extension ships
// (media/registry-snapshot.json), installed at its pinned version into the test cache and taken
// through the handshake by the extension's own modules (test/registryMatrix/driver.ts). Writes
// docs/registry-matrix.md. Not part of `npm test`; starts no VS Code, so it takes no real-host lock.
//
//   npm run registry-matrix                    every npx agent
//   npm run registry-matrix -- --only gemini   only these ids (comma-separated)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_ROOT, ensureNode } from '../test/harness/tools.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, ['esbuild.mjs', '--tests'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// The agents run on the test cache's Node (what the other real-agent tiers use), found first on PATH.
const nodeBin = ensureNode();
const env = { ...process.env, PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}` };
const cache = path.join(CACHE_ROOT, 'registry-matrix');
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-registry-matrix-'));
const args = [
  path.join(ROOT, 'out', 'test', 'registryMatrix', 'driver.js'),
  path.join(ROOT, 'media', 'registry-snapshot.json'),
  cache,
  runDir,
  path.join(ROOT, 'docs', 'registry-matrix.md'),
  ...process.argv.slice(2),
];
const res = spawnSync(nodeBin, args, { cwd: ROOT, env, stdio: 'inherit' });
fs.rmSync(runDir, { recursive: true, force: true });
process.exit(res.status ?? 1);
