/**
 * Elicitations of one session (`elicitation/create` carrying its session id):
 * shown in its panel as a form or a page to open, answered once, withdrawn when
 * the agent cancels its request (answered -32800), cancelled when the turn is
 * stopped or the panel closes. `elicitation/create` and `elicitation/complete`
 * are its table (ELICITATION_METHODS); those about no session go to the host's
 * dialogs (services/elicitation.ts). Pure: no `vscode` — the panel opens URLs.
 */
import { clientError as errors } from '../../acp/errors';
import { CompleteElicitationNotification, CreateElicitationRequest } from '../../acp/protocol';
import { bindMethods, type ClientMethod } from '../../agents/clientMethods';
import type { CancelToken } from '../../agents/sessionRouter';
import type { ElicitationItem } from '../../shared/transcriptTypes';
import { checkField, fieldsOf, type Field } from '../elicitationSchema';
import type { SessionCore, SessionPart } from '../sessionCore';

export type ElicitationHost = Pick<SessionCore, 'sessionId' | 'transcript' | 'emit' | 'log'>;

type Answer = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

interface Pending {
  readonly item: ElicitationItem;
  /** A subagent's question (kept when only the session's own are withdrawn). */
  readonly child: boolean;
  readonly fields: readonly Field[];
  readonly elicitationId?: string;
  readonly resolve: (a: Answer) => void;
  readonly reject: (e: Error) => void;
}

/** Questions of one session waiting for the user at once; beyond it the agent is answered `decline` at once. */
export const MAX_WAITING_ELICITATIONS = 16;

const sessionOf = (params: unknown): unknown => (params as { sessionId?: unknown } | null)?.sessionId;

/** The agent → client methods this part serves, and what they earn in `initialize`. */
export const ELICITATION_METHODS: readonly ClientMethod<Elicitations, unknown>[] = [
  {
    method: CreateElicitationRequest.method,
    // Form mode (each field asked with validation) and URL mode (consent first).
    fill: (caps) => void (caps.elicitation = { form: {}, url: {} }),
    decode: (params) => ({ value: params, sessionId: sessionOf(params) }),
    serve: (part, params, token) => part.ask(params, token),
    // Request-scoped (no sessionId): asked outside any session. About a session not open here (a subagent never
    // announced, a session closed): asked nowhere, `cancel`, like a permission request for one.
    unrouted: (params, token, call) => {
      const sessionId = sessionOf(params);
      return (sessionId === undefined || sessionId === null) && call.elicitation ? call.elicitation.create(call.agentName, params, token, call.from) : { action: 'cancel' };
    },
  },
  {
    method: CompleteElicitationNotification.method,
    notification: true,
    decode: (params) => ({ value: params, sessionId: undefined }),
    // To the session whose elicitation it was; else to the dialogs'.
    serve: (part, params) => {
      const id = (params as { elicitationId?: unknown } | null)?.elicitationId;
      return typeof id === 'string' && part.complete(id);
    },
    unrouted: (params, _token, call) => call.elicitation?.complete(params),
  },
];

export class Elicitations implements SessionPart {
  readonly methods = bindMethods<Elicitations>(this, ELICITATION_METHODS);
  private readonly pending = new Map<string, Pending>();
  /** URL elicitations accepted and not completed yet, by elicitationId. */
  private readonly open = new Map<string, ElicitationItem>();

  constructor(private readonly host: ElicitationHost) {}

  get waiting(): number {
    return this.pending.size;
  }

  /** `elicitation/create` about this session or one of its subagents; a child the transcript does not know is not asked. */
  async ask(params: unknown, token: CancelToken): Promise<Answer> {
    const sid = (params as { sessionId?: unknown } | null)?.sessionId;
    const child = typeof sid === 'string' && sid !== this.host.sessionId() ? sid : undefined;
    if (child && !this.host.transcript().hasChild(child)) return { action: 'cancel' };
    return await this.request(params, token, child);
  }

  private async request(params: unknown, token: CancelToken, childSessionId?: string): Promise<Answer> {
    const h = this.host;
    const p = (params ?? {}) as { mode?: unknown; message?: unknown; requestedSchema?: unknown; url?: unknown; elicitationId?: unknown };
    const message = typeof p.message === 'string' ? p.message : '';
    let fields: Field[] = [];
    let url: URL | undefined;
    if (p.mode === 'form') fields = fieldsOf(p.requestedSchema);
    else if (p.mode === 'url') {
      try {
        url = new URL(String(p.url));
      } catch {
        throw errors.invalidParams('elicitation/create (url) needs a valid "url".');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw errors.invalidParams(`URL elicitation with scheme "${url.protocol}" is not supported.`);
    } else throw errors.invalidParams(`Elicitation mode ${JSON.stringify(p.mode)} is not supported by this client.`);
    // Bounded: an agent asking without end fills neither the panel nor memory.
    if (this.pending.size >= MAX_WAITING_ELICITATIONS) {
      h.log(`elicitation (${url ? 'url' : 'form'}): declined at once, ${this.pending.size} questions of this session already wait for the user (at most ${MAX_WAITING_ELICITATIONS})`);
      return { action: 'decline' };
    }
    const { item, changes } = h.transcript().addElicitation(
      {
        mode: url ? 'url' : 'form',
        message,
        fields: fields.map((f) => ({ key: f.key, title: f.title, description: f.description, kind: f.kind, required: f.required, options: f.options, def: f.def, min: f.min, max: f.max })),
        ...(url ? { url: url.toString(), host: url.host } : {}),
      },
      childSessionId,
    );
    h.emit(changes);
    h.log(`elicitation ${item.id} (${item.mode}${url ? ` ${url.host}` : `, ${fields.length} fields`}): asking the user in the panel`);
    return await new Promise<Answer>((resolve, reject) => {
      const elicitationId = typeof p.elicitationId === 'string' ? p.elicitationId : undefined;
      this.pending.set(item.id, { item, child: childSessionId !== undefined, fields, elicitationId, resolve, reject });
      const sub = token.onCancellationRequested(() => {
        sub.dispose();
        if (this.settle(item.id, 'withdrawn', 'the agent cancelled its request')) reject(errors.cancelled('The agent cancelled the elicitation.'));
      });
    });
  }

  /**
   * The user's answer. A form's values are checked first: when one is not
   * accepted, the form stays with the reasons and this returns false.
   */
  async answer(itemId: string, action: 'accept' | 'decline' | 'cancel', values: Readonly<Record<string, string | string[]>> = {}): Promise<boolean> {
    const pending = this.pending.get(itemId);
    if (!pending) {
      this.host.log(`elicitation ${itemId}: ignored a second answer`);
      return false;
    }
    if (action !== 'accept') {
      this.settle(itemId, action === 'decline' ? 'declined' : 'cancelled', `the user chose ${action}`);
      pending.resolve({ action });
      return true;
    }
    if (pending.item.mode === 'url') {
      if (pending.elicitationId) this.open.set(pending.elicitationId, pending.item);
      this.settle(itemId, 'accepted', 'the user opened the page');
      pending.resolve({ action: 'accept' });
      return true;
    }
    const content: Record<string, unknown> = {};
    const problems: Record<string, string> = {};
    for (const f of pending.fields) {
      const checked = await checkField(f, values[f.key]);
      if (checked.error) problems[f.key] = checked.error;
      else if (checked.value !== undefined) content[f.key] = checked.value;
    }
    if (!this.pending.has(itemId)) return false; // withdrawn while checking
    if (Object.keys(problems).length) {
      pending.item.errors = problems;
      this.host.emit(this.host.transcript().changed(pending.item));
      return false;
    }
    pending.item.errors = undefined;
    this.settle(itemId, 'accepted', `the user filled in ${Object.keys(content).join(', ') || 'nothing'}`);
    pending.resolve({ action: 'accept', content });
    return true;
  }

  /** `elicitation/complete`: the page's work is done. */
  complete(elicitationId: string): boolean {
    const item = this.open.get(elicitationId);
    if (!item) return false;
    this.open.delete(elicitationId);
    item.state = 'completed';
    this.host.emit(this.host.transcript().changed(item));
    return true;
  }

  /** Every waiting elicitation answered `cancel` (Stop, the panel closed, the agent exited) — or only the session's own (the turn ended). */
  withdraw(why: string, ownOnly = false): void {
    for (const [id, p] of [...this.pending]) {
      if (ownOnly && p.child) continue;
      this.settle(id, 'cancelled', why);
      p.resolve({ action: 'cancel' });
    }
  }

  dispose(): void {
    this.withdraw('the panel closed');
  }

  private settle(itemId: string, state: ElicitationItem['state'], why: string): boolean {
    const pending = this.pending.get(itemId);
    if (!pending) return false;
    this.pending.delete(itemId);
    pending.item.state = state;
    this.host.emit(this.host.transcript().changed(pending.item));
    this.host.log(`elicitation ${itemId}: ${state} (${why})`);
    return true;
  }
}
