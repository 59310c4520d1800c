/**
 * The four string formats an elicitation schema may name, checked as a person
 * types. Small on purpose: the form's page carries this code, and ajv-formats'
 * full table (every JSON Schema format, 7 KB in the page) is not needed there.
 * The host's ajv check with ajv-formats stays the authority on submit; these
 * checks never refuse what it accepts (test/unit/textFormats.test.ts compares
 * the two), so a person is never stopped by the live check alone.
 */
import type { TextFormat } from './fields';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339 time with its offset (a date-time without one names no instant). */
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|[+-](\d{2})(?::?(\d{2}))?)$/i;
/** name@domain.tld: no spaces, one @, a dot-separated domain of at least two labels. */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
/** A scheme, a colon, then no whitespace: the shape every absolute URI has. */
const URI = /^[a-z][a-z0-9+.-]*:\S*$/i;

export function matchesTextFormat(format: TextFormat, value: string): boolean {
  switch (format) {
    case 'email':
      return EMAIL.test(value);
    case 'uri':
      return URI.test(value);
    case 'date':
      return isDate(value);
    case 'date-time': {
      const at = value.search(/[t\s]/i);
      return at > 0 && isDate(value.slice(0, at)) && isTime(value.slice(at + 1));
    }
  }
}

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isTime(text: string): boolean {
  const m = TIME.exec(text);
  if (!m) return false;
  const [hours, minutes, seconds] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const offsetOk = m[4] === undefined || (Number(m[4]) <= 23 && Number(m[5] ?? 0) <= 59);
  // A leap second (:60) is left to the host's check, which knows when one may fall.
  return hours <= 23 && minutes <= 59 && seconds <= 60 && offsetOk;
}
