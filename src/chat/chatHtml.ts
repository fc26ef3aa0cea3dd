/** The chat webview's HTML: strict CSP with a nonce, nothing inline. No `vscode` import. */
export interface ChatHtmlInput {
  readonly cspSource: string;
  readonly nonce: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly codiconUri?: string;
  /** The codicon font, preloaded: otherwise it is only requested once the first icon is laid out. */
  readonly codiconFontUri?: string;
  readonly title: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function chatHtml(input: ChatHtmlInput): string {
  const styles = [input.codiconUri, input.styleUri]
    .filter((u): u is string => !!u)
    .map((u) => `<link rel="stylesheet" href="${escapeHtml(u)}">`)
    .join('\n    ');
  const preload = input.codiconFontUri ? `<link rel="preload" href="${escapeHtml(input.codiconFontUri)}" as="font" type="font/ttf" crossorigin>\n    ` : '';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(input.cspSource, input.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${preload}${styles}
    <title>${escapeHtml(input.title)}</title>
  </head>
  <body>
    <div id="app" class="app">
      <header class="header" id="header">
        <div class="header-line">
          <span class="agent-name" id="agent-name"></span>
          <span class="session-title" id="session-title"></span>
          <span class="usage" id="usage"></span>
          <button type="button" id="export" class="link-button export" title="Export the conversation as a Markdown document">Export</button>
          <button type="button" id="fork" class="link-button fork" title="Fork Session: continue this conversation in a new session, this one left as it is">Fork</button>
          <button type="button" id="follow" class="link-button follow" aria-pressed="false" title="Follow the agent: open the files its tool calls work on beside this panel">Follow</button>
        </div>
        <div class="controls" id="controls"></div>
      </header>
      <section class="welcome" id="welcome" aria-label="What the agent offers" hidden></section>
      <main class="transcript" id="transcript" role="region" aria-label="Conversation (Up and Down move between messages)" aria-busy="false" tabindex="0"></main>
      <div class="visually-hidden" id="announcer" role="status" aria-live="polite" aria-atomic="true"></div>
      <div class="restore-slot" id="restore-slot"></div>
      <section class="changes" id="changes" aria-label="Changes by the agent" hidden></section>
      <div class="status" id="status" role="status" hidden></div>
      <ul class="queue" id="queue" aria-label="Queued messages" hidden></ul>
      <div class="composer" id="composer">
        <ul class="commands" id="commands" role="listbox" aria-label="Slash commands" hidden></ul>
        <div class="chips" id="chips" role="list" aria-label="Attachments"></div>
        <label class="visually-hidden" for="input">Message the agent</label>
        <textarea id="input" rows="3" placeholder="Message the agent — Enter to send, Shift+Enter for a new line, / for commands, @ for files" aria-autocomplete="list" aria-controls="commands"></textarea>
        <div class="composer-actions">
          <button type="button" id="attach" class="attach" title="Attach the active file, the selection or files (you can also drop files or paste images)" aria-label="Attach">Attach…</button>
          <span class="spacer"></span>
          <button type="button" id="stop" class="stop" title="Stop (ACP: Stop)" hidden>Stop</button>
          <button type="button" id="send" title="Send (Enter)">Send</button>
        </div>
      </div>
    </div>
    <script nonce="${escapeHtml(input.nonce)}" src="${escapeHtml(input.scriptUri)}"></script>
  </body>
</html>`;
}
