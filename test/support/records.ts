/** Reads the JSON lines a fixture server appended to its record file. */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function newRecordFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'elicit-record-')), 'record.jsonl');
}

export function readRecords(file: string): Array<Record<string, unknown>> {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.pop(); // text after the last newline is a record still being appended
  return lines.filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits until `count` records (those matching `which`, when given) are in the file. */
export async function waitForRecords(
  file: string,
  count: number,
  which: (record: Record<string, unknown>) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<Array<Record<string, unknown>>> {
  const start = Date.now();
  for (;;) {
    const records = readRecords(file).filter(which);
    if (records.length >= count) return records;
    if (Date.now() - start > timeoutMs) throw new Error(`expected ${count} records in ${file}, found ${records.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
