/**
 * The composer: Enter sends, Shift+Enter is a new line, Up recalls earlier
 * prompts, "/" completes the agent's slash commands, Stop while a turn runs.
 */
import type { HeaderState } from '../shared/transcriptTypes';
import { h, type Post } from './render';

export class Composer {
  private commands: HeaderState['commands'] = [];
  private history: string[] = [];
  private historyIndex = -1;
  private busy = false;
  private enabled = false;
  private suggestionIndex = 0;
  private suggestions: HeaderState['commands'] = [];

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly send: HTMLButtonElement,
    private readonly stop: HTMLButtonElement,
    private readonly list: HTMLUListElement,
    private readonly post: Post,
    private readonly onDraft: (text: string) => void,
    private readonly onSent: (text: string) => void,
  ) {
    input.addEventListener('keydown', (e) => this.onKey(e));
    input.addEventListener('input', () => {
      this.onDraft(input.value);
      this.suggest();
    });
    send.addEventListener('click', () => this.submit());
    stop.addEventListener('click', () => this.post({ type: 'action', action: 'stop' }));
  }

  setCommands(commands: HeaderState['commands']): void {
    this.commands = commands;
    this.suggest();
  }

  setState(enabled: boolean, busy: boolean): void {
    this.enabled = enabled;
    this.busy = busy;
    this.send.disabled = !enabled;
    this.send.hidden = busy;
    this.stop.hidden = !busy;
    this.input.setAttribute('aria-disabled', String(!enabled));
  }

  private submit(): void {
    const text = this.input.value;
    if (text.trim() === '' || !this.enabled || this.busy) return;
    this.post({ type: 'send', text });
    this.history.push(text);
    this.historyIndex = -1;
    this.input.value = '';
    this.onDraft('');
    this.hideSuggestions();
    this.onSent(text);
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
        this.complete(this.suggestions[this.suggestionIndex]!.name);
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
    if (e.key === 'ArrowUp' && this.history.length > 0 && (this.input.value === '' || this.historyIndex >= 0) && this.input.selectionStart === 0) {
      e.preventDefault();
      this.historyIndex = this.historyIndex < 0 ? this.history.length - 1 : Math.max(0, this.historyIndex - 1);
      this.input.value = this.history[this.historyIndex]!;
      return;
    }
    if (e.key === 'ArrowDown' && this.historyIndex >= 0) {
      e.preventDefault();
      this.historyIndex++;
      if (this.historyIndex >= this.history.length) {
        this.historyIndex = -1;
        this.input.value = '';
      } else this.input.value = this.history[this.historyIndex]!;
    }
  }

  private suggest(): void {
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
      li.append(h('span', 'cmd-name', `/${c.name}`), h('span', 'cmd-desc', ` ${c.description}${c.hint ? ` (${c.hint})` : ''}`));
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        this.complete(c.name);
      });
      this.list.append(li);
    });
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
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
    this.input.setAttribute('aria-expanded', 'false');
  }
}
