/**
 * ACP's error codes, what each means, and the errors this client throws and
 * catches, in one place. No `vscode` import.
 */
import { stripVTControlCharacters } from 'node:util';
import * as l10n from '@vscode/l10n';
import { ResponseError } from 'vscode-jsonrpc/node';
import { plainText } from '../shared/nativeText';

/** JSON-RPC error codes ACP gives a meaning to. */
export const ErrorCodes = {
  /** The message was not JSON. */
  ParseError: -32700,
  /** Not a valid JSON-RPC request. */
  InvalidRequest: -32600,
  /** The method is not implemented (by the agent, or by this client). */
  MethodNotFound: -32601,
  /** The params are missing something required, or have the wrong type. */
  InvalidParams: -32602,
  /** Anything else that failed while serving the request. */
  InternalError: -32603,
  /** The request was cancelled (`$/cancel_request`, or Stop). */
  RequestCancelled: -32800,
  /** The agent needs the user to sign in first (`authenticate`). */
  AuthRequired: -32000,
  /** A session, terminal or file that does not exist (or is no longer known). */
  ResourceNotFound: -32002,
} as const;

/** What a code means, in words for logs and messages. */
export function describeErrorCode(code: number): string {
  switch (code) {
    case ErrorCodes.ParseError:
      return 'parse error';
    case ErrorCodes.InvalidRequest:
      return 'invalid request';
    case ErrorCodes.MethodNotFound:
      return 'method not found';
    case ErrorCodes.InvalidParams:
      return 'invalid params';
    case ErrorCodes.InternalError:
      return 'internal error';
    case ErrorCodes.RequestCancelled:
      return 'request cancelled';
    case ErrorCodes.AuthRequired:
      return 'authentication required';
    case ErrorCodes.ResourceNotFound:
      return 'resource not found';
    default:
      return `error ${code}`;
  }
}

/** A JSON-RPC error answered by the agent. */
export class AgentError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AgentError';
  }
  get isAuthRequired(): boolean {
    return this.code === ErrorCodes.AuthRequired;
  }
  get isNotFound(): boolean {
    return this.code === ErrorCodes.ResourceNotFound;
  }
  get isCancelled(): boolean {
    return this.code === ErrorCodes.RequestCancelled;
  }
}

/** The connection closed (the agent exited or closed its output) before an answer came. */
export class ConnectionClosedError extends Error {
  constructor(readonly method: string) {
    super(l10n.t('The agent stopped before it answered {0}.', method));
    this.name = 'ConnectionClosedError';
  }
}

/** Errors this client answers the agent's requests with. */
export const clientError = {
  invalidParams: (message: string) => new ResponseError(ErrorCodes.InvalidParams, message),
  notFound: (message: string) => new ResponseError(ErrorCodes.ResourceNotFound, message),
  internal: (message: string) => new ResponseError(ErrorCodes.InternalError, message),
  cancelled: (message = 'The request was cancelled.') => new ResponseError(ErrorCodes.RequestCancelled, message),
};

/** Longest text taken from an agent's error (it is untrusted text). */
const MAX_REASON = 4000;

/** JSON-RPC's stock messages, which say nothing about why: the data's reason replaces them. */
const STOCK = /^(?:internal error|invalid params|invalid request|parse error|server error|method not found|request cancelled|resource not found|authentication required|error)[.:]?$/i;

/**
 * The reasons an agent put in an error's `data`, as agents really send them:
 * a string (Rust agents: `Error::internal_error().data(…)`), `{ details }` (the
 * TypeScript SDK wraps any thrown error that way), `{ message }`, or
 * `{ error: { message } }` (a provider's error passed on), one level nested.
 */
function dataReasons(data: unknown, depth = 0): string[] {
  if (typeof data === 'string') return data.trim() ? [data] : [];
  if (typeof data !== 'object' || data === null || Array.isArray(data) || depth > 2) return [];
  const d = data as Record<string, unknown>;
  return [d['message'], d['details'], d['detail'], d['reason'], d['error']].flatMap((v) => dataReasons(v, depth + 1));
}

/** ANSI escape sequences (colours from a CLI's own error output) are dropped whole rather than left as `[31m`. */
const clean = (text: string): string => plainText(stripVTControlCharacters(text), MAX_REASON).trim();

/**
 * An agent's error in words: its message, with the reason its `data` gives
 * (instead of a stock "Internal error"). Untrusted: no control or bidi
 * characters, bounded. Link and icon syntax stays (the panel shows text);
 * native UI breaks it where the text is put there (`forMessage`).
 */
function agentErrorText(err: AgentError): string {
  const message = clean(err.message);
  const parts: string[] = [];
  for (const r of dataReasons(err.data)) {
    const c = clean(r);
    if (c && !parts.some((p) => p.includes(c)) && !message.includes(c)) parts.push(c);
    if (parts.length === 2) break;
  }
  const reason = parts.join(' — ');
  if (!reason) return message || describeErrorCode(err.code);
  if (!message || STOCK.test(message)) return plainText(reason, MAX_REASON);
  return plainText(`${message}: ${reason}`, MAX_REASON);
}

export function errorText(err: unknown): string {
  if (err instanceof AgentError) return agentErrorText(err);
  return err instanceof Error ? err.message : String(err);
}
