/**
 * Turns the composer's text and attachments into ACP content blocks, each in
 * the richest form the agent's promptCapabilities allow: embedded `resource`
 * with `embeddedContext`, else `resource_link` (always allowed); images only
 * with `image`. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { Attachment } from '../shared/attachments';

export interface PromptCaps {
  readonly image: boolean;
  readonly embeddedContext: boolean;
}

/** Reads a file attachment at send time (see `readText` in chat/attachmentSources.ts). */
export type ReadAttachment = (uri: string, real?: string) => Promise<string | { readonly refused: string } | undefined>;

export interface BuiltPrompt {
  readonly blocks: acp.ContentBlock[];
  /** Attachments that could not be sent, in words. */
  readonly dropped: string[];
}

const MAX_EMBED_BYTES = 512 * 1024;

/**
 * `readText(uri, real)` gives a file's text (an open editor's, unsaved changes included), or undefined,
 * or a refusal (the file leads elsewhere than the real path checked when it was attached): then the
 * file is not sent at all, and `dropped` says why.
 */
export async function buildPrompt(text: string, attachments: readonly Attachment[], caps: PromptCaps, readText: ReadAttachment): Promise<BuiltPrompt> {
  const blocks: acp.ContentBlock[] = [];
  const dropped: string[] = [];
  if (text.trim() !== '') blocks.push({ type: 'text', text });
  for (const a of attachments) {
    switch (a.kind) {
      case 'file': {
        if (caps.embeddedContext) {
          const content = await readText(a.uri, a.real);
          if (typeof content === 'object') {
            dropped.push(l10n.t('{0}: {1}', a.name, content.refused));
            break;
          }
          if (content !== undefined && Buffer.byteLength(content) <= MAX_EMBED_BYTES) {
            blocks.push({ type: 'resource', resource: { uri: a.uri, text: content, mimeType: 'text/plain' } });
            break;
          }
        }
        blocks.push({ type: 'resource_link', uri: a.uri, name: a.name });
        break;
      }
      case 'selection': {
        const uri = `${a.uri}#L${a.startLine}-${a.endLine}`;
        if (caps.embeddedContext) blocks.push({ type: 'resource', resource: { uri, text: a.text, mimeType: 'text/plain' } });
        else {
          blocks.push({ type: 'resource_link', uri, name: `${a.name}:${a.startLine}-${a.endLine}` });
          blocks.push({ type: 'text', text: `Selected lines ${a.startLine}-${a.endLine} of ${a.name}:\n\`\`\`\n${a.text}\n\`\`\`` });
        }
        break;
      }
      case 'image':
        if (caps.image) blocks.push({ type: 'image', mimeType: a.mimeType, data: a.data });
        else dropped.push(l10n.t('{0}: the agent does not accept images', a.name));
        break;
      case 'problems':
        // Not a file: embedded where the agent takes embedded context, else plain text.
        if (caps.embeddedContext) blocks.push({ type: 'resource', resource: { uri: 'vscode-problems:/workspace', text: a.text, mimeType: 'text/plain' } });
        else blocks.push({ type: 'text', text: `${a.name}:\n${a.text}` });
        break;
    }
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text });
  return { blocks, dropped };
}

/** Fuzzy file match for @-mentions: all query characters in order; compact, early, basename matches first. */
export function fuzzyFiles(paths: readonly string[], query: string, limit = 20): string[] {
  const q = query.toLowerCase();
  if (q === '') return paths.slice(0, limit);
  const scored: { p: string; score: number }[] = [];
  for (const p of paths) {
    const lower = p.toLowerCase();
    let pos = -1;
    let first = -1;
    let ok = true;
    for (const ch of q) {
      pos = lower.indexOf(ch, pos + 1);
      if (pos === -1) {
        ok = false;
        break;
      }
      if (first === -1) first = pos;
    }
    if (!ok) continue;
    const base = lower.slice(lower.lastIndexOf('/') + 1);
    const span = pos - first;
    const score = span + first * 0.1 + (base.includes(q) ? -100 : 0) + (base.startsWith(q) ? -50 : 0) + p.length * 0.01;
    scored.push({ p, score });
  }
  return scored.sort((a, b) => a.score - b.score).slice(0, limit).map((x) => x.p);
}
