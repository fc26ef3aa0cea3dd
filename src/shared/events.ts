/**
 * Events without `vscode`: the same shape as `vscode.Event`, so the shell can
 * pass them on, and the floors below it stay testable in plain Node.
 */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => unknown) => Disposable;

export class Emitter<T> implements Disposable {
  /** Never changed in place (a new array on each subscribe and dispose): `fire` iterates it without a copy. */
  private listeners: readonly ((e: T) => unknown)[] = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    this.listeners = [...this.listeners, listener];
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  };

  /** Calls every listener; one that throws does not stop the others. */
  fire(e: T): void {
    // A listener added or removed meanwhile replaces the array: this loop sees the ones of when it began.
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        console.error(err);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
