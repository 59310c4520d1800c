/**
 * The random values and digests of device pairing. Tokens are 256 random bits,
 * so a plain SHA-256 is enough to keep them (nothing to guess), and every
 * comparison is of two digests of the same length in constant time, so the
 * time a refusal takes says nothing about how close a guess was.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Letters and digits a person cannot mix up (no 0/O, 1/I/L, U/V). */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';

/** A code of `length` characters of CODE_ALPHABET, each chosen without bias. */
export function randomCode(length: number, alphabet = CODE_ALPHABET): string {
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/** A long random secret for a cookie: 256 bits, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Whether `value` hashes to `expected`, in time that does not depend on where they differ. */
export function matchesDigest(value: string, expected: Buffer): boolean {
  const actual = digest(value);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
