/**
 * Newline-delimited JSON-RPC framing for ACP's stdio transport, on top of
 * vscode-jsonrpc's reader/writer abstractions. One message per line, no
 * Content-Length headers. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  type DataCallback,
  Disposable,
  type Message,
} from 'vscode-jsonrpc/node';
import { LineSplitter } from '../shared/lineSplitter';

const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface ReaderOptions {
  /** Lines longer than this (in bytes) are dropped with an error instead of buffered. */
  readonly maxLineBytes?: number;
  /** Called for a line that is not a JSON-RPC message object; the line is skipped. */
  readonly onInvalidLine?: (problem: string, line: string) => void;
}

/** Minimal view of a Node readable stream (child stdout, or a test stream). */
export interface ByteSource {
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  removeListener(event: string, listener: (...args: any[]) => void): unknown;
}

/** Minimal view of a Node writable stream (child stdin, or a test stream). */
export interface ByteSink {
  write(data: string, cb?: (err?: Error | null) => void): boolean;
  end(): unknown;
  on(event: 'error' | 'close', listener: (...args: any[]) => void): unknown;
  once(event: 'drain', listener: () => void): unknown;
  readonly writable?: boolean;
}

/** Parses one line into a JSON-RPC message, or explains why it is not one. */
export function parseMessageLine(line: string): { message: Message } | { problem: string } | { blank: true } {
  // Nearly every line starts with "{": only another one may be blank (trimmed only then).
  if (line.charCodeAt(0) !== 0x7b && line.trim() === '') return { blank: true };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { problem: `not JSON (${(err as Error).message})` };
  }
  if (Array.isArray(value)) return { problem: 'a JSON-RPC batch (ACP does not use batches)' };
  if (typeof value !== 'object' || value === null) return { problem: 'not a JSON-RPC message object' };
  const m = value as Record<string, unknown>;
  const isRequestOrNotification = typeof m.method === 'string';
  const isResponse = 'id' in m && ('result' in m || 'error' in m);
  if (!isRequestOrNotification && !isResponse) return { problem: 'neither a request, a notification nor a response' };
  if (m.jsonrpc === undefined) m.jsonrpc = '2.0';
  return { message: m as unknown as Message };
}

export class NdjsonMessageReader extends AbstractMessageReader {
  private readonly maxLineBytes: number;

  constructor(
    private readonly source: ByteSource,
    private readonly options: ReaderOptions = {},
  ) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  listen(callback: DataCallback): Disposable {
    const splitter = new LineSplitter(
      this.maxLineBytes,
      (line) => {
        const parsed = parseMessageLine(line);
        if ('blank' in parsed) return;
        if ('problem' in parsed) {
          this.options.onInvalidLine?.(parsed.problem, line);
          return;
        }
        callback(parsed.message);
      },
      (bytes) => {
        this.fireError(
          new Error(`Dropped a message of ${bytes} bytes: longer than the limit of ${this.maxLineBytes} bytes per line.`),
        );
      },
    );
    const onData = (chunk: Buffer | string) => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    const onError = (err: Error) => this.fireError(err);
    const onClose = () => this.fireClose();
    this.source.on('data', onData);
    this.source.on('error', onError);
    this.source.on('end', onClose);
    this.source.on('close', onClose);
    return Disposable.create(() => {
      this.source.removeListener('data', onData);
      this.source.removeListener('error', onError);
      this.source.removeListener('end', onClose);
      this.source.removeListener('close', onClose);
    });
  }
}

export class NdjsonMessageWriter extends AbstractMessageWriter {
  private errorCount = 0;
  private closed = false;

  constructor(private readonly sink: ByteSink) {
    super();
    sink.on('error', (err: Error) => this.fireError(err));
    sink.on('close', () => {
      this.closed = true;
      this.fireClose();
    });
  }

  write(msg: Message): Promise<void> {
    if (this.closed || this.sink.writable === false) {
      return Promise.reject(new Error(l10n.t('The agent is not running (its input is closed).')));
    }
    // JSON.stringify never emits a raw newline: strings escape it as \n.
    const line = JSON.stringify(msg) + '\n';
    return new Promise((resolve, reject) => {
      try {
        this.sink.write(line, (err) => {
          if (err) {
            this.errorCount++;
            this.fireError(err, msg, this.errorCount);
            reject(err);
          } else {
            this.errorCount = 0;
            resolve();
          }
        });
      } catch (err) {
        this.errorCount++;
        this.fireError(err, msg, this.errorCount);
        reject(err as Error);
      }
    });
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.sink.end();
    } catch {
      // already closed
    }
  }
}
