/**
 * The one newline splitter: a byte stream cut into lines (`\n`, a `\r` before
 * it dropped), for the ACP transport, the MCP relay (both its ends) and the
 * editor-context server. Bytes stay bytes until a line is whole, so a UTF-8
 * character split across chunks decodes correctly. Bounded: a line over
 * `maxLineBytes` is dropped as it streams (`onTooLong` when it crosses the
 * limit, `onOversize` with its size when it ends). Plain `Uint8Array`s (a
 * Node `Buffer` is one): no `vscode`, no Node import (the relay's bundle
 * imports it).
 */

const NEWLINE = 0x0a;
const CR = 0x0d;
/** As Node's `buffer.toString('utf8')`: a byte-order mark is kept, bad bytes become U+FFFD. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface LineSplitterOptions {
  /** A line grew past the limit: called once, as it does (the rest of the line is dropped). */
  readonly onTooLong?: () => void;
  /** Decided at each line's start: whether it is wanted at all (one that is not is neither kept nor decoded). */
  readonly want?: () => boolean;
  /** The pieces kept across chunks are copied (the chunks are handed on, and may be reused). */
  readonly copy?: boolean;
}

export class LineSplitter {
  private parts: Uint8Array[] = [];
  private pendingBytes = 0;
  private discarding = false;
  /** Undefined: at a line's start (not decided yet). */
  private keeping: boolean | undefined;
  private closed = false;

  constructor(
    /** The longest line kept (bytes); may be changed between lines (a handshake, then the conversation). */
    public maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytes: number) => void = () => undefined,
    private readonly options: LineSplitterOptions = {},
  ) {}

  push(chunk: Uint8Array): void {
    if (this.closed) return;
    let nl = chunk.indexOf(NEWLINE);
    if (nl === -1) {
      this.append(chunk);
      return;
    }
    // The line begun in an earlier chunk.
    this.append(chunk.subarray(0, nl));
    this.endLine();
    let start = nl + 1;
    // The lines wholly inside this chunk: decoded at once (a newline byte never
    // falls inside a UTF-8 sequence), then cut as strings — no array per line.
    // Only when none of them can be over the limit: else byte by byte below.
    const last = chunk.lastIndexOf(NEWLINE);
    if (last > start && last - start <= this.maxLineBytes) {
      const text = utf8.decode(chunk.subarray(start, last + 1));
      const { want } = this.options;
      let from = 0;
      while (!this.closed && (nl = text.indexOf('\n', from)) !== -1) {
        if (!want || want()) this.onLine(text.charCodeAt(nl - 1) === CR ? text.slice(from, nl - 1) : text.slice(from, nl));
        from = nl + 1;
      }
      start = last + 1;
    }
    while (!this.closed) {
      nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.append(chunk.subarray(start));
        return;
      }
      this.append(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
  }

  /** Nothing more is split (what is buffered is dropped): the stream is being cut off. */
  close(): void {
    this.closed = true;
    this.parts = [];
    this.pendingBytes = 0;
  }

  private wanted(): boolean {
    this.keeping ??= this.options.want?.() ?? true;
    return this.keeping;
  }

  private append(piece: Uint8Array): void {
    if (piece.length === 0 || this.closed || !this.wanted()) return;
    this.pendingBytes += piece.length;
    if (this.discarding) return;
    if (this.pendingBytes > this.maxLineBytes) {
      this.discarding = true;
      this.parts = [];
      this.options.onTooLong?.();
      return;
    }
    this.parts.push(this.options.copy ? new Uint8Array(piece) : piece);
  }

  private endLine(): void {
    if (this.closed) return;
    const keep = this.wanted();
    this.keeping = undefined;
    if (this.discarding) {
      const bytes = this.pendingBytes;
      this.discarding = false;
      this.pendingBytes = 0;
      this.onOversize(bytes);
      return;
    }
    let buf = concat(this.parts, this.pendingBytes);
    this.parts = [];
    this.pendingBytes = 0;
    if (!keep) return;
    if (buf.length > 0 && buf[buf.length - 1] === CR) buf = buf.subarray(0, buf.length - 1);
    this.onLine(utf8.decode(buf));
  }

  /** Bytes of an unterminated line still buffered (for diagnostics). */
  get buffered(): number {
    return this.discarding ? 0 : this.pendingBytes;
  }
}
