import * as assert from 'node:assert/strict';
import { decodeSessionUpdate, type DecodedUpdate } from '../../../src/acp/decode';
import { DeltaBatcher } from '../../../src/chat/deltaBatcher';
import { Transcript } from '../../../src/sessions/transcript';
import type { TranscriptDelta } from '../../../src/shared/transcriptTypes';

const u = (raw: unknown): DecodedUpdate => decodeSessionUpdate(raw, []);
const text = (sessionUpdate: string, t: string, messageId?: string) => u({ sessionUpdate, content: { type: 'text', text: t }, ...(messageId ? { messageId } : {}) });

describe('Transcript reducer', () => {
  it('an echo of the prompt just sent is consumed, not appended to it (nor to the next one)', () => {
    const tr = new Transcript();
    tr.addUserPrompt('fix the bug');
    // The agent echoes it in two chunks: both consumed, nothing shown twice.
    for (const chunk of ['fix the ', 'bug']) {
      const e = text('user_message_chunk', chunk);
      assert.equal(tr.consumeEcho(e), true, chunk);
    }
    tr.apply(text('agent_message_chunk', 'done'));
    tr.endTurn('end_turn');
    tr.addUserPrompt('second');
    assert.equal(tr.consumeEcho(text('agent_message_chunk', 'x')), false, 'anything else ends the echo window');
    assert.equal(tr.consumeEcho(text('user_message_chunk', 'second')), false, 'and a later user chunk is shown');
    const users = tr.items.filter((i) => i.kind === 'user').map((i: any) => i.text);
    assert.deepEqual(users, ['fix the bug', 'second']);
    // No prompt sent: user chunks (a replay) are never taken for an echo.
    assert.equal(new Transcript().consumeEcho(text('user_message_chunk', 'q')), false);
  });

  it('appends agent chunks to one message; 1-char chunks add up', () => {
    const tr = new Transcript();
    for (const ch of 'Hello, world') tr.apply(text('agent_message_chunk', ch));
    assert.equal(tr.items.length, 1);
    assert.equal((tr.items[0] as any).text, 'Hello, world');
  });

  it('groups by messageId: a new id starts a new message, the same id joins it', () => {
    const tr = new Transcript();
    tr.apply(text('agent_message_chunk', 'a', 'm1'));
    tr.apply(text('agent_message_chunk', 'b', 'm1'));
    tr.apply(text('agent_message_chunk', 'c', 'm2'));
    tr.apply(text('agent_message_chunk', 'd', 'm1'));
    assert.deepEqual(tr.items.map((i: any) => i.text), ['abd', 'c']);
  });

  it('user, agent and thought messages are separate items in order', () => {
    const tr = new Transcript();
    tr.apply(text('user_message_chunk', 'q'));
    tr.apply(text('agent_thought_chunk', 'hmm'));
    tr.apply(text('agent_message_chunk', 'a'));
    tr.apply(text('agent_thought_chunk', 'more'));
    assert.deepEqual(tr.items.map((i) => i.kind), ['user', 'thought', 'agent', 'thought']);
  });

  it('non-text content is kept as parts (images, resource links, unknown types)', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AAA', mimeType: 'image/png' } }));
    tr.apply(u({ sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' } }));
    tr.apply(u({ sessionUpdate: 'agent_message_chunk', content: { type: 'hologram', x: 1 } }));
    const m = tr.items[0] as any;
    assert.deepEqual(m.parts.map((p: any) => p.type), ['image', 'resource_link', 'hologram']);
  });

  it('tool_call creates; tool_call_update patches (omitted = keep, arrays replace)', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit a.ts', kind: 'edit', locations: [{ path: '/w/a.ts', line: 3 }], rawInput: { path: '/w/a.ts' } }));
    tr.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'diff', path: '/w/a.ts', oldText: 'x', newText: 'y' }] }));
    const t = tr.items[0] as any;
    assert.equal(t.title, 'Edit a.ts');
    assert.equal(t.status, 'completed');
    assert.deepEqual(t.locations, [{ path: '/w/a.ts', line: 3 }]);
    assert.equal(t.content[0].type, 'diff');
    assert.match(t.rawInput, /"path": "\/w\/a.ts"/);
    tr.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', locations: [] }));
    assert.deepEqual(t.locations, []);
    assert.equal(t.content.length, 1);
  });

  it('an update before its tool_call creates the entry', () => {
    const tr = new Transcript();
    const changes = tr.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'late', status: 'in_progress', title: 'Run tests' }));
    assert.equal(changes[0]!.c, 'add');
    assert.equal((tr.items[0] as any).title, 'Run tests');
    tr.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'late', title: 'Run tests', kind: 'execute', status: 'completed' }));
    assert.equal(tr.items.length, 1);
    assert.equal((tr.items[0] as any).status, 'completed');
  });

  it('plan updates replace the plan of the turn; a new turn gets a new plan', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] }));
    tr.apply(u({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'completed' }, { content: 'b', priority: 'low', status: 'pending' }] }));
    assert.equal(tr.items.length, 1);
    assert.equal((tr.items[0] as any).entries.length, 2);
    tr.endTurn('end_turn');
    tr.addUserPrompt('next');
    tr.apply(u({ sessionUpdate: 'plan', entries: [] }));
    assert.deepEqual(tr.items.map((i) => i.kind), ['plan', 'turn-end', 'user', 'plan']);
  });

  it('header state: commands, modes, config options (agent order), title, usage', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'test', description: 'Run', input: { hint: 'file' } }] }));
    tr.setModes({ currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] }, undefined);
    tr.apply(u({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }));
    tr.apply(u({ sessionUpdate: 'config_option_update', configOptions: [
      { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'b', options: [{ value: 'a', name: 'A' }, { group: 'g', name: 'More', options: [{ value: 'b', name: 'B' }] }] },
      { id: 'fast', name: 'Fast', type: 'boolean', currentValue: true },
    ] }));
    tr.apply(u({ sessionUpdate: 'session_info_update', title: 'Refactor' }));
    tr.apply(u({ sessionUpdate: 'usage_update', used: 100, size: 1000, cost: { amount: 0.5, currency: 'USD' } }));
    const h = tr.header;
    assert.deepEqual(h.commands, [{ name: 'test', description: 'Run', hint: 'file' }]);
    assert.equal(h.modes?.currentModeId, 'code');
    assert.deepEqual(h.configOptions.map((o) => o.id), ['model', 'fast']);
    assert.deepEqual(h.configOptions[0]!.options, [{ value: 'a', name: 'A' }, { value: 'b', name: 'B', group: 'More' }]);
    assert.equal(h.title, 'Refactor');
    assert.deepEqual(h.usage, { used: 100, size: 1000, cost: { amount: 0.5, currency: 'USD' } });
    tr.apply(u({ sessionUpdate: 'session_info_update', title: null }));
    assert.equal(h.title, undefined);
  });

  it('notices become items; unknown variants do not (they go to the log)', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Slow down' }));
    assert.deepEqual(tr.apply(u({ sessionUpdate: 'teleport', where: 'mars' })), []);
    assert.deepEqual(tr.items.map((i) => i.kind), ['notice']);
  });

  it('compaction: one divider per id at its place, summary from chunks or whole, status live, earlier messages kept', () => {
    const tr = new Transcript();
    tr.apply(text('user_message_chunk', 'long session'));
    tr.apply(text('agent_message_chunk', 'reply'));
    tr.apply(u({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' }));
    tr.apply(u({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: '## Summary\n' } }));
    tr.apply(u({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: '- fixed the bug' } }));
    tr.apply(text('agent_message_chunk', 'after'));
    tr.apply(u({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }));
    assert.deepEqual(tr.items.map((i) => i.kind), ['user', 'agent', 'compaction', 'agent']);
    assert.deepEqual(
      (({ status, summary }) => ({ status, summary }))(tr.items[2] as any),
      { status: 'completed', summary: '## Summary\n- fixed the bug' },
    );
    // A single completed update with the whole summary is legal; a failure keeps its error.
    tr.apply(u({ sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'completed', summary: [{ type: 'text', text: 'whole' }] }));
    tr.apply(u({ sessionUpdate: 'compaction_update', compactionId: 'c3', status: 'failed', error: 'context too large' }));
    assert.deepEqual(tr.items.slice(4).map((i: any) => [i.kind, i.status, i.summary, i.error]), [
      ['compaction', 'completed', 'whole', undefined],
      ['compaction', 'failed', '', 'context too large'],
    ]);
  });

  it('Stop: unfinished tool calls are marked cancelled, finished ones are not', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', status: 'in_progress' }));
    tr.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', status: 'completed' }));
    tr.endTurn('cancelled');
    assert.equal((tr.items[0] as any).cancelled, true);
    assert.equal((tr.items[1] as any).cancelled, undefined);
    assert.equal((tr.items[2] as any).stopReason, 'cancelled');
  });

  it('a permission request names its tool call’s card (in its own session’s scope), or none when the call is unknown', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit a.ts', status: 'pending' }));
    const tool = tr.items[0]!;
    const onCard = tr.addPermission({ toolCallId: 't', title: 'Edit a.ts', options: [], content: [] }).item;
    assert.equal(onCard.toolItemId, tool.id);
    assert.equal(tr.addPermission({ toolCallId: 'nowhere', title: 'Who?', options: [], content: [] }).item.toolItemId, undefined);
    // A subagent's call with the same id is its own, not the parent's.
    tr.apply(u({ sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Helper' }));
    assert.equal(tr.addPermission({ toolCallId: 't', title: 'Child asks', options: [], content: [] }, 'child').item.toolItemId, undefined);
  });

  it('permission items settle exactly once', () => {
    const tr = new Transcript();
    const { item } = tr.addPermission({ toolCallId: 't', title: 'Write', options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }], content: [] });
    assert.equal(tr.settlePermission(item.id, 'answered', 'y').length, 1);
    assert.equal(tr.settlePermission(item.id, 'cancelled').length, 0);
    assert.equal(item.chosen, 'y');
  });
});

describe('Transcript: subagents, plan operations, session messages (schema 1.34)', () => {
  const sub = (sessionId: string, extra: Record<string, unknown> = {}) => u({ sessionUpdate: 'subagent_update', sessionId, ...extra });

  it('a subagent is a card; its own items go in it, with tool call ids of its own; patches keep, null clears', () => {
    const tr = new Transcript();
    tr.apply(text('agent_message_chunk', 'Delegating.'));
    const announced = tr.apply(sub('child-1', { title: 'Explorer', description: 'Looks around', capabilities: { cancel: {} }, state: { state: 'running' } }));
    const card = tr.child('child-1')!;
    assert.deepEqual(announced.map((c) => c.c), ['add']);
    assert.equal(card.title, 'Explorer');
    assert.equal(card.canCancel, true);
    assert.equal(card.state, 'running');
    assert.equal(card.parent, undefined, 'the card is in the session timeline');
    // The same tool call id in parent and child: two calls.
    tr.apply(u({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Parent read' }));
    tr.apply(u({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Child read' }), 'child-1');
    tr.apply(text('agent_message_chunk', 'Found it', 'cm'), 'child-1');
    tr.apply(text('agent_message_chunk', ' here.', 'cm'), 'child-1');
    const inCard = tr.items.filter((i) => i.parent === card.id);
    assert.deepEqual(inCard.map((i) => i.kind), ['tool', 'agent']);
    assert.equal((inCard[1] as any).text, 'Found it here.');
    assert.equal(tr.tool('t1')!.title, 'Parent read');
    assert.equal(tr.tool('t1', 'child-1')!.title, 'Child read');
    // The parent's own text after the card is a new message below it, not glued above.
    tr.apply(text('agent_message_chunk', 'Back.'));
    assert.deepEqual(tr.items.filter((i) => i.parent === undefined).map((i) => i.kind), ['agent', 'subagent', 'tool', 'agent']);
    // Patch: omitted keeps, null clears; idle with an error.
    tr.apply(sub('child-1', { description: null, state: { state: 'idle', stopReason: 'error', error: { code: -32603, message: 'model overloaded' } } }));
    assert.equal(card.title, 'Explorer');
    assert.equal(card.description, undefined);
    assert.equal(card.state, 'idle');
    assert.equal(card.stopReason, 'error');
    assert.equal(card.error, 'model overloaded');
    tr.apply(sub('child-1', { capabilities: null }));
    assert.equal(card.canCancel, false, 'cleared capabilities disable Stop');
    // A grandchild announced on the child goes in the child's card.
    tr.apply(sub('grandchild', { title: 'Tester' }), 'child-1');
    assert.equal(tr.child('grandchild')!.parent, card.id);
    // A permission of the child is shown in its card.
    const { item } = tr.addPermission({ toolCallId: 't1', title: 'Read?', options: [], content: [] }, 'child-1');
    assert.equal(item.parent, card.id);
    // Stop cancels unfinished calls of children too.
    assert.equal(tr.cancelUnfinishedTools().length, 2);
  });

  it('a subagent’s header updates are not the panel’s: its commands, modes, options and usage are ignored, its title names its card', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'parent', description: '' }] }));
    tr.apply(sub('c', { title: 'Helper' }));
    tr.apply(u({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'child', description: '' }] }), 'c');
    tr.apply(u({ sessionUpdate: 'config_option_update', configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'x', options: [{ value: 'x', name: 'X' }] }] }), 'c');
    tr.apply(u({ sessionUpdate: 'usage_update', used: 5, size: 10 }), 'c');
    tr.apply(u({ sessionUpdate: 'session_info_update', title: 'Child title' }), 'c');
    assert.deepEqual(tr.header.commands.map((c) => c.name), ['parent']);
    assert.deepEqual(tr.header.configOptions, []);
    assert.equal(tr.header.usage, undefined);
    assert.equal(tr.header.title, undefined);
    assert.equal(tr.child('c')!.title, 'Child title');
  });

  it('session messages: upserted by id, streamed by chunks, labelled with the sessions they connect', () => {
    const tr = new Transcript();
    tr.apply(sub('child-1', { title: 'Explorer' }));
    const added = tr.apply(u({ sessionUpdate: 'session_message', messageId: 'sm1', senderSessionId: 'main', recipientSessionId: 'child-1', content: [{ type: 'text', text: 'Find the ' }] }));
    const msg = added[0]!.c === 'add' ? (added[0] as any).item : undefined;
    assert.equal(msg.kind, 'session-message');
    assert.equal(msg.from, 'Main agent');
    assert.equal(msg.to, 'Explorer');
    const chunk = tr.apply(u({ sessionUpdate: 'session_message_chunk', messageId: 'sm1', content: { type: 'text', text: 'config.' } }));
    assert.deepEqual(chunk.map((c) => c.c), ['text']);
    assert.equal(msg.text, 'Find the config.');
    // A chunk before its upsert makes the message; the upsert then fills in who.
    tr.apply(u({ sessionUpdate: 'session_message_chunk', messageId: 'sm2', content: { type: 'text', text: 'Done.' } }));
    tr.apply(u({ sessionUpdate: 'session_message', messageId: 'sm2', senderSessionId: 'child-1' }));
    const second = tr.items.find((i) => i.kind === 'session-message' && i.messageId === 'sm2') as any;
    assert.equal(second.text, 'Done.', 'an upsert without content keeps the text');
    assert.equal(second.from, 'Explorer');
  });

  it('plan operations: several plans by id, checklist and Markdown, updated in place, one removed; legacy plan still works', () => {
    const tr = new Transcript();
    tr.apply(u({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'a', entries: [{ content: 'Read', priority: 'high', status: 'pending' }] } }));
    tr.apply(u({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'b', content: '# Refactor\n\n1. split', path: '/w/PLAN.md' } }));
    const changes = tr.apply(u({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'a', entries: [{ content: 'Read', priority: 'high', status: 'completed' }] } }));
    assert.deepEqual(changes.map((c) => c.c), ['put'], 'the same plan id is updated in place');
    const plans = tr.items.filter((i) => i.kind === 'plan') as any[];
    assert.equal(plans.length, 2);
    assert.equal(plans[0].entries[0].status, 'completed');
    assert.equal(plans[1].format, 'markdown');
    assert.equal(plans[1].markdown, '# Refactor\n\n1. split');
    assert.equal(plans[1].path, '/w/PLAN.md');
    const removed = tr.apply(u({ sessionUpdate: 'plan_removed', planId: 'a' }));
    assert.deepEqual(removed, [{ c: 'remove', id: plans[0].id }]);
    assert.deepEqual(tr.items.filter((i) => i.kind === 'plan').map((p: any) => p.planId), ['b']);
    assert.deepEqual(tr.apply(u({ sessionUpdate: 'plan_removed', planId: 'a' })), [], 'removing it again changes nothing');
    // The earlier draft's file variant is accepted too.
    tr.apply(u({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'c', uri: 'file:///w/plan.md' } }));
    assert.equal((tr.items.at(-1) as any).path, 'file:///w/plan.md');
    // Legacy plan: one per turn, replaced whole.
    tr.apply(u({ sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'low', status: 'pending' }] }));
    tr.apply(u({ sessionUpdate: 'plan', entries: [{ content: 'y', priority: 'low', status: 'pending' }] }));
    assert.equal(tr.items.filter((i) => i.kind === 'plan' && i.planId === undefined).length, 1);
  });

  it('decoding: bad subagent and plan updates are dropped with a reason, never thrown', () => {
    const problems: string[] = [];
    assert.equal(decodeSessionUpdate({ sessionUpdate: 'subagent_update' }, problems).sessionUpdate, '_unsupported');
    assert.equal(decodeSessionUpdate({ sessionUpdate: 'plan_update', plan: { type: 'items' } }, problems).sessionUpdate, '_unsupported');
    assert.equal(decodeSessionUpdate({ sessionUpdate: 'plan_update', plan: { type: 'gantt', planId: 'x' } }, problems).sessionUpdate, '_unsupported');
    assert.equal(decodeSessionUpdate({ sessionUpdate: 'session_message_chunk', messageId: 'm' }, problems).sessionUpdate, '_unsupported');
    const ok = decodeSessionUpdate({ sessionUpdate: 'subagent_update', sessionId: 'c', title: 7, state: { state: 'idle', stopReason: 42 }, capabilities: { cancel: null } }, problems) as any;
    assert.equal(ok.title, undefined, 'a bad title is ignored');
    assert.deepEqual(ok.state, { state: 'idle' }, 'a malformed stopReason is "not reported"');
    assert.equal(ok.canCancel, false);
    assert.ok(problems.some((p) => p.includes('gantt')));
    // session tool call content links a call to its child.
    const call = decodeSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Task', content: [{ type: 'session', sessionId: 'c' }] }, []) as any;
    assert.deepEqual(call.content, [{ type: 'session', sessionId: 'c' }]);
  });
});

describe('DeltaBatcher', () => {
  function setup() {
    const sent: TranscriptDelta[][] = [];
    let fire: (() => void) | undefined;
    const tr = new Transcript();
    const b = new DeltaBatcher((d) => sent.push(JSON.parse(JSON.stringify(d))), () => tr.header, 16, { set: (fn) => (fire = fn), clear: () => (fire = undefined) });
    return { sent, tr, b, tick: () => fire?.() };
  }

  it('coalesces text chunks of one frame into one delta, in order', () => {
    const { sent, tr, b, tick } = setup();
    b.push(tr.apply(text('agent_message_chunk', 'start')));
    tick();
    for (const ch of ['a', 'b', 'c']) b.push(tr.apply(text('agent_message_chunk', ch)));
    tick();
    assert.equal(sent.length, 2);
    assert.deepEqual(sent[1], [{ t: 'text', id: 'm1', text: 'abc' }]);
  });

  it('an item added within the frame is sent once with its latest text', () => {
    const { sent, tr, b, tick } = setup();
    for (const ch of ['x', 'y', 'z']) b.push(tr.apply(text('agent_message_chunk', ch)));
    tick();
    assert.equal(sent[0]!.length, 1);
    assert.equal((sent[0]![0] as any).t, 'add');
    assert.equal((sent[0]![0] as any).item.text, 'xyz');
  });

  it('20,000 one-word chunks become a handful of messages, losing nothing', () => {
    const { sent, tr, b, tick } = setup();
    let expected = '';
    for (let i = 0; i < 20_000; i++) {
      const w = `w${i} `;
      expected += w;
      b.push(tr.apply(text('agent_message_chunk', w)));
      if (i % 5000 === 4999) tick();
    }
    tick();
    assert.equal(sent.length, 4);
    let rebuilt = '';
    for (const batch of sent) for (const d of batch) rebuilt += d.t === 'add' ? (d.item as any).text : d.t === 'text' ? d.text : '';
    assert.equal(rebuilt, expected);
  });

  it('repeated puts of a tool call in a frame are sent once; header once', () => {
    const { sent, tr, b, tick } = setup();
    b.push(tr.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'T' })));
    tick();
    for (const s of ['in_progress', 'completed']) b.push(tr.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: s })));
    b.push(tr.apply(u({ sessionUpdate: 'usage_update', used: 1, size: 2 })));
    b.push(tr.apply(u({ sessionUpdate: 'usage_update', used: 3, size: 4 })));
    tick();
    assert.deepEqual(sent[1]!.map((d) => d.t), ['put', 'header']);
    assert.equal((sent[1]![0] as any).item.status, 'completed');
    assert.deepEqual((sent[1]![1] as any).header.usage, { used: 3, size: 4, cost: null });
  });
});
