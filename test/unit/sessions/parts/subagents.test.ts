// The subagents part: a child announced by the agent is adopted (its traffic
// registered to this session), never one whose id is taken; Stop on its card
// only when it advertised cancel; its archived updates go to its card.
import * as assert from 'node:assert/strict';
import { decodeSessionUpdate } from '../../../../src/acp/decode';
import type { AgentRuntime } from '../../../../src/agents/agentRuntime';
import { Subagents } from '../../../../src/sessions/parts/subagents';
import { fakeCore } from './fakeCore';

function setup(taken: string[] = []) {
  const f = fakeCore();
  const registered = new Set<string>(taken);
  const cancelled: string[] = [];
  f.state.runtime = {
    sessions: {
      has: (id: string) => registered.has(id),
      register: (id: string) => (registered.add(id), { dispose: () => void registered.delete(id) }),
    },
    connection: { cancel: async (id: string) => void cancelled.push(id) },
  } as unknown as AgentRuntime;
  const sink = { onUpdate: () => undefined, serves: () => undefined };
  const parts = new Subagents(f.core, sink);
  const announce = (u: object) => {
    const d = decodeSessionUpdate({ sessionUpdate: 'subagent_update', ...u }, []);
    f.emitted.push(...f.transcript.apply(d));
    parts.update(d);
  };
  return { f, parts, registered, cancelled, announce };
}

describe('sessions/parts: subagents', () => {
  it('adopts an announced child once; an id already open elsewhere is not handed over', () => {
    const { f, registered, announce } = setup(['taken']);
    announce({ sessionId: 'c1' });
    announce({ sessionId: 'c1', title: 'again' });
    announce({ sessionId: 'taken' });
    announce({ sessionId: 's1' });
    assert.deepEqual([...registered].sort(), ['c1', 'taken']);
    assert.deepEqual(f.logs, ['subagent c1 announced', 'subagent taken: not adopted, that session id is already open here']);
  });

  it('Stop on a card sends session/cancel only for an adopted child that advertised cancel', async () => {
    const { parts, cancelled, announce } = setup();
    announce({ sessionId: 'quiet' });
    announce({ sessionId: 'stoppable', capabilities: { cancel: {} } });
    assert.equal(await parts.cancel('quiet'), false);
    assert.equal(await parts.cancel('unknown'), false);
    assert.equal(await parts.cancel('stoppable'), true);
    assert.deepEqual(cancelled, ['stoppable']);
  });

  it('lets its children go when the session detaches, and on dispose', () => {
    const { parts, registered, announce } = setup();
    announce({ sessionId: 'c1' });
    parts.detached();
    assert.deepEqual([...registered], []);
    announce({ sessionId: 'c2' });
    parts.dispose();
    assert.deepEqual([...registered], []);
  });

  it('claims its archived lines: a child\'s update goes in the child\'s card', () => {
    const { f, parts, announce } = setup();
    announce({ sessionId: 'c1' });
    const line = { sessionUpdate: '_child', sessionId: 'c1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'from the child' } } };
    assert.equal(parts.archivedLine(line), true);
    assert.equal(parts.archivedLine({ sessionUpdate: '_turn_end' }), false);
    assert.equal(f.transcript.items.filter((i) => i.parent === undefined).length, 1, 'only the card is at the top level');
    assert.ok(f.transcript.items.some((i) => i.kind === 'agent' && i.text === 'from the child'));
  });
});
