/**
 * Client terminals' output as the transcript shows it: the newest part of each,
 * kept after release, copied into every tool call that shows the terminal. An
 * ACP v2 agent's own terminals (display-only) are shown the same way.
 */
import type { AgentTerminal } from '../../acp/decode';
import { TextDecoder } from 'node:util';
import { mergeTerminalText } from '../../shared/terminalText';
import type { ToolItem } from '../../shared/transcriptTypes';
import type { TerminalView } from './content';
import type { Change } from './timeline';

export interface TerminalOutput {
  readonly terminalId: string;
  readonly text: string;
  readonly start: number;
  readonly truncated: boolean;
  readonly exitStatus?: { exitCode: number | null; signal: string | null };
}

/** Agent terminals whose partial characters are kept between chunks (the oldest forgotten past it). */
const MAX_DECODERS = 200;

export class TerminalOutputs {
  /** By terminal id: what a tool call announced later shows at once. */
  readonly views = new Map<string, TerminalView>();
  /** Per agent terminal: its bytes decoded as UTF-8 across chunks (a character may be split between two). */
  private readonly decoders = new Map<string, TextDecoder>();

  /** An agent-owned terminal's output or exit (ACP v2), appended as a client terminal's is. */
  agent(u: AgentTerminal, tools: Iterable<ToolItem>): Change[] {
    let text = '';
    if (u.data) {
      let decoder = this.decoders.get(u.terminalId);
      if (!decoder) {
        if (this.decoders.size >= MAX_DECODERS) this.decoders.delete(this.decoders.keys().next().value!);
        this.decoders.set(u.terminalId, (decoder = new TextDecoder('utf-8')));
      }
      text = decoder.decode(Uint8Array.from(atob(u.data), (c) => c.charCodeAt(0)), { stream: true });
    }
    const start = this.views.get(u.terminalId)?.end ?? 0;
    return this.append({ terminalId: u.terminalId, text, start, truncated: false, ...(u.exitStatus ? { exitStatus: u.exitStatus } : {}) }, tools);
  }

  /**
   * New output of a client terminal: every tool call in `tools` showing it holds
   * the newest part; the panel gets only the new text (a whole item when the
   * terminal first shows output or exits).
   */
  append(d: TerminalOutput, tools: Iterable<ToolItem>): Change[] {
    const old = this.views.get(d.terminalId);
    const view: TerminalView = { ...mergeTerminalText(old ?? {}, d.text, d.start, d.truncated), ...(d.exitStatus ?? old?.exitStatus ? { exitStatus: d.exitStatus ?? old?.exitStatus } : {}) };
    this.views.set(d.terminalId, view);
    const whole = !old || (view.exitStatus !== undefined && old.exitStatus === undefined);
    const out: Change[] = [];
    let shown = false;
    for (const t of tools) {
      let hit = false;
      t.content = t.content.map((c) => {
        if (c.type !== 'terminal' || c.terminalId !== d.terminalId) return c;
        hit = true;
        return { type: 'terminal', terminalId: d.terminalId, ...view };
      });
      shown ||= hit;
      if (hit && whole) out.push({ c: 'put', item: t });
    }
    if (!whole && shown && d.text !== '') {
      out.push({ c: 'term', terminalId: d.terminalId, text: d.text, start: d.start, truncated: d.truncated });
    }
    return out;
  }
}
