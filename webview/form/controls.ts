/**
 * One row per field, Settings-editor style: title (with a required marker),
 * description, the widget, an error line. Widgets are the browser's own
 * controls drawn as VS Code's (../shared/controls.css): they are in the page as
 * soon as the row is built, with no component to define or render first, which
 * keeps a new form's tab quick to show. Lists of more than a few
 * options use FilterList (filterList.ts): a filter box over a list box. Field text
 * (titles, descriptions, option labels) arrives cleaned of bidi and invisible
 * characters: core/form/normalize cleans it where the form is built.
 */
import type {
  BooleanField,
  ChoiceField,
  ChoiceOption,
  Field,
  FileField,
  MultiChoiceField,
  NumberField,
  TextField,
} from '../../src/core/form/fields';
import type { RawValue } from '../../src/core/form/formState';
import { FORMAT_HINTS, multiChoiceRule } from '../../src/core/form/fieldRules';
import { numberScale, type Scale } from '../../src/core/form/numberScale';
import { listedOptions, OTHER_CHOICE } from '../../src/core/form/otherAnswer';
import { describeBy, el } from '../shared/dom';
import { linkedSlider } from '../shared/slider';
import { FilterList } from './filterList';

/** More options than this and a dropdown is a filter box over a list (FilterList) instead. */
export const DROPDOWN_MAX_OPTIONS = 8;
/** More options than this and a column of checkboxes is too long: FilterList instead. */
export const CHECKBOXES_MAX_OPTIONS = 12;
/** Elicit's own answer of an agent's question that takes free text (otherAnswer.ts); it reveals the text box. */
export const OTHER_LABEL = 'Other…';

/** The options a choice widget lists: the asker's, then "Other…" where the question has one. */
function shownOptions(field: ChoiceField | MultiChoiceField): ChoiceOption[] {
  const options = listedOptions(field).map((o) => ({ ...o }));
  return field.other ? [...options, { label: OTHER_LABEL, value: OTHER_CHOICE }] : options;
}

export type ChangeKind = 'input' | 'commit' | 'blur';

export interface ControlContext {
  /** The widget's value changed (`input` while typing, `commit` for a discrete choice) or it lost focus. */
  changed(control: Control, kind: ChangeKind): void;
  /** A file field's button: the host opens VS Code's file dialog, and answers with the files (Control.setFiles). */
  chooseFiles?(control: Control): void;
  /** A file field's Remove: the host forgets its files. */
  clearFiles?(control: Control): void;
}

export interface Control {
  readonly field: Field;
  readonly row: HTMLElement;
  raw(): RawValue;
  /** A problem the widget itself knows of (text a number box cannot read), before any field rule. */
  inputError(): string | undefined;
  /** True when a secret's saved value is to be used (the host fills it in). */
  usingSaved(): boolean;
  stopUsingSaved(): void;
  showError(message: string | undefined): void;
  focus(): void;
  /** A file field: the files the host now holds for it, by label. */
  setFiles?(labels: string[]): void;
}

let nextId = 0;

/** The parts every row shares. */
class Row {
  readonly id = `f${++nextId}`;
  readonly element: HTMLElement;
  readonly description: HTMLElement;
  readonly hint: HTMLElement;
  readonly error: HTMLElement;
  readonly body: HTMLElement;
  private widget: HTMLElement | undefined;
  private readonly required: boolean;

  constructor(field: Field, hint: string, options: { marker?: boolean; labelFor?: boolean } = {}) {
    this.required = field.required && options.marker !== false;
    const title = el(options.labelFor === false ? 'div' : 'label', { className: 'field-title', id: `${this.id}-label` });
    if (title instanceof HTMLLabelElement) title.htmlFor = `${this.id}-widget`;
    title.append(el('span', { text: field.label }));
    if (field.required && options.marker !== false) {
      title.append(el('span', { className: 'required-marker', text: '*', attrs: { 'aria-hidden': 'true' } }));
      title.append(el('span', { className: 'visually-hidden', text: ' (required)' }));
    }
    this.description = el('div', { className: 'field-description', id: `${this.id}-desc`, text: field.description ?? '' });
    this.description.hidden = !field.description;
    this.hint = el('div', { className: 'field-hint', id: `${this.id}-hint`, text: hint });
    this.hint.hidden = hint === '';
    this.error = el('div', { className: 'field-error', id: `${this.id}-error` });
    this.error.hidden = true;
    this.body = el('div', { className: 'field-control' });
    this.element = el(
      'div',
      { className: `field field-${field.kind}`, attrs: { 'data-name': field.name } },
      title,
      this.description,
      this.hint,
      this.body,
      this.error,
    );
  }

  private describers: HTMLElement[] = [];

  /**
   * `widget` goes in the row; `target` (the widget unless given) is what the
   * title labels and the description and error describe.
   */
  setWidget(widget: HTMLElement, describers?: HTMLElement[], target: HTMLElement = widget): void {
    this.widget = target;
    target.id = `${this.id}-widget`;
    this.body.append(widget);
    this.describers = describers ?? [this.description, this.hint, this.error];
    this.wire(false);
  }

  showError(message: string | undefined, setInvalid: (invalid: boolean) => void): void {
    this.error.textContent = message ?? '';
    this.error.hidden = message === undefined;
    this.element.classList.toggle('invalid', message !== undefined);
    setInvalid(message !== undefined);
    this.wire(message !== undefined);
  }

  wire(invalid: boolean): void {
    if (this.widget) describeBy(this.widget, this.describers, invalid, this.required);
  }
}

export function createControl(field: Field, raw: RawValue, savedSecret: boolean, ctx: ControlContext): Control {
  switch (field.kind) {
    case 'text':
      return textControl(field, raw, savedSecret, ctx);
    case 'number':
      return numberControl(field, raw, ctx);
    case 'boolean':
      return booleanControl(field, raw, ctx);
    case 'choice':
      return field.options.length > DROPDOWN_MAX_OPTIONS ? bigListControl(field, raw, ctx) : choiceControl(field, raw, ctx);
    case 'multiChoice':
      return field.options.length > CHECKBOXES_MAX_OPTIONS ? bigListControl(field, raw, ctx) : checkboxesControl(field, raw, ctx);
    case 'file':
      return fileControl(field, raw, ctx);
  }
}

/**
 * A file field: a button that opens VS Code's file dialog (in the host) and the chosen
 * files' names and sizes under it. The page never holds a file: the host adds it to the answer.
 */
function fileControl(field: FileField, raw: RawValue, ctx: ControlContext): Control {
  const row = new Row(field, `${field.rule}.`);
  let labels: string[] = Array.isArray(raw) ? [...raw] : [];
  const choose = pushButton(field.multiple ? 'Choose Files…' : 'Choose File…', true);
  choose.setAttribute('aria-label', `${field.label}: ${choose.textContent}`);
  choose.addEventListener('click', () => ctx.chooseFiles?.(control));
  const remove = pushButton('Remove', true);
  remove.setAttribute('aria-label', `Remove the ${field.multiple ? 'files' : 'file'} chosen for ${field.label}`);
  remove.addEventListener('click', () => ctx.clearFiles?.(control));
  const chosen = el('ul', { className: 'file-list', attrs: { 'aria-live': 'polite', 'aria-label': `Chosen for ${field.label}` } });
  const none = el('span', { className: 'file-none', text: field.multiple ? 'No files chosen' : 'No file chosen' });
  const paint = (): void => {
    chosen.replaceChildren(...labels.map((label) => el('li', { text: label })));
    chosen.hidden = labels.length === 0;
    none.hidden = labels.length > 0;
    remove.hidden = labels.length === 0;
  };
  paint();
  row.setWidget(el('div', { className: 'file-row' }, choose, remove, none), undefined, choose);
  row.body.append(chosen);
  const control: Control = {
    field,
    row: row.element,
    raw: () => (labels.length > 0 ? [...labels] : null),
    inputError: () => undefined,
    usingSaved: () => false,
    stopUsingSaved: () => undefined,
    showError: (message) => row.showError(message, (invalid) => choose.classList.toggle('invalid', invalid)),
    focus: () => choose.focus(),
    setFiles: (next) => {
      labels = [...next];
      paint();
    },
  };
  return control;
}

const TEXT_PLACEHOLDERS: Record<string, string> = {
  email: 'name@example.com',
  uri: 'https://example.com',
  'date-time': '2026-01-31T09:30:00Z',
};

function textHint(field: TextField): string {
  if (field.format === 'date-time') return 'A date and time with a time zone (Z for UTC, or an offset such as +01:00).';
  const { minLength: min, maxLength: max } = field;
  if (min !== undefined && max !== undefined) return min === max ? `Exactly ${count(min, 'character')}.` : `${min} to ${max} characters.`;
  if (min !== undefined && min > 0) return `At least ${count(min, 'character')}.`;
  if (max !== undefined) return `At most ${count(max, 'character')}.`;
  return '';
}

function textControl(field: TextField, raw: RawValue, savedSecret: boolean, ctx: ControlContext): Control {
  const row = new Row(field, textHint(field));
  const input = textBox();
  // Email, URL and date-time stay plain text boxes: the browser's own checks
  // for those disagree with the schema's, and datetime-local has no time zone.
  // A date box gives a date picker and always yields YYYY-MM-DD.
  input.type = field.secret ? 'password' : field.format === 'date' ? 'date' : 'text';
  if (field.format && TEXT_PLACEHOLDERS[field.format]) input.placeholder = TEXT_PLACEHOLDERS[field.format];
  // No native minlength/maxlength: the browser counts UTF-16 units, the schema
  // counts characters, so the limits are checked (and explained) by fieldRules.ts.
  input.autocomplete = 'off';
  if (field.secret) input.setAttribute('autocomplete', 'new-password');
  input.value = typeof raw === 'string' ? raw : '';
  input.addEventListener('input', () => ctx.changed(control, 'input'));
  input.addEventListener('change', () => ctx.changed(control, 'commit'));
  input.addEventListener('blur', () => ctx.changed(control, 'blur'));
  row.setWidget(input);

  let useSaved = false;
  let savedBox: HTMLInputElement | undefined;
  const setUseSaved = (on: boolean): void => {
    useSaved = on;
    input.disabled = on;
    input.placeholder = on ? 'The saved value will be used' : '';
    if (savedBox && savedBox.checked !== on) savedBox.checked = on;
  };
  if (field.secret && savedSecret) {
    const saved = checkbox('Use the saved value');
    saved.label.classList.add('use-saved');
    savedBox = saved.input;
    savedBox.addEventListener('change', () => {
      setUseSaved(savedBox!.checked);
      ctx.changed(control, 'commit');
      if (!useSaved) input.focus();
    });
    row.body.append(saved.label);
    setUseSaved(true);
  }

  const control: Control = {
    field,
    row: row.element,
    raw: () => input.value,
    inputError: () => (input.type === 'date' && input.validity.badInput ? FORMAT_HINTS.date : undefined),
    usingSaved: () => useSaved,
    stopUsingSaved: () => setUseSaved(false),
    showError: (message) => row.showError(message, (invalid) => input.classList.toggle('invalid', invalid)),
    focus: () => (useSaved && savedBox ? savedBox.focus() : input.focus()),
  };
  return control;
}

function numberHint(field: NumberField): string {
  const kind = field.integer ? 'A whole number' : 'A number';
  const { minimum: min, maximum: max } = field;
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}.`;
  if (min !== undefined) return `${kind}, at least ${min}.`;
  if (max !== undefined) return `${kind}, at most ${max}.`;
  return field.integer ? `${kind}.` : '';
}

function numberControl(field: NumberField, raw: RawValue, ctx: ControlContext): Control {
  const scale = numberScale(field);
  if (scale) return scaleControl(field, scale, raw, ctx);
  const row = new Row(field, numberHint(field));
  const input = textBox();
  input.type = 'number';
  // The browser's own range and step checks agree with the schema's; "any" keeps 3.14 valid.
  input.step = field.integer ? '1' : 'any';
  if (field.minimum !== undefined) input.min = String(field.minimum);
  if (field.maximum !== undefined) input.max = String(field.maximum);
  input.value = typeof raw === 'string' ? raw : '';
  input.addEventListener('input', () => ctx.changed(control, 'input'));
  input.addEventListener('change', () => ctx.changed(control, 'commit'));
  input.addEventListener('blur', () => ctx.changed(control, 'blur'));
  const slider = linkedSlider(field, input, 'number-slider', () => ctx.changed(control, 'input'));
  row.setWidget(slider ? el('div', { className: 'number-with-slider' }, input, slider) : input, undefined, input);
  const control: Control = {
    field,
    row: row.element,
    raw: () => input.value,
    // A number box reports "" for text it cannot read ("1e", "--1"): say so instead of "Required".
    inputError: () => (input.validity.badInput ? (field.integer ? 'Must be a whole number' : 'Must be a number') : undefined),
    usingSaved: () => false,
    stopUsingSaved: () => undefined,
    showError: (message) => row.showError(message, (invalid) => input.classList.toggle('invalid', invalid)),
    focus: () => input.focus(),
  };
  return control;
}

/**
 * A small whole-number range as a row of radio buttons (a radio group's arrows, Tab and
 * names), drawn as stars where the question is a rating. An optional one can be cleared.
 */
function scaleControl(field: NumberField, scale: Scale, raw: RawValue, ctx: ControlContext): Control {
  const row = new Row(field, scale.stars ? '' : numberHint(field), { labelFor: false });
  const group = el('div', {
    className: scale.stars ? 'scale stars' : 'scale',
    attrs: { role: 'radiogroup', 'aria-labelledby': `${row.id}-label` },
  });
  let value = typeof raw === 'string' ? raw : '';
  const paint = (): void => {
    for (const radio of radios) {
      radio.checked = radio.value === value;
      // Stars fill up to the chosen one: a filled glyph, not only a colour.
      const filled = value !== '' && Number(radio.value) <= Number(value);
      radio.parentElement!.classList.toggle('filled', filled);
      if (scale.stars && radio.value !== '0') radio.nextElementSibling!.textContent = filled ? '★' : '☆';
    }
    clear?.toggleAttribute('hidden', value === '');
  };
  const radios = scale.values.map((n) => {
    const radio = el('input', { className: 'visually-hidden', attrs: { type: 'radio', name: `${row.id}-scale`, value: String(n) } });
    if (scale.stars) radio.setAttribute('aria-label', n === 1 ? '1 star' : `${n} stars`);
    const mark = el('span', { className: 'scale-mark', text: scale.stars && n > 0 ? '★' : String(n), attrs: { 'aria-hidden': 'true' } });
    radio.addEventListener('change', () => {
      value = radio.value;
      paint();
      ctx.changed(control, 'commit');
    });
    group.append(el('label', { className: 'scale-option', attrs: { title: radio.getAttribute('aria-label') ?? String(n) } }, radio, mark));
    if (!scale.stars) radio.setAttribute('aria-label', String(n));
    return radio;
  });
  const clear = field.required ? undefined : el('button', { className: 'scale-clear', text: 'Clear', attrs: { type: 'button' } });
  clear?.addEventListener('click', () => {
    value = '';
    paint();
    ctx.changed(control, 'commit');
    radios[0]?.focus();
  });
  group.addEventListener('focusout', (event) => {
    if (!group.contains(event.relatedTarget as Node | null)) ctx.changed(control, 'blur');
  });
  paint();
  row.setWidget(clear ? el('div', { className: 'scale-row' }, group, clear) : group, undefined, group);
  const control: Control = {
    field,
    row: row.element,
    raw: () => value,
    inputError: () => undefined,
    usingSaved: () => false,
    stopUsingSaved: () => undefined,
    showError: (message) => row.showError(message, (invalid) => group.classList.toggle('invalid', invalid)),
    focus: () => (radios.find((r) => r.checked) ?? radios[0])?.focus(),
  };
  return control;
}

function booleanControl(field: BooleanField, raw: RawValue, ctx: ControlContext): Control {
  // Any state of a required box answers it, so it gets no "required" marker.
  const row = new Row(field, '', { marker: false, labelFor: false });
  // As in Settings: the description is the box's label (clicking it ticks the box); the title names it.
  const { label, input: box } = checkbox(field.description ?? '');
  box.setAttribute('aria-labelledby', `${row.id}-label`);
  const text = label.lastElementChild as HTMLElement;
  text.id = `${row.id}-box-text`;
  if (field.description) row.description.hidden = true;
  const describers = field.description ? [text, row.error] : [row.error];
  let state: boolean | null = typeof raw === 'boolean' ? raw : field.required ? false : null;
  box.checked = state === true;
  box.addEventListener('change', () => {
    state = box.checked;
    ctx.changed(control, 'commit');
  });
  box.addEventListener('blur', () => ctx.changed(control, 'blur'));
  row.setWidget(label, describers, box);
  const control: Control = {
    field,
    row: row.element,
    raw: () => state,
    inputError: () => undefined,
    usingSaved: () => false,
    stopUsingSaved: () => undefined,
    showError: (message) => row.showError(message, (invalid) => box.classList.toggle('invalid', invalid)),
    focus: () => box.focus(),
  };
  return control;
}

/** A few options: the browser's own dropdown (its list is the platform's, with type-ahead and a screen reader's full support). */
function choiceControl(field: ChoiceField, raw: RawValue, ctx: ControlContext): Control {
  const row = new Row(field, '');
  const options = shownOptions(field);
  // Without a default there must be a way to have chosen nothing yet (and, if optional, to leave it so).
  if (field.default === undefined) options.unshift({ label: '— choose —', value: '' });
  const select = dropdown(options);
  select.value = typeof raw === 'string' ? raw : '';
  // No option has this value (an old draft): nothing is chosen rather than the first option.
  if (select.value !== (typeof raw === 'string' ? raw : '')) select.selectedIndex = -1;
  // The chosen option's description and preview (claude's AskUserQuestion) under the dropdown.
  const byValue = new Map(options.map((o) => [o.value, o] as const));
  const detail = el('div', { className: 'option-detail', id: `${row.id}-option` });
  const showDetail = (): void => {
    const option = byValue.get(select.value);
    detail.replaceChildren(...(option ? (optionDetail(option)?.childNodes ?? []) : []));
    detail.hidden = detail.childNodes.length === 0;
  };
  select.addEventListener('change', () => {
    showDetail();
    ctx.changed(control, 'commit');
  });
  select.addEventListener('blur', () => ctx.changed(control, 'blur'));
  showDetail();
  const hasDetails = options.some((o) => o.description || o.preview);
  row.setWidget(
    hasDetails ? el('div', { className: 'select-with-detail' }, select, detail) : select,
    hasDetails ? [row.description, row.hint, detail, row.error] : undefined,
    select,
  );
  const control: Control = {
    field,
    row: row.element,
    raw: () => select.value,
    inputError: () => undefined,
    usingSaved: () => false,
    stopUsingSaved: () => undefined,
    showError: (message) => row.showError(message, (invalid) => select.classList.toggle('invalid', invalid)),
    focus: () => select.focus(),
  };
  return control;
}

function multiHint(field: MultiChoiceField): string {
  const rule = multiChoiceRule(field);
  return rule === '' ? '' : `${rule}.`;
}

function checkboxesControl(field: MultiChoiceField, raw: RawValue, ctx: ControlContext): Control {
  const row = new Row(field, multiHint(field), { labelFor: false });
  const group = el('div', { className: 'checkbox-group', attrs: { role: 'group', 'aria-labelledby': `${row.id}-label` } });
  let touched = Array.isArray(raw);
  const chosen = new Set(Array.isArray(raw) ? raw : []);
  const shown = shownOptions(field);
  const boxes = shown.map((option) => {
    const { label, input: box } = checkbox(option.label);
    box.checked = chosen.has(option.value);
    box.addEventListener('change', () => {
      touched = true;
      if (box.checked) chosen.add(option.value);
      else chosen.delete(option.value);
      ctx.changed(control, 'commit');
    });
    group.append(label);
    const detail = optionDetail(option);
    if (detail) {
      group.append(detail);
      describeBy(box, [detail], false, false);
    }
    return box;
  });
  group.addEventListener('focusout', (event) => {
    if (!group.contains(event.relatedTarget as Node | null)) ctx.changed(control, 'blur');
  });
  row.setWidget(group);
  const control: Control = {
    field,
    row: row.element,
    // In the options' order, whatever order they were clicked in.
    raw: () => (touched ? shown.map((o) => o.value).filter((v) => chosen.has(v)) : null),
    inputError: () => undefined,
    usingSaved: () => false,
    stopUsingSaved: () => undefined,
    showError: (message) =>
      row.showError(message, (invalid) => {
        for (const box of boxes) box.classList.toggle('invalid', invalid);
      }),
    focus: () => boxes[0]?.focus(),
  };
  return control;
}

/** An option's description and preview, under its box; none when it has neither. */
function optionDetail(option: ChoiceOption): HTMLElement | undefined {
  if (!option.description && !option.preview) return undefined;
  const detail = el('div', { className: 'option-detail', id: `o${++nextId}` });
  if (option.description) detail.append(el('div', { className: 'option-description', text: option.description }));
  if (option.preview) detail.append(el('pre', { className: 'option-preview', text: option.preview }));
  return detail;
}

function bigListControl(field: ChoiceField | MultiChoiceField, raw: RawValue, ctx: ControlContext): Control {
  const multiple = field.kind === 'multiChoice';
  const row = new Row(field, multiple ? multiHint(field) : '');
  let touched = multiple ? Array.isArray(raw) : true;
  const list = new FilterList({
    label: field.label,
    options: shownOptions(field),
    multiple,
    allowNone: !multiple && field.default === undefined,
    selected: Array.isArray(raw) ? raw : typeof raw === 'string' && raw !== '' ? [raw] : [],
    onChange: () => {
      touched = true;
      ctx.changed(control, 'commit');
    },
    onBlur: () => ctx.changed(control, 'blur'),
  });
  row.setWidget(list.element, undefined, list.input);
  const control: Control = {
    field,
    row: row.element,
    raw: () => (multiple ? (touched ? list.selected() : null) : (list.selected()[0] ?? '')),
    inputError: () => undefined,
    usingSaved: () => false,
    stopUsingSaved: () => undefined,
    showError: (message) => row.showError(message, (invalid) => list.setInvalid(invalid)),
    focus: () => list.focus(),
  };
  return control;
}

/** A text (or number, date, password) box drawn as VS Code's. */
function textBox(): HTMLInputElement {
  return el('input', { className: 'text-input', attrs: { type: 'text', spellcheck: 'false' } });
}

/** A check box with its text, all of it a click target; the text may be empty. */
function checkbox(text: string): { label: HTMLLabelElement; input: HTMLInputElement } {
  const input = el('input', { className: 'checkbox', attrs: { type: 'checkbox' } });
  const label = el('label', { className: 'checkbox-label' }, input, el('span', { className: 'checkbox-text', text }));
  return { label, input };
}

/** A dropdown drawn as VS Code's, listing `options` (their labels as text). */
export function dropdown(options: ReadonlyArray<{ label: string; value: string }>): HTMLSelectElement {
  const select = el('select', { className: 'dropdown' });
  select.append(...options.map((o) => Object.assign(el('option', { text: o.label }), { value: o.value })));
  return select;
}

/** A button drawn as VS Code's (../shared/buttons.css). */
export function pushButton(text: string, secondary: boolean): HTMLButtonElement {
  return el('button', { className: secondary ? 'secondary' : '', text, attrs: { type: 'button' } });
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
