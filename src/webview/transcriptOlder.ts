/**
 * Older history the host still has for the view, asked for a batch at a time:
 * how many items, the spacer standing for them at the top, the batch in flight,
 * and an item waiting to be revealed once its batch has come.
 */
import type { Post } from './render';
import type { NearViewport } from './transcriptBlocks';

export class OlderHistory {
  private pending = 0;
  private el: HTMLElement | undefined;
  private near = false;
  private asked = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The oldest item we have (what the next batch comes before). */
  private firstId: string | undefined;
  /** An item to bring into view once its older history arrives (a pin clicked). */
  private waiting: string | undefined;
  private readonly onNear = (near: boolean, el: Element): void => {
    if (el !== this.el) return;
    this.near = near;
    if (near) this.ask();
  };

  constructor(
    private readonly root: HTMLElement,
    private readonly post: Post,
    private readonly nearViewport: NearViewport,
    /** An item's height, about. */
    private readonly itemHeight: () => number,
  ) {}

  /** How many items are older still. */
  get count(): number {
    return this.pending;
  }

  /** The spacer at the top, while there is older history. */
  get spacer(): HTMLElement | undefined {
    return this.el;
  }

  /** The item to reveal once it is here. */
  get revealing(): string | undefined {
    return this.waiting;
  }

  /** A new snapshot, whose first item is `firstId` (the spacer went with the old one's elements). */
  reset(firstId: string | undefined): void {
    clearTimeout(this.timer);
    this.el = undefined;
    this.near = false;
    this.asked = false;
    this.pending = 0;
    this.waiting = undefined;
    this.firstId = firstId;
  }

  /** Older history still to come: a spacer of about its height at the top, and the first batch asked for. */
  set(count: number): void {
    this.pending = count;
    if (count <= 0) {
      if (this.el) {
        this.nearViewport.unwatch(this.el);
        this.el.remove();
      }
      this.el = undefined;
      this.near = false;
      return;
    }
    if (!this.el) {
      this.el = document.createElement('div');
      this.el.className = 'placeholder older-spacer';
      this.el.setAttribute('aria-hidden', 'true');
      this.root.prepend(this.el);
      this.nearViewport.watch(this.el, this.onNear);
    }
    this.el.style.height = `${this.height()}px`;
    // Near the viewport: at once; else in the background, a batch at a time.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(), this.near ? 0 : 30);
  }

  /** The spacer's height (none: 0). */
  height(): number {
    return this.el ? Math.round(Math.min(this.pending, 200_000) * this.itemHeight() * 0.8) : 0;
  }

  /** A batch came, the oldest of it first. */
  received(firstId: string | undefined): void {
    this.asked = false;
    if (firstId !== undefined) this.firstId = firstId;
  }

  /** An item not here yet is to be revealed: asked for at once. False when no more history is expected. */
  reveal(id: string): boolean {
    this.waiting = this.pending > 0 ? id : undefined;
    clearTimeout(this.timer);
    this.ask();
    return this.waiting !== undefined;
  }

  /** The item to reveal is here. */
  revealed(): void {
    this.waiting = undefined;
  }

  private ask(): void {
    if (this.asked || this.pending <= 0 || this.firstId === undefined) return;
    this.asked = true;
    this.post({ type: 'older', before: this.firstId, pending: this.pending });
  }
}
