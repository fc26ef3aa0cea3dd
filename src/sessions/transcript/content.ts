/**
 * What the agent sent, as the panel shows it: content blocks, tool call content,
 * raw input/output. Pure conversions; no state.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { DecodedToolCallContent } from '../../acp/decodeContent';
import type { ContentPart, ToolContent } from '../../shared/transcriptTypes';

/** A client terminal's output, as shown inside tool calls (kept after release). */
export interface TerminalView {
  output: string;
  truncated: boolean;
  end: number;
  exitStatus?: { exitCode: number | null; signal: string | null };
}

export const json = (v: unknown): string | undefined => {
  if (v === undefined) return undefined;
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
};

export function toPart(block: acp.ContentBlock): ContentPart {
  const b = block as unknown as Record<string, unknown>;
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mimeType: block.mimeType, uri: block.uri ?? undefined };
    case 'audio':
      return { type: 'audio', mimeType: block.mimeType };
    case 'resource_link':
      return { type: 'resource_link', uri: block.uri, name: block.title ?? block.name, mimeType: block.mimeType ?? undefined };
    case 'resource': {
      const r = block.resource as { uri: string; text?: string; mimeType?: string | null };
      return { type: 'resource', uri: r.uri, text: r.text, mimeType: r.mimeType ?? undefined };
    }
    default:
      return { type: String(b.type), text: json(block) };
  }
}

/** A tool call's content; a terminal's with the output known so far. */
export function toToolContent(c: DecodedToolCallContent, terminals?: ReadonlyMap<string, TerminalView>): ToolContent {
  switch (c.type) {
    case 'session':
      return { type: 'session', sessionId: c.sessionId };
    case 'content':
      return { type: 'content', content: toPart(c.content) };
    case 'diff':
      return { type: 'diff', path: c.path, oldText: c.oldText ?? null, newText: c.newText };
    case 'terminal':
      return { type: 'terminal', terminalId: c.terminalId, ...(terminals?.get(c.terminalId) ?? {}) };
    case '_patch':
      return { type: 'patch', path: c.path, ...(c.oldPath !== undefined ? { oldPath: c.oldPath } : {}), operation: c.operation, hunks: c.hunks, ...(c.cut ? { cut: c.cut } : {}) };
  }
}
