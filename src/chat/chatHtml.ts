/** The chat webview's HTML: strict CSP with a nonce, nothing inline. No `vscode` import. */
import * as l10n from '@vscode/l10n';

export interface ChatHtmlInput {
  readonly cspSource: string;
  readonly nonce: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly codiconUri?: string;
  /** The codicon font, preloaded: otherwise it is only requested once the first icon is laid out. */
  readonly codiconFontUri?: string;
  readonly title: string;
  /** VS Code's display language (the page's `lang`). */
  readonly language?: string;
  /** The translations (`vscode.l10n.bundle`), when VS Code runs in another language than English. */
  readonly l10nBundle?: Readonly<Record<string, string>>;
}

/** JSON for a `<script type="application/json">` element: nothing in it can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
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
<html lang="${escapeHtml(input.language ?? 'en')}">
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
          <button type="button" id="export" class="link-button export" title="${escapeHtml(l10n.t('Export the conversation as a Markdown document'))}">${escapeHtml(l10n.t('Export'))}</button>
          <button type="button" id="fork" class="link-button fork" title="${escapeHtml(l10n.t('Fork Session: continue this conversation in a new session, this one left as it is'))}">${escapeHtml(l10n.t('Fork'))}</button>
          <button type="button" id="follow" class="link-button follow" aria-pressed="false" title="${escapeHtml(l10n.t('Follow the agent: open the files its tool calls work on beside this panel'))}">${escapeHtml(l10n.t('Follow'))}</button>
        </div>
        <div class="controls" id="controls"></div>
      </header>
      <section class="welcome" id="welcome" aria-label="${escapeHtml(l10n.t('What the agent offers'))}" hidden></section>
      <main class="transcript" id="transcript" role="region" aria-label="${escapeHtml(l10n.t('Conversation (Up and Down move between messages)'))}" aria-busy="false" tabindex="0"></main>
      <div class="visually-hidden" id="announcer" role="status" aria-live="polite" aria-atomic="true"></div>
      <div class="restore-slot" id="restore-slot"></div>
      <section class="changes" id="changes" aria-label="${escapeHtml(l10n.t('Changes by the agent'))}" hidden></section>
      <div class="status" id="status" role="status" hidden></div>
      <ul class="queue" id="queue" aria-label="${escapeHtml(l10n.t('Queued messages'))}" hidden></ul>
      <div class="composer" id="composer">
        <ul class="commands" id="commands" role="listbox" aria-label="${escapeHtml(l10n.t('Slash commands'))}" hidden></ul>
        <div class="chips" id="chips" role="list" aria-label="${escapeHtml(l10n.t('Attachments'))}"></div>
        <label class="visually-hidden" for="input">${escapeHtml(l10n.t('Message the agent'))}</label>
        <textarea id="input" rows="3" placeholder="${escapeHtml(l10n.t('Message the agent — Enter to send, Shift+Enter for a new line, / for commands, @ for files'))}" aria-autocomplete="list" aria-controls="commands"></textarea>
        <div class="composer-actions">
          <button type="button" id="attach" class="attach" title="${escapeHtml(l10n.t('Attach the active file, the selection or files (you can also drop files or paste images)'))}" aria-label="${escapeHtml(l10n.t('Attach'))}">${escapeHtml(l10n.t('Attach…'))}</button>
          <span class="spacer"></span>
          <button type="button" id="stop" class="stop" title="${escapeHtml(l10n.t('Stop (ACP: Stop)'))}" hidden>${escapeHtml(l10n.t('Stop'))}</button>
          <button type="button" id="send" title="${escapeHtml(l10n.t('Send (Enter)'))}">${escapeHtml(l10n.t('Send'))}</button>
        </div>
      </div>
    </div>
    ${input.l10nBundle ? `<script type="application/json" id="l10n-bundle">${jsonForScript(input.l10nBundle)}</script>\n    ` : ''}<script nonce="${escapeHtml(input.nonce)}" src="${escapeHtml(input.scriptUri)}"></script>
  </body>
</html>`;
}
