/**
 * A session's config options (ACP `configOptions`: model, reasoning effort,
 * codex's collaboration mode…) read from an agent's answer or update into the
 * plain, bounded data the panel shows. Only `select` options are kept: Elicit
 * does not advertise boolean ones, so an agent sends those as selects. Pure.
 */
import { MAX_CONFIG_ID_LENGTH, type ConfigOptionView, type ConfigValueView } from '../core/protocols/agentPanelProtocol';

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
  if (!isRecord(item) || (item.type !== undefined && item.type !== 'select')) return undefined;
  const { id, name, currentValue } = item;
  if (!isId(id) || typeof name !== 'string' || name.trim() === '' || !isId(currentValue)) return undefined;
  const values = readValues(item.options);
  if (values.length === 0) return undefined;
  // A current value the agent did not list is still what is in force: shown under its id.
  if (!values.some((v) => v.value === currentValue)) values.unshift({ value: currentValue, name: clip(currentValue, 80) });
  const option: ConfigOptionView = { id, name: clip(name, 80), current: currentValue, values };
  if (typeof item.description === 'string' && item.description !== '') option.description = clip(item.description, 300);
  if (typeof item.category === 'string' && item.category !== '') option.category = clip(item.category, 40);
  return option;
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

/** A value's name as the agent gave it (its id when it has none). */
export function configValueName(option: ConfigOptionView | undefined, value: string): string {
  return option?.values.find((v) => v.value === value)?.name ?? value;
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_CONFIG_ID_LENGTH;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
