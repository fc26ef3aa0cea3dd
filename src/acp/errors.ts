/**
 * ACP's error codes, what each means, and the errors this client throws and
 * catches, in one place. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { ResponseError } from 'vscode-jsonrpc/node';

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

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
