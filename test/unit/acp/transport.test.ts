import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { Message } from 'vscode-jsonrpc/node';
import { NdjsonMessageReader, NdjsonMessageWriter, parseMessageLine } from '../../../src/acp/transport';
import { LineSplitter } from '../../../src/shared/lineSplitter';

function collect(maxLineBytes = 1024) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const s = new LineSplitter(maxLineBytes, (l) => lines.push(l), (b) => oversize.push(b));
  return { s, lines, oversize };
}

describe('NDJSON framing', () => {
  it('splits lines across arbitrary chunk boundaries', () => {
    const { s, lines } = collect();
    const text = '{"a":1}\n{"b":2}\n{"c":3}\n';
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 3) s.push(bytes.subarray(i, i + 3));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('keeps a partial line until its newline arrives', () => {
    const { s, lines } = collect();
    s.push(Buffer.from('{"a":'));
    assert.deepEqual(lines, []);
    assert.equal(s.buffered, 5);
    s.push(Buffer.from('1}\n'));
    assert.deepEqual(lines, ['{"a":1}']);
  });

  it('tolerates CRLF line endings', () => {
    const { s, lines } = collect();
    s.push(Buffer.from('{"a":1}\r\n{"b":2}\r\n'));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  });

  it('decodes multi-byte UTF-8 characters split across chunks', () => {
    const { s, lines } = collect();
    const bytes = Buffer.from('{"t":"héllo 🌍 世界"}\n', 'utf8');
    // Feed one byte at a time: every multi-byte character is split.
    for (let i = 0; i < bytes.length; i++) s.push(bytes.subarray(i, i + 1));
    assert.deepEqual(lines, ['{"t":"héllo 🌍 世界"}']);
    assert.equal(JSON.parse(lines[0]!).t, 'héllo 🌍 世界');
  });

  it('drops a line over the limit without buffering it, and goes on with the next', () => {
    const { s, lines, oversize } = collect(16);
    s.push(Buffer.from('{"big":"' + 'x'.repeat(40)));
    assert.equal(s.buffered, 0, 'nothing of the oversize line is kept');
    s.push(Buffer.from('x'.repeat(100) + '"}\n{"ok":1}\n'));
    assert.deepEqual(oversize, [8 + 40 + 100 + 2]);
    assert.deepEqual(lines, ['{"ok":1}']);
  });

  it('cuts whole chunks of many lines the same as byte by byte: CRLF, multi-byte text, blank and oversize lines', () => {
    // A line per kind, repeated: the chunked result must equal splitting the whole text by hand.
    const kinds = ['{"a":1}', '{"t":"héllo 🌍 世界"}', '', '{"crlf":true}\r', 'x'.repeat(40), '{"b":"' + 'é'.repeat(12) + '"}', 'y'.repeat(30)];
    const all: string[] = [];
    for (let i = 0; i < 300; i++) all.push(kinds[(i * 5) % kinds.length]!);
    const bytes = Buffer.from(all.join('\n') + '\n', 'utf8');
    // A limit some lines are over (30 bytes: one line is exactly that, one is 40), and one all are under.
    // A chunk's whole lines are cut at once when all of them fit the limit, else line by line.
    for (const max of [30, 1 << 20]) {
      const expected = { lines: [] as string[], oversize: [] as number[] };
      for (const l of all) {
        const n = Buffer.byteLength(l);
        if (n > max) expected.oversize.push(n);
        else expected.lines.push(l.endsWith('\r') ? l.slice(0, -1) : l);
      }
      for (const size of [1, 7, 64, 1000, bytes.length]) {
        const { s, lines, oversize } = collect(max);
        for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
        assert.deepEqual({ lines, oversize }, expected, `limit ${max}, chunks of ${size} bytes`);
        assert.equal(s.buffered, 0);
      }
    }
  });

  it('the shared splitter\'s other uses: a line over the limit is said as it crosses it; unwanted lines are never kept; close stops at once', () => {
    const lines: string[] = [];
    const events: string[] = [];
    let want = true;
    const s = new LineSplitter(8, (l) => lines.push(l), (b) => events.push(`oversize ${b}`), { onTooLong: () => events.push('too long'), want: () => want });
    s.push(Buffer.from('\ufeffab\n0123456'));
    s.push(Buffer.from('789ab'));
    assert.deepEqual(events, ['too long'], 'said while the line still streams');
    s.push(Buffer.from('c\nok\n'));
    assert.deepEqual(events, ['too long', 'oversize 13']);
    assert.deepEqual(lines, ['\ufeffab', 'ok'], 'a byte-order mark is kept, as Buffer#toString keeps it');
    want = false;
    s.push(Buffer.from('skipped, however long it is\npartial'));
    assert.equal(s.buffered, 0, 'an unwanted line is not buffered');
    want = true;
    s.push(Buffer.from('\nx\ny\n'));
    assert.deepEqual(lines, ['\ufeffab', 'ok', 'x', 'y']);
    const cut = new LineSplitter(100, (l) => {
      lines.push(l);
      cut.close();
    });
    cut.push(Buffer.from('first\nsecond\nthird'));
    cut.push(Buffer.from('\n'));
    assert.deepEqual(lines.slice(4), ['first'], 'nothing after close, not even the rest of the chunk');
  });

  it('classifies lines: blank, invalid JSON, batch, non-message, message', () => {
    assert.deepEqual(parseMessageLine('   '), { blank: true });
    assert.match((parseMessageLine('{nope') as { problem: string }).problem, /not JSON/);
    assert.match((parseMessageLine('[{"jsonrpc":"2.0","method":"x"}]') as { problem: string }).problem, /batch/);
    assert.match((parseMessageLine('42') as { problem: string }).problem, /not a JSON-RPC message/);
    assert.match((parseMessageLine('{"foo":1}') as { problem: string }).problem, /neither/);
    assert.deepEqual(parseMessageLine('{"jsonrpc":"2.0","method":"m"}'), { message: { jsonrpc: '2.0', method: 'm' } });
  });

  it('reader: skips blank and invalid lines (reported) and delivers the messages', async () => {
    const input = new PassThrough();
    const invalid: string[] = [];
    const reader = new NdjsonMessageReader(input, { onInvalidLine: (p) => invalid.push(p) });
    const got: Message[] = [];
    reader.listen((m) => got.push(m));
    input.write('\n\n{"jsonrpc":"2.0","method":"a"}\nGARBAGE from a banner\n{"jsonrpc":"2.0","id":1,"result":{}}\n');
    await new Promise((r) => setImmediate(r));
    assert.equal(got.length, 2);
    assert.equal(invalid.length, 1);
  });

  it('reader: an oversize line fires an error naming the limit, and reading goes on', async () => {
    const input = new PassThrough();
    const reader = new NdjsonMessageReader(input, { maxLineBytes: 64 });
    const errors: Error[] = [];
    reader.onError((e) => errors.push(e));
    const got: Message[] = [];
    reader.listen((m) => got.push(m));
    input.write(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { big: 'y'.repeat(100) } }) + '\n');
    input.write('{"jsonrpc":"2.0","method":"small"}\n');
    await new Promise((r) => setImmediate(r));
    assert.equal(errors.length, 1, errors.map((e) => e.message).join(' | '));
    assert.match(errors[0]!.message, /limit of 64 bytes/);
    assert.deepEqual(got.map((m) => (m as unknown as { method: string }).method), ['small']);
  });

  it('reader: fires close when the stream ends', async () => {
    const input = new PassThrough();
    const reader = new NdjsonMessageReader(input);
    let closed = false;
    reader.onClose(() => (closed = true));
    reader.listen(() => {});
    input.end();
    input.resume();
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(closed, true);
  });

  it('writer: one message per line, newlines inside strings escaped', async () => {
    const out = new PassThrough();
    const writer = new NdjsonMessageWriter(out);
    await writer.write({ jsonrpc: '2.0', method: 'm', params: { text: 'a\nb' } } as Message);
    await writer.write({ jsonrpc: '2.0', method: 'n' } as Message);
    const text = out.read().toString('utf8');
    const lines = text.split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[2], '');
    assert.equal(JSON.parse(lines[0]!).params.text, 'a\nb');
  });

  it('writer: rejects after the sink closed', async () => {
    const out = new PassThrough();
    const writer = new NdjsonMessageWriter(out);
    writer.end();
    await assert.rejects(writer.write({ jsonrpc: '2.0', method: 'm' } as Message), /not running/);
  });
});
