/** RecordCursor (test/support/records.ts): a test reads only the records of calls it started. */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { newRecordFile, RecordCursor } from '../support/records';

const write = (file: string, record: Record<string, unknown>): void => appendFileSync(file, JSON.stringify(record) + '\n');

describe('RecordCursor', () => {
  it("never reads a record of a call started before the test began, though written after (a late answer, the known-editor step's Decline)", async () => {
    const file = newRecordFile();
    const records = new RecordCursor(file);
    write(file, { tool: 'ask_name', callStarted: Date.now() - 5000, result: { action: 'accept' } });
    records.begin();
    write(file, { tool: 'ask_name', callStarted: Date.now() - 1000, result: { action: 'decline' } });
    write(file, { tool: 'ask_name', result: { action: 'decline' } });
    assert.deepEqual(records.mine(), []);
    await assert.rejects(records.next(undefined, 200), /no new record of this test's calls/);
    write(file, { tool: 'ask_name', callStarted: Date.now(), result: { action: 'cancel' } });
    assert.deepEqual((await records.next()).result, { action: 'cancel' });
  });

  it('returns each record once, in the order written, of the tool named or those a filter keeps', async () => {
    const file = newRecordFile();
    const records = new RecordCursor(file);
    records.begin();
    const now = Date.now();
    write(file, { tool: 'ask_key', callStarted: now, n: 1 });
    write(file, { tool: 'ask_name', callStarted: now, n: 2 });
    write(file, { tool: 'ask_key', callStarted: now, n: 3 });
    assert.equal((await records.next('ask_name')).n, 2);
    assert.equal((await records.next()).n, 1);
    assert.deepEqual(
      records.unread().map((r) => r.n),
      [3],
    );
    assert.equal((await records.next((r) => r.tool === 'ask_key')).n, 3);
    assert.deepEqual(records.unread(), []);
    assert.equal(records.mine('ask_key').length, 2);
  });

  it('skip() takes what came so far as read; begin() starts afresh', async () => {
    const file = newRecordFile();
    const records = new RecordCursor(file);
    records.begin();
    write(file, { kind: 'session', callStarted: Date.now(), n: 1 });
    records.skip((r) => r.kind === 'session');
    assert.deepEqual(records.unread(), []);
    const next = records.next((r) => r.kind === 'session', 2000);
    write(file, { kind: 'session', callStarted: Date.now(), n: 2 });
    assert.equal((await next).n, 2);
    await new Promise((r) => setTimeout(r, 5));
    records.begin();
    assert.deepEqual(records.mine(), []);
  });

  it('reads nothing before begin()', () => {
    const file = newRecordFile();
    write(file, { tool: 'ask_name', callStarted: Date.now() });
    assert.deepEqual(new RecordCursor(file).mine(), []);
  });
});
