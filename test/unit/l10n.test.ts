import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nJson, getL10nPseudoLocalized } from '@vscode/l10n-dev';

const ROOT = path.join(__dirname, '..', '..', '..');
const read = (p: string): any => JSON.parse(fs.readFileSync(path.join(ROOT, p), 'utf8'));

/** The fields of package.json a user reads (in the Marketplace, settings, menus, views, the walkthrough). */
const WORDS = new Set(['displayName', 'description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage', 'title', 'shortTitle', 'category', 'name', 'contextualTitle', 'contents', 'altText', 'label']);
const LISTS = new Set(['enumDescriptions', 'markdownEnumDescriptions', 'enumItemLabels']);

/** Every user-facing string of package.json, with where it is. */
function wordsOf(value: unknown, where: string, out: [string, string][]): [string, string][] {
  if (Array.isArray(value)) value.forEach((v, i) => wordsOf(v, `${where}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && WORDS.has(k)) out.push([`${where}.${k}`, v]);
      else if (LISTS.has(k) && Array.isArray(v)) v.forEach((s, i) => out.push([`${where}.${k}[${i}]`, String(s)]));
      else wordsOf(v, `${where}.${k}`, out);
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('l10n: nothing a user reads is left out of translation', () => {
  it('package.json takes every word from package.nls.json, and package.nls.json has no unused entry', () => {
    const pkg = read('package.json');
    const nls = read('package.nls.json') as Record<string, string>;
    const used = new Set<string>();
    // The top-level fields, the untrusted-workspace note and everything contributed.
    const words = wordsOf({ displayName: pkg.displayName, description: pkg.description, capabilities: pkg.capabilities, contributes: pkg.contributes }, 'package', []);
    assert.ok(words.length >= 70, `found the words (${words.length})`);
    for (const [where, s] of words) {
      const m = /^%([^%]+)%$/.exec(s);
      assert.ok(m, `${where} is "${s}": put it in package.nls.json`);
      assert.ok(typeof nls[m[1]!] === 'string' && nls[m[1]!]!.length > 0, `${where}: ${m[1]} is in package.nls.json`);
      used.add(m[1]!);
    }
    assert.deepEqual(Object.keys(nls).filter((k) => !used.has(k)), [], 'unused package.nls.json entries');
    assert.equal(pkg.l10n, './l10n');
  });

  it('l10n/bundle.l10n.json is the export of every l10n.t() in src/ (npm run l10n writes it)', async function () {
    // The exporter parses every source file (tree-sitter): about 10 s idle here, and it passed 30 s in a clean
    // clone whose tool installs filled both cores. A check of the bundle, not of speed: it may take its time.
    this.timeout(120_000);
    // Only the files that name l10n can call it: the others (over half) are not parsed.
    const files = sourceFiles(path.join(ROOT, 'src'))
      .map((f) => ({ extension: '.ts', contents: fs.readFileSync(f, 'utf8') }))
      .filter((f) => /\bl10n\b/.test(f.contents));
    const exported = await getL10nJson(files);
    const committed = read('l10n/bundle.l10n.json');
    assert.ok(Object.keys(exported).length >= 200, `strings marked for translation: ${Object.keys(exported).length}`);
    assert.deepEqual(committed, JSON.parse(JSON.stringify(exported)), 'run npm run l10n and commit l10n/bundle.l10n.json');
  });

  it('every message keeps its placeholders through a translation (the pseudo-locale)', () => {
    const bundle = read('l10n/bundle.l10n.json') as Record<string, string | { message: string; comment: string[] }>;
    const pseudo = getL10nPseudoLocalized(bundle) as Record<string, string>;
    const holes = (s: string): string[] => (s.match(/\{[^}]+\}/g) ?? []).sort();
    for (const [key, value] of Object.entries(bundle)) {
      const message = typeof value === 'string' ? value : value.message;
      assert.deepEqual(holes(String(pseudo[key])), holes(message), key);
      // Nothing English is left in the pseudo-translation but placeholders: the e2e pseudo-locale run relies on that.
      assert.doesNotMatch(String(pseudo[key]).replace(/\{[^}]+\}/g, ''), /[A-Za-z]{2}/, key);
    }
  });
});
