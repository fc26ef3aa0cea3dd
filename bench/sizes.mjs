// The sizes of what the .vsix ships, from `npm run package`'s output (dist/ built for production,
// and the .vsix): printed, and recorded for `npm run bench -- --check` (bench/budgets.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vsixPath } from '../test/e2e/workbench.mjs';
import { figure } from './budgets.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kb = (/** @type {string} */ f) => fs.statSync(f).size / 1024;
const fmt = (/** @type {number} */ n) => n.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

console.log('\nSizes');
for (const f of ['dist/extension.js', 'dist/webview.js', 'dist/codicon.ttf', 'dist/codicon.css', 'media/chat.css']) {
  console.log(`  ${f.padEnd(56)} ${fmt(kb(path.join(ROOT, f))).padStart(7)} KB`);
}
console.log(`  ${path.basename(vsixPath()).padEnd(56)} ${fmt(kb(vsixPath())).padStart(7)} KB`);
figure('size.extension.jsKB', kb(path.join(ROOT, 'dist/extension.js')));
figure('size.webview.jsKB', kb(path.join(ROOT, 'dist/webview.js')));
figure('size.vsixKB', kb(vsixPath()));
