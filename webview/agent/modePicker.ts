/**
 * The session's modes as a drop-down in the panel's header. Picking one asks
 * the host to switch (`session/set_mode`); the host's next state says which
 * mode is in force, so a mode the agent refused does not stay selected.
 */
import type { AgentPanelState } from '../../src/core/protocols/agentPanelProtocol';
import { cleanText } from '../../src/core/display';
import { el } from '../shared/dom';

export class ModePicker {
  private readonly select = el('select', { className: 'mode', attrs: { 'aria-label': 'Mode' } });
  readonly element = el('label', { className: 'mode-picker' }, el('span', { className: 'mode-label', text: 'Mode' }), this.select);

  constructor(pick: (modeId: string) => void) {
    this.element.hidden = true;
    this.select.addEventListener('change', () => pick(this.select.value));
  }

  show(state: AgentPanelState): void {
    const modes = state.modes;
    this.element.hidden = !modes;
    if (!modes) return;
    const options = modes.available.map((mode) => {
      const option = el('option', { text: cleanText(mode.name), attrs: { value: mode.id } });
      if (mode.description) option.title = cleanText(mode.description);
      return option;
    });
    this.select.replaceChildren(...options);
    this.select.value = modes.current;
    const current = modes.available.find((m) => m.id === modes.current);
    this.select.title = current?.description ? cleanText(current.description) : '';
    this.select.disabled = state.status === 'starting' || state.status === 'exited';
  }
}
