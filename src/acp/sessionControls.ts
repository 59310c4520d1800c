/**
 * What a session offers besides prompts: its modes (from the `session/new`,
 * `session/load` or `session/resume` answer, changed by `session/set_mode` or by
 * the agent's `current_mode_update`), its config options (the same answers,
 * `session/set_config_option`'s answer and `config_option_update`) and the
 * agent's slash commands (`available_commands_update`). Kept as the plain data
 * the panel shows. Pure.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { CommandView, ConfigOptionView, ModesView } from '../core/protocols/agentPanelProtocol';
import { readConfigOptions } from './configOptions';

const MAX_MODES = 50;
const MAX_COMMANDS = 200;

export class SessionControls {
  private _modes: ModesView | undefined;
  private _commands: CommandView[] = [];
  private _configOptions: ConfigOptionView[] | undefined;

  /** The modes, unless the agent offers config options: ACP has those replace modes (a "mode" option among them). */
  get modes(): ModesView | undefined {
    return this._configOptions ? undefined : this._modes;
  }
  get configOptions(): ConfigOptionView[] | undefined {
    return this._configOptions;
  }
  configOption(id: string): ConfigOptionView | undefined {
    return this._configOptions?.find((o) => o.id === id);
  }
  get commands(): CommandView[] {
    return this._commands;
  }

  /** The modes and config options an answer to session/new, load or resume carries (absent or null: the agent has none). */
  opened(response: { modes?: acp.SessionModeState | null; configOptions?: unknown } | undefined): void {
    this._configOptions = readConfigOptions(response?.configOptions);
    const state = response?.modes;
    if (!state || !Array.isArray(state.availableModes)) return;
    const available = state.availableModes
      .filter((m) => typeof m?.id === 'string' && typeof m.name === 'string')
      .slice(0, MAX_MODES)
      .map((m) => ({
        id: m.id,
        name: clip(m.name, 80),
        ...(typeof m.description === 'string' && m.description !== '' ? { description: clip(m.description, 500) } : {}),
      }));
    if (available.length === 0) return;
    this._modes = { current: state.currentModeId, available };
  }

  /** A mode the agent accepted (set_mode succeeded) or switched to itself. Returns whether it changed. */
  setCurrent(modeId: string): boolean {
    if (!this._modes || this._modes.current === modeId) return false;
    this._modes = { ...this._modes, current: modeId };
    return true;
  }

  /**
   * The full list the agent answered `session/set_config_option` with, or sent
   * in `config_option_update`: it replaces the one before (and clears a refusal).
   */
  setConfigOptions(raw: unknown): boolean {
    const options = readConfigOptions(raw);
    if (!options) return false;
    this._configOptions = options;
    return true;
  }

  /** The agent refused a change: its words are kept with the option until the next list arrives. */
  configRefused(configId: string, error: string): void {
    if (!this._configOptions) return;
    this._configOptions = this._configOptions.map((o) => (o.id === configId ? { ...o, error: clip(error, 300) } : o));
  }

  modeName(modeId: string): string {
    return this._modes?.available.find((m) => m.id === modeId)?.name ?? modeId;
  }

  /** Applies a session update; returns whether the modes or commands changed. */
  apply(update: acp.SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case 'current_mode_update':
        return this.setCurrent(update.currentModeId);
      case 'config_option_update':
        return this.setConfigOptions(update.configOptions);
      case 'available_commands_update':
        this._commands = (update.availableCommands ?? [])
          .filter((c) => typeof c?.name === 'string' && c.name.trim() !== '')
          .slice(0, MAX_COMMANDS)
          .map((c) => {
            const command: CommandView = {
              name: clip(c.name.replace(/^\//, ''), 80),
              description: clip(typeof c.description === 'string' ? c.description : '', 300),
            };
            const hint = (c.input as { hint?: unknown } | null | undefined)?.hint;
            if (typeof hint === 'string' && hint !== '') command.hint = clip(hint, 120);
            return command;
          });
        return true;
      default:
        return false;
    }
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
