/**
 * A filter box over a list box, for choices with too many options for a
 * dropdown or a column of checkboxes (up to 10 000): only the first matches
 * are drawn, so typing narrows the list and nothing hangs. Keyboard: type to
 * filter, ↑/↓ to move, Enter to choose (or toggle, when several may be
 * chosen), Escape clears the filter. ARIA combobox + listbox pattern.
 */
import { el } from '../shared/dom';

export interface FilterListOption {
  value: string;
  label: string;
  /** Shown dimmed after the label (and matched by the filter). */
  description?: string;
}

export interface FilterListOptions {
  label: string;
  options: FilterListOption[];
  multiple: boolean;
  /** Offer "— none —" (single choice without a default). */
  allowNone: boolean;
  selected: string[];
  onChange(): void;
  onBlur(): void;
}

/** Rows drawn at most; the rest are reached by typing. */
export const SHOWN_MAX = 100;
const NONE = -1;
let nextId = 0;

export class FilterList {
  readonly element: HTMLElement;
  readonly input: HTMLInputElement;
  private readonly listbox: HTMLElement;
  private readonly status: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly clear: HTMLButtonElement;
  private readonly id = `fl${++nextId}`;
  private readonly folded: string[];
  private readonly chosen: Set<number>;
  private readonly indexByValue = new Map<string, number>();
  /** Option indexes drawn, in order (NONE for the "none" row). */
  private shown: number[] = [];
  private active = -1;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: FilterListOptions) {
    options.options.forEach((o, i) => this.indexByValue.set(o.value, i));
    this.folded = options.options.map((o) => fold(`${o.label}\u0000${o.value}\u0000${o.description ?? ''}`));
    this.chosen = new Set(options.selected.map((v) => this.indexByValue.get(v)).filter((i): i is number => i !== undefined));
    if (!options.multiple && this.chosen.size > 1) this.chosen.clear();

    this.input = el('input', {
      className: 'filter-input',
      attrs: {
        type: 'text',
        role: 'combobox',
        'aria-autocomplete': 'list',
        'aria-expanded': 'true',
        'aria-controls': `${this.id}-list`,
        autocomplete: 'off',
        spellcheck: 'false',
        placeholder: `Type to filter ${formatCount(options.options.length)} options`,
        'data-escape-clears': '',
      },
    });
    this.input.setAttribute('aria-label', `${options.label}: filter`);
    this.listbox = el('div', {
      className: 'filter-options',
      id: `${this.id}-list`,
      attrs: { role: 'listbox', 'aria-label': options.label, tabindex: '-1' },
    });
    if (options.multiple) this.listbox.setAttribute('aria-multiselectable', 'true');
    this.status = el('div', { className: 'filter-status', attrs: { 'aria-live': 'polite' } });
    this.summary = el('span', { className: 'filter-summary' });
    this.clear = el('button', { className: 'link-button', text: 'Clear', attrs: { type: 'button' } });
    this.element = el(
      'div',
      { className: 'filter-list' },
      this.input,
      this.listbox,
      this.status,
      el('div', { className: 'filter-selection' }, this.summary, this.clear),
    );

    this.input.addEventListener('input', () => this.scheduleFilter());
    this.input.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.input.addEventListener('blur', () => options.onBlur());
    this.listbox.addEventListener('mousedown', (event) => event.preventDefault()); // keep focus in the filter box
    this.listbox.addEventListener('click', (event) => {
      const row = (event.target as Element).closest<HTMLElement>('[role="option"]');
      if (!row) return;
      this.active = Number(row.dataset.position);
      this.choose();
      this.input.focus();
    });
    this.clear.addEventListener('click', () => {
      this.chosen.clear();
      this.afterChoice();
      this.input.focus();
    });
    this.filter();
  }

  /** Chosen values, in the options' order. */
  selected(): string[] {
    return [...this.chosen].sort((a, b) => a - b).map((i) => this.options.options[i]!.value);
  }

  setInvalid(invalid: boolean): void {
    this.element.classList.toggle('invalid', invalid);
  }

  focus(): void {
    this.input.focus();
  }

  private scheduleFilter(): void {
    clearTimeout(this.timer);
    // Instant for short lists; a breath for long ones so fast typing stays smooth.
    if (this.folded.length <= 2000) this.filter();
    else this.timer = setTimeout(() => this.filter(), 60);
  }

  private filter(): void {
    const query = fold(this.input.value.trim());
    const shown: number[] = [];
    let total = 0;
    if (this.options.allowNone && query === '') shown.push(NONE);
    for (let i = 0; i < this.folded.length; i++) {
      if (query !== '' && !this.folded[i]!.includes(query)) continue;
      total++;
      if (shown.length < SHOWN_MAX + (this.options.allowNone && query === '' ? 1 : 0)) shown.push(i);
    }
    this.shown = shown;
    this.active = query === '' ? -1 : shown.length > 0 ? 0 : -1;
    this.draw();
    const drawn = shown.filter((i) => i !== NONE).length;
    this.status.textContent =
      total === 0
        ? 'No options match.'
        : drawn < total
          ? `Showing ${formatCount(drawn)} of ${formatCount(total)}${query ? ' matches' : ' options'}. Type to narrow the list.`
          : query
            ? `${formatCount(total)} ${total === 1 ? 'match' : 'matches'}.`
            : '';
    this.status.hidden = this.status.textContent === '';
    this.updateSummary();
  }

  private draw(): void {
    const rows = this.shown.map((index, position) => {
      const selected = index === NONE ? this.chosen.size === 0 : this.chosen.has(index);
      const row = el('div', {
        className: `filter-option${index === NONE ? ' none' : ''}`,
        id: `${this.id}-o${position}`,
        attrs: { role: 'option', 'aria-selected': String(selected), 'data-position': String(position) },
      });
      if (this.options.multiple) row.append(el('span', { className: 'check', attrs: { 'aria-hidden': 'true' } }));
      const option = index === NONE ? undefined : this.options.options[index]!;
      row.append(el('span', { className: 'filter-option-label', text: option ? option.label : '— none —' }));
      // A space between, so that the option's name reads "Frankfurt eu-central".
      if (option?.description) row.append(' ', el('span', { className: 'filter-option-description', text: option.description }));
      return row;
    });
    this.listbox.replaceChildren(...rows);
    this.markActive();
  }

  private markActive(): void {
    for (const row of this.listbox.children) row.classList.toggle('active', (row as HTMLElement).dataset.position === String(this.active));
    const current = this.active >= 0 ? this.listbox.children[this.active] : undefined;
    if (current) {
      this.input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else {
      this.input.removeAttribute('aria-activedescendant');
    }
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.isComposing) return;
    const last = this.shown.length - 1;
    switch (event.key) {
      case 'ArrowDown':
        this.active = Math.min(last, this.active + 1);
        break;
      case 'ArrowUp':
        this.active = Math.max(0, this.active - 1);
        break;
      case 'PageDown':
        this.active = Math.min(last, this.active + 8);
        break;
      case 'PageUp':
        this.active = Math.max(0, this.active - 8);
        break;
      case 'Enter':
        if (event.ctrlKey || event.metaKey || this.active < 0) return; // Ctrl+Enter submits the form
        this.choose();
        break;
      case 'Escape':
        if (this.input.value === '') return; // Escape on an empty filter cancels the form
        this.input.value = '';
        this.filter();
        break;
      default:
        return;
    }
    event.preventDefault();
    this.markActive();
  }

  private choose(): void {
    const index = this.shown[this.active];
    if (index === undefined) return;
    if (index === NONE) this.chosen.clear();
    else if (this.options.multiple) {
      if (this.chosen.has(index)) this.chosen.delete(index);
      else this.chosen.add(index);
    } else {
      this.chosen.clear();
      this.chosen.add(index);
    }
    this.afterChoice();
  }

  private afterChoice(): void {
    const position = this.active;
    this.draw();
    this.active = position;
    this.markActive();
    this.updateSummary();
    this.options.onChange();
  }

  private updateSummary(): void {
    const labels = this.selected().map((v) => this.options.options[this.indexByValue.get(v)!]!.label);
    if (labels.length === 0) this.summary.textContent = 'Nothing chosen.';
    else if (!this.options.multiple) this.summary.textContent = `Chosen: ${labels[0]}`;
    else {
      const listed = labels.slice(0, 5).join(', ');
      this.summary.textContent = `${formatCount(labels.length)} chosen: ${listed}${labels.length > 5 ? ', …' : ''}`;
    }
    this.clear.hidden = labels.length === 0 || (!this.options.multiple && !this.options.allowNone);
  }
}

/** Case- and accent-insensitive matching. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
