import * as assert from 'node:assert/strict';
import { decodeAuthMethod } from '../../../src/acp/authMethods';
import { decodeInitializeResponse, decodeSessionNotification, decodeSessionUpdate, decodeStopReason } from '../../../src/acp/decode';
import { decodeSteerOutcome } from '../../../src/acp/steering';
import { AgentCapabilityView } from '../../../src/acp/capabilities';

const dec = (u: unknown) => {
  const problems: string[] = [];
  return { update: decodeSessionUpdate(u, problems) as any, problems };
};

describe('tolerant decoding', () => {
  it('an unknown session/update variant is kept as unsupported, with the raw JSON', () => {
    const raw = { sessionUpdate: 'hologram_update', beam: 1 };
    const { update } = dec(raw);
    assert.equal(update.sessionUpdate, '_unsupported');
    assert.equal(update.variant, 'hologram_update');
    assert.deepEqual(update.raw, raw);
  });

  it('a malformed update (no discriminator) is unsupported, not a crash', () => {
    assert.equal(dec('nope').update.sessionUpdate, '_unsupported');
    assert.equal(dec({ content: {} }).update.sessionUpdate, '_unsupported');
  });

  it('a notification without a session id is dropped', () => {
    assert.equal(decodeSessionNotification({ update: {} }), undefined);
    assert.equal(decodeSessionNotification(null), undefined);
  });

  it('a bad optional field becomes its default', () => {
    const { update, problems } = dec({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' }, messageId: 42 });
    assert.deepEqual(update, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } });
    assert.match(problems[0]!, /messageId/);
  });

  it('an unknown enum value falls back to the default and is reported', () => {
    const { update, problems } = dec({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'T', kind: 'teleport', status: 'dreaming' });
    assert.equal(update.kind, 'other');
    assert.equal(update.status, 'pending');
    assert.equal(problems.length, 2);
    assert.match(problems[0]!, /teleport/);
  });

  it('a bad array item is skipped, the rest kept', () => {
    const { update, problems } = dec({
      sessionUpdate: 'plan',
      entries: [{ content: 'a', priority: 'high', status: 'completed' }, 7, { content: 'b' }],
    });
    assert.deepEqual(update.entries, [
      { content: 'a', priority: 'high', status: 'completed' },
      { content: 'b', priority: 'medium', status: 'pending' },
    ]);
    assert.ok(problems.some((p) => /entries\[1\]: skipped/.test(p)));
  });

  it('tool_call_update keeps null (clear) apart from omitted (keep)', () => {
    const { update } = dec({ sessionUpdate: 'tool_call_update', toolCallId: 't', content: null, status: 'completed' });
    assert.equal(update.content, null);
    assert.equal('locations' in update, false);
    assert.equal(update.status, 'completed');
  });

  it('diff content: oldText null or omitted means a new file; bad diff items are skipped', () => {
    const { update } = dec({
      sessionUpdate: 'tool_call',
      toolCallId: 't',
      title: 'Write',
      content: [{ type: 'diff', path: '/a', newText: 'n' }, { type: 'diff', path: '/b' }, { type: 'terminal', terminalId: 'T1' }],
    });
    assert.deepEqual(update.content, [
      { type: 'diff', path: '/a', oldText: null, newText: 'n' },
      { type: 'terminal', terminalId: 'T1' },
    ]);
  });

  it('current_mode_update accepts the schema field and the legacy doc field', () => {
    assert.equal(dec({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }).update.currentModeId, 'code');
    assert.equal(dec({ sessionUpdate: 'current_mode_update', modeId: 'ask' }).update.currentModeId, 'ask');
  });

  it('config options of unknown type are ignored; select groups are kept', () => {
    const { update, problems } = dec({
      sessionUpdate: 'config_option_update',
      configOptions: [
        { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }, { group: 'g', name: 'G', options: [{ value: 'b', name: 'B' }] }] },
        { id: 'x', name: 'X', type: 'slider', currentValue: 3 },
        { id: 'fast', name: 'Fast', type: 'boolean', currentValue: true },
      ],
    });
    assert.deepEqual(update.configOptions.map((o: any) => o.id), ['model', 'fast']);
    assert.equal(update.configOptions[0].options[1].options[0].value, 'b');
    assert.ok(problems.some((p) => /slider/.test(p)));
  });

  it('usage_update: a bad cost is dropped, used/size kept', () => {
    const { update } = dec({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 'lots' } });
    assert.deepEqual(update, { sessionUpdate: 'usage_update', used: 10, size: 100, cost: null });
  });

  it('an unknown content type is kept (rendered as unsupported content)', () => {
    const { update, problems } = dec({ sessionUpdate: 'agent_message_chunk', content: { type: 'video', url: 'x' } });
    assert.equal(update.sessionUpdate, 'agent_message_chunk');
    assert.equal(update.content.type, 'video');
    assert.match(problems[0]!, /unsupported content type "video"/);
  });

  it('initialize: bad auth methods skipped, legacy env_var and terminal-auth understood', () => {
    const problems: string[] = [];
    const r = decodeInitializeResponse(
      {
        protocolVersion: 1,
        authMethods: [
          { id: 'key', name: 'API key', type: 'env_var', vars: [{ name: 'KEY' }, { label: 'no name' }] },
          { id: 'login', name: 'Log in', type: 'terminal', args: ['--login'], env: { A: 'b', N: 3 } },
          { id: 'old', name: 'Old', _meta: { 'terminal-auth': { command: 'agent', args: ['login'], label: 'Log in' } } },
          { name: 'no id' },
          { id: 'x', name: 'X', type: 'oauth_magic' },
        ],
      },
      problems,
    );
    assert.deepEqual(r.authMethods.map((m) => m.type), ['env_var', 'terminal', 'agent', 'unknown']);
    assert.deepEqual((r.authMethods[0] as any).vars, [{ name: 'KEY', label: undefined, secret: true, optional: false }]);
    assert.deepEqual((r.authMethods[1] as any).env, { A: 'b' });
    assert.equal((r.authMethods[2] as any).terminalAuth.command, 'agent');
    assert.ok(decodeAuthMethod({ id: 'a' }, [], 'x'));
  });

  it('initialize: steering only for a literal _meta.steering.supported true at the top level', () => {
    const steers = (v: unknown) => decodeInitializeResponse(v, []).steering === true;
    assert.equal(steers({ protocolVersion: 1, _meta: { steering: { supported: true } } }), true);
    for (const meta of [{ steering: { supported: 'true' } }, { steering: { supported: 1 } }, { steering: true }, { steering: [{ supported: true }] }, { steering: null }, { steering: {} }, [], 'steering', null]) {
      assert.equal(steers({ protocolVersion: 1, _meta: meta }), false, JSON.stringify(meta));
    }
    assert.equal(steers({ protocolVersion: 1, agentCapabilities: { _meta: { steering: { supported: true } } } }), false, 'not under agentCapabilities');
    assert.equal(steers({ protocolVersion: 1 }), false);
    assert.deepEqual([decodeSteerOutcome({ outcome: 'injected' }), decodeSteerOutcome({ outcome: 'promptRequired', reason: 'noRunningTurn' }), decodeSteerOutcome({ outcome: 'startedNewTurn' })], ['injected', 'promptRequired', 'startedNewTurn']);
    for (const v of [{ outcome: 'queued' }, {}, null, 'injected', { outcome: ['injected'] }]) assert.equal(decodeSteerOutcome(v), undefined, JSON.stringify(v));
  });

  it('initialize: an agent method with _meta["api-key"] asks for a key (codex-acp 2.x), whatever the agent', () => {
    const r = decodeInitializeResponse(
      {
        protocolVersion: 1,
        authMethods: [
          { id: 'api-key', name: 'API Key', _meta: { 'api-key': { provider: 'openai' } } },
          { id: 'k2', name: 'Key', _meta: { 'api-key': {} } },
          { id: 'chat-gpt', name: 'ChatGPT' },
          { id: 'odd', name: 'Odd', _meta: { 'api-key': 'yes' } },
        ],
      },
      [],
    );
    assert.deepEqual(r.authMethods.map((m) => (m.type === 'agent' ? m.apiKey : 'x')), [{ provider: 'openai' }, {}, undefined, undefined]);
  });

  it('stop reasons: unknown kept and reported, missing treated as end_turn', () => {
    const problems: string[] = [];
    assert.equal(decodeStopReason({ stopReason: 'vacation' }, problems), 'vacation');
    assert.equal(decodeStopReason(null, problems), 'end_turn');
    assert.equal(problems.length, 2);
  });
});

describe('capability predicates', () => {
  it('treat omitted and null as unsupported, {} as supported', () => {
    const none = new AgentCapabilityView(undefined);
    assert.equal(none.canLoad() || none.canList() || none.canResume() || none.supportsMcp('http') || none.canLogout(), false);
    const some = new AgentCapabilityView({
      loadSession: true,
      sessionCapabilities: { list: {}, resume: null, close: {}, delete: {} },
      mcpCapabilities: { http: true, sse: false },
      promptCapabilities: { image: true, embeddedContext: true },
      auth: { logout: {} },
    } as any);
    assert.equal(some.canLoad(), true);
    assert.equal(some.canList(), true);
    assert.equal(some.canResume(), false);
    assert.equal(some.canClose(), true);
    assert.equal(some.canDelete(), true);
    assert.equal(some.canFork(), false);
    assert.equal(some.supportsMcp('http'), true);
    assert.equal(some.supportsMcp('sse'), false);
    assert.equal(some.supportsPrompt('image'), true);
    assert.equal(some.supportsPrompt('audio'), false);
    assert.equal(some.supportsPrompt('embeddedContext'), true);
    assert.equal(some.canLogout(), true);
    assert.equal(some.supportsMcp('stdio'), true, 'stdio needs no capability');
  });

  it('fork at a message: claude-agent-acp\'s _meta.claudeCode.rewind, only with session/fork', () => {
    assert.equal(new AgentCapabilityView({ sessionCapabilities: { fork: {} }, _meta: { claudeCode: { rewind: true } } } as any).canForkAtMessage(), true);
    assert.equal(new AgentCapabilityView({ sessionCapabilities: { fork: {} }, _meta: { claudeCode: { rewind: 'yes' } } } as any).canForkAtMessage(), false);
    assert.equal(new AgentCapabilityView({ sessionCapabilities: { fork: {} } } as any).canForkAtMessage(), false);
    assert.equal(new AgentCapabilityView({ _meta: { claudeCode: { rewind: true } } } as any).canForkAtMessage(), false, 'no session/fork: no fork at all');
  });
});
