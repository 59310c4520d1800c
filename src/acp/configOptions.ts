/**
 * A session's config options (ACP `configOptions`: model, reasoning effort,
 * codex's collaboration mode, fast mode…) read from an agent's answer or update
 * into the plain, bounded data the panel shows: `select` options and, since
 * Elicit advertises `session.configOptions.boolean`, `boolean` toggles. Other
 * types are left out. Also the `session/set_config_option` params for a change. Pure.
 */
import type * as acp from '@agentclientprotocol/sdk';
import {
  MAX_CONFIG_ID_LENGTH,
  type BooleanConfigOptionView,
  type ConfigOptionView,
  type ConfigValueView,
  type SelectConfigOptionView,
} from '../core/protocols/agentPanelProtocol';

export const MAX_CONFIG_OPTIONS = 20;
export const MAX_CONFIG_VALUES = 200;

/** The options an agent sent, or undefined when it sent none this client can show. */
export function readConfigOptions(raw: unknown): ConfigOptionView[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const options: ConfigOptionView[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    if (options.length >= MAX_CONFIG_OPTIONS) break;
    const option = readOption(item);
    if (option && !seen.has(option.id)) {
      seen.add(option.id);
      options.push(option);
    }
  }
  return options.length > 0 ? options : undefined;
}

function readOption(item: unknown): ConfigOptionView | undefined {
  if (!isRecord(item)) return undefined;
  const option =
    item.type === 'boolean' ? readBoolean(item) : item.type === undefined || item.type === 'select' ? readSelect(item) : undefined;
  if (!option) return undefined;
  if (typeof item.description === 'string' && item.description !== '') option.description = clip(item.description, 300);
  if (typeof item.category === 'string' && item.category !== '') option.category = clip(item.category, 40);
  return option;
}

function readSelect(item: Record<string, unknown>): SelectConfigOptionView | undefined {
  const { id, name, currentValue } = item;
  if (!isId(id) || !isName(name) || !isId(currentValue)) return undefined;
  const values = readValues(item.options);
  if (values.length === 0) return undefined;
  // A current value the agent did not list is still what is in force: shown under its id.
  if (!values.some((v) => v.value === currentValue)) values.unshift({ value: currentValue, name: clip(currentValue, 80) });
  return { type: 'select', id, name: clip(name, 80), current: currentValue, values };
}

/** A toggle: its value must be a real boolean (not "true", 1 or absent). */
function readBoolean(item: Record<string, unknown>): BooleanConfigOptionView | undefined {
  const { id, name, currentValue } = item;
  if (!isId(id) || !isName(name) || typeof currentValue !== 'boolean') return undefined;
  return { type: 'boolean', id, name: clip(name, 80), current: currentValue };
}

/** Plain options, or groups of them (flattened, each value named with its group). */
function readValues(raw: unknown): ConfigValueView[] {
  if (!Array.isArray(raw)) return [];
  const values: ConfigValueView[] = [];
  const add = (item: unknown, group?: string): void => {
    if (values.length >= MAX_CONFIG_VALUES || !isRecord(item)) return;
    const { value, name } = item;
    if (!isId(value) || typeof name !== 'string' || values.some((v) => v.value === value)) return;
    const entry: ConfigValueView = { value, name: clip(name, 80) };
    if (typeof item.description === 'string' && item.description !== '') entry.description = clip(item.description, 300);
    if (group !== undefined) entry.group = group;
    values.push(entry);
  };
  for (const item of raw) {
    if (isRecord(item) && Array.isArray(item.options)) {
      const group = typeof item.name === 'string' && item.name !== '' ? clip(item.name, 80) : undefined;
      for (const inner of item.options) add(inner, group);
    } else {
      add(item);
    }
  }
  return values;
}

/** The words a boolean's state is named with (the VS Code layer passes them translated). */
export interface OnOffWords {
  on: string;
  off: string;
}

/** A value's name as the agent gave it (its id when it has none); a boolean's state as on or off. */
export function configValueName(
  option: ConfigOptionView | undefined,
  value: string | boolean,
  words: OnOffWords = { on: 'On', off: 'Off' },
): string {
  if (typeof value === 'boolean') return value ? words.on : words.off;
  return (option?.type === 'select' ? option.values.find((v) => v.value === value)?.name : undefined) ?? value;
}

/**
 * The `session/set_config_option` params for a change the panel asked for:
 * a select's value by id, a boolean as `{ type: 'boolean', value }`. Undefined
 * when there is nothing to send: the value is the one in force, is not one the
 * agent offered, or is of the other kind.
 */
export function configOptionRequest(
  sessionId: string,
  option: ConfigOptionView,
  value: string | boolean,
): acp.SetSessionConfigOptionRequest | undefined {
  if (value === option.current) return undefined;
  if (option.type === 'boolean') {
    return typeof value === 'boolean' ? { sessionId, configId: option.id, type: 'boolean', value } : undefined;
  }
  if (typeof value !== 'string' || !option.values.some((v) => v.value === value)) return undefined;
  return { sessionId, configId: option.id, value };
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_CONFIG_ID_LENGTH;
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
