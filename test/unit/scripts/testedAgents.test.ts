// scripts/tested-agents.mjs, run as CI runs it (a child Node process on files): the README's
// tested-agents table written from the interop results, and the check that it is current.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', '..', 'scripts', 'tested-agents.mjs');
const START = '<!-- tested-agents:start (written by scripts/tested-agents.mjs from the e2e interop results; do not edit) -->';
const END = '<!-- tested-agents:end -->';

describe('scripts/tested-agents.mjs', () => {
  let dir: string;
  let readme: string;
  let results: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tested-agents-'));
    readme = path.join(dir, 'README.md');
    results = path.join(dir, 'results.jsonl');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, '--readme', readme, '--results', results, ...args], { encoding: 'utf8' });
  const write = (lines: object[]) => fs.writeFileSync(results, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  const cells = (agent: string, version: string, ok = true, reported: string | undefined = version) => ['turn', 'mcp', 'resume', 'cancel'].map((cell) => ({ agent, version, cell, ok, reported }));
  const tableRows = () => fs.readFileSync(readme, 'utf8').split('\n').filter((l) => l.startsWith('| `'));

  it('writes one row per agent, sorted, between the markers; the check then passes, and fails once a cell changes', () => {
    fs.writeFileSync(readme, `# X\n\nbefore\n${START}\n${END}\nafter\n`);
    write([...cells('opencode-ai', '1.18.33'), ...cells('@zed-industries/codex-acp', '0.16.0'), { agent: 'opencode-ai', version: '1.18.33', cell: 'mcp', ok: false, note: 'no | server', reported: '1.18.33' }]);
    assert.equal(run().status, 0);
    assert.deepEqual(tableRows(), ['| `@zed-industries/codex-acp` | 0.16.0 | 1 | ✓ | ✓ | ✓ | ✓ |', '| `opencode-ai` | 1.18.33 | 1 | ✓ | ✗ no \\| server | ✓ | ✓ |']);
    const text = fs.readFileSync(readme, 'utf8');
    assert.ok(text.startsWith('# X\n\nbefore\n') && text.endsWith('\nafter\n'), text);
    assert.equal(run('--check', '--strict').status, 0);
    write(cells('opencode-ai', '1.18.33', false));
    const r = run('--check');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /not what the interop results give/);
    assert.equal(fs.readFileSync(readme, 'utf8'), text, '--check writes nothing');
  });

  it('keeps the rows and cells a partial run did not test; --strict names them; a new version resets the row', () => {
    fs.writeFileSync(readme, `${START}\n${END}\n`);
    write([...cells('a-agent', '1.0.0'), ...cells('b-agent', '2.0.0')]);
    assert.equal(run().status, 0);
    write([{ agent: 'a-agent', version: '1.0.0', cell: 'turn', ok: true, reported: '1.0.0' }]);
    assert.equal(run('--check').status, 0, 'what ran agrees; the rest is kept');
    const strict = run('--check', '--strict');
    assert.equal(strict.status, 1);
    assert.match(strict.stderr, /a-agent 1\.0\.0: mcp/);
    assert.match(strict.stderr, /b-agent 2\.0\.0: turn/);
    write([{ agent: 'a-agent', version: '1.1.0', cell: 'cancel', ok: true, reported: '1.1.0' }]);
    assert.equal(run().status, 0);
    assert.deepEqual(tableRows(), ['| `a-agent` | 1.1.0 | 1 | – | – | – | ✓ |', '| `b-agent` | 2.0.0 | 1 | ✓ | ✓ | ✓ | ✓ |']);
  });

  it('an agent over ACP v2 is a row of its own beside its v1 row; a table from before the ACP column is read as v1', () => {
    fs.writeFileSync(readme, `${START}\n| Agent (npm) | Version | Whole turn | MCP | Resume | Cancel |\n| --- | --- | --- | --- | --- | --- |\n| \`a-agent\` | 1.0.0 | ✓ | ✗ old | ✓ | ✓ |\n${END}\n`);
    write(cells('a-agent', '1.0.0').map((c) => ({ ...c, protocol: '2' })).map((c) => (c.cell === 'resume' ? { ...c, ok: false, note: 'v2 only' } : c)));
    assert.equal(run().status, 0);
    assert.deepEqual(tableRows(), ['| `a-agent` | 1.0.0 | 1 | ✓ | ✗ old | ✓ | ✓ |', '| `a-agent` | 1.0.0 | 2 | ✓ | ✓ | ✗ v2 only | ✓ |']);
    const strict = run('--check', '--strict');
    assert.equal(strict.status, 1, 'the v1 row was not run');
    assert.match(strict.stderr, /a-agent 1\.0\.0: turn/);
    assert.doesNotMatch(strict.stderr, /ACP v2/);
    write([{ agent: 'a-agent', version: '1.0.0', protocol: '3', cell: 'turn', ok: true, reported: '1.0.0' }]);
    assert.match(run().stderr, /not an interop result/);
  });

  it('fails, writing nothing, when an agent reported another version than the pinned one, or none; the message names both', () => {
    fs.writeFileSync(readme, `${START}\n${END}\n`);
    write([...cells('a-agent', '1.0.0'), ...cells('b-agent', '2.0.0', true, '2.0.1')]);
    for (const args of [[], ['--check']]) {
      const r = run(...args);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /b-agent: pinned at 2\.0\.0, but the agent reported 2\.0\.1 in this run/);
      assert.doesNotMatch(r.stderr, /a-agent/);
      assert.equal(fs.readFileSync(readme, 'utf8'), `${START}\n${END}\n`, 'no table from versions the run did not confirm');
    }
    write([...cells('a-agent', '1.0.0'), { agent: 'a-agent', version: '1.0.0', cell: 'resume', ok: true }]);
    const missing = run();
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /a-agent: pinned at 1\.0\.0, but the agent reported no version in this run.*reportedAgentVersion/);
    write(cells('a-agent', '1.0.0'));
    assert.equal(run().status, 0, 'the same version: written');
    assert.deepEqual(tableRows(), ['| `a-agent` | 1.0.0 | 1 | ✓ | ✓ | ✓ | ✓ |']);
  });

  it('says what is wrong with a results line or a README without markers', () => {
    fs.writeFileSync(readme, '# no table\n');
    write(cells('a-agent', '1.0.0'));
    const r = run();
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no tested-agents table/);
    fs.writeFileSync(readme, `${START}\n${END}\n`);
    fs.writeFileSync(results, '{"agent":"a","version":"1.0.0","cell":"speed","ok":true}\n');
    const bad = run();
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /results\.jsonl:1: not an interop result/);
  });
});
