/**
 * Tolerant decoding of the content an agent sends inside updates: content
 * blocks, a tool call's content and its locations (decode.ts decodes the
 * updates around them). No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isObj, num, optional, str, type Problems } from './tolerant';

/** Decodes a ContentBlock; an unknown `type` is kept as-is (rendered as unsupported content). */
export function decodeContentBlock(v: unknown, problems: Problems, where: string): acp.ContentBlock | undefined {
  if (!isObj(v) || typeof v.type !== 'string') return undefined;
  switch (v.type) {
    case 'text': {
      const text = str(v.text);
      return text === undefined ? undefined : { type: 'text', text };
    }
    case 'image': {
      const data = str(v.data);
      const mimeType = str(v.mimeType);
      if (data === undefined || mimeType === undefined) return undefined;
      return { type: 'image', data, mimeType, uri: optional(v, 'uri', str, problems, where) };
    }
    case 'audio': {
      const data = str(v.data);
      const mimeType = str(v.mimeType);
      if (data === undefined || mimeType === undefined) return undefined;
      return { type: 'audio', data, mimeType };
    }
    case 'resource_link': {
      const uri = str(v.uri);
      if (uri === undefined) return undefined;
      return {
        type: 'resource_link',
        uri,
        name: str(v.name) ?? uri,
        mimeType: optional(v, 'mimeType', str, problems, where),
        title: optional(v, 'title', str, problems, where),
        description: optional(v, 'description', str, problems, where),
        size: optional(v, 'size', num, problems, where),
      };
    }
    case 'resource': {
      const r = v.resource;
      if (!isObj(r) || typeof r.uri !== 'string') return undefined;
      if (typeof r.text === 'string') return { type: 'resource', resource: { uri: r.uri, text: r.text, mimeType: str(r.mimeType) } };
      if (typeof r.blob === 'string') return { type: 'resource', resource: { uri: r.uri, blob: r.blob, mimeType: str(r.mimeType) } };
      return undefined;
    }
    default:
      problems.push(`${where}: unsupported content type "${v.type}"`);
      return v as unknown as acp.ContentBlock;
  }
}

/** Tool call content, plus \`session\` (schema 1.34: the call runs a subagent; its field name is not in our schema copy). */
export type DecodedToolCallContent = acp.ToolCallContent | { type: 'session'; sessionId: string };

export function decodeToolCallContent(v: unknown, problems: Problems, where: string): DecodedToolCallContent | undefined {
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'content': {
      const content = decodeContentBlock(v.content, problems, `${where}.content`);
      return content && { type: 'content', content };
    }
    case 'diff': {
      const path = str(v.path);
      const newText = str(v.newText);
      if (path === undefined || newText === undefined) return undefined;
      const oldText = v.oldText === null || v.oldText === undefined ? null : str(v.oldText);
      if (oldText === undefined) return undefined;
      return { type: 'diff', path, oldText, newText };
    }
    case 'terminal': {
      const terminalId = str(v.terminalId);
      return terminalId === undefined ? undefined : { type: 'terminal', terminalId };
    }
    case 'session': {
      const sessionId = str(v.sessionId);
      return sessionId === undefined ? undefined : { type: 'session', sessionId };
    }
    default:
      return undefined;
  }
}

export function decodeLocation(v: unknown): acp.ToolCallLocation | undefined {
  if (!isObj(v) || typeof v.path !== 'string') return undefined;
  const line = num(v.line);
  return line !== undefined && line >= 0 ? { path: v.path, line } : { path: v.path };
}
