/**
 * Events without `vscode`: the same shape as `vscode.Event`, so the shell can
 * pass them on, and the floors below it stay testable in plain Node.
 */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => unknown) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners: ((e: T) => unknown)[] = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    this.listeners.push(listener);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  };

  /** Calls every listener; one that throws does not stop the others. */
  fire(e: T): void {
    for (const l of [...this.listeners]) {
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
