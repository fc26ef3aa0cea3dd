import * as vscode from 'vscode';
import { ResponseError } from 'vscode-jsonrpc/node';
import { checkField, fieldsOf, type Field } from '../sessions/elicitationSchema';

/** The questions an elicitation asks; replaceable so tests in the real host can answer them. */
export interface ElicitationUi {
  /** The agent's request in words: fill in, decline, or (undefined) cancel. */
  start(agentName: string, message: string, fields: readonly Field[]): Promise<'fill' | 'decline' | undefined>;
  /** One field's value (undefined: cancel). `error` is set when the previous answer was invalid. */
  field(field: Field, error?: string): Promise<string | string[] | undefined>;
  /** URL mode: the full URL and its host are shown; open, decline or (undefined) cancel. */
  url(agentName: string, message: string, url: string, host: string): Promise<'open' | 'decline' | undefined>;
}

const nativeElicitationUi: ElicitationUi = {
  async start(agentName, message, fields) {
    const fillIn = vscode.l10n.t('Fill In');
    const decline = vscode.l10n.t('Decline');
    const list = fields.map((f) => (f.required ? vscode.l10n.t('{0} (required)', f.title) : f.title)).join(', ');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('{0} asks: {1}', agentName, message),
      { modal: true, detail: fields.length === 1 ? vscode.l10n.t('1 field: {0}', list) : vscode.l10n.t('{0} fields: {1}', fields.length, list) },
      fillIn,
      decline,
    );
    return choice === fillIn ? 'fill' : choice === decline ? 'decline' : undefined;
  },
  async field(f, error) {
    const title = f.required ? f.title : vscode.l10n.t('{0} (optional)', f.title);
    if (f.kind === 'enum' || f.kind === 'boolean') {
      const picked = await vscode.window.showQuickPick(f.options.map((o) => ({ label: o.title, value: o.value, picked: String(f.def) === o.value })), { title, placeHolder: error ?? f.description, ignoreFocusOut: true });
      return picked?.value;
    }
    if (f.kind === 'multi') {
      const picked = await vscode.window.showQuickPick(
        f.options.map((o) => ({ label: o.title, value: o.value, picked: Array.isArray(f.def) && f.def.includes(o.value) })),
        { title, placeHolder: error ?? f.description, canPickMany: true, ignoreFocusOut: true },
      );
      return picked?.map((p) => p.value);
    }
    return await vscode.window.showInputBox({
      title,
      prompt: f.description,
      value: f.def !== undefined ? String(f.def) : undefined,
      validateInput: async (v) => (await checkField(f, v)).error,
      ignoreFocusOut: true,
    });
  },
  async url(agentName, message, url, host) {
    const open = vscode.l10n.t('Open');
    const decline = vscode.l10n.t('Decline');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} asks you to open a page on {1}', agentName, host),
      { modal: true, detail: `${message}\n\n${url}\n\n${vscode.l10n.t('Open it only if you trust {0}.', host)}` },
      open,
      decline,
    );
    return choice === open ? 'open' : choice === decline ? 'decline' : undefined;
  },
};

/** `elicitation/create` (form and URL modes) and `elicitation/complete`. */
export class ElicitationService {
  ui: ElicitationUi = nativeElicitationUi;
  private readonly open = new Set<string>();

  constructor(private readonly log: (m: string) => void) {}

  async create(agentName: string, params: unknown): Promise<unknown> {
    const p = (params ?? {}) as { mode?: unknown; message?: unknown; requestedSchema?: unknown; url?: unknown; elicitationId?: unknown };
    const message = typeof p.message === 'string' ? p.message : '';
    if (p.mode === 'form') {
      const fields = fieldsOf(p.requestedSchema);
      const start = await this.ui.start(agentName, message, fields);
      if (start !== 'fill') {
        this.log(`elicitation (form) from ${agentName}: ${start === 'decline' ? 'declined' : 'cancelled'}`);
        return { action: start === 'decline' ? 'decline' : 'cancel' };
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
    if (p.mode === 'url') {
      let url: URL;
      try {
        url = new URL(String(p.url));
      } catch {
        throw new ResponseError(-32602, 'elicitation/create (url) needs a valid "url".');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ResponseError(-32602, `URL elicitation with scheme "${url.protocol}" is not supported.`);
      const choice = await this.ui.url(agentName, message, url.toString(), url.host);
      if (typeof p.elicitationId === 'string') this.open.add(p.elicitationId);
      if (choice === 'open') await vscode.env.openExternal(vscode.Uri.parse(url.toString(), true));
      this.log(`elicitation (url ${url.host}) from ${agentName}: ${choice ?? 'cancelled'}`);
      return { action: choice === 'open' ? 'accept' : choice === 'decline' ? 'decline' : 'cancel' };
    }
    throw new ResponseError(-32602, `Elicitation mode ${JSON.stringify(p.mode)} is not supported by this client.`);
  }

  complete(params: unknown): void {
    const id = (params as { elicitationId?: unknown } | null)?.elicitationId;
    if (typeof id === 'string' && this.open.delete(id)) this.log(`elicitation ${id} completed`);
  }
}
