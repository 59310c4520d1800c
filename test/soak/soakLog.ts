/** The soak's JSON-lines logs (servers', harness's, driver's), read whole; a missing file is an empty log. */
import * as fs from 'node:fs';
import type { LedgerEvent } from './ledger';

/** A soak server's log line, loosely: what the e2e tests that run one look at. */
export interface SoakLogLine {
  event: string;
  question?: string;
  fate?: string;
  message?: string;
  at: number;
}

export function readSoakLog<T = LedgerEvent>(file: string): T[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
