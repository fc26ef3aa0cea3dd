/**
 * The prompt just sent, which the agent may echo back: shown at once by the
 * client, so the echo is dropped rather than shown twice.
 */
import type { DecodedUpdate } from '../../acp/decode';

export class PromptEcho {
  /** What of the prompt the agent may still echo back. */
  private pending: string | undefined;

  /** A prompt was sent: its echo is expected. */
  expect(text: string): void {
    this.pending = text === '' ? undefined : text;
  }

  /** The turn ended: nothing more is an echo. */
  end(): void {
    this.pending = undefined;
  }

  /**
   * Whether `update` is the agent echoing the prompt: text chunks that spell it,
   * from its start, before anything else of the turn. Anything else ends the echo window.
   */
  consume(update: DecodedUpdate): boolean {
    if (this.pending === undefined) return false;
    if (update.sessionUpdate === 'user_message_chunk' && update.content.type === 'text' && update.content.text !== '' && this.pending.startsWith(update.content.text)) {
      this.pending = this.pending.slice(update.content.text.length);
      if (this.pending === '') this.pending = undefined;
      return true;
    }
    if (update.sessionUpdate === 'user_message_chunk' && update.content.type !== 'text') return true; // an echoed attachment
    // ACP v2: the prompt echoed whole (user_message), its text spelling what is left of it.
    if (update.sessionUpdate === '_message' && update.role === 'user' && update.content) {
      const text = update.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      if (text !== '' && this.pending.startsWith(text)) {
        this.pending = undefined;
        return true;
      }
    }
    this.pending = undefined;
    return false;
  }
}
