/**
 * The transcript's scroll position: it sticks to the bottom while the user is
 * there, and only the user unsticks it. A scroll to the end is asked for at any
 * time and done once, in the view's next frame (`settle`).
 */
export class Follow {
  private stick = true;
  /** Where the last scroll to the end put the view. */
  private ownTop = -1;
  /** When the user last scrolled (wheel, keys, scrollbar, touch). */
  private userScrollAt = -Infinity;
  private wantEnd = false;

  constructor(private readonly root: HTMLElement) {
    // Only the user unsticks the view from the bottom: a scroll by the wheel, the keys, the scrollbar
    // or a touch. Scrolls of our own (to the end, reported a frame later when more may have been
    // appended) and the browser's scroll anchoring say nothing of where the user wants to be.
    const byUser = () => (this.userScrollAt = performance.now());
    root.addEventListener('wheel', byUser, { passive: true });
    root.addEventListener('touchmove', byUser, { passive: true });
    root.addEventListener('pointerdown', (e) => e.target === root && byUser(), { passive: true });
    root.addEventListener('keydown', (e) => ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' '].includes(e.key) && byUser(), { passive: true });
    root.addEventListener('scroll', () => {
      if (root.scrollTop === this.ownTop) return;
      if (this.atBottom()) this.stick = true;
      else if (performance.now() - this.userScrollAt < 1000) this.stick = false;
    }, { passive: true });
  }

  /** Whether the view sticks to the bottom. */
  get sticks(): boolean {
    return this.stick;
  }

  /** Back to the bottom, sticking (a new snapshot). */
  stickToEnd(): void {
    this.stick = true;
  }

  /** The view goes where it is sent (an item revealed): no longer at the bottom. */
  release(): void {
    this.stick = false;
  }

  /** In the next frame, to the end if the view sticks then. */
  wantEndNextFrame(): void {
    this.wantEnd = true;
  }

  /** As `wantEndNextFrame`, only if the view sticks now. */
  followNextFrame(): void {
    if (this.stick) this.wantEnd = true;
  }

  /** In a frame: the scroll to the end asked for, if the view still sticks. */
  settle(): void {
    if (this.wantEnd) {
      this.wantEnd = false;
      if (this.stick) this.scrollToEnd();
    }
  }

  /** Scrolls to a saved position (not sticking to the bottom unless it is the bottom). */
  scrollTo(top: number): void {
    this.root.scrollTop = top;
    this.stick = this.atBottom();
  }

  private atBottom(): boolean {
    return this.root.scrollTop + this.root.clientHeight >= this.root.scrollHeight - 40;
  }

  private scrollToEnd(): void {
    this.root.scrollTop = this.root.scrollHeight;
    this.ownTop = this.root.scrollTop;
  }
}
