/**
 * The requests an agent makes of the client, each decoded once into a typed
 * value: tolerant (a bad optional field is dropped and named in `dropped`, for
 * the trace), strict only where the request cannot be served without the field
 * (an InvalidParams error naming it). No `vscode` import.
 */
import { clientError } from './errors';
import type { PermissionOptionView } from '../shared/transcriptTypes';
import { isObj, type Problems } from './tolerant';

type Obj = Record<string, unknown>;

export interface ReadTextFile {
  readonly method: 'fs/read_text_file';
  readonly sessionId: string;
  readonly path: string;
  /** 1-based first line, when the agent asks for a slice. */
  readonly line?: number;
  readonly limit?: number;
}
export interface WriteTextFile {
  readonly method: 'fs/write_text_file';
  readonly sessionId: string;
  readonly path: string;
  readonly content: string;
}
export interface CreateTerminal {
  readonly method: 'terminal/create';
  readonly sessionId: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly outputByteLimit?: number;
}
interface TerminalCall {
  readonly method: 'terminal/output' | 'terminal/wait_for_exit' | 'terminal/kill' | 'terminal/release';
  readonly sessionId: string;
  readonly terminalId: string;
}
/** Every agent → client request about a session's files and terminals. */
export type ClientRequest = ReadTextFile | WriteTextFile | CreateTerminal | TerminalCall;
export type ClientRequestMethod = ClientRequest['method'];
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
/** A session's own handler of these requests, its session id filled in (the editor's tools call it: services/editorContext/tools.ts). */
export type ClientRequestHandler = (req: DistributiveOmit<ClientRequest, 'sessionId'>) => Promise<unknown>;

const OPTION_KINDS = new Set(['allow_once', 'allow_always', 'reject_once', 'reject_always']);

/** A permission option as the panel shows it. */
export type PermissionOption = PermissionOptionView;

/** `session/request_permission`: the tool call it is about (as sent, to merge into the transcript) and the options. */
export interface PermissionRequest {
  readonly sessionId: string;
  readonly toolCallId: string | undefined;
  /** The tool call's fields as sent (a partial `tool_call_update`). */
  readonly toolCall: Readonly<Obj>;
  readonly title: string | undefined;
  readonly name: string | undefined;
  readonly options: readonly PermissionOption[];
}

export interface Decoded<T> {
  readonly value: T;
  /** What was dropped or defaulted, for the trace. */
  readonly dropped: Problems;
}

function needString(p: Obj, key: string, method: string): string {
  const v = p[key];
  if (typeof v !== 'string') throw clientError.invalidParams(`${method} needs "${key}" (a string).`);
  return v;
}

function optionalNumber(p: Obj, key: string, dropped: Problems, min = -Infinity): number | undefined {
  const v = p[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isFinite(v) && v >= min) return Math.floor(v);
  dropped.push(`${key}: ignored ${JSON.stringify(v)}`);
  return undefined;
}

/** Decodes one agent → client request; throws InvalidParams when it cannot be served. */
export function decodeClientRequest(method: ClientRequestMethod, params: unknown): Decoded<ClientRequest> {
  const p: Obj = isObj(params) ? params : {};
  const dropped: Problems = [];
  const sessionId = typeof p.sessionId === 'string' ? p.sessionId : '';
  let value: ClientRequest;
  switch (method) {
    case 'fs/read_text_file':
      // Out-of-range numbers go through: the slice clamps them (a negative limit reads nothing, never everything).
      value = { method, sessionId, path: needString(p, 'path', method), line: optionalNumber(p, 'line', dropped), limit: optionalNumber(p, 'limit', dropped) };
      break;
    case 'fs/write_text_file':
      value = { method, sessionId, path: needString(p, 'path', method), content: needString(p, 'content', method) };
      break;
    case 'terminal/create': {
      const command = needString(p, 'command', method);
      if (command.trim() === '') throw clientError.invalidParams('terminal/create needs a "command".');
      const args: string[] = [];
      if (Array.isArray(p.args)) p.args.forEach((a, i) => (typeof a === 'string' ? args.push(a) : dropped.push(`args[${i}]: not a string`)));
      else if (p.args !== undefined && p.args !== null) dropped.push('args: not an array');
      const env: Record<string, string> = {};
      if (Array.isArray(p.env)) p.env.forEach((e, i) => (isObj(e) && typeof e.name === 'string' && typeof e.value === 'string' ? (env[e.name] = e.value) : dropped.push(`env[${i}]: not {name, value}`)));
      else if (p.env !== undefined && p.env !== null) dropped.push('env: not an array');
      // A cwd that is not a path is refused, never replaced by the session's folder.
      if (p.cwd !== undefined && p.cwd !== null && typeof p.cwd !== 'string') throw clientError.invalidParams(`terminal/create: "cwd" must be an absolute path (got ${JSON.stringify(p.cwd)}).`);
      value = { method, sessionId, command, args, env, cwd: typeof p.cwd === 'string' ? p.cwd : undefined, outputByteLimit: optionalNumber(p, 'outputByteLimit', dropped, 0) };
      break;
    }
    case 'terminal/output':
    case 'terminal/wait_for_exit':
    case 'terminal/kill':
    case 'terminal/release':
      value = { method, sessionId, terminalId: needString(p, 'terminalId', method) };
      break;
  }
  return { value, dropped };
}

/** Decodes `session/request_permission`: never throws (a request it cannot read offers no options). */
export function decodePermissionRequest(params: unknown): Decoded<PermissionRequest> {
  const p: Obj = isObj(params) ? params : {};
  const dropped: Problems = [];
  const call: Obj = isObj(p.toolCall) ? p.toolCall : {};
  if (!isObj(p.toolCall)) dropped.push('toolCall: missing');
  const options: PermissionOption[] = [];
  if (Array.isArray(p.options)) {
    p.options.forEach((o, i) => {
      if (!isObj(o) || typeof o.optionId !== 'string') return void dropped.push(`options[${i}]: no optionId`);
      const known = typeof o.kind === 'string' && OPTION_KINDS.has(o.kind);
      if (!known) dropped.push(`options[${i}].kind: ${JSON.stringify(o.kind)} is not an ACP option kind; shown, never chosen automatically`);
      options.push({ optionId: o.optionId, name: typeof o.name === 'string' ? o.name : o.optionId, kind: known ? (o.kind as string) : 'unknown' });
    });
  } else dropped.push('options: not an array');
  return {
    value: {
      sessionId: typeof p.sessionId === 'string' ? p.sessionId : '',
      toolCallId: typeof call.toolCallId === 'string' && call.toolCallId !== '' ? call.toolCallId : undefined,
      toolCall: call,
      title: typeof call.title === 'string' ? call.title : undefined,
      name: typeof call.name === 'string' ? call.name : undefined,
      options,
    },
    dropped,
  };
}
