/**
 * Watching an MCP stdio conversation without touching it: the relay hands every
 * chunk on unchanged and also feeds it here. Lines are cut at `\n`; a line is
 * kept (and parsed) only when it can matter — the client's requests, and the
 * server's answers while an `initialize` or `tools/list` is awaited — and only
 * up to a size cap. No `vscode` import.
 */
import { LineSplitter } from '../../shared/lineSplitter';
import { MAX_NAMES, MAX_TEXT, type RelayEvent } from './wire';

/** Lines from the client longer than this are not looked at (a large tools/call). */
const MAX_CLIENT_LINE = 1024 * 1024;
/** Answers longer than this are not parsed (the tool count stays unknown). */
const MAX_SERVER_LINE = 64 * 1024 * 1024;

type Pending = { readonly kind: 'initialize' } | { readonly kind: 'tools'; readonly first: boolean };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const idKey = (id: unknown): string | undefined => (typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${String(id)}` : undefined);

function messages(line: string): Record<string, unknown>[] {
  try {
    const v: unknown = JSON.parse(line);
    return (Array.isArray(v) ? v : [v]).filter(isObj);
  } catch {
    return [];
  }
}

/** What a relay learns from both directions of one server's stdio. */
export class McpPeek {
  private readonly pending = new Map<string, Pending>();
  private toolCount = 0;
  private toolNames: string[] = [];
  readonly fromClient: LineSplitter;
  readonly fromServer: LineSplitter;

  constructor(private readonly report: (e: RelayEvent) => void) {
    // The chunks are handed on to the other side: what is kept of them is copied.
    this.fromClient = new LineSplitter(MAX_CLIENT_LINE, (l) => this.clientLine(l), undefined, { copy: true });
    this.fromServer = new LineSplitter(MAX_SERVER_LINE, (l) => this.serverLine(l), undefined, { copy: true, want: () => this.pending.size > 0 });
  }

  private clientLine(line: string): void {
    // Cheap test first: only these two requests matter.
    if (line.indexOf('initialize') < 0 && line.indexOf('tools/list') < 0) return;
    for (const m of messages(line)) {
      const key = idKey(m.id);
      if (key === undefined) continue;
      if (m.method === 'initialize') this.pending.set(key, { kind: 'initialize' });
      else if (m.method === 'tools/list') this.pending.set(key, { kind: 'tools', first: !(isObj(m.params) && typeof m.params.cursor === 'string') });
      if (this.pending.size > 1000) this.pending.delete(this.pending.keys().next().value as string);
    }
  }

  private serverLine(line: string): void {
    for (const m of messages(line)) {
      const key = idKey(m.id);
      const p = key === undefined ? undefined : this.pending.get(key);
      if (!p || key === undefined || !('result' in m || 'error' in m)) continue;
      this.pending.delete(key);
      const error = isObj(m.error) && typeof m.error.message === 'string' ? m.error.message.slice(0, MAX_TEXT) : 'error' in m ? 'error' : undefined;
      if (p.kind === 'initialize') {
        if (error !== undefined) this.report({ e: 'initFailed', message: error });
        else {
          const info = isObj(m.result) && isObj(m.result.serverInfo) ? m.result.serverInfo : undefined;
          const name = typeof info?.name === 'string' ? info.name.slice(0, MAX_TEXT) : undefined;
          this.report(name === undefined ? { e: 'initialized' } : { e: 'initialized', serverName: name });
        }
        continue;
      }
      const tools = isObj(m.result) && Array.isArray(m.result.tools) ? m.result.tools : undefined;
      if (!tools) continue;
      if (p.first) {
        this.toolCount = 0;
        this.toolNames = [];
      }
      this.toolCount += tools.length;
      for (const t of tools) if (this.toolNames.length < MAX_NAMES && isObj(t) && typeof t.name === 'string') this.toolNames.push(t.name.slice(0, MAX_TEXT));
      this.report({ e: 'tools', count: this.toolCount, names: [...this.toolNames] });
    }
  }
}
