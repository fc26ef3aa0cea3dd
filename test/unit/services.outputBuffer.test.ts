import * as assert from 'node:assert/strict';
import { OutputBuffer } from '../../src/services/outputBuffer';

describe('terminal output buffer (outputByteLimit)', () => {
  it('keeps everything under the limit', () => {
    const b = new OutputBuffer(100);
    b.append(Buffer.from('hello '));
    b.append(Buffer.from('world'));
    assert.equal(b.text(), 'hello world');
    assert.equal(b.truncated, false);
  });

  it('drops from the beginning, at a character boundary, and says so', () => {
    const b = new OutputBuffer(10);
    // "é" and "🌍" are 2 and 4 bytes: a cut at byte 10 from the end lands inside one.
    b.append(Buffer.from('aaaa🌍bé🌍', 'utf8'));
    const text = b.text();
    assert.equal(b.truncated, true);
    assert.ok(Buffer.byteLength(text) <= 10);
    assert.ok(!text.includes('\uFFFD'), `no broken character: ${JSON.stringify(text)}`);
    assert.ok('aaaa🌍bé🌍'.endsWith(text));
  });

  it('under a large limit nothing is dropped', () => {
    const b = new OutputBuffer(1024 * 1024);
    for (let i = 0; i < 1000; i++) b.append(Buffer.from('x'.repeat(100)));
    assert.equal(b.size, 100_000);
    assert.equal(b.truncated, false);
  });
});
