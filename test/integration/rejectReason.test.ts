// A reason for a rejected permission, in the real host with a fake agent: the
// reject answer goes at once, the reason (given after it, as the card's input
// posts it) goes before the user's text in the next session/prompt, once;
// a reject with no reason adds nothing.
import * as assert from 'node:assert/strict';
import type { MessageItem, PermissionItem } from '../../src/shared/transcriptTypes';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

/** The prompts the agent received for a session, in order, as their blocks. */
function prompts(sessionId: string): unknown[] {
  return readRecord('reject-reason')
    .filter((r) => r.dir === 'in' && r.msg?.method === 'session/prompt' && r.msg.params?.sessionId === sessionId)
    .map((r) => r.msg.params.prompt);
}

/** The client's answer to the agent's permission request of a session. */
function permissionAnswer(sessionId: string): unknown {
  const rec = readRecord('reject-reason');
  const asked = rec.find((r) => r.dir === 'out' && r.msg?.method === 'session/request_permission' && r.msg.params?.sessionId === sessionId);
  return rec.find((r) => r.dir === 'in' && asked && r.msg?.id === asked.msg.id && r.msg.method === undefined)?.msg.result;
}

async function rejected() {
  const a = await api();
  const panel = a.openChat('fake-reject-reason');
  await waitForStatus(panel, 'connected', connected);
  const sessionId = panel.session.id!;
  const turn = panel.session.prompt('Clean up the build');
  const perm = await waitFor('the permission request', () => panel.session.transcript.items.find((i): i is PermissionItem => i.kind === 'permission' && i.state === 'pending'));
  a.testing.postFromWebview(panel, { type: 'permission', id: perm.id, optionId: 'no' });
  // The reject reaches the agent at once: its turn goes on and ends, before any reason is given.
  assert.equal(await turn, 'end_turn');
  assert.deepEqual(permissionAnswer(sessionId), { outcome: { outcome: 'selected', optionId: 'no' } });
  return { a, panel, sessionId, perm };
}

describe('Reject a permission with a reason', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  it('a reject with a reason: the next session/prompt carries it before the user’s text, once', async () => {
    const { a, panel, sessionId, perm } = await rejected();
    a.testing.postFromWebview(panel, { type: 'permissionReason', id: perm.id, reason: 'build/ holds the release; clean dist/ instead' });
    assert.equal(await panel.session.prompt('Try again'), 'end_turn');
    assert.deepEqual(prompts(sessionId)[1], [
      { type: 'text', text: 'The user rejected "Delete build/" and said why: build/ holds the release; clean dist/ instead' },
      { type: 'text', text: 'Try again' },
    ]);
    const shown = panel.session.transcript.items.filter((i): i is MessageItem => i.kind === 'user').at(-1)!;
    assert.equal(shown.text, 'Try again');
    assert.deepEqual(shown.parts.map((p) => p.type), ['note'], 'the user sees the reason went with the message');
    assert.match(shown.parts[0]!.text!, /clean dist\/ instead/);
    assert.equal(await panel.session.prompt('Once more'), 'end_turn');
    assert.deepEqual(prompts(sessionId)[2], [{ type: 'text', text: 'Once more' }], 'sent once');
  });

  it('a reject with no reason: the next session/prompt is the user’s text alone', async () => {
    const { panel, sessionId } = await rejected();
    assert.equal(await panel.session.prompt('Try again'), 'end_turn');
    assert.deepEqual(prompts(sessionId)[1], [{ type: 'text', text: 'Try again' }]);
  });
});
