/** The panel header: title, mode/model/… selectors in the agent's order, the context meter. */
import * as l10n from '@vscode/l10n';
import type { HeaderState } from '../shared/transcriptTypes';
import type { ChangeAction } from '../shared/webviewProtocol';
import { h, type Post } from './render';

export class HeaderView {
  constructor(
    private readonly title: HTMLElement,
    private readonly controls: HTMLElement,
    private readonly usage: HTMLElement,
    private readonly post: Post,
  ) {}

  /** The "Changes" section: every file the agent changed, with Review (hunk by hunk), Keep and Undo; and all at once. */
  renderChanges(el: HTMLElement, state: HeaderState): void {
    const list = state.changes ?? [];
    el.hidden = list.length === 0;
    el.replaceChildren();
    if (list.length === 0) return;
    const head = h('div', 'changes-head');
    head.append(h('span', 'changes-title', l10n.t('Changes ({0})', list.length)));
    const button = (cls: string, text: string, label: string, action: ChangeAction, path?: string) => {
      const b = h('button', `link-button ${cls}`, text);
      b.type = 'button';
      b.setAttribute('aria-label', label);
      b.addEventListener('click', () => this.post({ type: 'change', action, ...(path !== undefined ? { path } : {}) }));
      return b;
    };
    head.append(
      button('review-all', l10n.t('Review All'), l10n.t('Review all changes'), 'reviewAll'),
      button('keep-all', l10n.t('Keep All'), l10n.t('Keep all changes: they leave this list, the files stay as they are'), 'keepAll'),
      button('revert-all', l10n.t('Undo All'), l10n.t('Undo all changes: every file back as it was before the agent changed it'), 'revertAll'),
    );
    el.append(head);
    const ul = h('ul', 'changes-list');
    for (const c of list) {
      const li = h('li', 'change');
      li.title = c.path;
      li.append(h('span', 'change-name', c.name));
      if (c.sensitive !== undefined) {
        const badge = h('span', 'change-sensitive', l10n.t('sensitive'));
        badge.title = l10n.t('A protected path ({0}): check this change before you keep it.', c.sensitive);
        li.classList.add('is-sensitive');
        li.append(badge);
      }
      li.append(h('span', 'change-kind', ` ${c.added ? l10n.t('added') : c.deleted ? l10n.t('deleted') : l10n.t('modified')}`));
      li.append(button('change-open', l10n.t('Review'), l10n.t('Review the changes to {0}: keep or undo each one', c.name), 'open', c.path));
      li.append(button('change-keep', l10n.t('Keep'), l10n.t('Keep the changes to {0}', c.name), 'keep', c.path));
      if (c.canRevert) li.append(button('change-revert', l10n.t('Undo'), l10n.t('Undo the changes to {0}: back to its content before the agent changed it', c.name), 'revert', c.path));
      ul.append(li);
    }
    el.append(ul);
  }

  /** A labelled select of the older kind (modes, models): one option per entry, its description as the tooltip. */
  private picker(id: string, label: string, ariaLabel: string | undefined, entries: readonly { value: string; name: string; description?: string | null }[], current: string, onChange: (value: string) => void): void {
    const wrap = h('label', 'control');
    wrap.htmlFor = id;
    wrap.append(h('span', 'control-label', label));
    const sel = h('select');
    sel.id = id;
    if (ariaLabel) sel.setAttribute('aria-label', ariaLabel);
    for (const e of entries) {
      const el = h('option', undefined, e.name);
      el.value = e.value;
      if (e.description) el.title = e.description;
      sel.append(el);
    }
    sel.value = current;
    sel.addEventListener('change', () => onChange(sel.value));
    wrap.append(sel);
    this.controls.append(wrap);
  }

  /** Context folders: a chip per added folder (× removes it; a deleted one says so), and "Add Folder" where the agent takes them. */
  private renderFolders(state: HeaderState): void {
    const f = state.folders;
    if (!f || (!f.canAdd && f.list.length === 0)) return;
    const wrap = h('span', 'folders');
    wrap.setAttribute('role', 'group');
    wrap.setAttribute('aria-label', l10n.t('Added folders'));
    for (const folder of f.list) {
      const chip = h('span', `folder-chip${folder.missing ? ' is-missing' : ''}`);
      chip.title = folder.missing ? l10n.t('This folder no longer exists: {0}', folder.path) : l10n.t('{0}: the agent may use it. It is told of the folder when the session is next loaded or resumed.', folder.path);
      chip.append(h('span', 'folder-name', folder.missing ? l10n.t('{0} (deleted)', folder.name) : folder.name));
      const x = h('button', 'folder-remove', '×');
      x.type = 'button';
      x.setAttribute('aria-label', l10n.t('Remove the folder {0} from the session', folder.name));
      x.addEventListener('click', () => this.post({ type: 'folder', action: 'remove', path: folder.path }));
      chip.append(x);
      wrap.append(chip);
    }
    if (f.canAdd) {
      const add = h('button', 'link-button folder-add', l10n.t('Add Folder'));
      add.type = 'button';
      add.title = l10n.t('Add a folder to this session: the agent may read and change files in it');
      add.addEventListener('click', () => this.post({ type: 'folder', action: 'add' }));
      wrap.append(add);
    }
    this.controls.append(wrap);
  }

  render(state: HeaderState, agentName: string): void {
    this.title.textContent = state.title ?? '';
    this.title.title = state.title ?? '';
    this.controls.replaceChildren();
    if (state.configOptions.length > 0) {
      for (const o of state.configOptions) {
        const id = `cfg-${o.id}`;
        const wrap = h('label', 'control');
        wrap.htmlFor = id;
        wrap.append(h('span', 'control-label', o.name));
        if (o.type === 'boolean') {
          const box = h('input');
          box.type = 'checkbox';
          box.id = id;
          box.checked = o.currentValue === true;
          box.addEventListener('change', () => this.post({ type: 'setConfig', configId: o.id, value: box.checked }));
          wrap.append(box);
        } else {
          const sel = h('select');
          sel.id = id;
          sel.setAttribute('aria-label', `${agentName}: ${o.name}`);
          let group: HTMLOptGroupElement | undefined;
          for (const opt of o.options) {
            const el = h('option', undefined, opt.name);
            el.value = opt.value;
            if (opt.group) {
              if (!group || group.label !== opt.group) {
                group = h('optgroup');
                group.label = opt.group;
                sel.append(group);
              }
              group.append(el);
            } else {
              group = undefined;
              sel.append(el);
            }
          }
          sel.value = String(o.currentValue);
          sel.addEventListener('change', () => this.post({ type: 'setConfig', configId: o.id, value: sel.value }));
          wrap.append(sel);
        }
        this.controls.append(wrap);
      }
    } else if (state.modes && state.modes.availableModes.length > 0) {
      const modes = state.modes.availableModes.map((m) => ({ value: m.id, name: m.name, description: m.description }));
      this.picker('mode-select', l10n.t('Mode'), undefined, modes, state.modes.currentModeId, (modeId) => this.post({ type: 'setMode', modeId }));
    }
    // Legacy models (session/set_model), only when no config option already picks the model.
    if (state.models && state.models.availableModels.length > 0 && !state.configOptions.some((o) => o.category === 'model')) {
      const models = state.models.availableModels.map((m) => ({ value: m.modelId, name: m.name, description: m.description }));
      this.picker('model-select', l10n.t('Model'), l10n.t('{0}: Model', agentName), models, state.models.currentModelId, (modelId) => this.post({ type: 'setModel', modelId }));
    }
    this.renderFolders(state);
    this.usage.replaceChildren();
    if (state.usage && state.usage.size > 0) {
      const pct = Math.min(100, Math.round((state.usage.used / state.usage.size) * 100));
      const meter = h('meter');
      meter.min = 0;
      meter.max = state.usage.size;
      meter.value = state.usage.used;
      meter.low = state.usage.size * 0.7;
      meter.high = state.usage.size * 0.9;
      meter.optimum = 0;
      const money = state.usage.cost ? formatCost(state.usage.cost.amount, state.usage.cost.currency) : undefined;
      const cost = money !== undefined ? ` · ${money}` : '';
      const text = `${compact(state.usage.used)} / ${compact(state.usage.size)} (${pct}%)${cost}`;
      meter.setAttribute('aria-label', l10n.t('Context used: {0}', text));
      this.usage.append(meter, h('span', 'usage-text', text));
      const used = state.usage.used.toLocaleString();
      const size = state.usage.size.toLocaleString();
      this.usage.title = money !== undefined ? l10n.t('Context window: {0} of {1} tokens used · {2}', used, size, money) : l10n.t('Context window: {0} of {1} tokens used', used, size);
    }
  }
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k`;
  return String(n);
}

function formatCost(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 4 }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}
