/**
 * package.json as VS Code reads it: every "%key%" placeholder replaced by its
 * English text from package.nls.json, so tests check what a person sees.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const repoRoot = path.join(__dirname, '..', '..');

export function readRawManifest(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
}

export function readNls(): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
}

const PLACEHOLDER = /^%([^%]+)%$/;

/** The keys of package.nls.json that package.json refers to, in order of appearance. */
export function placeholderKeys(value: unknown = readRawManifest()): string[] {
  if (typeof value === 'string') {
    const match = PLACEHOLDER.exec(value);
    return match ? [match[1]!] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item) => placeholderKeys(item));
  if (value && typeof value === 'object') return Object.values(value).flatMap((item) => placeholderKeys(item));
  return [];
}

function localize(value: unknown, nls: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const match = PLACEHOLDER.exec(value);
    if (!match) return value;
    const text = nls[match[1]!];
    if (text === undefined) throw new Error(`package.nls.json has no "${match[1]}"`);
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => localize(item, nls));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localize(v, nls)]));
  return value;
}

/** package.json with its placeholders filled in from the English bundle. */
export function readManifest<T = Record<string, unknown>>(): T {
  return localize(readRawManifest(), readNls()) as T;
}
