import * as vscode from 'vscode';
import { redact } from './agents/redact';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);
const RECENT_LINES = 1000;
/** How long a shown channel may take to appear before it is shown once more. */
const SHOW_AGAIN_MS = 2000;

/**
 * Every output channel the extension writes, created in one place: whatever is
 * written — a log line, an agent's stderr, the protocol trace — passes the
 * redaction on its way in, so a secret cannot reach a log by a path that forgot
 * to scrub it. The last lines are kept for the tests.
 */
export class Logs {
  private readonly recent: string[] = [];
  /** Lines written since the start: the number of the next line. */
  private written = 0;

  constructor(private readonly secrets: () => readonly string[]) {}

  scrub(text: string): string {
    return String(redact(text, this.secrets()));
  }

  /** A structured value with secrets removed (env and header values, secret-named fields, patterns). */
  redactValue(value: unknown): unknown {
    return redact(value, this.secrets());
  }

  channel(name: string): vscode.LogOutputChannel {
    return this.wrap(name, vscode.window.createOutputChannel(name, { log: true }));
  }

  private wrap(name: string, ch: vscode.LogOutputChannel): vscode.LogOutputChannel {
    const scrubArg = (a: unknown): unknown => (a instanceof Error ? this.scrub(a.stack ?? a.message) : typeof a === 'string' ? this.scrub(a) : redact(a, this.secrets()));
    return new Proxy(ch, {
      get: (target, prop, receiver) => {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop === 'show' && typeof v === 'function') return (...args: unknown[]) => this.show(name, () => (v as (...a: unknown[]) => unknown).apply(target, args));
        if (typeof prop !== 'string' || !LEVELS.has(prop) || typeof v !== 'function') return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        return (...args: unknown[]) => {
          const clean = args.map(scrubArg);
          this.recent.push(`[${name}] ${clean.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join(' ')}`);
          this.written++;
          if (this.recent.length > RECENT_LINES) this.recent.splice(0, this.recent.length - RECENT_LINES);
          return (v as (...a: unknown[]) => unknown).apply(target, clean);
        };
      },
    });
  }

  /**
   * Shows a channel, and once more if it is not on screen soon after: under load, VS Code 1.96's workbench
   * drops a channel's first reveal now and then (the Output view never opens; a second show opens it).
   */
  private show(name: string, show: () => unknown): void {
    show();
    const bare = (s: string) => s.replace(/[^A-Za-z0-9]/g, '');
    const shown = () => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'output' && bare(decodeURIComponent(e.document.uri.toString())).includes(bare(name)));
    setTimeout(() => {
      if (!shown()) show();
    }, SHOW_AGAIN_MS);
  }

  /** The last lines written to any channel, as written (redacted). */
  lines(): readonly string[] {
    return [...this.recent];
  }

  /** How many lines were written since the start (a mark for `linesSince`). */
  mark(): number {
    return this.written;
  }

  /** The lines written after `mark` that are still kept (the last 1,000 are). */
  linesSince(mark: number): readonly string[] {
    return this.recent.slice(Math.max(0, this.recent.length - (this.written - mark)));
  }
}
