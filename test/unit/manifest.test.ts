// package.json as the Marketplace and Open VSX read it: the settings' order,
// the version claim, and what the .vsix ships.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');
const read = (p: string): string => fs.readFileSync(path.join(ROOT, p), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  version: string;
  preview?: boolean;
  engines: { vscode: string };
  repository: { url: string };
  contributes: { configuration: { properties: Record<string, { order?: number }> }; menus: Record<string, { command: string; when?: string }[]> };
  devDependencies: Record<string, string>;
};

const semver = (v: string) => (/(\d+)\.(\d+)\.(\d+)/.exec(v) ?? []).slice(1).map(Number);
const cmp = (a: number[], b: number[]) => a.reduce((d, x, i) => d || x - (b[i] ?? 0), 0);

describe('package.json for the Marketplace and Open VSX', () => {
  it('settings have an order: acpAgents.agents first, no two alike', () => {
    const props = pkg.contributes.configuration.properties;
    const ordered = Object.entries(props).filter(([, p]) => p.order !== undefined);
    const first = ordered.reduce((a, b) => (b[1].order! < a[1].order! ? b : a));
    assert.equal(first[0], 'acpAgents.agents');
    const orders = ordered.map(([, p]) => p.order);
    assert.equal(new Set(orders).size, orders.length, 'two settings share an order');
  });

  it('a menu item for files also shows in remote windows (SSH, WSL, containers), whose UI names their files vscode-remote:', () => {
    // There the extension host is given file: URIs, but the UI's resourceScheme context key is vscode-remote.
    const items = Object.entries(pkg.contributes.menus).flatMap(([menu, list]) => list.map((i) => ({ menu, ...i })));
    const aboutScheme = items.filter((i) => i.when?.includes('resourceScheme'));
    assert.ok(aboutScheme.length >= 8, `menu items about the resource's scheme: ${aboutScheme.length}`);
    for (const i of aboutScheme) assert.match(i.when!, /resourceScheme =~ \/\^\(file\|vscode-remote\)\$\//, `${i.menu} ${i.command}: ${i.when}`);
  });

  it('is a preview while its version is 0.x', () => {
    if (pkg.version.startsWith('0.')) assert.equal(pkg.preview, true);
  });

  it('claims the VS Code that the oldest test host is (1.96), and types no newer API than it', () => {
    const claim = semver(pkg.engines.vscode);
    assert.match(pkg.engines.vscode, /^\^1\.96\.0$/);
    const types = semver(JSON.parse(read('node_modules/@types/vscode/package.json')).version as string);
    assert.ok(cmp(types, claim) <= 0, `@types/vscode ${types.join('.')} is newer than engines.vscode ${pkg.engines.vscode}`);
    assert.equal(semver(pkg.devDependencies['@types/vscode']!)[1]! <= claim[1]!, true);
  });

  it('README pictures resolve on the Marketplace: relative links need a GitHub repository', () => {
    assert.match(pkg.repository.url, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+(\.git)?$/);
    for (const [, src] of read('README.md').matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) {
      if (/^https:\/\//.test(src!)) continue;
      assert.ok(fs.existsSync(path.join(ROOT, src!)), `README picture ${src} is missing`);
    }
  });

  it('.vscodeignore ships only what a user needs: no screenshots, sources, tests or developer notes', () => {
    const lines = read('.vscodeignore').split('\n').map((l) => l.trim());
    // An allow-list: everything is left out, then what ships is named.
    assert.ok(lines.includes('**'));
    const allowed = lines.filter((l) => l.startsWith('!')).map((l) => l.slice(1));
    for (const bad of ['src', 'test', 'media/screenshots', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'out', 'node_modules']) {
      assert.ok(!allowed.some((a) => a === bad || a.startsWith(`${bad}/`)), `${bad} is shipped`);
    }
    assert.ok(allowed.includes('dist/ThirdPartyNotices.txt'));
  });
});
