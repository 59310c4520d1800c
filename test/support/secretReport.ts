/**
 * Reads the report the extension writes under ELICIT_TEST_REPORT: SecretStorage
 * keys and SHA-256 digests of their values, never the values themselves.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { waitUntil } from './waitUntil';

export function digestOf(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function readReport(file: string): Record<string, string | null> {
  if (!fs.existsSync(file)) return {};
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string | null>;
  } catch {
    return {}; // caught mid-write; the next poll reads the whole file
  }
}

/**
 * Waits until a key matching `key` holds `value`. On a timeout the error lists
 * every key and whether its digest matched, which says what went wrong.
 */
export async function waitForSavedSecret(
  file: string,
  key: string | ((key: string) => boolean),
  value: string,
  what = 'SecretStorage holds the secret',
): Promise<void> {
  const matches = typeof key === 'string' ? (k: string) => k === key : key;
  const digest = digestOf(value);
  await waitUntil(() => Object.entries(readReport(file)).some(([k, v]) => matches(k) && v === digest), what).catch((error: Error) => {
    const seen = Object.entries(readReport(file)).map(
      ([k, v]) => `${k}: ${v === digest ? 'matches' : v === null ? 'no value' : 'another value'}`,
    );
    const log = fs.existsSync(`${file}.log`)
      ? fs.readFileSync(`${file}.log`, 'utf8').trim().split('\n').slice(-8).join(' | ')
      : 'no write noted';
    throw new Error(
      `${error.message}; report ${fs.existsSync(file) ? `holds ${seen.length ? seen.join(', ') : 'no keys'}` : 'was never written'}; writes: ${log}`,
    );
  });
}
