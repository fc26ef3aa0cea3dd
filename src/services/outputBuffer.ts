/**
 * A terminal's captured output, bounded: ACP's `outputByteLimit`, or the
 * configured default when the agent gives none. Appends are amortized O(1)
 * (chunks are kept, whole chunks dropped from the front, the first one cut
 * lazily); the text is assembled only when asked for, starting at a UTF-8
 * character boundary. No `vscode` import.
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  /** Bytes held in `chunks`, from `headOffset` on. */
  private bytes = 0;
  /** Bytes of chunks[0] already dropped. */
  private headOffset = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  append(data: Buffer): void {
    if (data.length === 0) return;
    if (data.length >= this.limit) {
      // This chunk alone fills the buffer: keep its tail only.
      this.chunks = this.limit > 0 ? [Buffer.from(data.subarray(data.length - this.limit))] : [];
      this.headOffset = 0;
      this.bytes = Math.min(this.limit, data.length);
      this.truncated = true;
      return;
    }
    this.chunks.push(data);
    this.bytes += data.length;
    while (this.bytes > this.limit) {
      const head = this.chunks[0]!;
      const headLeft = head.length - this.headOffset;
      const excess = this.bytes - this.limit;
      this.truncated = true;
      if (excess >= headLeft) {
        this.chunks.shift();
        this.headOffset = 0;
        this.bytes -= headLeft;
      } else {
        this.headOffset += excess;
        this.bytes -= excess;
      }
    }
  }

  text(): string {
    if (this.bytes === 0) return '';
    const first = this.chunks[0]!.subarray(this.headOffset);
    let all = Buffer.concat([first, ...this.chunks.slice(1)], this.bytes);
    if (this.truncated) {
      // Never start in the middle of a multi-byte character (continuation bytes are 10xxxxxx).
      let start = 0;
      while (start < all.length && start < 4 && (all[start]! & 0xc0) === 0x80) start++;
      all = all.subarray(start);
    }
    return all.toString('utf8');
  }

  get size(): number {
    return this.bytes;
  }
}
