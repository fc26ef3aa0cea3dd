// What gemini-cli would load from a folder once trusted, the hash of it, and the user's answer.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeGeminiSettings, GeminiConfigTrust, scanGeminiFolder, type GeminiFolderConfig } from '../../../src/agents/geminiWorkspace';

function memento() {
  const data = new Map<string, unknown>();
  return { data, get: <T>(k: string) => data.get(k) as T | undefined, update: async (k: string, v: unknown) => void (v === undefined ? data.delete(k) : data.set(k, v)) };
}

describe('agents/geminiWorkspace: what gemini-cli would load from a trusted folder', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-ws-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };

  it('settings: MCP servers (named, with their command), hooks, tools and auto-accept count; UI-only settings do not; unreadable JSON counts', () => {
    const mcp = describeGeminiSettings('// comment\n{"mcpServers": {"x": {"command": "sh", "args": ["-c", "touch /tmp/p"]}},}')!;
    assert.match(mcp, /MCP servers it starts at once: x: sh -c touch \/tmp\/p/);
    assert.match(describeGeminiSettings('{"hooks": {}, "tools": {"allowed": ["run_shell_command"]}}')!, /settings: hooks, tools \(hooks, tools and auto-accept/);
    assert.match(describeGeminiSettings('{"autoAccept": true}')!, /autoAccept/);
    assert.equal(describeGeminiSettings('{"ui": {"theme": "Dark"}, "$schema": "x"}'), undefined);
    assert.equal(describeGeminiSettings('{}'), undefined);
    assert.match(describeGeminiSettings('{"mcpServers": ')!, /could not be read/);
    assert.match(describeGeminiSettings('[1]')!, /could not be read/);
  });

  it('finds settings, commands and .env files; nothing there: undefined', () => {
    assert.equal(scanGeminiFolder(dir), undefined);
    write('.gemini/settings.json', '{"ui": {}}');
    assert.equal(scanGeminiFolder(dir), undefined, 'harmless settings alone ask nothing');
    write('.gemini/settings.json', '{"mcpServers": {"x": {"command": "sh"}}}');
    write('.gemini/commands/deploy.toml', 'prompt = "x"');
    write('.gemini/commands/sub/more.toml', 'prompt = "y"');
    write('.gemini/.env', 'A=1');
    write('.env', 'B=2');
    const found = scanGeminiFolder(dir)!;
    assert.deepEqual(found.items.map((i) => i.file), ['.gemini/settings.json', '.gemini/commands', '.gemini/.env', '.env']);
    assert.match(found.items[1]!.detail, /2 file/);
    assert.equal(found.folder, dir);
    assert.match(found.hash, /^[0-9a-f]{64}$/);
  });

  it('the hash follows every file listed (contents, a new command) and the folder, and stays when nothing changed', () => {
    write('.env', 'A=1');
    const first = scanGeminiFolder(dir)!.hash;
    assert.equal(scanGeminiFolder(dir)!.hash, first);
    write('.env', 'A=2');
    const changed = scanGeminiFolder(dir)!.hash;
    assert.notEqual(changed, first);
    write('.gemini/commands/x.toml', 'prompt = "x"');
    assert.notEqual(scanGeminiFolder(dir)!.hash, changed);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-ws-'));
    try {
      fs.cpSync(dir, other, { recursive: true });
      assert.notEqual(scanGeminiFolder(other)!.hash, scanGeminiFolder(dir)!.hash, 'the same files in another folder ask again');
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('agents/geminiWorkspace: the user’s answer', () => {
  const config = (folder: string, hash: string): GeminiFolderConfig => ({ folder, hash, items: [{ file: '.env', detail: 'x' }] });
  function setup(found: Record<string, GeminiFolderConfig | undefined>, answers: boolean[]) {
    const m = memento();
    const asked: string[][] = [];
    const trust = new GeminiConfigTrust(
      m,
      async (_name, open) => {
        asked.push(open.map((c) => c.folder));
        return answers.shift() ?? false;
      },
      () => {},
      (f) => found[f],
    );
    return { m, asked, trust };
  }

  it('nothing to load: "none", no question', async () => {
    const { trust, asked } = setup({}, []);
    assert.equal(await trust.decide('Gemini', ['/w'], true), 'none');
    assert.deepEqual(asked, []);
  });

  it('declined (Escape): "declined", not asked again in this window; without asking, what is not accepted counts as declined', async () => {
    const { trust, asked } = setup({ '/w': config('/w', 'h1') }, [false]);
    assert.equal(await trust.decide('Gemini', ['/w'], false), 'declined', 'no dialog (launchSpec): not accepted');
    assert.deepEqual(asked, []);
    assert.equal(await trust.decide('Gemini', ['/w'], true), 'declined');
    assert.equal(await trust.decide('Gemini', ['/w'], true), 'declined');
    assert.deepEqual(asked, [['/w']], 'asked once');
    await trust.forgetAll();
    await trust.decide('Gemini', ['/w'], true);
    assert.equal(asked.length, 2, 'asked again once forgotten');
  });

  it('accepted: remembered in the workspace state by hash; a changed file asks again; two folders, one question for the open ones', async () => {
    const found: Record<string, GeminiFolderConfig | undefined> = { '/w': config('/w', 'h1'), '/v': undefined };
    const { trust, asked, m } = setup(found, [true, true]);
    assert.equal(await trust.decide('Gemini', ['/w', '/v', '/w'], true), 'trusted');
    assert.deepEqual(m.data.get('acpAgents.trustedGeminiConfig'), ['h1']);
    assert.equal(await trust.decide('Gemini', ['/w'], true), 'trusted');
    assert.equal(await trust.decide('Gemini', ['/w'], false), 'trusted', 'accepted: no dialog needed');
    assert.equal(asked.length, 1);
    found['/w'] = config('/w', 'h2');
    found['/v'] = config('/v', 'h3');
    assert.equal(await trust.decide('Gemini', ['/w', '/v'], true), 'trusted');
    assert.deepEqual(asked[1], ['/w', '/v']);
    assert.equal(trust.trustedCount(), 3, 'what Manage Trusted Workspace MCP Servers offers to revoke');
    await trust.forgetAll();
    assert.equal(trust.trustedCount(), 0);
    assert.equal(await trust.decide('Gemini', ['/w'], false), 'declined', 'revoked: no longer trusted without asking');
  });

  it('a failing dialog is a no; two starts at once ask once', async () => {
    const m = memento();
    let calls = 0;
    const trust = new GeminiConfigTrust(m, async () => (calls++, await new Promise<boolean>((r) => setTimeout(() => r(false), 10))), () => {}, () => config('/w', 'h1'));
    assert.deepEqual(await Promise.all([trust.decide('G', ['/w'], true), trust.decide('G', ['/w'], true)]), ['declined', 'declined']);
    assert.equal(calls, 1);
    const failing = new GeminiConfigTrust(memento(), async () => { throw new Error('gone'); }, () => {}, () => config('/w', 'h1'));
    assert.equal(await failing.decide('G', ['/w'], true), 'declined');
  });
});
