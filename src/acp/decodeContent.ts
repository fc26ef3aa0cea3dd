/**
 * Tolerant decoding of the content an agent sends inside updates: content
 * blocks, a tool call's content and its locations (decode.ts decodes the
 * updates around them). No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { PATCH_MAX_LINES, type PatchHunk } from '../shared/patch';
import { isObj, num, optional, str, type Obj, type Problems } from './tolerant';
import type { PatchContent } from './v2Diff';

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
export type DecodedToolCallContent = acp.ToolCallContent | { type: 'session'; sessionId: string } | PatchContent;

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
    case '_patch':
      return decodePatchContent(v, problems, where);
    default:
      return undefined;
  }
}

export function decodeLocation(v: unknown): acp.ToolCallLocation | undefined {
  if (!isObj(v) || typeof v.path !== 'string') return undefined;
  const line = num(v.line);
  return line !== undefined && line >= 0 ? { path: v.path, line } : { path: v.path };
}

/** One file of a v2 diff as decodeV2Diff made it (live, or read back from the archive): checked and bounded again. */
function decodePatchContent(v: Obj, problems: Problems, where: string): PatchContent | undefined {
  const path = str(v.path);
  const operation = str(v.operation);
  if (path === undefined || operation === undefined || !Array.isArray(v.hunks)) return undefined;
  let left = PATCH_MAX_LINES;
  const hunks: PatchHunk[] = [];
  for (const h of v.hunks) {
    const [oldStart, oldLines, newStart, newLines] = isObj(h) ? [num(h.oldStart), num(h.oldLines), num(h.newStart), num(h.newLines)] : [];
    if (!isObj(h) || oldStart === undefined || oldLines === undefined || newStart === undefined || newLines === undefined || !Array.isArray(h.lines) || left <= 0) {
      problems.push(`${where}: a hunk of ${path} left out`);
      continue;
    }
    const lines = h.lines.filter((l): l is string => typeof l === 'string').slice(0, left);
    left -= lines.length;
    hunks.push({ oldStart, oldLines, newStart, newLines, lines });
  }
  const oldPath = str(v.oldPath);
  const cut = num(v.cut);
  return { type: '_patch', path, ...(oldPath !== undefined ? { oldPath } : {}), operation, hunks, ...(cut ? { cut } : {}) };
}
