import * as assert from 'node:assert/strict';
import { staleAgainst } from '../../../src/services/files/diskBytes';

describe('staleAgainst: a document older than its file on disk', () => {
  const bytes = (s: string) => Buffer.from(s, 'utf8');

  it('differs: other text on disk', () => {
    assert.equal(staleAgainst('what VS Code read\n', bytes('changed on disk\n')), true);
    assert.equal(staleAgainst('', bytes('x')), true);
  });

  it('the same: equal text, a BOM the document does not show, CRLF against LF', () => {
    assert.equal(staleAgainst('same\n', bytes('same\n')), false);
    assert.equal(staleAgainst('same\n', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('same\n')])), false);
    assert.equal(staleAgainst('a\r\nb\r\n', bytes('a\nb\n')), false);
    assert.equal(staleAgainst('a\nb\n', bytes('a\r\nb\r\n')), false);
  });

  it('never different when the bytes are not UTF-8 (VS Code decoded them with its own encoding)', () => {
    const latin1 = Buffer.from('café\n', 'latin1');
    assert.equal(staleAgainst('café\n', latin1), false);
    assert.equal(staleAgainst('anything else\n', latin1), false);
  });
});
