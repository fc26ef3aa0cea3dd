// What a session keeps beside its archive (pins, context folders, checkpoints):
// files in today's format still load, a bad file is an empty value with a log
// line, writes go through the stores' disk seam, and deleting a session takes
// every kind with it.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diskIo, fullDiskIo } from '../../../src/node/storeIo';
import { Checkpoints, CHECKPOINTS_FORMAT } from '../../../src/sessions/checkpoints/checkpoints';
import { PINS_FORMAT } from '../../../src/sessions/parts/pins';
import { FOLDERS_FORMAT } from '../../../src/sessions/parts/sessionFolders';
import { SIDECAR_KINDS, sessionSidecar } from '../../../src/sessions/store/sessionSidecar';
import { TranscriptArchive } from '../../../src/sessions/store/transcriptArchive';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('sessions: what a session keeps beside its archive', () => {
  let dir: string;
  let archive: TranscriptArchive;
  let logs: string[];
  const log = (m: string) => void logs.push(m);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-sidecar-'));
    archive = new TranscriptArchive(dir, () => 1 << 20);
    logs = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const put = (sid: string, kind: string, text: string) => {
    const file = path.join(dir, 'agent', `${sid}.${kind}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };

  it('files written by the previous version (same names, same records) load: pins, folders, checkpoints', async () => {
    put('s1', 'pins', '{"v":1,"pins":[{"role":"user","ordinal":1,"hash":"0123456789abcdef","text":"And farewell?"},{"role":"agent","ordinal":0,"hash":"fedcba9876543210","text":"Done."}]}');
    put('s1', 'folders', '{"v":1,"folders":["/work/lib","/work/docs"],"real":{"/work/lib":"/real/lib"}}');
    const a0 = Buffer.from('a0').toString('base64');
    put('s1', 'checkpoints', `{"v":1,"seq":3,"turns":[{"id":"cp3","text":"change a","at":5,"before":{"/a":"${sha1('a0')}","/gone":0},"after":{"/a":"${sha1('a1')}","/gone":null}}],"blobs":{"${sha1('a0')}":"${a0}","${sha1('a1')}":"${Buffer.from('a1').toString('base64')}"}}`);
    assert.deepEqual(await sessionSidecar(archive, PINS_FORMAT, 'agent', 's1', log).read(), [
      { role: 'user', ordinal: 1, hash: '0123456789abcdef', text: 'And farewell?' },
      { role: 'agent', ordinal: 0, hash: 'fedcba9876543210', text: 'Done.' },
    ]);
    const folders = await sessionSidecar(archive, FOLDERS_FORMAT, 'agent', 's1', log).read();
    assert.deepEqual(folders.folders, [path.resolve('/work/lib'), path.resolve('/work/docs')]);
    assert.deepEqual([...folders.real], [[path.resolve('/work/lib'), path.resolve('/real/lib')]]);
    const files = new Map([['/a', Buffer.from('a1')]]);
    const cps = new Checkpoints(() => sessionSidecar(archive, CHECKPOINTS_FORMAT, 'agent', 's1', log), (f) => files.get(f) ?? null);
    await cps.load();
    assert.deepEqual(cps.list(), [{ id: 'cp3', text: 'change a' }]);
    assert.deepEqual(cps.plan('cp3')?.map((e) => `${e.path}:${e.action}:${e.target?.toString() ?? e.target}`), ['/a:restore:a0', '/gone:unknown:undefined']);
    assert.notEqual(cps.begin('next'), 'cp3', 'the next id follows the stored seq');
    assert.deepEqual(logs, []);
  });

  it('what is written is the same record, under the same name, as before', async () => {
    const pins = sessionSidecar(archive, PINS_FORMAT, 'agent', 's1', log);
    await pins.write([{ role: 'user', ordinal: 0, hash: '0123456789abcdef', text: 'hi' }]);
    assert.equal(pins.file, path.join(dir, 'agent', 's1.pins.json'));
    assert.deepEqual(JSON.parse(fs.readFileSync(pins.file, 'utf8')), { v: 1, pins: [{ role: 'user', ordinal: 0, hash: '0123456789abcdef', text: 'hi' }] });
    const folders = sessionSidecar(archive, FOLDERS_FORMAT, 'agent', 's1', log);
    await folders.write({ folders: ['/x', '/y'], real: new Map([['/y', '/real/y'], ['/z', '/real/z']]) });
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'agent', 's1.folders.json'), 'utf8')), { v: 1, folders: ['/x', '/y'], real: { '/y': '/real/y' } });
  });

  it('a damaged, unknown-version or oversized file reads as empty, each with one log line naming it; a missing one silently', async () => {
    const cases: [string, string, RegExp][] = [
      ['damaged', '{"v":1,"pins":[', /not JSON/],
      ['newer', '{"v":2,"pins":[]}', /version 2, not 1/],
      ['array', '[1,2]', /not a record/],
      ['big', `{"v":1,"pins":[],"pad":"${'x'.repeat(PINS_FORMAT.maxBytes)}"}`, /more than the \d+ read/],
    ];
    for (const [sid, text, why] of cases) {
      const file = put(sid, 'pins', text);
      logs = [];
      assert.deepEqual(await sessionSidecar(archive, PINS_FORMAT, 'agent', sid, log).read(), [], sid);
      assert.equal(logs.length, 1, `${sid}: ${JSON.stringify(logs)}`);
      assert.ok(logs[0]!.startsWith(`pins: ${file}`), logs[0]);
      assert.match(logs[0]!, why);
    }
    logs = [];
    assert.deepEqual(await sessionSidecar(archive, FOLDERS_FORMAT, 'agent', 'none', log).read(), { folders: [], real: new Map() });
    assert.deepEqual(logs, []);
  });

  it('writes go through the stores’ disk: a full disk is logged, never thrown, and leaves the old file whole', async () => {
    const pins = sessionSidecar(archive, PINS_FORMAT, 'agent', 's1', log);
    await pins.write([]);
    archive.io = fullDiskIo();
    await pins.write([{ role: 'agent', ordinal: 2, hash: '0123456789abcdef', text: 'lost' }]);
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /^pins: not saved \(ENOSPC/);
    assert.deepEqual(JSON.parse(fs.readFileSync(pins.file, 'utf8')), { v: 1, pins: [] });
    archive.io = diskIo;
    await pins.write([{ role: 'agent', ordinal: 2, hash: '0123456789abcdef', text: 'kept' }]);
    assert.equal((await pins.read())[0]?.text, 'kept');
  });

  it('deleting a session removes its archive and every kind it keeps; another session’s files stay', async () => {
    archive.append('agent', 's1', { n: 1 });
    archive.append('agent', 's10', { n: 1 });
    await archive.flush();
    for (const kind of SIDECAR_KINDS) {
      put('s1', kind, '{"v":1}');
      put('s10', kind, '{"v":1}');
    }
    await archive.delete('agent', 's1');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'agent')).sort(), ['s10.checkpoints.json', 's10.folders.json', 's10.jsonl', 's10.pins.json']);
  });
});
