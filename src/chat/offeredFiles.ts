/**
 * The files a chat panel's webview may send as attachments. The webview only
 * ever holds what the host gave it (Attach…, a drop, an @-mention picked, a
 * queued message edited), yet a `send` names files by URI, and the host reads
 * them. So a file or selection in a `send` must be one the host offered this
 * panel, or be inside the session's folders; anything else is left out, with a
 * note. A webview that was made to lie (agent text is untrusted there too)
 * cannot attach `~/.ssh/id_rsa` through the prompt.
 *
 * An @-mention list is not an offer: its entries are candidates, and only the
 * one the user picks (`picked`) is offered. Each offered file keeps the real
 * path it had when offered; a send hands that on (`real`), and the read at
 * send time refuses a file that leads elsewhere by then (a link swapped in).
 * No `vscode` import.
 */
import type { Attachment } from '../shared/attachments';

/** How many offered URIs a panel remembers (the oldest go first). */
const MAX_OFFERED = 2000;
/** How many @-mention lists a panel remembers candidates of (the webview shows only its latest). */
const MAX_MENTION_LISTS = 4;

export class OfferedFiles {
  /** Offered URIs, with the real path each had when offered (undefined: not a file path). */
  private readonly uris = new Map<string, string | undefined>();
  /** The attachments each recent @-mention list showed, by its request id. */
  private readonly candidates = new Map<number, Map<string, Attachment>>();

  /** `realPath(uri)`: the real path (links resolved, now) of a `file:` URI; undefined for anything else. */
  constructor(private readonly realPath: (uri: string) => string | undefined) {}

  /** The host handed these to the webview (Attach…, a drop, a queued message back). */
  note(attachments: readonly (Attachment | undefined)[]): void {
    for (const a of attachments) {
      if (!a || (a.kind !== 'file' && a.kind !== 'selection')) continue;
      const real = (a.kind === 'file' ? a.real : undefined) ?? this.realPath(a.uri);
      this.uris.delete(a.uri);
      this.uris.set(a.uri, real);
      if (this.uris.size > MAX_OFFERED) this.uris.delete(this.uris.keys().next().value!);
    }
  }

  /** An @-mention list the webview is shown (again, when late symbols arrive): candidates, not offered. */
  listed(requestId: number, attachments: readonly Attachment[]): void {
    const list = this.candidates.get(requestId) ?? new Map<string, Attachment>();
    for (const a of attachments) if (a.kind === 'file' || a.kind === 'selection') list.set(a.uri, a);
    this.candidates.delete(requestId);
    this.candidates.set(requestId, list);
    while (this.candidates.size > MAX_MENTION_LISTS) this.candidates.delete(this.candidates.keys().next().value!);
  }

  /** The user picked the entry for `uri` from list `requestId`: offered, if that list showed it. */
  picked(requestId: number, uri: string): boolean {
    const a = this.candidates.get(requestId)?.get(uri);
    if (a) this.note([a]);
    return a !== undefined;
  }

  /**
   * Splits a `send`'s attachments into those the host may read and the names of those it may not.
   * `inside(uri)`: the real path of a file inside the session's folders, else undefined. A file goes
   * with the real path it was offered with (or has inside the folders), never one the webview names.
   */
  vet(attachments: readonly Attachment[], inside: (uri: string) => string | undefined): { ok: Attachment[]; refused: string[] } {
    const ok: Attachment[] = [];
    const refused: string[] = [];
    for (const a of attachments) {
      if (a.kind !== 'file' && a.kind !== 'selection') {
        ok.push(a);
        continue;
      }
      const offered = this.uris.has(a.uri);
      const real = (offered ? this.uris.get(a.uri) : undefined) ?? inside(a.uri);
      if (!offered && real === undefined) refused.push(a.name);
      else if (a.kind === 'selection') ok.push(a);
      else ok.push({ kind: 'file', uri: a.uri, name: a.name, ...(real !== undefined ? { real } : {}) });
    }
    return { ok, refused };
  }
}
