// Context folders (issue #29): a folder the user adds to a session is inside
// its boundary at once, kept with the session and sent again on load and
// resume; refused for an agent that does not advertise additionalDirectories;
// a folder deleted while in use shows as such in the session's header.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AccessQuestion } from '../../src/sessions/policy/accessGate';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

// The paths the context-folders scenario reads (fixed: a scenario cannot be told them).
const FOLDER = '/tmp/acp-context-folder-29';
const OUTSIDE = '/tmp/acp-context-outside-29';

const sent = (scenario: string, method: string): any => readRecord(scenario).filter((r) => r.msg?.method === method).at(-1)?.msg.params;

/** The client's answers to the agent's requests, by the name the scenario stored them under (`inside`, `outside`), for the last turn. */
function lastAnswers(scenario: string): { inside: any; outside: any } {
  const rec = readRecord(scenario);
  const out = rec.filter((r) => r.dir === 'out' && r.msg?.method === 'fs/read_text_file');
  const answer = (p: string) => {
    const id = out.filter((r) => r.msg.params.path === p).at(-1)?.msg.id;
    const a = rec.find((r) => r.dir === 'in' && r.msg?.id === id && r.msg.method === undefined)?.msg;
    return a?.result ?? { error: a?.error };
  };
  return { inside: answer(`${FOLDER}/inside.txt`), outside: answer(`${OUTSIDE}/outside.txt`) };
}

describe('Context folders', function () {
  this.timeout(60_000);
  const asked: string[] = [];

  beforeEach(async () => {
    for (const [dir, file, text] of [[FOLDER, 'inside.txt', 'inside-29'], [OUTSIDE, 'outside.txt', 'outside-29']] as const) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    asked.length = 0;
    (await api()).testing.setAccessAnswer(async (q: AccessQuestion) => {
      asked.push(q.path);
      return 'deny';
    });
  });

  afterEach(async () => {
    const a = await api();
    a.testing.setAccessAnswer(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
    for (const dir of [FOLDER, OUTSIDE]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Add Folder to Agent Session: the boundary allows a read inside it at once, still refuses outside; the folder is sent again on session/load', async () => {
    const a = await api();
    const panel = a.openChat('fake-context-folders');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(panel.session.transcript.header.folders?.canAdd, true, 'the header offers Add Folder');
    await vscode.commands.executeCommand('acpAgents.addFolderToSession', vscode.Uri.file(FOLDER));
    assert.deepEqual(panel.session.transcript.header.folders?.list, [{ path: FOLDER, name: 'acp-context-folder-29', missing: false }]);
    assert.equal(await panel.session.prompt('read both'), 'end_turn');
    const answers = lastAnswers('context-folders');
    assert.equal(answers.inside.content, 'inside-29', JSON.stringify(answers.inside));
    assert.match(answers.outside.error?.message ?? '', /outside the session's folders/);
    assert.deepEqual(asked, [`${OUTSIDE}/outside.txt`], 'only the read outside was asked about');
    const id = panel.session.id!;
    await panel.session.folders.flushed();
    await a.testing.flushStores();
    await closeAllEditors();

    const again = a.openPastSession('fake-context-folders', id);
    await waitForStatus(again, 'loaded', connected);
    const load = sent('context-folders', 'session/load');
    assert.equal(load.sessionId, id);
    assert.ok(load.additionalDirectories?.includes(FOLDER), JSON.stringify(load));
    assert.deepEqual(again.session.transcript.header.folders?.list.map((f) => f.path), [FOLDER], 'the chip comes back');
    assert.equal(await again.session.prompt('read again'), 'end_turn');
    assert.equal(lastAnswers('context-folders').inside.content, 'inside-29', 'still inside after the load');

    // Deleted while in use: the next turn finds it gone, and the chip says so.
    fs.rmSync(FOLDER, { recursive: true, force: true });
    assert.equal(await again.session.prompt('read once more'), 'end_turn');
    assert.deepEqual(again.session.transcript.header.folders?.list, [{ path: FOLDER, name: 'acp-context-folder-29', missing: true }]);
    // Removed: out of the header, and out of the boundary.
    assert.equal(again.session.folders.remove(FOLDER), true);
    assert.deepEqual(again.session.transcript.header.folders?.list, []);
    assert.equal(again.session.folders.roots().includes(FOLDER), false);
  });

  it('Fork keeps the context folders (sent with session/fork, inside its boundary, kept under its id); one deleted mid-turn is out of the boundary at once', async () => {
    const a = await api();
    const first = a.openChat('fake-fork-folders');
    await waitForStatus(first, 'connected', connected);
    assert.equal(await first.session.folders.add(FOLDER), undefined);
    assert.equal(await first.session.prompt('read it'), 'end_turn');
    await first.session.folders.flushed();
    await a.testing.flushStores();
    await vscode.commands.executeCommand('acpAgents.forkSession', { agentId: 'fake-fork-folders', sessionId: first.session.id });
    const fork = await waitFor('the fork’s panel', () => a.panels().find((p) => p !== first));
    await waitForStatus(fork, 'connected', connected);
    const forkId = fork.session.id!;
    assert.equal(forkId, `forked-${first.session.id}`);
    const params = sent('fork-folders', 'session/fork');
    assert.ok(params.additionalDirectories?.includes(FOLDER), JSON.stringify(params));
    assert.deepEqual(fork.session.transcript.header.folders?.list, [{ path: FOLDER, name: 'acp-context-folder-29', missing: false }], 'the chip is there');
    assert.equal(await fork.session.prompt('read in the fork'), 'end_turn');
    assert.equal(lastAnswers('fork-folders').inside.content, 'inside-29', 'the fork may read in it without a question');
    assert.deepEqual(asked, []);

    // The agent deletes the folder itself, then asks to write into it in the same turn: outside now (asked, refused), not recreated.
    assert.equal(await fork.session.prompt('delete and write'), 'end_turn');
    const rec = readRecord('fork-folders');
    const writeId = rec.filter((r) => r.dir === 'out' && r.msg?.method === 'fs/write_text_file').at(-1)?.msg.id;
    const answer = rec.find((r) => r.dir === 'in' && r.msg?.id === writeId && r.msg.method === undefined)?.msg;
    assert.match(answer?.error?.message ?? '', /outside the session's folders/, JSON.stringify(answer));
    assert.deepEqual(asked, [`${FOLDER}/again.txt`]);
    assert.equal(fs.existsSync(FOLDER), false, 'the deleted folder was not made again');

    // Kept under the fork's id: the fork opened again shows its chip (missing now).
    await fork.session.folders.flushed();
    await a.testing.flushStores();
    await closeAllEditors();
    const again = a.openPastSession('fake-fork-folders', forkId);
    await waitForStatus(again, 'loaded', connected);
    assert.deepEqual(again.session.transcript.header.folders?.list, [{ path: FOLDER, name: 'acp-context-folder-29', missing: true }]);
  });

  it('the folders are sent again on session/resume', async () => {
    const a = await api();
    const panel = a.openChat('fake-context-folders-resume');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.folders.add(FOLDER), undefined);
    assert.equal(sent('context-folders-resume', 'session/new').additionalDirectories?.includes(FOLDER) ?? false, false, 'not part of session/new: it came later');
    await panel.session.prompt('hello');
    const id = panel.session.id!;
    await panel.session.folders.flushed();
    await a.testing.flushStores();
    await closeAllEditors();
    const again = a.openPastSession('fake-context-folders-resume', id);
    await waitForStatus(again, 'resumed', connected);
    const resume = sent('context-folders-resume', 'session/resume');
    assert.equal(resume.sessionId, id);
    assert.ok(resume.additionalDirectories?.includes(FOLDER), JSON.stringify(resume));
  });

  it('Add Folder to Agent Session refuses the home folder, the filesystem root and a folder around the workspace folder, saying why (issue 34)', async () => {
    const a = await api();
    const panel = a.openChat('fake-context-folders');
    await waitForStatus(panel, 'connected', connected);
    const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    for (const folder of [os.homedir(), path.parse(ws).root, path.dirname(ws)]) {
      const before = a.testing.messages().length;
      await vscode.commands.executeCommand('acpAgents.addFolderToSession', vscode.Uri.file(folder));
      const shown = a.testing.messages().slice(before);
      assert.equal(shown.length, 1, `${folder}: ${JSON.stringify(shown)}`);
      assert.equal(shown[0]!.severity, 'error');
      assert.match(shown[0]!.message, /(is your home folder|holds your home folder|is the root of a drive or of the file system|a folder of this session or workspace): a session may not be given/, folder);
      assert.ok(shown[0]!.message.startsWith(folder), `${folder} is named: ${shown[0]!.message}`);
    }
    assert.deepEqual(panel.session.transcript.header.folders?.list ?? [], [], 'no chip');
    for (const folder of [os.homedir(), path.parse(ws).root, path.dirname(ws)]) assert.equal(panel.session.folders.roots().includes(folder), false, folder);
    // A folder beside the workspace is still added through the same command.
    await vscode.commands.executeCommand('acpAgents.addFolderToSession', vscode.Uri.file(FOLDER));
    assert.deepEqual(panel.session.transcript.header.folders?.list.map((f) => f.path), [FOLDER]);
  });

  it('refused, with a clear message, for an agent that does not advertise additionalDirectories', async () => {
    const a = await api();
    const panel = a.openChat('fake-default');
    await waitForStatus(panel, 'connected', connected);
    const refused = await panel.session.folders.add(FOLDER);
    assert.match(refused ?? '', /does not take additional folders \(it does not advertise additionalDirectories\)/);
    assert.equal(panel.session.folders.roots().includes(FOLDER), false);
    assert.equal(panel.session.transcript.header.folders?.canAdd ?? false, false, 'no Add Folder in its header');
    assert.equal(panel.session.transcript.header.folders?.list.length ?? 0, 0);
  });
});
