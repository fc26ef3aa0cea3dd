/**
 * What crossed one ACP connection, per method and direction: requests and
 * notifications, and how the requests ended (answered, an error by code, or
 * still without an answer). For the agent diagnostics. No `vscode` import.
 *
 * Cheap on the hot path: a message costs one Map lookup and an increment
 * (`session/update` arrives 100,000 times in a long replay). Bounded: an agent
 * can invent any number of method names, so at most `MAX_METHODS` distinct
 * names are kept per direction and the rest are counted together.
 */

/** `out`: the client called the agent; `in`: the agent called the client. */
export type Direction = 'out' | 'in';

export const MAX_METHODS = 64;
/** Longer method names are cut (the key and what is shown). */
export const MAX_METHOD_CHARS = 100;
/** Distinct error codes kept per method; the others are counted as "other". */
const MAX_CODES = 8;
/** Requests from the agent whose answer is still awaited, tracked for their outcome. */
const MAX_PENDING_IN = 1024;

class Counter {
  requests = 0;
  notifications = 0;
  ok = 0;
  errors = 0;
  readonly codes = new Map<number, number>();
  otherCodes = 0;

  error(code: number): void {
    this.errors++;
    const n = this.codes.get(code);
    if (n !== undefined) this.codes.set(code, n + 1);
    else if (this.codes.size < MAX_CODES) this.codes.set(code, 1);
    else this.otherCodes++;
  }
}

export interface MethodCount {
  readonly method: string;
  readonly requests: number;
  readonly notifications: number;
  readonly ok: number;
  readonly errors: number;
  /** Error answers by code, most frequent first; `other` counts codes beyond the kept ones. */
  readonly errorCodes: readonly { readonly code: number; readonly count: number }[];
  readonly otherErrorCodes: number;
}

export interface MethodStatsSnapshot {
  readonly out: readonly MethodCount[];
  readonly in: readonly MethodCount[];
  /** Messages with a method name past the cap of distinct names, per direction. */
  readonly overflow: { readonly out: number; readonly in: number };
  /** Lines from the agent that were not JSON-RPC (skipped). */
  readonly invalidLines: number;
}

export class MethodStats {
  private readonly maps: Record<Direction, Map<string, Counter>> = { out: new Map(), in: new Map() };
  private readonly overflow: Record<Direction, number> = { out: 0, in: 0 };
  private readonly pendingIn = new Map<string | number, Counter>();
  private invalid = 0;

  private counter(dir: Direction, method: string): Counter | undefined {
    const map = this.maps[dir];
    const c = map.get(method);
    if (c) return c;
    const key = method.length > MAX_METHOD_CHARS ? method.slice(0, MAX_METHOD_CHARS) : method;
    const cut = key === method ? undefined : map.get(key);
    if (cut) return cut;
    if (map.size >= MAX_METHODS) {
      this.overflow[dir]++;
      return undefined;
    }
    const made = new Counter();
    map.set(key, made);
    return made;
  }

  notification(dir: Direction, method: string): void {
    const c = this.counter(dir, method);
    if (c) c.notifications++;
  }

  /** A request sent or received; for one received, `id` lets `answered` find it again. */
  request(dir: Direction, method: string, id?: string | number): void {
    const c = this.counter(dir, method);
    if (!c) return;
    c.requests++;
    if (dir === 'in' && id !== undefined && this.pendingIn.size < MAX_PENDING_IN) this.pendingIn.set(id, c);
  }

  /** How a request the client sent ended: answered, or an error answer with its code. */
  outcome(method: string, errorCode?: number): void {
    const c = this.maps.out.get(method.length > MAX_METHOD_CHARS ? method.slice(0, MAX_METHOD_CHARS) : method);
    if (!c) return;
    if (errorCode === undefined) c.ok++;
    else c.error(errorCode);
  }

  /** The client answered the agent's request `id` (with an error code, or not). */
  answered(id: string | number, errorCode?: number): void {
    const c = this.pendingIn.get(id);
    if (!c) return;
    this.pendingIn.delete(id);
    if (errorCode === undefined) c.ok++;
    else c.error(errorCode);
  }

  invalidLine(): void {
    this.invalid++;
  }

  snapshot(): MethodStatsSnapshot {
    const list = (dir: Direction): MethodCount[] =>
      [...this.maps[dir]]
        .map(([method, c]) => ({
          method,
          requests: c.requests,
          notifications: c.notifications,
          ok: c.ok,
          errors: c.errors,
          errorCodes: [...c.codes].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code - b.code),
          otherErrorCodes: c.otherCodes,
        }))
        .sort((a, b) => a.method.localeCompare(b.method));
    return { out: list('out'), in: list('in'), overflow: { ...this.overflow }, invalidLines: this.invalid };
  }
}
