/**
 * The session's config options (model, reasoning effort, collaboration mode,
 * fast mode…) as a row under the panel's header: a labelled drop-down for each
 * `select`, a labelled checkbox for each `boolean`. Picking a value or toggling
 * asks the host to change it (`session/set_config_option`); the host's next
 * state carries the values the agent answered with, so a refused change does
 * not stay selected or ticked, and the agent's reason is shown beside the
 * option. Every name and description is the agent's, set as text or a
 * property, never HTML.
 */
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type {
  AgentPanelState,
  BooleanConfigOptionView,
  ConfigOptionView,
  SelectConfigOptionView,
} from '../../src/core/protocols/agentPanelProtocol';
import { cleanText } from '../../src/core/display';
import { describeBy, el } from '../shared/dom';

/** More values than this and the drop-down filters as you type. */
const COMBOBOX_OVER = 20;

type Drawn =
  | { type: 'select'; row: HTMLElement; control: VscodeSingleSelect; error: HTMLElement; key: string }
  | { type: 'boolean'; row: HTMLElement; control: VscodeCheckbox; error: HTMLElement; key: string };
// key: what was last drawn, so a state that did not change it does not rebuild an open list.

export class ConfigOptions {
  readonly element = el('section', { className: 'config-options', attrs: { 'aria-label': 'Session options' } });
  private readonly drawn = new Map<string, Drawn>();

  constructor(private readonly pick: (configId: string, value: string | boolean) => void) {
    this.element.hidden = true;
  }

  show(state: AgentPanelState): void {
    const options = state.configOptions ?? [];
    this.element.hidden = options.length === 0;
    const disabled = state.status === 'starting' || state.status === 'exited';
    const rows: HTMLElement[] = [];
    for (const option of options) {
      const drawn = this.draw(option);
      drawn.control.disabled = disabled;
      rows.push(drawn.row);
    }
    for (const id of [...this.drawn.keys()]) if (!options.some((o) => o.id === id)) this.drawn.delete(id);
    this.element.replaceChildren(...rows);
  }

  private draw(option: ConfigOptionView): Drawn {
    const key = JSON.stringify([option.type, option.name, option.description, option.type === 'select' ? option.values : null]);
    let drawn = this.drawn.get(option.id);
    if (!drawn || drawn.key !== key) {
      drawn = option.type === 'select' ? this.createSelect(option, key) : this.createCheckbox(option, key);
      this.drawn.set(option.id, drawn);
    }
    // The value in force, as the agent last said: also after a refused change.
    if (drawn.type === 'select' && option.type === 'select') {
      const select = drawn.control;
      if (select.value !== option.current) select.value = option.current;
      const current = option.values.find((v) => v.value === option.current);
      select.title = current?.description ? cleanText(current.description) : option.description ? cleanText(option.description) : '';
    } else if (drawn.type === 'boolean' && option.type === 'boolean') {
      if (drawn.control.checked !== option.current) drawn.control.checked = option.current;
    }
    const { error } = drawn;
    error.textContent = option.error ? cleanText(option.error) : '';
    error.hidden = !option.error;
    drawn.row.dataset.current = String(option.current);
    describeBy(drawn.control, [error], option.error !== undefined, false);
    return drawn;
  }

  private createSelect(option: SelectConfigOptionView, key: string): Drawn {
    const id = this.newId();
    const label = el('span', { className: 'config-label', id: `${id}-label`, text: cleanText(option.name) });
    const select = document.createElement('vscode-single-select') as VscodeSingleSelect;
    select.label = cleanText(option.name);
    select.options = option.values.map((v) => ({
      label: cleanText(v.group ? `${v.group}: ${v.name}` : v.name),
      value: v.value,
      description: v.description ? cleanText(v.description) : '',
    }));
    if (option.values.length > COMBOBOX_OVER) {
      select.combobox = true;
      select.filter = 'contains';
    }
    select.value = option.current;
    const error = this.newError(id);
    const row = el('div', { className: 'config-option', attrs: { 'data-config-id': option.id } }, label, select, error);
    select.addEventListener('change', () => {
      if (select.value !== '' && select.value !== row.dataset.current) this.pick(option.id, select.value);
    });
    if (option.description) row.title = cleanText(option.description);
    return { type: 'select', row, control: select, error, key };
  }

  /** The box carries its own label (clicking it toggles, as in Settings), also its accessible name. */
  private createCheckbox(option: BooleanConfigOptionView, key: string): Drawn {
    const id = this.newId();
    const box = document.createElement('vscode-checkbox') as VscodeCheckbox;
    box.label = cleanText(option.name);
    box.setAttribute('aria-label', cleanText(option.name));
    box.checked = option.current;
    const error = this.newError(id);
    const row = el('div', { className: 'config-option config-boolean', attrs: { 'data-config-id': option.id } }, box, error);
    box.addEventListener('change', () => {
      if (String(box.checked) !== row.dataset.current) this.pick(option.id, box.checked);
    });
    if (option.description) box.title = cleanText(option.description);
    return { type: 'boolean', row, control: box, error, key };
  }

  private newId(): string {
    return `config-${this.drawn.size}-${Math.random().toString(36).slice(2, 8)}`;
  }

  private newError(id: string): HTMLElement {
    const error = el('span', { className: 'config-error', id: `${id}-error` });
    error.hidden = true;
    return error;
  }
}
