/** What the user attaches to a prompt (shown as chips until sent). Shared by host and webview. */
export type Attachment =
  | {
      readonly kind: 'file';
      readonly uri: string;
      readonly name: string;
      /** Host only: the real path the host checked when the file was offered or sent; the read refuses a file that leads elsewhere by then. A webview's value is dropped. */
      readonly real?: string;
    }
  | { readonly kind: 'selection'; readonly uri: string; readonly name: string; readonly startLine: number; readonly endLine: number; readonly text: string }
  | { readonly kind: 'image'; readonly name: string; readonly mimeType: string; readonly data: string }
  /** The Problems list (diagnostics) as text, when it was mentioned. */
  | { readonly kind: 'problems'; readonly name: string; readonly text: string };

/** One entry of the @-mention list: what it shows, and what choosing it attaches. */
export interface Mention {
  readonly kind: 'file' | 'editor' | 'symbol' | 'selection' | 'problems';
  /** Inserted after the @. */
  readonly label: string;
  readonly detail?: string;
  readonly attachment: Attachment;
}

export function isAttachment(v: unknown): v is Attachment {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  const s = (x: unknown) => typeof x === 'string';
  switch (a.kind) {
    case 'file':
      return s(a.uri) && s(a.name);
    case 'selection':
      return s(a.uri) && s(a.name) && typeof a.startLine === 'number' && typeof a.endLine === 'number' && s(a.text);
    case 'image':
      return s(a.name) && s(a.mimeType) && s(a.data) && /^image\/(png|jpe?g|gif|webp)$/.test(a.mimeType as string);
    case 'problems':
      return s(a.name) && s(a.text);
    default:
      return false;
  }
}
