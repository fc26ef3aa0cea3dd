import * as assert from 'node:assert/strict';
import type { DecodedNotification } from '../../../src/acp/decode';
import { serveCall, type AnyClientMethod, type UnroutedCall } from '../../../src/agents/clientMethods';
import { SessionRouter, type SessionSink } from '../../../src/agents/sessionRouter';
import { ELICITATION_METHODS } from '../../../src/sessions/parts/elicitations';

const note = (sessionId: string, text: string) => ({ sessionId, update: { sessionUpdate: 'agent_message_chunk', text }, problems: [] }) as unknown as DecodedNotification;
const sink = (got: string[]): SessionSink => ({ onUpdate: (n) => void got.push((n.update as unknown as { text: string }).text), serves: () => undefined });

describe('agents: session router', () => {
  it('holds updates for a session not registered yet and hands them to its sink', () => {
    const r = new SessionRouter();
    void r.update(note('s1', 'early'));
    const got: string[] = [];
    r.register('s1', sink(got));
    void r.update(note('s1', 'late'));
    assert.deepEqual(got, ['early', 'late']);
  });

  it('drops what still comes for a session whose sink went away (a panel closed mid-replay): the next sink of that session does not get it', () => {
    const r = new SessionRouter();
    const first: string[] = [];
    const reg = r.register('s1', sink(first));
    void r.update(note('s1', 'replay 1'));
    reg.dispose();
    void r.update(note('s1', 'replay 2 (abandoned)'));
    const second: string[] = [];
    r.register('s1', sink(second));
    void r.update(note('s1', 'its own replay'));
    assert.deepEqual(first, ['replay 1']);
    assert.deepEqual(second, ['its own replay']);
    // Another session's early updates are still held for it.
    void r.update(note('s2', 'early for s2'));
    const third: string[] = [];
    r.register('s2', sink(third));
    assert.deepEqual(third, ['early for s2']);
  });

  it('an elicitation about an open session goes to it; one about a session not open here is answered cancel; only one with no session is left to the dialogs', async () => {
    const r = new SessionRouter();
    const create: AnyClientMethod = ELICITATION_METHODS.find((m) => m.method === 'elicitation/create')!;
    const asked: unknown[] = [];
    r.register('s1', { ...sink([]), serves: (m) => (m === create.method ? async (p) => (asked.push(p), { action: 'accept', content: {} }) : undefined) });
    const dialogs: unknown[] = [];
    const call: UnroutedCall = { agentName: 'A', from: r, elicitation: { create: async (_n, p) => (dialogs.push(p), { action: 'decline' }), complete: () => undefined }, logOnce: () => undefined };
    const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    const ask = (params: unknown) => serveCall(create, params, token, r, call, () => undefined);
    assert.deepEqual(await ask({ sessionId: 's1', mode: 'form', message: 'q' }), { action: 'accept', content: {} });
    assert.equal(asked.length, 1);
    for (const sessionId of ['child-never-announced', 42]) assert.deepEqual(await ask({ sessionId, mode: 'form', message: 'stray' }), { action: 'cancel' }, String(sessionId));
    assert.equal(asked.length, 1, 'the open session was not asked about another');
    assert.equal(dialogs.length, 0);
    assert.deepEqual(await ask({ requestId: 7, mode: 'form', message: 'before any session' }), { action: 'decline' });
    assert.equal(dialogs.length, 1, 'request-scoped: asked outside a session');
  });
});

