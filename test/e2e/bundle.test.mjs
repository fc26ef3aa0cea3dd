// What ships: the packaged .vsix carries the production bundle without the
// integration tests' hooks (they are built only with `esbuild.mjs --test-hooks`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import { ROOT } from '../harness/testEnv.mjs';

/**
 * The text of one entry of a zip file.
 * @param {string} zipFile
 * @param {string} name
 * @returns {Promise<string>}
 */
function readEntry(zipFile, name) {
  return new Promise((resolve, reject) => {
    yauzl.open(zipFile, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      let found = false;
      zip.on('entry', (entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        found = true;
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          /** @type {Buffer[]} */
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
        });
      });
      zip.on('end', () => (found ? undefined : reject(new Error(`${name} is not in ${zipFile}`))));
      zip.readEntry();
    });
  });
}

/**
 * Every entry name of a zip file.
 * @param {string} zipFile
 * @returns {Promise<string[]>}
 */
function entries(zipFile) {
  return new Promise((resolve, reject) => {
    yauzl.open(zipFile, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      /** @type {string[]} */
      const names = [];
      zip.on('entry', (entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

describe('e2e: the packaged .vsix', function () {
  it('ships the extension without test hooks', async function () {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    const vsix = path.join(ROOT, `acp-agents-${version}.vsix`);
    const bundle = await readEntry(vsix, 'extension/dist/extension.js');
    assert.ok(bundle.length > 50_000, `the bundle is there (${bundle.length} bytes)`);
    assert.match(bundle, /openPastSession/, 'the public API is in it');
    for (const hook of ['setAccessAnswer', 'setMcpTrustAnswer', 'openChatWithoutFolder', 'stopAllAgents', 'watchRegistryPicks']) assert.doesNotMatch(bundle, new RegExp(hook), `no test hook "${hook}"`);
  });

  it('stays under 1 MB with the registry snapshot and the bzip2 decoder inside', async function () {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    const vsix = path.join(ROOT, `acp-agents-${version}.vsix`);
    const size = fs.statSync(vsix).size;
    assert.ok(size < 1024 * 1024, `${size} bytes`);
    const snapshot = JSON.parse(await readEntry(vsix, 'extension/media/registry-snapshot.json'));
    assert.ok(snapshot.agents.length >= 10, 'the snapshot is a registry');
    assert.match(await readEntry(vsix, 'extension/dist/bz2Worker.js'), /bzip2|unbzip2|bz2/i);
    // The archive code an install loads (not extension.js: it is not needed at activation).
    assert.match(await readEntry(vsix, 'extension/dist/registryArchive.js'), /extractArchive/);
    const main = await readEntry(vsix, 'extension/dist/extension.js');
    assert.doesNotMatch(main, /TAR_BAD_ARCHIVE/, 'node-tar is not in extension.js');
    // The WebSocket client of agents by URL, loaded on their first connection (not at activation).
    assert.match(await readEntry(vsix, 'extension/dist/wsClient.js'), /Sec-WebSocket-Key/);
    assert.doesNotMatch(main, /Sec-WebSocket-Key/, 'ws is not in extension.js');
    // Every file extension.js loads later is in the .vsix (.vscodeignore is an allow-list).
    const lazy = [...main.matchAll(/require\("\.\/([\w.-]+\.js)"\)/g)].map((m) => m[1]);
    assert.ok(lazy.includes('wsClient.js') && lazy.includes('registryArchive.js'), lazy.join(', '));
    for (const f of lazy) assert.ok((await readEntry(vsix, `extension/dist/${f}`)).length > 1000, `dist/${f} is in the .vsix`);
    // The MCP relay agents run in place of stdio MCP servers (a program of its own).
    assert.match(await readEntry(vsix, 'extension/dist/mcpRelay.js'), /ACP_MCP_RELAY/);
    // The walkthrough's images are in it (package.json names them).
    const manifest = JSON.parse(await readEntry(vsix, 'extension/package.json'));
    for (const step of manifest.contributes.walkthroughs[0].steps) assert.ok((await readEntry(vsix, `extension/${step.media.image}`)).length > 1000, step.media.image);
  });

  it('is ready for the Marketplace: README pictures are in the repository (media/screenshots) and not in the .vsix; a gallery banner', async function () {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const vsix = path.join(ROOT, `acp-agents-${pkg.version}.vsix`);
    const names = await entries(vsix);
    assert.deepEqual(names.filter((n) => n.includes('screenshots/')), []);
    assert.ok(names.includes('extension/media/icon.png'));
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const pictures = [...readme.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(pictures.length >= 8, `${pictures.length} pictures in the README`);
    for (const p of pictures) {
      assert.match(p, /^media\/screenshots\/[\w-]+\.png$/, 'relative, so vsce points the Marketplace at the repository');
      assert.ok(fs.existsSync(path.join(ROOT, p)), `${p} exists`);
    }
    assert.match(pkg.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.ok(pkg.repository?.url && pkg.bugs?.url && pkg.homepage);
    // What ships is only what the extension runs, and its words: nothing of the sources, tests or pictures.
    const shipped = names.filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length)).sort();
    const allowed = /^(package\.json|package\.nls(\.[\w-]+)?\.json|README\.md|CHANGELOG\.md|LICENSE(\.txt)?|dist\/[\w.-]+\.(js|css|ttf)|dist\/ThirdPartyNotices\.txt|l10n\/bundle\.l10n(\.[\w-]+)?\.json|media\/[\w-]+\.(svg|png|css|json)|media\/walkthrough\/[\w-]+\.png)$/i;
    assert.deepEqual(shipped.filter((n) => !allowed.test(n)), [], 'only what runs ships');
    for (const must of ['dist/extension.js', 'dist/webview.js', 'package.nls.json', 'l10n/bundle.l10n.json']) assert.ok(shipped.includes(must), `${must} ships`);
  });

  it('patches nothing the extension host shares: no graceful-fs patching fs, no exit hook wrapping process.emit', async function () {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const vsix = path.join(ROOT, `acp-agents-${pkg.version}.vsix`);
    const main = await readEntry(vsix, 'extension/dist/extension.js');
    // proper-lockfile would load both (esbuild.mjs, no-global-patches); their marks survive minifying.
    assert.ok(main.length > 100_000, 'the bundle was read');
    assert.equal(main.includes('graceful-fs.queue'), false, 'graceful-fs (patches fs.close for every extension) is not bundled');
    assert.equal(main.includes('reallyExit'), false, 'signal-exit (wraps process.emit and process.reallyExit) is not bundled');
    const notices = await readEntry(vsix, 'extension/dist/ThirdPartyNotices.txt');
    assert.ok(notices.includes('\nproper-lockfile '), 'the lock library itself ships');
  });

  it('ships the licence notices of every library in its bundles', async function () {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const vsix = path.join(ROOT, `acp-agents-${pkg.version}.vsix`);
    const notices = await readEntry(vsix, 'extension/dist/ThirdPartyNotices.txt');
    // No node_modules ship: every runtime dependency is inside a bundle, and the codicon font is copied.
    const owed = [...Object.keys(pkg.dependencies), '@vscode/codicons'];
    for (const name of owed) {
      const at = notices.indexOf(`\n${name} `);
      assert.ok(at >= 0, `${name} has a section`);
      const section = notices.slice(at, notices.indexOf('\n-----', at) + 1500);
      assert.match(section, /copyright|licen[cs]e/i, `${name}: a licence text follows`);
    }
    // The minified bundles drop the libraries' own headers: the notices file carries the texts (DOMPurify's Apache-2.0, the MIT ones).
    assert.match(notices, /\ndompurify [\d.]+ \(\(MPL-2\.0 OR Apache-2\.0\)\)\n-+\n\s*Apache License/);
    assert.match(notices, /Permission is hereby granted/);
  });

  // 520 KB since agents by URL: the ws library (dist/wsClient.js) adds about 14 KB to the .vsix (it was 487 KB before).
  // 540 KB since session worktrees (#39): about 11 KB more (529.2 KB on 30 Nov).
  it('stays at or under 540 KB: the codicons are only those the panel shows, and each of those is there', async function () {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    const vsix = path.join(ROOT, `acp-agents-${version}.vsix`);
    const size = fs.statSync(vsix).size;
    assert.ok(size <= 540 * 1024, `${(size / 1024).toFixed(1)} KB`);
    const shipped = await readEntry(vsix, 'extension/dist/codicon.css');
    const all = fs.readFileSync(path.join(ROOT, 'node_modules', '@vscode', 'codicons', 'dist', 'codicon.css'), 'utf8');
    const known = new Set([...all.matchAll(/^\.codicon-([a-z0-9-]+):before/gm)].map((m) => m[1]));
    const kept = new Set([...shipped.matchAll(/^\.codicon-([a-z0-9-]+):before/gm)].map((m) => m[1]));
    assert.ok(kept.size < known.size / 4, `${kept.size} of ${known.size} icons ship`);
    // The names the panel's code gives icon(), button() and its icon tables: every quoted codicon name on such a line.
    const used = new Set();
    for (const file of fs.readdirSync(path.join(ROOT, 'src', 'webview'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      for (const line of fs.readFileSync(path.join(ROOT, 'src', 'webview', file), 'utf8').split('\n')) {
        if (!/\bicon\(|button\(|ICONS|row\(/.test(line)) continue;
        for (const [, name] of line.matchAll(/'([a-z0-9-]+)'/g)) if (known.has(name)) used.add(name);
      }
    }
    assert.ok(used.size >= 15, `found ${used.size} icon names in src/webview`);
    assert.deepEqual([...used].filter((n) => !kept.has(n)), [], 'icons the panel uses are missing from dist/codicon.css');
  });

  it('packages without a warning from vsce', function () {
    this.timeout(120_000);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', path.join(os.tmpdir(), `acp-vsce-${process.pid}.vsix`)], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'silent' } });
    assert.equal(r.status, 0, r.stderr);
    const warnings = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /WARNING|warn/i.test(l) && !/nodedir|npm warn/i.test(l));
    assert.deepEqual(warnings, []);
  });
});
