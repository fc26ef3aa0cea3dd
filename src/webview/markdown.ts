/**
 * Agent output is untrusted: markdown-it with raw HTML disabled, then DOMPurify.
 * Links are kept as data for the host to open after a scheme check; images are
 * allowed only as data: URIs. Code blocks get highlighting and a copy button.
 */
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';

/** Grammars are registered on the first code block, not while the panel starts. */
let languagesReady = false;
function ensureLanguages(): void {
  if (languagesReady) return;
  languagesReady = true;
  for (const [name, lang] of Object.entries({ bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml })) {
    hljs.registerLanguage(name, lang);
  }
  hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
  hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
  hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
  hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
  hljs.registerAliases(['py'], { languageName: 'python' });
  hljs.registerAliases(['rs'], { languageName: 'rust' });
  hljs.registerAliases(['yml'], { languageName: 'yaml' });
}

const SAFE_LINK = /^(https?:|mailto:|file:)/i;
const SAFE_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i;

const md: MarkdownIt = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  highlight(code, lang) {
    if (!lang) return '';
    ensureLanguages();
    const language = hljs.getLanguage(lang) ? lang : undefined;
    if (!language || code.length > 100_000) return '';
    try {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    } catch {
      return '';
    }
  },
});
md.validateLink = (url: string) => SAFE_LINK.test(url.trim()) || SAFE_IMAGE.test(url.trim());

// Tables and long lines scroll instead of widening the panel.
const defaultFence = md.renderer.rules.fence!;
md.renderer.rules.fence = (tokens, idx, options, env, self) => {
  const html = defaultFence(tokens, idx, options, env, self);
  return `<div class="code-block">${html}</div>`;
};

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (SAFE_LINK.test(href)) {
      node.setAttribute('data-href', href);
      node.setAttribute('title', href);
    }
    node.removeAttribute('target');
    node.setAttribute('href', '#');
  }
  if (node.nodeName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (!SAFE_IMAGE.test(src)) node.removeAttribute('src');
  }
});

const PURIFY: Parameters<typeof DOMPurify.sanitize>[1] = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style', 'id', 'name'],
  ALLOW_DATA_ATTR: false,
};

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(md.render(text), PURIFY) as unknown as string;
}

/**
 * Renders a growing markdown text without re-rendering what is done: the text
 * up to the last blank line outside a code fence is "frozen" into HTML once;
 * only the tail after it is re-rendered as chunks arrive.
 */
const PLAIN_TAIL_CHARS = 16_000;
/**
 * A plain tail is laid out in pieces of about this many characters, each its own
 * block, so appending lays out only the last piece instead of all of a growing
 * block (which grew to over 10 ms a frame for 140 KB of text). A piece ends
 * after a newline (nothing changes on screen) or, in a line without one, after
 * a space (the line wraps there early, until the turn end renders it all).
 */
const PLAIN_PIECE_CHARS = 4_096;
/** Text with neither (base64, minified code, unspaced CJK) is cut anyway here: a piece never grows past it. */
const PLAIN_PIECE_MAX = 4 * PLAIN_PIECE_CHARS;

export class StreamingMarkdown {
  readonly el: HTMLDivElement;
  private readonly frozen: HTMLDivElement;
  private readonly tail: HTMLDivElement;
  private frozenLen = 0;
  private renderedTail = '';
  /** The plain tail's last piece and how many characters it has. */
  private piece: HTMLDivElement | undefined;
  private pieceLen = 0;

  constructor(className = 'markdown') {
    this.el = document.createElement('div');
    this.el.className = className;
    this.frozen = document.createElement('div');
    this.tail = document.createElement('div');
    this.el.append(this.frozen, this.tail);
  }

  render(text: string): void {
    const split = freezePoint(text, this.frozenLen);
    if (split > this.frozenLen) {
      const html = renderMarkdown(text.slice(this.frozenLen, split));
      this.frozen.insertAdjacentHTML('beforeend', html);
      this.frozenLen = split;
    }
    const tail = text.slice(this.frozenLen);
    if (tail !== this.renderedTail) {
      if (tail.length > PLAIN_TAIL_CHARS) {
        // One huge block still growing: markdown for it would cost a long task per
        // frame. Show it as text until it completes (the turn end renders it all),
        // appending only what is new (the text already laid out stays as it is).
        if (this.tail.className === 'plain-tail' && tail.startsWith(this.renderedTail)) this.appendPlain(tail.slice(this.renderedTail.length));
        else {
          this.tail.className = 'plain-tail';
          this.tail.replaceChildren();
          this.piece = undefined;
          this.appendPlain(tail);
        }
      } else {
        this.tail.className = '';
        this.tail.innerHTML = tail.trim() === '' ? '' : renderMarkdown(tail);
      }
      this.renderedTail = tail;
    }
  }

  /** Appends to the plain tail: a full piece ends at the next newline, else the next space, and a new one begins. */
  private appendPlain(text: string): void {
    let rest = text;
    while (rest) {
      if (this.piece && this.pieceLen >= PLAIN_PIECE_CHARS) {
        const cut = pieceCut(rest, PLAIN_PIECE_MAX - this.pieceLen);
        if (cut === -1) {
          // No place to end it yet: it grows.
          this.piece.append(rest);
          this.pieceLen += rest.length;
          return;
        }
        if (cut > 0) this.piece.append(rest.slice(0, cut));
        rest = rest.slice(cut);
        this.piece = undefined;
        continue;
      }
      if (!this.piece) {
        this.piece = document.createElement('div');
        this.pieceLen = 0;
        this.tail.append(this.piece);
      }
      const part = rest.slice(0, PLAIN_PIECE_CHARS - this.pieceLen);
      this.piece.append(part);
      this.pieceLen += part.length;
      rest = rest.slice(part.length);
    }
  }
}

/**
 * Where a full piece may end in `text`: after its first newline, else after its
 * first space, else at `room` (never between the halves of a surrogate pair);
 * -1 when none is in the text yet.
 */
function pieceCut(text: string, room: number): number {
  const nl = text.indexOf('\n');
  if (nl !== -1 && nl < room) return nl + 1;
  const sp = text.indexOf(' ');
  if (sp !== -1 && sp < room) return sp + 1;
  if (text.length <= room) return -1;
  // A pair that would straddle the cut (or, at 0, the end of the piece) stays together.
  const c = room === 0 ? text.charCodeAt(0) : text.charCodeAt(room - 1);
  return room === 0 ? (c >= 0xdc00 && c <= 0xdfff ? 1 : 0) : c >= 0xd800 && c <= 0xdbff ? room + 1 : room;
}

/** The end of the last complete block (a blank line outside a fence) at or after `from`. */
function freezePoint(text: string, from: number): number {
  let inFence = false;
  let fenceMarker = '';
  let best = from;
  let lineStart = from;
  let prevBlank = false;
  while (lineStart < text.length) {
    let nl = text.indexOf('\n', lineStart);
    if (nl === -1) break; // the last line is still growing
    const line = text.slice(lineStart, nl);
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (!inFence) {
        inFence = true;
        fenceMarker = fence[1]![0]!;
      } else if (fence[1]![0] === fenceMarker) inFence = false;
    }
    const blank = line.trim() === '';
    if (blank && !inFence && !prevBlank) best = nl + 1;
    prevBlank = blank;
    nl++;
    lineStart = nl;
  }
  return best;
}
