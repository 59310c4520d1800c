/**
 * How a bounded number is best answered: a small whole-number range is a row
 * of choices (stars where the question is a rating), a wider one gets a
 * slider beside its box. Shared by the quick input, the form and the phone.
 */
import type { NumberField } from './fields';

/** A range of at most this many whole numbers is a row of choices. */
export const MAX_SCALE_VALUES = 10;

/** The words that make a small range a star rating, in the field's title or description. */
const RATING_WORDS = /\b(?:rate|rating|ratings|stars?|score)\b/i;

export interface Scale {
  /** Every value of the range, lowest first. */
  values: number[];
  /** Drawn as stars: the question names a rating and no value is below 0. */
  stars: boolean;
}

/** The row of choices for a small whole-number range; undefined for any other number field. */
export function numberScale(field: NumberField): Scale | undefined {
  const { minimum: min, maximum: max } = field;
  if (!field.integer || min === undefined || max === undefined) return undefined;
  const low = Math.ceil(min);
  const high = Math.floor(max);
  const count = high - low + 1;
  if (count < 2 || count > MAX_SCALE_VALUES) return undefined;
  const values = Array.from({ length: count }, (_, i) => low + i);
  const stars = low >= 0 && RATING_WORDS.test(`${field.label} ${field.description ?? ''}`);
  return { values, stars };
}

/** "★★★☆☆": `value` stars of the scale's highest (a 0 is all hollow). */
export function starsText(value: number, scale: Scale): string {
  const top = scale.values[scale.values.length - 1]!;
  return '★'.repeat(value) + '☆'.repeat(Math.max(0, top - value));
}

export interface SliderRange {
  min: number;
  max: number;
  /** What one arrow key press moves: 1 for whole numbers, else a round tenth-power near a hundredth of the range. */
  step: number;
}

/** The slider beside a number box with both bounds, where the range is not a row of choices. */
export function sliderRange(field: NumberField): SliderRange | undefined {
  const { minimum: min, maximum: max } = field;
  if (min === undefined || max === undefined || !(max > min) || numberScale(field)) return undefined;
  if (!Number.isFinite(max - min)) return undefined;
  if (field.integer) return Math.ceil(min) < Math.floor(max) ? { min: Math.ceil(min), max: Math.floor(max), step: 1 } : undefined;
  const step = 10 ** Math.floor(Math.log10((max - min) / 100));
  return { min, max, step: Math.min(step, 1) };
}
