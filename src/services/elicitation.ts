import * as vscode from 'vscode';
import { ResponseError } from 'vscode-jsonrpc/node';
import { clientError } from '../acp/errors';
import type { RequestScopedElicitation } from '../agents/clientMethods';
import type { CancelToken } from '../agents/sessionRouter';
import { checkField, fieldsOf, type Field } from '../sessions/elicitationSchema';
import { forLabel, forMessage } from '../shared/nativeText';

/** The questions an elicitation asks; replaceable so tests in the real host can answer them. */
export interface ElicitationUi {
  /**
   * The agent's request in words: fill in, decline, decline this one and every other one from the
   * agent's process, or (undefined) cancel. `waiting`: how many more questions wait behind this one.
   */
  start(agentName: string, message: string, fields: readonly Field[], waiting: number): Promise<'fill' | 'decline' | 'declineAll' | undefined>;
  /** One field's value (undefined: cancel). `error` is set when the previous answer was invalid. */
  field(field: Field, error?: string): Promise<string | string[] | undefined>;
  /** URL mode: the full URL and its host are shown; open, decline, decline all from the agent, or (undefined) cancel. */
  url(agentName: string, message: string, url: string, host: string, waiting: number): Promise<'open' | 'decline' | 'declineAll' | undefined>;
}

/** The detail's last lines: what "Decline All from This Agent" does, and how many questions wait. */
function queueWords(waiting: number): string {
  const all = vscode.l10n.t('"Decline All from This Agent" also declines its other questions until it restarts.');
  if (waiting === 0) return all;
  return `${waiting === 1 ? vscode.l10n.t('1 more question is waiting.') : vscode.l10n.t('{0} more questions are waiting.', waiting)} ${all}`;
}

/** The VS Code calls the native questions make (the tests see their texts through a stand-in). */
export type ElicitationWindow = Pick<typeof vscode.window, 'showInformationMessage' | 'showWarningMessage' | 'showQuickPick' | 'showInputBox'>;

/** Modals, quick picks and input boxes. Everything from the agent (its name, message, field and option titles, the URL) goes through nativeText. */
export const nativeElicitationUi = (w: ElicitationWindow = vscode.window): ElicitationUi => ({
  async start(agentName, message, fields, waiting) {
    const fillIn = vscode.l10n.t('Fill In');
    const decline = vscode.l10n.t('Decline');
    const declineAll = vscode.l10n.t('Decline All from This Agent');
    const list = fields.map((f) => (f.required ? vscode.l10n.t('{0} (required)', forMessage(f.title, 100)) : forMessage(f.title, 100))).join(', ');
    const choice = await w.showInformationMessage(
      vscode.l10n.t('{0} asks: {1}', forMessage(agentName, 100), forMessage(message)),
      { modal: true, detail: `${fields.length === 1 ? vscode.l10n.t('1 field: {0}', list) : vscode.l10n.t('{0} fields: {1}', fields.length, list)}\n\n${queueWords(waiting)}` },
      fillIn,
      decline,
      declineAll,
    );
    return choice === fillIn ? 'fill' : choice === decline ? 'decline' : choice === declineAll ? 'declineAll' : undefined;
  },
  async field(f, error) {
    const title = f.required ? forLabel(f.title) : vscode.l10n.t('{0} (optional)', forLabel(f.title));
    const placeHolder = error ?? (f.description === undefined ? undefined : forLabel(f.description, 500));
    if (f.kind === 'enum' || f.kind === 'boolean') {
      const picked = await w.showQuickPick(f.options.map((o) => ({ label: forLabel(o.title), value: o.value, picked: String(f.def) === o.value })), { title, placeHolder, ignoreFocusOut: true });
      return picked?.value;
    }
    if (f.kind === 'multi') {
      const picked = await w.showQuickPick(
        f.options.map((o) => ({ label: forLabel(o.title), value: o.value, picked: Array.isArray(f.def) && f.def.includes(o.value) })),
        { title, placeHolder, canPickMany: true, ignoreFocusOut: true },
      );
      return picked?.map((p) => p.value);
    }
    return await w.showInputBox({
      title,
      prompt: f.description === undefined ? undefined : forLabel(f.description, 500),
      value: f.def !== undefined ? String(f.def) : undefined,
      validateInput: async (v) => (await checkField(f, v)).error,
      ignoreFocusOut: true,
    });
  },
  async url(agentName, message, url, host, waiting) {
    const open = vscode.l10n.t('Open');
    const decline = vscode.l10n.t('Decline');
    const declineAll = vscode.l10n.t('Decline All from This Agent');
    const choice = await w.showWarningMessage(
      vscode.l10n.t('{0} asks you to open a page on {1}', forMessage(agentName, 100), forMessage(host, 300)),
      { modal: true, detail: `${forMessage(message)}\n\n${forMessage(url, 2000)}\n\n${vscode.l10n.t('Open it only if you trust {0}.', forMessage(host, 300))}\n\n${queueWords(waiting)}` },
      open,
      decline,
      declineAll,
    );
    return choice === open ? 'open' : choice === decline ? 'decline' : choice === declineAll ? 'declineAll' : undefined;
  },
});

type Turn = 'ask' | 'decline' | 'cancel' | 'full';

/** Questions one agent process may have waiting behind the one asked; beyond it each is declined at once. */
const MAX_WAITING_PER_AGENT = 16;

/**
 * `elicitation/create` (form and URL modes) not tied to an open session, and
 * `elicitation/complete`. One question is asked at a time; the others wait
 * (each still withdrawable by its agent). "Decline All from This Agent"
 * declines the waiting ones from the same agent process and every later one
 * until that process ends (a restart asks again). At most MAX_WAITING_PER_AGENT
 * of one agent process wait: any more are declined at once, and logged.
 */
export class ElicitationService implements RequestScopedElicitation {
  ui: ElicitationUi = nativeElicitationUi();
  private readonly open = new Set<string>();
  private asking = false;
  private readonly waiting: { from: object; go: (turn: Turn) => void }[] = [];
  /** Agent processes (their session routers) whose questions are declined. */
  private readonly declined = new WeakSet<object>();

  constructor(private readonly log: (m: string) => void) {}

  /** How many questions wait behind the one being asked. */
  get queued(): number {
    return this.waiting.length;
  }

  /** `from`: the agent process asking (any object that is the same for all of its requests). */
  async create(agentName: string, params: unknown, token?: CancelToken, from: object = {}): Promise<unknown> {
    const p = (params ?? {}) as { mode?: unknown; message?: unknown; requestedSchema?: unknown; url?: unknown; elicitationId?: unknown };
    const message = typeof p.message === 'string' ? p.message : '';
    let url: URL | undefined;
    if (p.mode === 'url') {
      try {
        url = new URL(String(p.url));
      } catch {
        throw new ResponseError(-32602, 'elicitation/create (url) needs a valid "url".');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ResponseError(-32602, `URL elicitation with scheme "${url.protocol}" is not supported.`);
    } else if (p.mode !== 'form') throw new ResponseError(-32602, `Elicitation mode ${JSON.stringify(p.mode)} is not supported by this client.`);
    if (this.asking && !this.declined.has(from) && this.waitingFrom(from) < MAX_WAITING_PER_AGENT) this.log(`elicitation (${p.mode}) from ${agentName}: waits for the question being asked (${this.waiting.length} ahead of it)`);
    const turn = await this.turn(from, token);
    if (turn === 'full') {
      this.log(`elicitation (${String(p.mode)}) from ${agentName}: declined at once, ${MAX_WAITING_PER_AGENT} of its questions already wait (at most ${MAX_WAITING_PER_AGENT})`);
      return { action: 'decline' };
    }
    if (turn !== 'ask') {
      this.log(`elicitation (${String(p.mode)}) from ${agentName}: ${turn === 'decline' ? 'declined (the user declined all from this agent)' : 'withdrawn by the agent while it waited'}`);
      if (turn === 'cancel') throw clientError.cancelled('The agent cancelled the elicitation.');
      return { action: 'decline' };
    }
    try {
      return url ? await this.askUrl(agentName, message, url, p.elicitationId, from) : await this.askForm(agentName, message, fieldsOf(p.requestedSchema), from);
    } finally {
      this.next();
    }
  }

  private async askForm(agentName: string, message: string, fields: readonly Field[], from: object): Promise<unknown> {
    const start = await this.ui.start(agentName, message, fields, this.waiting.length);
    if (start === 'declineAll') this.declineAll(agentName, from);
    if (start !== 'fill') {
      this.log(`elicitation (form) from ${agentName}: ${start === undefined ? 'cancelled' : 'declined'}`);
      return { action: start === undefined ? 'cancel' : 'decline' };
    }
    const content: Record<string, string | number | boolean | string[]> = {};
    for (const f of fields) {
      let error: string | undefined;
      for (let attempt = 0; attempt < 5; attempt++) {
        const input = await this.ui.field(f, error);
        if (input === undefined) {
          this.log(`elicitation (form) from ${agentName}: cancelled at "${f.key}"`);
          return { action: 'cancel' };
        }
        const checked = await checkField(f, input);
        if (checked.error) {
          error = checked.error;
          continue;
        }
        if (checked.value !== undefined) content[f.key] = checked.value;
        error = undefined;
        break;
      }
      if (error) return { action: 'cancel' };
    }
    this.log(`elicitation (form) from ${agentName}: accepted (${Object.keys(content).join(', ')})`);
    return { action: 'accept', content };
  }

  private async askUrl(agentName: string, message: string, url: URL, elicitationId: unknown, from: object): Promise<unknown> {
    const choice = await this.ui.url(agentName, message, url.toString(), url.host, this.waiting.length);
    if (choice === 'declineAll') this.declineAll(agentName, from);
    if (typeof elicitationId === 'string') this.open.add(elicitationId);
    if (choice === 'open') await vscode.env.openExternal(vscode.Uri.parse(url.toString(), true));
    this.log(`elicitation (url ${url.host}) from ${agentName}: ${choice ?? 'cancelled'}`);
    return { action: choice === 'open' ? 'accept' : choice === undefined ? 'cancel' : 'decline' };
  }

  /** Waits until no other question is asked ('ask': this one is now; the caller must `next()` after), or is declined or withdrawn meanwhile. */
  private turn(from: object, token: CancelToken | undefined): Promise<Turn> {
    if (this.declined.has(from)) return Promise.resolve('decline');
    if (!this.asking) {
      this.asking = true;
      return Promise.resolve('ask');
    }
    if (this.waitingFrom(from) >= MAX_WAITING_PER_AGENT) return Promise.resolve('full');
    return new Promise<Turn>((resolve) => {
      const sub = token?.onCancellationRequested(() => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        entry.go('cancel');
      });
      const entry = {
        from,
        go: (t: Turn) => {
          sub?.dispose();
          resolve(t);
        },
      };
      this.waiting.push(entry);
    });
  }

  private waitingFrom(from: object): number {
    return this.waiting.filter((w) => w.from === from).length;
  }

  /** The question asked is done: the next one waiting is asked. */
  private next(): void {
    const entry = this.waiting.shift();
    if (entry) entry.go('ask');
    else this.asking = false;
  }

  private declineAll(agentName: string, from: object): void {
    this.declined.add(from);
    const theirs = this.waiting.filter((w) => w.from === from);
    for (const w of theirs) this.waiting.splice(this.waiting.indexOf(w), 1);
    this.log(`elicitation from ${agentName}: the user declined all from this agent (${theirs.length} waiting); its later questions are declined until it restarts`);
    for (const w of theirs) w.go('decline');
  }

  complete(params: unknown): void {
    const id = (params as { elicitationId?: unknown } | null)?.elicitationId;
    if (typeof id === 'string' && this.open.delete(id)) this.log(`elicitation ${id} completed`);
  }
}
