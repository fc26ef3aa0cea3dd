/**
 * The composer: Enter sends, Shift+Enter is a new line, Up and Down walk the
 * prompts sent before (from an empty composer; a draft is never replaced), "/"
 * completes the agent's slash commands, "@" attaches, pasted or dropped images
 * and files dropped from the Explorer become chips, Stop (or Escape) while a turn runs.
 * Edit of an earlier message puts its text and attachments here, "editing message N" (Escape
 * cancels and brings back what was here before); Send then rewinds to it (restore, fork, send).
 */
import * as l10n from '@vscode/l10n';
import type { Attachment, Mention } from '../shared/attachments';
import type { HeaderState } from '../shared/transcriptTypes';
import { PromptHistory } from './promptHistory';
import { h, icon, type Post } from './render';

type Suggestion = { name: string; description: string; hint?: string; mention?: Mention };

/** The image types an agent may take, and the most of one image that is attached. */
const IMAGE_TYPES = /^image\/(png|jpe?g|gif|webp)$/;
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

const MENTION_ICONS: Record<Mention['kind'], string> = { file: 'file', editor: 'files', symbol: 'symbol-class', selection: 'selection', problems: 'warning' };

/** Two attachments with the same key are the same (attached once). */
function attachmentKey(a: Attachment): string {
  switch (a.kind) {
    case 'image':
      return `${a.name}:${a.data.length}`;
    case 'selection':
      return `${a.uri}:${a.startLine}-${a.endLine}`;
    case 'problems':
      return 'problems';
    case 'file':
      return a.uri;
  }
}

export class Composer {
  private commands: HeaderState['commands'] = [];
  private readonly history: PromptHistory;
  /** Why something pasted or dropped was not attached (until the next paste, drop or send). */
  private readonly note: HTMLElement;
  private readonly saveHistory: () => void;
  private enabled = false;
  private suggestionIndex = 0;
  private suggestions: Suggestion[] = [];
  private attachments: Attachment[] = [];
  private fileRequest = 0;
  /** The request whose @-mention list is shown (a pick names it: the host offers only what that list showed). */
  private shownRequest = 0;
  private mention: { start: number; query: string } | undefined;
  /** An earlier message being edited: its id, what the composer held before, and whether its Send is under way. */
  private editing: { id: string; before: { text: string; attachments: Attachment[] }; pending: boolean } | undefined;
  private readonly banner: HTMLElement;
  private readonly bannerText: HTMLElement;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly send: HTMLButtonElement,
    private readonly stop: HTMLButtonElement,
    private readonly list: HTMLUListElement,
    private readonly post: Post,
    private readonly onDraft: (text: string) => void,
    private readonly chips: HTMLElement,
    attach: HTMLButtonElement,
    history: { readonly saved: unknown; save(entries: string[]): void },
  ) {
    this.history = new PromptHistory(history.saved);
    this.saveHistory = () => history.save(this.history.toState());
    this.note = h('div', 'composer-note');
    this.note.setAttribute('role', 'status');
    this.note.hidden = true;
    chips.after(this.note);
    this.banner = h('div', 'editing-banner');
    this.banner.setAttribute('role', 'status');
    this.banner.hidden = true;
    this.bannerText = h('span', 'editing-text');
    const cancel = h('button', 'link-button editing-cancel', l10n.t('Cancel'));
    cancel.type = 'button';
    cancel.title = l10n.t('Stop editing (Escape)');
    cancel.addEventListener('click', () => this.cancelEdit());
    this.banner.append(icon('edit'), this.bannerText, cancel);
    (input.closest('.composer') ?? input).prepend(this.banner);
    attach.addEventListener('click', () => this.post({ type: 'attach' }));
    input.addEventListener('paste', (e) => this.onPaste(e));
    const zone = input.closest('.composer') ?? input;
    zone.addEventListener('dragover', (e) => {
      (e as DragEvent).preventDefault();
      zone.classList.add('dragging');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
    zone.addEventListener('drop', (e) => this.onDrop(e as DragEvent, zone));
    input.addEventListener('keydown', (e) => this.onKey(e));
    input.addEventListener('input', () => {
      // Typing ends a walk through the history: what is typed is a draft, and Up leaves it alone.
      this.history.stop();
      this.onDraft(input.value);
      this.suggest();
    });
    send.addEventListener('click', () => this.submit());
    stop.addEventListener('click', () => this.post({ type: 'action', action: 'stop' }));
    // Escape anywhere in the panel stops a running turn, unless something else took it first
    // (the completion list closing, an IME composition). Not a VS Code keybinding: the webview
    // forwards its keys to the workbench even when the page handled them.
    input.ownerDocument.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || this.stop.hidden) return;
      e.preventDefault();
      this.post({ type: 'action', action: 'stop' });
    });
  }

  /** Edit of an earlier message (message `n` of the session): its text here; the host sends its attachments. */
  edit(id: string, n: number, text: string): void {
    this.editing = { id, before: this.editing?.before ?? { text: this.input.value, attachments: this.attachments }, pending: false };
    this.attachments = [];
    this.renderChips();
    this.setNote(undefined);
    this.input.value = text;
    this.onDraft(text);
    this.bannerText.textContent = ` ${l10n.t('Editing message {0}: Send restores the files to before it and continues in a fork. Escape cancels.', n)} `;
    this.banner.hidden = false;
    this.input.focus();
    this.input.setSelectionRange(text.length, text.length);
  }

  /** Editing ends: what the composer held before comes back. */
  private cancelEdit(): void {
    const e = this.editing;
    if (!e) return;
    this.editing = undefined;
    this.banner.hidden = true;
    this.input.value = e.before.text;
    this.attachments = e.before.attachments;
    this.renderChips();
    this.setNote(undefined);
    this.onDraft(this.input.value);
    this.send.disabled = !this.enabled;
  }

  /** How an Edit or Retry ended: made (the composer is emptied), or not (the edit stays, with why). */
  rewound(ok: boolean, note: string | undefined): void {
    const e = this.editing;
    if (ok && e?.pending) {
      this.editing = undefined;
      this.banner.hidden = true;
      this.input.value = e.before.text;
      this.attachments = e.before.attachments;
      this.renderChips();
      this.onDraft(this.input.value);
    }
    if (e && !ok) e.pending = false;
    this.send.disabled = !this.enabled;
    this.setNote(note);
  }

  /** A queued message taken back to edit: its text goes into the composer (after what is typed there); the host sends its attachments back. */
  takeBack(text: string): void {
    this.input.value = this.input.value.trim() === '' ? text : `${this.input.value}\n${text}`;
    this.onDraft(this.input.value);
    this.input.focus();
  }

  setCommands(commands: HeaderState['commands']): void {
    this.commands = commands;
    this.suggest();
  }

  setState(enabled: boolean, busy: boolean): void {
    this.enabled = enabled;
    this.send.disabled = !enabled || this.editing?.pending === true;
    // While a turn runs, what is sent waits in the queue for its own turn.
    this.send.textContent = busy ? l10n.t('Queue') : l10n.t('Send');
    this.send.title = busy ? l10n.t('Queue: sent when the running turn ends (Enter)') : l10n.t('Send (Enter)');
    this.stop.hidden = !busy;
    this.input.setAttribute('aria-disabled', String(!enabled));
  }

  addAttachments(add: readonly Attachment[]): void {
    for (const a of add) {
      const key = attachmentKey(a);
      const exists = this.attachments.some((b) => attachmentKey(b) === key);
      if (!exists) this.attachments.push(a);
    }
    this.renderChips();
  }

  private renderChips(): void {
    this.chips.replaceChildren();
    this.attachments.forEach((a, i) => {
      const chip = h('span', 'chip');
      chip.setAttribute('role', 'listitem');
      const label = a.kind === 'selection' ? `${a.name}:${a.startLine}-${a.endLine}` : a.name;
      chip.append(icon(a.kind === 'image' ? 'file-media' : a.kind === 'selection' ? 'selection' : a.kind === 'problems' ? 'warning' : 'file'), h('span', 'chip-label', ` ${label}`));
      const remove = h('button', 'chip-remove');
      remove.type = 'button';
      remove.setAttribute('aria-label', l10n.t('Remove {0}', label));
      remove.title = l10n.t('Remove');
      remove.append(icon('close'));
      remove.addEventListener('click', () => {
        this.attachments.splice(i, 1);
        this.renderChips();
        this.input.focus();
      });
      chip.append(remove);
      this.chips.append(chip);
    });
  }

  /** What an @-mention may attach: the selection, the Problems list, open editors, symbols, files. */
  setMentions(requestId: number, items: readonly Mention[]): void {
    if (requestId !== this.fileRequest || !this.mention) return;
    // A late answer (slow symbol providers) keeps the highlighted item where it still is.
    const was = this.suggestions[this.suggestionIndex]?.mention;
    this.suggestions = items.map((m) => ({ name: m.label, description: m.detail ?? '', mention: m }));
    this.shownRequest = requestId;
    if (this.suggestions.length === 0) return this.hideSuggestions();
    this.suggestionIndex = Math.max(0, was ? this.suggestions.findIndex((s) => s.mention?.kind === was.kind && s.mention.label === was.label) : 0);
    this.renderSuggestions();
  }

  /** A line under the chips saying why something was not attached (undefined: none). */
  setNote(text: string | undefined): void {
    this.note.textContent = text ?? '';
    this.note.hidden = text === undefined;
  }

  private onPaste(e: ClipboardEvent): void {
    const files = [...(e.clipboardData?.files ?? [])].filter((f) => IMAGE_TYPES.test(f.type));
    if (files.length === 0) return;
    e.preventDefault();
    this.setNote(undefined);
    for (const f of files) this.readImage(f);
  }

  private onDrop(e: DragEvent, zone: Element): void {
    e.preventDefault();
    zone.classList.remove('dragging');
    this.setNote(undefined);
    const dt = e.dataTransfer;
    if (!dt) return;
    const uriList = dt.getData('application/vnd.code.uri-list') || dt.getData('text/uri-list');
    if (uriList) {
      this.post({ type: 'dropUris', uris: uriList.split(/\r?\n/).filter((l) => l && !l.startsWith('#')) });
      return;
    }
    for (const f of dt.files) {
      if (IMAGE_TYPES.test(f.type)) this.readImage(f);
      else this.setNote(l10n.t('{0} was not attached: only images (PNG, JPEG, GIF, WebP) can be dropped from outside VS Code. Drop files from the Explorer, or use Attach…', f.name));
    }
  }

  private readImage(file: File): void {
    if (file.size > MAX_IMAGE_BYTES) {
      const name = file.name || l10n.t('The pasted image');
      this.setNote(l10n.t('{0} was not attached: it is {1} MiB, and images may be at most 8 MiB.', name, (file.size / (1024 * 1024)).toFixed(1)));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      const comma = url.indexOf(',');
      this.addAttachments([{ kind: 'image', name: file.name || 'pasted image', mimeType: file.type, data: url.slice(comma + 1) }]);
    };
    reader.readAsDataURL(file);
  }

  private submit(): void {
    const text = this.input.value;
    if ((text.trim() === '' && this.attachments.length === 0) || !this.enabled) return;
    if (this.editing) {
      // The edit stays here until the host says the fork was made (or why not).
      if (this.editing.pending) return;
      this.editing.pending = true;
      this.send.disabled = true;
      this.setNote(undefined);
      this.post({ type: 'send', text, ...(this.attachments.length ? { attachments: this.attachments } : {}), rewind: this.editing.id });
      this.history.add(text);
      this.saveHistory();
      this.hideSuggestions();
      return;
    }
    this.post({ type: 'send', text, ...(this.attachments.length ? { attachments: this.attachments } : {}) });
    this.attachments = [];
    this.renderChips();
    this.setNote(undefined);
    this.history.add(text);
    this.saveHistory();
    this.input.value = '';
    this.onDraft('');
    this.hideSuggestions();
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.list.hidden && this.suggestions.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = this.suggestions.length;
        this.suggestionIndex = (this.suggestionIndex + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
        this.renderSuggestions();
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        this.choose(this.suggestions[this.suggestionIndex]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        this.hideSuggestions();
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.submit();
      return;
    }
    if (e.key === 'Escape' && this.editing && !e.isComposing) {
      e.preventDefault();
      this.cancelEdit();
      return;
    }
    // Up on the first line walks back, Down on the last line forward — over an empty composer or an entry
    // being walked, unchanged; never over a draft.
    const { value, selectionStart, selectionEnd } = this.input;
    if ((e.key !== 'ArrowUp' && e.key !== 'ArrowDown') || e.isComposing || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || !this.history.mayReplace(value)) return;
    const onEdge = e.key === 'ArrowUp' ? !value.slice(0, selectionStart).includes('\n') : !value.slice(selectionEnd).includes('\n');
    const entry = onEdge ? (e.key === 'ArrowUp' ? this.history.older() : this.history.newer()) : undefined;
    if (entry === undefined) return;
    e.preventDefault();
    this.input.value = entry;
    this.input.setSelectionRange(0, 0);
    this.onDraft(entry);
  }

  private suggest(): void {
    // @-mention of a workspace file at the caret.
    const before = this.input.value.slice(0, this.input.selectionStart ?? this.input.value.length);
    const at = /(^|\s)@([^\s@]*)$/.exec(before);
    if (at) {
      this.mention = { start: before.length - at[2]!.length - 1, query: at[2]! };
      this.post({ type: 'findFiles', query: at[2]!, requestId: ++this.fileRequest });
      return;
    }
    this.mention = undefined;
    const m = /^\/(\S*)$/.exec(this.input.value);
    if (!m || this.commands.length === 0) return this.hideSuggestions();
    const q = m[1]!.toLowerCase();
    this.suggestions = this.commands.filter((c) => c.name.toLowerCase().startsWith(q) || c.name.toLowerCase().includes(q)).slice(0, 12);
    if (this.suggestions.length === 0) return this.hideSuggestions();
    this.suggestionIndex = Math.min(this.suggestionIndex, this.suggestions.length - 1);
    this.renderSuggestions();
  }

  private renderSuggestions(): void {
    this.list.replaceChildren();
    this.suggestions.forEach((c, i) => {
      const li = h('li', i === this.suggestionIndex ? 'active' : undefined);
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === this.suggestionIndex));
      if (c.mention) {
        li.classList.add(`mention-${c.mention.kind}`);
        li.append(icon(MENTION_ICONS[c.mention.kind]), h('span', 'cmd-name', ` ${c.name}`));
        if (c.description) li.append(h('span', 'cmd-desc', ` ${c.description}`));
      }
      else li.append(h('span', 'cmd-name', `/${c.name}`), h('span', 'cmd-desc', ` ${c.description}${c.hint ? ` (${c.hint})` : ''}`));
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        this.choose(c);
      });
      this.list.append(li);
    });
    this.list.hidden = false;
  }

  private choose(s: Suggestion): void {
    if (s.mention && this.mention) {
      const v = this.input.value;
      const end = this.mention.start + 1 + this.mention.query.length;
      const label = s.mention.label.replace(/\s+/g, '-');
      this.input.value = `${v.slice(0, this.mention.start)}@${label} ${v.slice(end)}`;
      const caret = this.mention.start + label.length + 2;
      this.input.setSelectionRange(caret, caret);
      const picked = s.mention.attachment;
      // Only the entry picked becomes attachable: the host is told which one (from the list it answered).
      if (picked.kind === 'file' || picked.kind === 'selection') this.post({ type: 'mentionPicked', requestId: this.shownRequest, uri: picked.uri });
      this.addAttachments([picked]);
      this.mention = undefined;
      this.onDraft(this.input.value);
      this.hideSuggestions();
      this.input.focus();
      return;
    }
    this.complete(s.name);
  }

  private complete(name: string): void {
    this.input.value = `/${name} `;
    this.onDraft(this.input.value);
    this.hideSuggestions();
    this.input.focus();
  }

  private hideSuggestions(): void {
    this.list.hidden = true;
    this.suggestions = [];
  }
}
