/**
 * When to restart an agent that crashed, as vscode-languageclient does: restart,
 * unless it crashed `maxCrashes` times within `windowMs`. No `vscode` import.
 */
export class CrashPolicy {
  private readonly crashes: number[] = [];

  constructor(
    readonly maxCrashes = 5,
    readonly windowMs = 3 * 60_000,
  ) {}

  /** Records a crash at `now`; returns whether to restart. */
  recordCrash(now = Date.now()): 'restart' | 'give-up' {
    this.crashes.push(now);
    while (this.crashes.length > 0 && now - this.crashes[0]! > this.windowMs) this.crashes.shift();
    return this.crashes.length >= this.maxCrashes ? 'give-up' : 'restart';
  }

  get recentCrashes(): number {
    return this.crashes.length;
  }

  reset(): void {
    this.crashes.length = 0;
  }
}
