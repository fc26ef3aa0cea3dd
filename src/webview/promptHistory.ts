/**
 * The composer's history of sent prompts, walked with Up and Down like a
 * shell's. It is kept in the webview state (so it survives the panel being
 * hidden, a window reload and VS Code restarting with the panel open), bounded:
 * the newest HISTORY_MAX prompts, each kept there only up to HISTORY_ENTRY_MAX
 * characters long (a longer one is recalled only while the panel lives).
 */

export const HISTORY_MAX = 50;
export const HISTORY_ENTRY_MAX = 10_000;

export class PromptHistory {
  private readonly entries: string[];
  /** The entry shown while walking the history; -1 when not walking. */
  private index = -1;

  /** From the webview state (anything that is not a list of strings is ignored). */
  constructor(saved?: unknown) {
    this.entries = Array.isArray(saved) ? saved.filter((s): s is string => typeof s === 'string' && s.trim() !== '' && s.length <= HISTORY_ENTRY_MAX).slice(-HISTORY_MAX) : [];
  }

  /** A prompt was sent: it becomes the newest entry (blank ones and a repeat of the newest are not kept twice). */
  add(text: string): void {
    this.index = -1;
    if (text.trim() === '' || this.entries.at(-1) === text) return;
    this.entries.push(text);
    if (this.entries.length > HISTORY_MAX) this.entries.splice(0, this.entries.length - HISTORY_MAX);
  }

  /**
   * Whether Up/Down may replace `value` with an entry: the composer is empty, or
   * shows the entry being walked, unchanged (a draft, or an edited entry, is never replaced).
   */
  mayReplace(value: string): boolean {
    return value === '' || (this.index >= 0 && this.entries[this.index] === value);
  }

  /** The entry before the one shown (the newest when not walking); undefined when there is none. */
  older(): string | undefined {
    if (this.entries.length === 0 || this.index === 0) return undefined;
    this.index = this.index < 0 ? this.entries.length - 1 : this.index - 1;
    return this.entries[this.index];
  }

  /** The entry after the one shown; '' past the newest (the walk ends); undefined when not walking. */
  newer(): string | undefined {
    if (this.index < 0) return undefined;
    this.index++;
    if (this.index < this.entries.length) return this.entries[this.index];
    this.index = -1;
    return '';
  }

  /** The composer was edited: the walk ends. */
  stop(): void {
    this.index = -1;
  }

  /** What the webview state keeps. */
  toState(): string[] {
    return this.entries.filter((s) => s.length <= HISTORY_ENTRY_MAX);
  }
}
