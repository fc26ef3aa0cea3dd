import * as assert from 'node:assert/strict';
import { chatHtml, contentSecurityPolicy, escapeHtml } from '../../../src/chat/chatHtml';
import { isWebviewToHost } from '../../../src/shared/webviewProtocol';

describe('chat panel HTML', () => {
  const html = chatHtml({
    cspSource: 'https://file+.vscode-resource.example',
    nonce: 'abc123==',
    scriptUri: 'https://file+.vscode-resource.example/ext/dist/webview.js',
    styleUri: 'https://file+.vscode-resource.example/ext/media/chat.css',
    title: 'Agent <b>"x"</b>',
  });

  it('has a strict CSP: nothing by default, scripts only by nonce, no inline or eval', () => {
    const csp = contentSecurityPolicy('https://src', 'N');
    assert.match(csp, /^default-src 'none'/);
    assert.match(csp, /script-src 'nonce-N'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.match(html, /http-equiv="Content-Security-Policy"/);
  });

  it('loads exactly one script, carrying the nonce, from the given URI', () => {
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]!, /nonce="abc123=="/);
    assert.match(scripts[0]!, /src="https:\/\/file\+\.vscode-resource\.example\/ext\/dist\/webview\.js"/);
  });

  it('has no inline style or event handler attributes', () => {
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i);
  });

  it('escapes the title', () => {
    assert.match(html, /<title>Agent &#60;b&#62;&#34;x&#34;&#60;\/b&#62;<\/title>/);
    assert.equal(escapeHtml(`<&>"'`), '&#60;&#38;&#62;&#34;&#39;');
  });

  it('preloads the icon font (only when given), by the URL the stylesheet uses, within font-src', () => {
    const withFont = chatHtml({
      cspSource: 'https://src',
      nonce: 'N',
      scriptUri: 'https://src/dist/webview.js',
      styleUri: 'https://src/media/chat.css',
      codiconUri: 'https://src/dist/codicon.css',
      codiconFontUri: 'https://src/dist/codicon.ttf',
      title: 't',
    });
    assert.match(withFont, /<link rel="preload" href="https:\/\/src\/dist\/codicon\.ttf" as="font" type="font\/ttf" crossorigin>/);
    assert.ok(withFont.indexOf('rel="preload"') < withFont.indexOf('codicon.css'), 'before the stylesheets');
    assert.match(contentSecurityPolicy('https://src', 'N'), /font-src https:\/\/src/);
    assert.doesNotMatch(html, /rel="preload"/);
  });

  it('for screen readers: the transcript is a labelled region (not a live log read out chunk by chunk); a polite status announces replies and questions', () => {
    assert.match(html, /id="transcript" role="region" aria-label="Conversation[^"]*"/);
    assert.doesNotMatch(html, /id="transcript"[^>]*aria-live/);
    assert.match(html, /id="announcer" role="status" aria-live="polite"/);
  });
});

describe('messages from the webview are checked before they are acted on', () => {
  it('accepts the subagent, model and elicitation answers in shape, and nothing else', () => {
    assert.equal(isWebviewToHost({ type: 'stopSubagent', sessionId: 'child-1' }), true);
    assert.equal(isWebviewToHost({ type: 'stopSubagent' }), false);
    assert.equal(isWebviewToHost({ type: 'setModel', modelId: 'large' }), true);
    assert.equal(isWebviewToHost({ type: 'elicitation', id: 'q1', action: 'accept', values: { name: 'shop', features: ['logs'] } }), true);
    assert.equal(isWebviewToHost({ type: 'elicitation', id: 'q1', action: 'decline' }), true);
    assert.equal(isWebviewToHost({ type: 'elicitation', id: 'q1', action: 'approve' }), false, 'not an action');
    assert.equal(isWebviewToHost({ type: 'elicitation', id: 'q1', action: 'accept', values: { n: 3 } }), false, 'values are typed text');
    assert.equal(isWebviewToHost({ type: 'elicitation', id: 'q1', action: 'accept', values: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, 'x'])) }), false, 'bounded');
    assert.equal(isWebviewToHost({ type: 'permissionReason', id: 'p1', reason: 'use dist/' }), true);
    assert.equal(isWebviewToHost({ type: 'permissionReason', id: 'p1' }), false, 'a reason is text');
    assert.equal(isWebviewToHost({ type: 'permissionReason', id: 'p1', reason: 'x'.repeat(4001) }), false, 'bounded');
  });

  it('accepts Changes actions and checkpoint actions in shape, and nothing else', () => {
    for (const action of ['open', 'revert', 'keep', 'reviewAll', 'keepAll', 'revertAll']) assert.equal(isWebviewToHost({ type: 'change', action, path: '/w/a.ts' }), true, action);
    assert.equal(isWebviewToHost({ type: 'change', action: 'delete', path: '/w/a.ts' }), false);
    assert.equal(isWebviewToHost({ type: 'change', action: 'keep', path: 7 }), false);
    for (const action of ['preview', 'restore', 'restoreKeep', 'undo', 'dismiss', 'diff']) assert.equal(isWebviewToHost({ type: 'checkpoint', action, id: 'cp1' }), true, action);
    assert.equal(isWebviewToHost({ type: 'checkpoint', action: 'restore' }), false, 'an id is needed');
    assert.equal(isWebviewToHost({ type: 'checkpoint', action: 'wipe', id: 'cp1' }), false);
    assert.equal(isWebviewToHost({ type: 'checkpoint', action: 'diff', id: 'cp1', path: ['/etc/passwd'] }), false);
  });

  it('accepts Edit and Retry of a message, and a send that replaces one, in shape', () => {
    assert.equal(isWebviewToHost({ type: 'rewind', action: 'edit', id: 'm3' }), true);
    assert.equal(isWebviewToHost({ type: 'rewind', action: 'retry', id: 'm3' }), true);
    assert.equal(isWebviewToHost({ type: 'rewind', action: 'delete', id: 'm3' }), false);
    assert.equal(isWebviewToHost({ type: 'rewind', action: 'edit' }), false, 'an id is needed');
    assert.equal(isWebviewToHost({ type: 'send', text: 'x', rewind: 'm3' }), true);
    assert.equal(isWebviewToHost({ type: 'send', text: 'x', rewind: 3 }), false);
    assert.equal(isWebviewToHost({ type: 'send', text: 'x', rewind: 'm'.repeat(201) }), false, 'bounded');
  });

  it('accepts context-folder messages in shape: add names no path (the host asks), remove names one', () => {
    assert.equal(isWebviewToHost({ type: 'folder', action: 'add' }), true);
    assert.equal(isWebviewToHost({ type: 'folder', action: 'add', path: '/etc' }), false, 'the webview never chooses the folder');
    assert.equal(isWebviewToHost({ type: 'folder', action: 'remove', path: '/w/extra' }), true);
    assert.equal(isWebviewToHost({ type: 'folder', action: 'remove' }), false);
    assert.equal(isWebviewToHost({ type: 'folder', action: 'remove', path: 'x'.repeat(5000) }), false, 'bounded');
    assert.equal(isWebviewToHost({ type: 'folder', action: 'rename', path: '/w' }), false);
  });
});
