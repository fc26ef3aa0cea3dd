/**
 * A terminal's output as a panel shows it: the newest part only, extended by
 * deltas that say where they start in the output stream (a delta that starts
 * past what is held means output was skipped: the view restarts from it; one
 * that overlaps is applied from where the view ends). Used by the host's
 * transcript and by the webview, so both hold the same text.
 */
export interface TerminalText {
  output?: string;
  truncated?: boolean;
  /** Stream position just after `output`. */
  end?: number;
}

/** What a panel keeps of one terminal's output, in characters. */
const PANEL_TERMINAL_CHARS = 20_000;

export function mergeTerminalText(view: TerminalText, text: string, start: number, truncated: boolean, keep = PANEL_TERMINAL_CHARS): Required<TerminalText> {
  const end = view.end ?? 0;
  let output: string;
  let cut = truncated || (view.truncated ?? false);
  if (view.output === undefined || start > end) {
    output = text;
    if (start > end) cut = true;
  } else output = view.output + text.slice(Math.min(text.length, end - start));
  if (output.length > keep) {
    output = output.slice(output.length - keep);
    cut = true;
  }
  return { output, truncated: cut, end: Math.max(end, start + text.length) };
}
