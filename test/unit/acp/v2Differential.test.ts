// The differential test of ACP v2 beside v1 (issue 37): one scripted conversation — the fake agent's
// "mixed" history of replay-10k (user turns, thoughts, streamed answers, tool calls with diffs, plans),
// 10,000 updates — replayed over v1 (session/load, v1 shapes) and over v2 (session/resume from the start:
// upserts by id, plan_update, diffs as changes and a git patch, replay_complete) by real fake-agent
// processes, each through the real connection and decoder into a Transcript. What the panel would
// show must be the same: every message's text, every tool call's title, kind, status and changed lines,
// every plan's entries, in the same order.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AgentRuntime } from '../../../src/agents/agentRuntime';
import { Transcript } from '../../../src/sessions/transcript';
import { lineDiff } from '../../../src/shared/lineDiff';
import { patchLines } from '../../../src/shared/patch';
import type { ToolContent, TranscriptItem } from '../../../src/shared/transcriptTypes';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const FAKE = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');

/** What a tool call's content shows: a diff (either wire's) as its file and its changed lines. */
function shown(c: ToolContent): string {
  const changed = (lines: readonly { op: string; text: string }[]) => lines.filter((l) => l.op !== ' ').map((l) => l.op + l.text).join(' | ');
  if (c.type === 'diff') return `${c.path}: ${changed(lineDiff(c.oldText, c.newText))}`;
  if (c.type === 'patch') return `${c.path}: ${changed(patchLines(c.hunks))}`;
  if (c.type === 'content') return `content ${c.content.type} ${c.content.text ?? ''}`;
  return c.type;
}

/** An item as the comparison reads it (the kinds this conversation has; any other by its kind alone). */
function view(i: TranscriptItem): string {
  if (i.kind === 'user' || i.kind === 'agent' || i.kind === 'thought') return `${i.kind}: ${i.text}`;
  if (i.kind === 'tool') return `tool ${i.title} [${i.toolKind}, ${i.status}] ${i.locations.map((l) => `${l.path}:${l.line ?? ''}`).join(', ')} ${i.content.map(shown).join('; ')}`;
  if (i.kind === 'plan') return `plan ${i.entries.map((e) => `${e.content}/${e.priority}/${e.status}`).join(', ')}`;
  return i.kind;
}

async function replayed(protocolVersion: 1 | 2): Promise<{ items: string[]; problems: string[] }> {
  const problems: string[] = [];
  const rt = new AgentRuntime({
    name: `replay over v${protocolVersion}`,
    spec: { command: process.execPath, args: [FAKE, 'replay-10k'], cwd: ROOT, env: { ...process.env } },
    clientInfo: { name: 'test', version: '0' },
    logger: { info: () => {}, warn: (m) => problems.push(m), error: (m) => problems.push(m) },
    initializeTimeoutMs: 10_000,
    protocolVersion,
  });
  try {
    await rt.start();
    assert.equal(rt.protocolVersion, protocolVersion);
    const transcript = new Transcript();
    rt.connection.onSessionUpdate((n) => void transcript.apply(n.update));
    await rt.connection.loadSession({ sessionId: 'long-1', cwd: ROOT, mcpServers: [] });
    return { items: transcript.items.map(view), problems };
  } finally {
    rt.process.killNow();
    await rt.process.exited;
  }
}

describe('ACP v2: the same conversation over v1 and over v2 gives the same transcript', function () {
  this.timeout(30_000);

  it('10,000 updates of every kind the panel draws, replayed by real processes over each wire', async () => {
    const [v1, v2] = [await replayed(1), await replayed(2)];
    assert.equal(v1.items.length, 2634, 'the conversation, whole');
    assert.ok(v1.items.some((i) => i.startsWith('tool ') && i.includes(': -export const a1 = 1; | +export const a1 = 2; | +export const c = 3;')), 'v1 diffs are compared by their changed lines');
    // (No session is open here: the runtime says its idle state is ignored, which is not a decoding problem.)
    assert.deepEqual(v2.problems.filter((p) => !p.includes('which is not open here')), [], 'v2 shapes are v2 (nothing decoded as a v1 leftover)');
    for (let i = 0; i < v1.items.length; i++) if (v1.items[i] !== v2.items[i]) assert.fail(`item ${i} differs:\n  v1: ${v1.items[i]}\n  v2: ${v2.items[i]}`);
    assert.equal(v2.items.length, v1.items.length);
  });
});
