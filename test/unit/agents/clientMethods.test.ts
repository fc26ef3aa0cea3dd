import * as assert from 'node:assert/strict';
import { DECLINED_METHODS, serveCall, type AnyClientMethod, type UnroutedCall } from '../../../src/agents/clientMethods';
import { SessionRouter } from '../../../src/agents/sessionRouter';
import { CLIENT_METHODS, clientCapabilities } from '../../../src/sessions/clientMethods';

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
const method = (name: string): AnyClientMethod => [...CLIENT_METHODS, ...DECLINED_METHODS].find((m) => m.method === name)!;

function harness() {
  const r = new SessionRouter();
  const logs: string[] = [];
  const call: UnroutedCall = { agentName: 'A', from: r, logOnce: (k, m) => void logs.push(`once ${k}: ${m}`) };
  const served: string[] = [];
  r.register('s1', { onUpdate: () => undefined, serves: (m) => (m === 'session/request_permission' || m === 'fs/read_text_file' ? async (v) => (served.push(m), { v }) : undefined) });
  const ask = (name: string, params: unknown) => serveCall(method(name), params, token, r, call, (m) => void logs.push(m));
  return { ask, served, logs };
}

describe('agents: client methods (one way in)', () => {
  it('the capabilities sent are the base plus what each method earns, declared beside its part', () => {
    assert.deepEqual(clientCapabilities(), {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      auth: { terminal: true },
      elicitation: { form: {}, url: {} },
      session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
      subagents: {},
      plan: {},
      _meta: { 'terminal-auth': true },
    });
    const names = CLIENT_METHODS.map((m) => m.method);
    assert.equal(new Set(names).size, names.length, 'each method is declared once');
  });

  it('a call about an open session goes to the part serving it, decoded once (what was dropped is logged)', async () => {
    const h = harness();
    assert.deepEqual(await h.ask('fs/read_text_file', { sessionId: 's1', path: '/w/a', line: 'x' }), { v: { method: 'fs/read_text_file', sessionId: 's1', path: '/w/a', line: undefined, limit: undefined } });
    assert.deepEqual(h.served, ['fs/read_text_file']);
    assert.match(h.logs.join('\n'), /fs\/read_text_file: dropped line/);
  });

  it('a permission request about a session not open here is answered cancelled; fs/terminal fail ResourceNotFound; a declined method -32601, logged once per method', async () => {
    const h = harness();
    assert.deepEqual(await h.ask('session/request_permission', { sessionId: 'gone', toolCall: {}, options: [{ optionId: 'allow', kind: 'allow_once' }] }), { outcome: { outcome: 'cancelled' } });
    await assert.rejects(h.ask('fs/read_text_file', { sessionId: 'gone', path: '/w/a' }), (e: { code?: number; message?: string }) => e.code === -32002 && /No open session "gone"/.test(e.message ?? ''));
    await assert.rejects(h.ask('terminal/output', { sessionId: 's1', terminalId: 't' }), (e: { code?: number }) => e.code === -32002, 'a method the open session does not serve is not served');
    await assert.rejects(h.ask('fs/read_text_file', { sessionId: 's1' }), (e: { code?: number }) => e.code === -32602, 'a request that cannot be served: InvalidParams');
    for (let i = 0; i < 2; i++) await assert.rejects(h.ask('craft/drainMidTurnQueue', { sessionId: 's1' }), (e: { code?: number }) => e.code === -32601);
    assert.deepEqual(h.logs, Array(2).fill('once craft/drainMidTurnQueue: Declined craft/drainMidTurnQueue is not offered by this client: queued messages wait for their own turn (answered -32601; asked again, the same answer)'));
    assert.deepEqual(h.served, []);
  });
});
