/**
 * The files a chat panel's webview may send as attachments. The webview only
 * ever holds what the host gave it (Attach…, a drop, an @-mention, a queued
 * message edited), yet a `send` names files by URI, and the host reads them.
 * So a file or selection in a `send` must be one the host offered this panel,
 * or be inside the session's folders; anything else is left out, with a note.
 * A webview that was made to lie (agent text is untrusted there too) cannot
 * attach `~/.ssh/id_rsa` through the prompt.
 */
import type { Attachment } from '../shared/attachments';

/** How many offered URIs a panel remembers (the oldest go first). */
const MAX_OFFERED = 2000;

export class OfferedFiles {
  private readonly uris = new Set<string>();

  /** The host handed these to the webview. */
  note(attachments: readonly (Attachment | undefined)[]): void {
    for (const a of attachments) {
      if (!a || (a.kind !== 'file' && a.kind !== 'selection')) continue;
      this.uris.delete(a.uri);
      this.uris.add(a.uri);
      if (this.uris.size > MAX_OFFERED) this.uris.delete(this.uris.values().next().value!);
    }
  }

  /** Splits a `send`'s attachments into those the host may read and the names of those it may not. */
  vet(attachments: readonly Attachment[], inside: (uri: string) => boolean): { ok: Attachment[]; refused: string[] } {
    const ok: Attachment[] = [];
    const refused: string[] = [];
    for (const a of attachments) {
      if ((a.kind === 'file' || a.kind === 'selection') && !this.uris.has(a.uri) && !inside(a.uri)) refused.push(a.name);
      else ok.push(a);
    }
    return { ok, refused };
  }
}
