/**
 * The session's config options (model, reasoning effort, collaboration mode…)
 * as a row of labelled drop-downs under the panel's header. Picking a value
 * asks the host to change it (`session/set_config_option`); the host's next
 * state carries the values the agent answered with, so a refused change does
 * not stay selected, and the agent's reason is shown beside the option. Every
 * name and description is the agent's, set as text or a property, never HTML.
 */
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import type { AgentPanelState, ConfigOptionView } from '../../src/core/protocols/agentPanelProtocol';
import { cleanText } from '../../src/core/display';
import { describeBy, el } from '../shared/dom';

/** More values than this and the drop-down filters as you type. */
const COMBOBOX_OVER = 20;

interface Drawn {
  row: HTMLElement;
  select: VscodeSingleSelect;
  error: HTMLElement;
  /** The values last drawn, so a state that did not change them does not rebuild an open list. */
  key: string;
}

export class ConfigOptions {
  readonly element = el('section', { className: 'config-options', attrs: { 'aria-label': 'Session options' } });
  private readonly drawn = new Map<string, Drawn>();

  constructor(private readonly pick: (configId: string, value: string) => void) {
    this.element.hidden = true;
  }

  show(state: AgentPanelState): void {
    const options = state.configOptions ?? [];
    this.element.hidden = options.length === 0;
    const disabled = state.status === 'starting' || state.status === 'exited';
    const rows: HTMLElement[] = [];
    for (const option of options) {
      const drawn = this.draw(option);
      drawn.select.disabled = disabled;
      rows.push(drawn.row);
    }
    for (const id of [...this.drawn.keys()]) if (!options.some((o) => o.id === id)) this.drawn.delete(id);
    this.element.replaceChildren(...rows);
  }

  private draw(option: ConfigOptionView): Drawn {
    const key = JSON.stringify([option.name, option.description, option.values]);
    let drawn = this.drawn.get(option.id);
    if (!drawn || drawn.key !== key) {
      drawn = this.create(option, key);
      this.drawn.set(option.id, drawn);
    }
    const { select, error } = drawn;
    // The value in force, as the agent last said: also after a refused change.
    if (select.value !== option.current) select.value = option.current;
    const current = option.values.find((v) => v.value === option.current);
    select.title = current?.description ? cleanText(current.description) : option.description ? cleanText(option.description) : '';
    error.textContent = option.error ? cleanText(option.error) : '';
    error.hidden = !option.error;
    drawn.row.dataset.current = option.current;
    describeBy(select, [error], option.error !== undefined, false);
    return drawn;
  }

  private create(option: ConfigOptionView, key: string): Drawn {
    const id = `config-${this.drawn.size}-${Math.random().toString(36).slice(2, 8)}`;
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
    const error = el('span', { className: 'config-error', id: `${id}-error` });
    error.hidden = true;
    const row = el('div', { className: 'config-option', attrs: { 'data-config-id': option.id } }, label, select, error);
    select.addEventListener('change', () => {
      if (select.value !== '' && select.value !== row.dataset.current) this.pick(option.id, select.value);
    });
    if (option.description) row.title = cleanText(option.description);
    return { row, select, error, key };
  }
}
