/**
 * A minimal MCP server over newline-delimited JSON-RPC (MCP's stdio framing):
 * initialize, ping, tools/list, tools/call and the notifications it may
 * ignore. Whatever the client sends, it gets a bounded answer or a JSON-RPC
 * error: a line over `MAX_LINE_BYTES` is dropped with "request too large",
 * non-JSON is a parse error, more than `MAX_IN_FLIGHT` unanswered calls are
 * refused. Written by hand: the official SDK would bring express, hono, ajv and
 * zod into the .vsix for five methods. No `vscode` import.
 */
import { LineSplitter } from '../../shared/lineSplitter';
import { InvalidArguments, type EditorTools } from './tools';

export const MAX_LINE_BYTES = 64 * 1024;
export const MAX_IN_FLIGHT = 16;
/** A connection whose tools include write_file takes lines this long (its content, as JSON escapes it). */
export const MAX_TOOLS_LINE_BYTES = 8 * 1024 * 1024;
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const ErrorCode = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, busy: -32000 } as const;

type Id = string | number | null;

export interface DispatcherOptions {
  readonly tools: Pick<EditorTools, 'call' | 'definitions'>;
  readonly version: string;
  /** Writes one line (without its newline) to the client. */
  readonly write: (line: string) => void;
  readonly log: (message: string) => void;
  /** The longest line taken (default MAX_LINE_BYTES). */
  readonly maxLineBytes?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One client connection's MCP session. Feed it bytes; it writes answers. */
export class McpDispatcher {
  /** For `receive` only: the server frames its connections itself and calls `line`/`tooLong`. */
  private lines: LineSplitter | undefined;
  private inFlight = 0;
  /** Calls not answered yet, by their request id: what notifications/cancelled stops. */
  private readonly calls = new Map<string, AbortController>();
  private closed = false;

  constructor(private readonly opts: DispatcherOptions) {}

  /** Bytes from the client, as one stream cut in lines here. */
  receive(chunk: Buffer): void {
    this.lines ??= new LineSplitter(this.maxLineBytes, (line) => this.line(line), undefined, { onTooLong: () => this.tooLong() });
    this.lines.push(chunk);
  }

  get maxLineBytes(): number {
    return this.opts.maxLineBytes ?? MAX_LINE_BYTES;
  }

  /** A line from the client that grew over `maxLineBytes` (dropped). */
  tooLong(): void {
    this.error(null, ErrorCode.invalidRequest, `Request too large: a message may be at most ${this.maxLineBytes} bytes.`);
  }

  close(): void {
    this.closed = true;
  }

  /** One line from the client (without its newline); blank lines are skipped. */
  line(text: string): void {
    if (text.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.error(null, ErrorCode.parse, 'Parse error: each line must be one JSON-RPC message.');
      return;
    }
    if (Array.isArray(msg)) return this.error(null, ErrorCode.invalidRequest, 'Batches are not supported.');
    if (!isObj(msg) || msg.jsonrpc !== '2.0') return this.error(null, ErrorCode.invalidRequest, 'Invalid request: not a JSON-RPC 2.0 message.');
    const id = msg.id;
    const hasId = 'id' in msg;
    if (hasId && typeof id !== 'string' && typeof id !== 'number' && id !== null) return this.error(null, ErrorCode.invalidRequest, 'Invalid request: "id" must be a string or a number.');
    if (typeof msg.method !== 'string') {
      // A response from the client: this server sends no requests, so there is nothing to match.
      if (!hasId || !('result' in msg || 'error' in msg)) this.error(hasId ? (id as Id) : null, ErrorCode.invalidRequest, 'Invalid request: no "method".');
      return;
    }
    if (!hasId) {
      // notifications/initialized, …: nothing to answer. A cancelled call is told to stop (run_command's program is killed).
      if (msg.method === 'notifications/cancelled' && isObj(msg.params)) this.calls.get(String(msg.params.requestId))?.abort();
      return;
    }
    void this.request(id as Id, msg.method, msg.params);
  }

  private async request(id: Id, method: string, params: unknown): Promise<void> {
    if (params !== undefined && !isObj(params)) return this.error(id, ErrorCode.invalidParams, 'Invalid params: must be an object.');
    switch (method) {
      case 'initialize': {
        const asked = params?.protocolVersion;
        const protocolVersion = typeof asked === 'string' && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0];
        return this.result(id, {
          protocolVersion,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'vscode-editor', title: 'VS Code editor context', version: this.opts.version },
          instructions:
            'Views of the user’s VS Code: the selection, open editors, problems, workspace symbols and visible ranges, for files inside the session folders.' +
            (this.opts.tools.definitions().some((t) => t.name === 'read_file') ? ' Also read_file (unsaved text included), write_file (reviewed by the user, undoable) and run_command (in a VS Code terminal).' : ''),
        });
      }
      case 'ping':
        return this.result(id, {});
      case 'tools/list':
        return this.result(id, { tools: this.opts.tools.definitions() });
      case 'tools/call':
        return await this.call(id, params ?? {});
      default:
        return this.error(id, ErrorCode.methodNotFound, `Method not found: ${method.slice(0, 100)}`);
    }
  }

  private async call(id: Id, params: Record<string, unknown>): Promise<void> {
    if (typeof params.name !== 'string') return this.error(id, ErrorCode.invalidParams, 'Invalid params: "name" must be a string.');
    if (this.inFlight >= MAX_IN_FLIGHT) return this.error(id, ErrorCode.busy, `Too many calls at once: at most ${MAX_IN_FLIGHT} may be unanswered.`);
    this.inFlight++;
    try {
      const stop = new AbortController();
      this.calls.set(String(id), stop);
      const r = await this.opts.tools.call(params.name, params.arguments, stop.signal).finally(() => this.calls.delete(String(id)));
      this.result(id, 'error' in r ? { content: [{ type: 'text', text: r.error }], isError: true } : { content: [{ type: 'text', text: 'text' in r ? r.text : JSON.stringify(r.data) }] });
    } catch (err) {
      if (err instanceof InvalidArguments) this.error(id, ErrorCode.invalidParams, `Invalid params: ${err.message}`);
      else {
        this.opts.log(`editor context: ${params.name} failed: ${err instanceof Error ? err.message : String(err)}`);
        this.error(id, ErrorCode.internal, 'Internal error: the editor could not answer.');
      }
    } finally {
      this.inFlight--;
    }
  }

  private result(id: Id, result: unknown): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  private error(id: Id, code: number, message: string): void {
    this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private send(msg: unknown): void {
    if (!this.closed) this.opts.write(JSON.stringify(msg));
  }
}
