/**
 * Runs tasks one after another per key, in the order they were queued, even when
 * tasks are async. A failing task is reported and does not stop the ones after
 * it. No `vscode` import.
 */
export class OrderedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly onError: (key: string, err: unknown) => void = () => {}) {}

  enqueue(key: string, task: () => void | Promise<void>): Promise<void> | undefined {
    // Fast path: nothing pending for this key and a synchronous task — run it now.
    if (!this.tails.has(key)) {
      let result: void | Promise<void>;
      try {
        result = task();
      } catch (err) {
        this.onError(key, err);
        return undefined;
      }
      if (!(result instanceof Promise)) return undefined;
      const next = result.catch((err: unknown) => this.onError(key, err));
      this.tails.set(key, next);
      void next.then(() => {
        if (this.tails.get(key) === next) this.tails.delete(key);
      });
      return next;
    }
    const previous = this.tails.get(key)!;
    const next = previous.then(task).catch((err: unknown) => this.onError(key, err));
    this.tails.set(key, next);
    void next.then(() => {
      if (this.tails.get(key) === next) this.tails.delete(key);
    });
    return next;
  }

  /** Resolves once everything queued so far for `key` has run. */
  drain(key: string): Promise<void> {
    return this.tails.get(key) ?? Promise.resolve();
  }

  get size(): number {
    return this.tails.size;
  }
}
