/**
 * The agent's slash commands as completions under the prompt box: typing "/"
 * lists them (filtered as the name is typed), ↑/↓ move, Tab or Enter puts
 * "/name " in the box, Escape closes the list. Enter on a name already typed
 * in full sends the prompt as usual. Names and descriptions are set as text.
 */
import type { CommandView } from '../../src/core/protocols/agentPanelProtocol';
import { cleanText } from '../../src/core/display';
import { commandQuery, completedPrompt, matchCommands } from '../../src/core/commandCompletion';
import { el } from '../shared/dom';

export class CommandMenu {
  readonly element = el('ul', {
    className: 'command-menu',
    attrs: { role: 'listbox', id: 'command-menu', 'aria-label': 'Agent commands' },
  });
  private commands: CommandView[] = [];
  private shown: CommandView[] = [];
  private active = 0;
  private dismissed: string | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    /** The prompt's text changed (a command was put in): save the draft. */
    private readonly changed: () => void,
  ) {
    this.element.hidden = true;
    input.setAttribute('aria-controls', 'command-menu');
    input.setAttribute('aria-autocomplete', 'list');
    input.addEventListener('input', () => this.refresh());
    input.addEventListener('blur', () => this.hide());
  }

  setCommands(commands: readonly CommandView[]): void {
    this.commands = [...commands];
    this.refresh();
  }

  /** Handles a key pressed in the prompt box; true when the list used it. */
  onKey(event: KeyboardEvent): boolean {
    if (this.element.hidden || this.shown.length === 0) return false;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        this.active = (this.active + (event.key === 'ArrowDown' ? 1 : this.shown.length - 1)) % this.shown.length;
        this.render();
        return true;
      case 'Tab':
        if (event.shiftKey) return false;
        this.choose(this.shown[this.active]!);
        return true;
      case 'Enter': {
        if (event.shiftKey || event.isComposing) return false;
        const command = this.shown[this.active]!;
        if (commandQuery(this.input.value) === command.name) return false; // typed in full: send
        this.choose(command);
        return true;
      }
      case 'Escape':
        this.dismissed = this.input.value;
        this.hide();
        return true;
      default:
        return false;
    }
  }

  private refresh(): void {
    const query = commandQuery(this.input.value);
    if (query === undefined || this.input.value === this.dismissed) {
      this.hide();
      return;
    }
    this.dismissed = undefined;
    this.shown = matchCommands(query, this.commands);
    this.active = 0;
    this.render();
  }

  private choose(command: CommandView): void {
    this.input.value = completedPrompt(command);
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    this.hide();
    this.changed();
    this.input.focus();
  }

  private hide(): void {
    this.element.hidden = true;
    this.input.removeAttribute('aria-activedescendant');
  }

  private render(): void {
    if (this.shown.length === 0) {
      this.hide();
      return;
    }
    this.element.replaceChildren(
      ...this.shown.map((command, index) => {
        const id = `command-${index}`;
        const row = el(
          'li',
          {
            className: 'command',
            attrs: { role: 'option', id, 'aria-selected': String(index === this.active), 'data-name': command.name },
          },
          el('span', { className: 'command-name', text: `/${cleanText(command.name)}` }),
          ...(command.hint ? [el('span', { className: 'command-hint', text: cleanText(command.hint) })] : []),
          el('span', { className: 'command-description', text: cleanText(command.description) }),
        );
        // mousedown, not click: the prompt box keeps its focus.
        row.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.choose(command);
        });
        return row;
      }),
    );
    this.element.hidden = false;
    this.input.setAttribute('aria-activedescendant', `command-${this.active}`);
  }
}
