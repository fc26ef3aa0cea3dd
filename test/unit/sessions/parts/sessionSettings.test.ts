// The session settings part: modes, config options and the model, set on the
// agent and shown in the header; a refused change is said and the header shows
// what the agent still has.
import * as assert from 'node:assert/strict';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import { SessionSettings } from '../../../../src/sessions/parts/sessionSettings';
import { fakeCore } from './fakeCore';

function setup(connection: Record<string, (...a: any[]) => unknown>) {
  const f = fakeCore();
  f.state.runtime = { connection } as unknown as AgentRuntime;
  return { f, settings: new SessionSettings(f.core) };
}

const modes = { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] };

describe('sessions/parts: session settings', () => {
  it('shows the modes and models the agent opened with, and a mode it switched to', async () => {
    const calls: unknown[] = [];
    const { f, settings } = setup({ setMode: async (...a: unknown[]) => void calls.push(a) });
    settings.opened({ modes, models: { currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'One' }] } });
    assert.equal(f.transcript.header.modes?.currentModeId, 'ask');
    assert.equal(f.transcript.header.models?.currentModelId, 'm1');
    await settings.setMode('code');
    assert.deepEqual(calls, [['s1', 'code']]);
    assert.equal(f.transcript.header.modes?.currentModeId, 'code');
  });

  it('a refused change is shown as an error and the header is sent again with the old value', async () => {
    const { f, settings } = setup({ setModel: async () => Promise.reject(new Error('no such model')) });
    settings.opened({ models: { currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'One' }] } });
    f.emitted.length = 0;
    await settings.setModel('m2');
    assert.equal(f.transcript.header.models?.currentModelId, 'm1');
    const error = f.transcript.items.find((i) => i.kind === 'error') as { message?: string; text?: string } | undefined;
    assert.match(JSON.stringify(error), /Changing the model failed: no such model/);
    assert.deepEqual(f.emitted.at(-1), { c: 'header' });
  });

  it('a boolean config option is sent typed; the options the agent answers are shown', async () => {
    const sent: unknown[] = [];
    const { f, settings } = setup({
      setConfigOption: async (r: unknown) => (sent.push(r), { configOptions: [{ id: 'fast', name: 'Fast', type: 'boolean', currentValue: true }] }),
    });
    await settings.setConfigOption('fast', true);
    assert.deepEqual(sent, [{ sessionId: 's1', configId: 'fast', type: 'boolean', value: true }]);
    assert.equal(f.transcript.header.configOptions.length, 1);
  });

  it('does nothing while the session is not attached', async () => {
    const { f, settings } = setup({ setMode: () => assert.fail('not attached') });
    f.state.runtime = undefined;
    await settings.setMode('code');
    assert.equal(f.emitted.length, 0);
  });
});
