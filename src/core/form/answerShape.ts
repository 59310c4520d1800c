/**
 * The shape of an answer's content as it comes from outside the host (the form page, a paired
 * phone, another window): a plain object of answer values. One guard for all of them, so no
 * client gets through a gap another's check closes. Small and free of ajv: the form page's
 * bundle carries it too.
 */
import type { AnswerValue, ElicitContent } from '../request';

/** An object made by a literal or JSON.parse (its prototype Object's or none), not an array, a Date or a class's instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Text, a finite number, yes/no, or a list of text. */
export function isAnswerValue(value: unknown): value is AnswerValue {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string');
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** A plain object of answer values. */
export function isAnswerContent(value: unknown): value is ElicitContent {
  return isPlainObject(value) && Object.values(value).every(isAnswerValue);
}
