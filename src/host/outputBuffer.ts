/**
 * A terminal's captured output with ACP's `outputByteLimit`: when the limit is
 * exceeded, the oldest bytes are dropped — at a UTF-8 character boundary — and
 * the output is marked truncated. No `vscode` import.
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;

  constructor(private readonly limit: number | undefined) {}

  append(data: Buffer): void {
    this.chunks.push(data);
    this.bytes += data.length;
    if (this.limit !== undefined && this.bytes > this.limit) this.trim(this.limit);
  }

  private trim(limit: number): void {
    let all = Buffer.concat(this.chunks, this.bytes);
    let start = all.length - limit;
    // Never start in the middle of a multi-byte character (continuation bytes are 10xxxxxx).
    while (start < all.length && (all[start]! & 0xc0) === 0x80) start++;
    all = all.subarray(start);
    this.chunks = [Buffer.from(all)];
    this.bytes = all.length;
    this.truncated = true;
  }

  text(): string {
    return Buffer.concat(this.chunks, this.bytes).toString('utf8');
  }

  get size(): number {
    return this.bytes;
  }
}
