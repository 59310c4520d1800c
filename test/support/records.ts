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

type Which = string | ((record: Record<string, unknown>) => boolean);

/**
 * One test's view of a record file whose fixture stamps each record with `callStarted`, when the call it
 * belongs to started (Date.now() on this machine): `begin()` (in a beforeEach, after the known-editor
 * step) forgets everything before, so a late answer to an earlier test's question, or the Decline
 * with which the known-editor step put that question away, is never read as this test's.
 */
export class RecordCursor {
  private since = Number.POSITIVE_INFINITY;
  /** This test's records already returned by next(), by their line in the file. */
  private readonly taken = new Set<number>();

  constructor(readonly file: string) {}

  begin(): void {
    this.since = Date.now();
    this.taken.clear();
  }

  /** This test's records (of the tool named, or those `which` keeps), with their line in the file. */
  private own(which?: Which): Array<{ line: number; record: Record<string, unknown> }> {
    const keep = typeof which === 'string' ? (r: Record<string, unknown>) => r.tool === which : (which ?? (() => true));
    return readRecords(this.file)
      .map((record, line) => ({ line, record }))
      .filter(({ record }) => typeof record.callStarted === 'number' && record.callStarted >= this.since && keep(record));
  }

  /** Every record of this test's calls (of the tool named, or those `which` keeps). */
  mine(which?: Which): Array<Record<string, unknown>> {
    return this.own(which).map(({ record }) => record);
  }

  /** This test's records next() has not returned yet: "nothing more was sent" is `unread().length === 0`. */
  unread(which?: Which): Array<Record<string, unknown>> {
    return this.own(which)
      .filter(({ line }) => !this.taken.has(line))
      .map(({ record }) => record);
  }

  /** Takes every record of this test's calls so far (of the tool named, or those `which` keeps) as read. */
  skip(which?: Which): void {
    for (const { line } of this.own(which)) this.taken.add(line);
  }

  /** Waits for the next record of this test's calls (of the tool named, or one `which` keeps). */
  async next(which?: Which, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    const start = Date.now();
    for (;;) {
      const found = this.own(which).find(({ line }) => !this.taken.has(line));
      if (found) {
        this.taken.add(found.line);
        return found.record;
      }
      if (Date.now() - start > timeoutMs) {
        const others = readRecords(this.file).slice(-5);
        throw new Error(
          `no new record${typeof which === 'string' ? ` of ${which}` : ''} of this test's calls in ${this.file} within ${timeoutMs} ms; ` +
            `the file's last records: ${JSON.stringify(others).slice(0, 1500)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
