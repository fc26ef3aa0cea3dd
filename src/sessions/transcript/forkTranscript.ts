/**
 * A conversation as Markdown: for agents that cannot fork (the new session's
 * first prompt carries it, labelled as such), and for Export Transcript. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type { TranscriptItem } from '../../shared/transcriptTypes';

/** Longest transcript handed over; older turns are left out first (and the text says so). */
const MAX_CHARS = 200_000;

/** `exported`: the whole conversation under its own title (Export Transcript), never cut. */
export function transcriptMarkdown(items: readonly TranscriptItem[], title: string, exported = false): string {
  // The exported document is the user's, in their language; the handover to an agent stays English.
  const w = exported
    ? { user: l10n.t('User:'), agent: l10n.t('Agent:'), tool: (name: string, status: string) => l10n.t('Tool call: {0} ({1})', name, status), plan: l10n.t('Plan:'), summary: l10n.t('Context summary:') }
    : { user: 'User:', agent: 'Agent:', tool: (name: string, status: string) => `Tool call: ${name} (${status})`, plan: 'Plan:', summary: 'Context summary:' };
  const parts: string[] = [];
  for (const i of items) {
    if (i.parent !== undefined) continue; // a subagent's own work stays in its card
    switch (i.kind) {
      case 'user':
        if (i.text.trim()) parts.push(`**${w.user}**\n\n${i.text.trim()}`);
        break;
      case 'agent':
        if (i.text.trim()) parts.push(`**${w.agent}**\n\n${i.text.trim()}`);
        break;
      case 'tool':
        parts.push(`> ${w.tool(i.title, i.status)}`);
        break;
      case 'plan':
        if (i.format === 'items') parts.push(`> ${w.plan}\n${i.entries.map((e) => `> - [${e.status === 'completed' ? 'x' : ' '}] ${e.content}`).join('\n')}`);
        else if (i.markdown) parts.push(`> ${w.plan}\n\n${i.markdown}`);
        break;
      case 'compaction':
        if (i.summary) parts.push(`> ${w.summary}\n\n${i.summary}`);
        break;
      // Thoughts, questions, notices and the turn's bookkeeping are not part of what was said.
      case 'thought':
      case 'permission':
      case 'elicitation':
      case 'notice':
      case 'error':
      case 'turn-end':
      case 'subagent':
      case 'session-message':
        break;
    }
  }
  let body = parts.join('\n\n');
  if (exported) return `# ${title}\n\n${body}\n`;
  let cut = '';
  if (body.length > MAX_CHARS) {
    body = body.slice(body.length - MAX_CHARS);
    cut = '(The beginning of the conversation is left out: it was too long.)\n\n';
  }
  return `# Conversation so far: ${title}\n\n${cut}${body}\n`;
}
