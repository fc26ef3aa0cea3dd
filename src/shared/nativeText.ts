/**
 * Untrusted text (from an agent, a model, an MCP server, the ACP Registry) made
 * safe to put into VS Code's native UI, which reads some syntax in plain
 * strings:
 *
 * - notifications (and, in some builds, dialog details) turn `[label](target)`
 *   into a live link when the target starts with `https://`, `http://`,
 *   `command:` or `file:` — a `command:` link runs a command when clicked;
 * - quick picks, the status bar, tree descriptions and input box titles draw
 *   `$(name)` as a codicon, so text can pose as the UI's own icons.
 *
 * Both need two characters side by side (`](` and `$(`); a zero-width space
 * between them keeps the text looking the same and parses as neither. A bare
 * `command:` URI gets one too. Control characters and bidirectional overrides
 * (which can make text read differently from what it is) are dropped, and the
 * length is bounded.
 *
 * Escape the untrusted *arguments* before they go into a sentence; never the
 * sentence itself. Pure: no `vscode`, no Node, so every floor may use it.
 */

const ZWSP = '\u200b';

/** C0/C1 controls except tab and line feed, and the Unicode bidi embeddings, overrides, isolates and marks. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Breaks `](` and `$(` (also when the `(` would come from the sentence the text is put into) and `command:` URIs. */
function breakSyntax(text: string): string {
  return text
    .replace(/([\]$])(?=\(|$)/g, `$1${ZWSP}`)
    .replace(/(command)(?=:[^\s])/gi, `$1${ZWSP}`);
}

/** At most `max` characters (code points, so no surrogate pair is split), with `…` when cut. */
function bound(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

function plain(text: unknown): string {
  if (typeof text === 'string') return text;
  if (text === undefined || text === null) return '';
  return String(text);
}

/**
 * For notifications and modal dialogs (message and detail): no link, no
 * codicon, no controls; line breaks are kept (a dialog's detail shows them).
 */
export function forMessage(text: unknown, max = 1000): string {
  const clean = plain(text).replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/\t/g, ' ').replace(CONTROLS, '');
  return breakSyntax(bound(clean, max));
}

/**
 * For one line of UI: quick pick labels, descriptions and details, tree item
 * labels and descriptions, the status bar, input box titles and prompts,
 * panel titles. As `forMessage`, and line breaks become spaces.
 */
export function forLabel(text: unknown, max = 200): string {
  return forMessage(plain(text).replace(/\s*(?:\r\n?|[\n\u2028\u2029])\s*/g, ' '), max);
}

/**
 * For untrusted text the chat panel shows (as text, never as markup) and that
 * may later reach native UI: no controls or bidi characters (line breaks and
 * tabs stay), bounded. Link and codicon syntax is left as it was, so the panel
 * shows exactly what was sent; whatever puts it into native UI still passes it
 * through `forMessage` or `forLabel`.
 */
export function plainText(text: unknown, max = 4000): string {
  return bound(plain(text).replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(CONTROLS, ''), max);
}

/**
 * Untrusted text as one bounded line, for a log line or a sentence sent on
 * (a reason, an error): every run of control, format (bidi included) and
 * separator characters and whitespace becomes one space; at most `max`
 * characters (code points), with `…` when cut. Link syntax is left alone:
 * what goes to native UI still passes through `forLabel`.
 */
export function oneLine(text: unknown, max = 200): string {
  return bound(plain(text).replace(/[\p{Cc}\p{Cf}\p{Z}\s]+/gu, ' ').trim(), max);
}
