/** The agent asks (elicitation): a form with its fields, or a page to open (its full address and host shown) — answered once. */
import * as l10n from '@vscode/l10n';
import type { ElicitationFieldView, ElicitationItem } from '../../shared/transcriptTypes';
import { button, h, icon, sentence, type Post } from './dom';
import { ViewState, type ItemView } from './types';

interface State {
  readonly post: Post;
  /** What was typed into the form last, for when it comes back. */
  typed: Record<string, string | string[]>;
  sent: boolean;
}
const states = new ViewState<State>();

function elicitationVerdict(state: string): string {
  switch (state) {
    case 'accepted':
      return l10n.t('Answered.');
    case 'declined':
      return l10n.t('You declined.');
    case 'cancelled':
      return l10n.t('Cancelled.');
    case 'withdrawn':
      return l10n.t('The agent withdrew the question.');
    case 'completed':
      return l10n.t('Done: the agent says the page’s work is complete.');
    default:
      return state;
  }
}

/** One form field: an input fitting its kind, its label, and why the last value was not accepted. */
function elicitationField(f: ElicitationFieldView, itemId: string, error: string | undefined, value: string | string[] | undefined): { el: HTMLElement; read: () => string | string[] | undefined } {
  const id = `${itemId}-${f.key}`;
  const wrap = h('div', 'elicit-field');
  const label = h('label', 'elicit-label', `${f.title}${f.required ? ' *' : ''}`);
  label.htmlFor = id;
  wrap.append(label);
  const def = value ?? (Array.isArray(f.def) ? f.def.map(String) : f.def !== undefined ? String(f.def) : undefined);
  let read: () => string | string[] | undefined;
  if (f.kind === 'multi') {
    const group = h('div', 'elicit-multi');
    group.id = id;
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', f.title);
    const boxes = f.options.map((o) => {
      const l = h('label', 'elicit-option');
      const b = h('input');
      b.type = 'checkbox';
      b.value = o.value;
      b.checked = Array.isArray(def) && def.includes(o.value);
      l.append(b, document.createTextNode(` ${o.title}`));
      group.append(l);
      return b;
    });
    wrap.append(group);
    read = () => boxes.filter((b) => b.checked).map((b) => b.value);
  } else if (f.kind === 'enum' || f.kind === 'boolean') {
    const sel = h('select', 'elicit-input');
    sel.id = id;
    if (!f.required || def === undefined) sel.append(h('option', undefined, ''));
    for (const o of f.options) {
      const opt = h('option', undefined, o.title);
      opt.value = o.value;
      sel.append(opt);
    }
    sel.value = typeof def === 'string' ? def : '';
    wrap.append(sel);
    read = () => (sel.value === '' ? undefined : sel.value);
  } else {
    const input = h('input', 'elicit-input');
    input.id = id;
    input.type = f.kind === 'string' ? 'text' : 'number';
    if (f.kind !== 'string') {
      if (f.min !== undefined) input.min = String(f.min);
      if (f.max !== undefined) input.max = String(f.max);
      input.step = f.kind === 'integer' ? '1' : 'any';
    }
    input.value = typeof def === 'string' ? def : '';
    wrap.append(input);
    read = () => input.value;
  }
  if (f.description) wrap.append(h('div', 'elicit-description', f.description));
  if (error) {
    const e = h('div', 'elicit-error', error);
    e.id = `${id}-error`;
    e.setAttribute('role', 'alert');
    wrap.querySelector('.elicit-input, .elicit-multi')?.setAttribute('aria-describedby', e.id);
    wrap.append(e);
  }
  return { el: wrap, read };
}

/** The agent asks: a form with its fields, or a page to open (its full address and host shown) — answered once. */
function fill(el: HTMLElement, s: State, e: ElicitationItem): void {
  el.replaceChildren();
  el.dataset.state = e.state;
  const head = h('div', 'elicitation-head');
  head.append(icon(e.mode === 'url' ? 'link-external' : 'question'), h('span', undefined, ` ${e.message || l10n.t('The agent asks for input')}`));
  el.append(head);
  if (e.state !== 'pending') {
    el.append(h('div', 'elicitation-verdict', elicitationVerdict(e.state)));
    return;
  }
  const answer = (action: 'accept' | 'decline' | 'cancel', values?: Record<string, string | string[]>) => {
    if (s.sent) return;
    s.sent = true;
    for (const b of el.querySelectorAll('button')) (b as HTMLButtonElement).disabled = true;
    s.post({ type: 'elicitation', id: e.id, action, ...(values ? { values } : {}) });
  };
  const row = h('div', 'elicitation-actions');
  if (e.mode === 'url') {
    const where = h('div', 'elicitation-url');
    where.append(...sentence(l10n.t('Opens {0}: {1}'), h('strong', undefined, e.host ?? ''), h('code', undefined, e.url ?? '')));
    el.append(where);
    row.append(button(e.host !== undefined ? l10n.t('Open {0}', e.host) : l10n.t('Open the page'), 'elicitation-accept', () => answer('accept'), 'link-external'));
  } else {
    const form = h('form', 'elicitation-form');
    const fields = e.fields.map((f) => elicitationField(f, e.id, e.errors?.[f.key], s.typed[f.key]));
    for (const f of fields) form.append(f.el);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const values: Record<string, string | string[]> = {};
      e.fields.forEach((f, i) => {
        const v = fields[i]!.read();
        if (v !== undefined) values[f.key] = v;
      });
      s.typed = values;
      answer('accept', values);
    });
    const submit = h('button', 'elicitation-accept');
    submit.type = 'submit';
    submit.append(icon('check'), document.createTextNode(` ${l10n.t('Submit')}`));
    row.append(submit);
    form.append(row);
    el.append(form);
  }
  row.append(button(l10n.t('Decline'), 'link-button elicitation-decline', () => answer('decline')), button(l10n.t('Cancel'), 'link-button elicitation-cancel', () => answer('cancel')));
  if (e.mode === 'url') el.append(row);
}

export const elicitationView: ItemView<ElicitationItem> = {
  create(item, { post }) {
    const el = h('article', 'item elicitation');
    el.dataset.id = item.id;
    fill(el, states.set(el, { post, typed: {}, sent: false }), item);
    return el;
  },
  update(el, _prev, next) {
    // Answered but not accepted (a value was wrong): the form comes back with the reasons and what was typed.
    const s = states.get(el);
    s.sent = false;
    fill(el, s, next);
  },
};
