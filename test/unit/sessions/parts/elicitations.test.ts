// The elicitations part: a question from the agent asked in the panel, one from
// a subagent this session does not know not asked at all; withdrawn at a turn's
// end (only the session's own), and all of them when the panel closes.
import * as assert from 'node:assert/strict';
import type { CancelToken } from '../../../../src/agents/sessionRouter';
import { decodeSessionUpdate } from '../../../../src/acp/decode';
import { Elicitations, MAX_WAITING_ELICITATIONS } from '../../../../src/sessions/parts/elicitations';
import { fakeCore } from './fakeCore';

const never: CancelToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
const form = (sessionId: string) => ({ sessionId, mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });

describe('sessions/parts: elicitations', () => {
  it('asks in the panel and answers with the values; a subagent unknown here gets cancel without a question', async () => {
    const f = fakeCore();
    const part = new Elicitations(f.core);
    // Checked before the answer is awaited: had it been asked, the answer would wait for the user.
    const stranger = part.ask(form('stranger'), never);
    assert.equal(f.transcript.items.length, 0, 'not shown');
    assert.equal(part.waiting, 0, 'not waiting for the user');
    assert.deepEqual(await stranger, { action: 'cancel' });
    const answer = part.ask(form('s1'), never);
    const item = f.transcript.items.find((i) => i.kind === 'elicitation')!;
    assert.equal(await part.answer(item.id, 'accept', { name: 'Ada' }), true);
    assert.deepEqual(await answer, { action: 'accept', content: { name: 'Ada' } });
  });

  it('a turn\'s end withdraws only the session\'s own questions; closing the panel withdraws the rest', async () => {
    const f = fakeCore();
    f.emitted.push(...f.transcript.apply(decodeSessionUpdate({ sessionUpdate: 'subagent_update', sessionId: 'c1' }, [])));
    const part = new Elicitations(f.core);
    const own = part.ask(form('s1'), never);
    const child = part.ask(form('c1'), never);
    part.withdraw('the turn ended', true);
    assert.deepEqual(await own, { action: 'cancel' });
    assert.equal(part.waiting, 1, 'the subagent still waits for its answer');
    part.dispose();
    assert.deepEqual(await child, { action: 'cancel' });
    assert.equal(part.waiting, 0);
  });

  it('at most 16 questions of a session wait: the next is declined at once, without a form, and logged', async () => {
    const f = fakeCore();
    const part = new Elicitations(f.core);
    const asked = Array.from({ length: MAX_WAITING_ELICITATIONS }, () => part.ask(form('s1'), never));
    assert.equal(MAX_WAITING_ELICITATIONS, 16);
    assert.equal(part.waiting, 16);
    const over = [part.ask(form('s1'), never), part.ask({ sessionId: 's1', mode: 'url', message: 'Sign in', url: 'https://example.com/x' }, never)];
    // Checked before awaiting them: a question over the limit that waited would hang this test instead of failing it.
    assert.equal(part.waiting, 16, 'the ones over the limit do not wait');
    assert.equal(f.transcript.items.filter((i) => i.kind === 'elicitation').length, 16, 'no form for the ones over the limit');
    assert.deepEqual(await Promise.all(over), [{ action: 'decline' }, { action: 'decline' }]);
    assert.ok(f.logs.some((l) => l.includes('declined at once, 16 questions of this session already wait')), f.logs.join('\n'));
    // Withdrawn: there is room again.
    part.withdraw('the turn ended');
    await Promise.all(asked);
    const again = part.ask(form('s1'), never);
    assert.equal(part.waiting, 1);
    part.dispose();
    assert.deepEqual(await again, { action: 'cancel' });
  });
});
