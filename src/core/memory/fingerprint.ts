/**
 * What makes two questions the same question: every string and rule the
 * person saw, taken from the field model (what every renderer draws), so a
 * schema written with its keys in another order is the same question and a
 * `oneOf` whose title changes from "Keep" to "Delete all" is another one.
 */
import { createHash } from 'node:crypto';
import type { Field } from '../form/fields';

/**
 * The question's fingerprint: what the asker is doing as the title says it
 * ("tool get_forecast": a "Proceed?" for one tool is not one for another), its
 * message and each field's kind, type, format, title, description,
 * requirement, range, pattern, default and options (values and titles), as
 * canonical JSON, hashed.
 */
export function questionFingerprint(message: string, fields: readonly Field[], detail?: string): string {
  const shown = fields.map(shownField).sort((a, b) => compare(a.property, b.property));
  return createHash('sha256')
    .update(canonicalJson({ detail, message, fields: shown }))
    .digest('hex');
}

/** A field as the person saw it, under the asker's own property name (composed group names left out). */
function shownField(field: Field): Record<string, unknown> & { property: string } {
  const { name, property, section, ...rest } = field;
  void section;
  return { ...rest, property: property ?? name };
}

/** JSON with every object's keys sorted and undefined members dropped: one text per value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => compare(a, b));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
