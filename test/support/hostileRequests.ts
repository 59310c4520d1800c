/**
 * A hostile generator (fast-check) of requests that are costly to read: many
 * fields, costly patterns with long defaults and many examples, patterns costly
 * to compile (classes of many Unicode properties, each new to the host), long text
 * with invisible characters, huge option lists, many questions at once. Used by the
 * suite (test/unit/hostStall.test.ts) and by the bench (hostBlockWorstMs).
 */
import fc from 'fast-check';
import { Broker } from '../../src/core/broker/broker';
import { BurstGrouper } from '../../src/core/broker/burst';
import type { ElicitRequest, FormRequest } from '../../src/core/request';
import { TurnLane } from '../../src/core/time/turnLane';
import { COSTLY_PATTERN, costlyClass } from '../fixtures/stall-cases.mjs';

const EMAIL_PATTERN = '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,63}$';
/** Option lists shared between fields: the generator stays small, the requests do not. */
const OPTIONS = new Map([3, 1_000, 10_000].map((n) => [n, Array.from({ length: n }, (_, i) => `option-${i}`)]));
const TITLED = new Map(
  [3, 1_000, 10_000].map((n) => [n, OPTIONS.get(n)!.map((value) => ({ const: value, title: `\u202e${value}\u202c` }))]),
);

const costlyText = fc.record({
  pattern: fc.constantFrom(COSTLY_PATTERN, EMAIL_PATTERN),
  defaultLength: fc.constantFrom(0, 10, 500, 999),
  examples: fc.integer({ min: 0, max: 20 }),
  exampleLength: fc.constantFrom(1, 50, 200),
});

/** Issue #57: a pattern made new by its own character (a CJK ideograph), of 1 to 25 classes costly to compile, shared or its own. */
const costlyToCompile = fc
  .record({ own: fc.integer({ min: 0x4e00, max: 0x9fff }), copies: fc.constantFrom(1, 5, 25), ownClass: fc.boolean() })
  .map(({ own, copies, ownClass }) => {
    const char = String.fromCodePoint(own);
    return { type: 'string', pattern: char + costlyClass(ownClass ? char : '').repeat(copies) };
  });

const field = fc.oneof(
  costlyToCompile,
  costlyText.map(({ pattern, defaultLength, examples, exampleLength }) => ({
    type: 'string',
    pattern,
    ...(defaultLength > 0
      ? { default: pattern === COSTLY_PATTERN ? `${'a'.repeat(defaultLength)}b` : `${'a'.repeat(defaultLength)}@example.com` }
      : {}),
    examples: Array.from({ length: examples }, () => 'a'.repeat(exampleLength)),
  })),
  fc
    .constantFrom(100, 10_000, 100_000)
    .map((n) => ({ type: 'string', title: '\u202e'.repeat(200), description: '\u202e\u200b'.repeat(n / 2) })),
  fc.constantFrom(3, 1_000, 10_000).map((n) => ({ type: 'string', enum: OPTIONS.get(n), default: OPTIONS.get(n)!.at(-1) })),
  fc.constantFrom(3, 1_000, 10_000).map((n) => ({ type: 'string', oneOf: TITLED.get(n) })),
  fc
    .constantFrom(3, 1_000, 10_000)
    .map((n) => ({ type: 'array', items: { type: 'string', enum: OPTIONS.get(n) }, default: OPTIONS.get(n) })),
  fc.constant({ type: 'integer', minimum: 60, maximum: 180, default: 120 }),
);

export const hostileForm = fc.array(field, { minLength: 1, maxLength: 100, size: 'max' }).map((fields) => ({
  type: 'object',
  properties: Object.fromEntries(fields.map((f, i) => [`f${i}`, f])),
}));

/** How the questions arrive: one at a time through the burst grouper (2025-era), as one round, or straight to the broker (ACP, ask_user). */
export type Door = 'burst' | 'round' | 'direct';

export const hostileBatch = fc.record({
  door: fc.constantFrom<Door>('burst', 'round', 'direct'),
  forms: fc.array(hostileForm, { minLength: 1, maxLength: 20, size: 'max' }),
});

export type HostileBatch = { door: Door; forms: object[] };

/** A short description of a batch, for a report. */
export function describeBatch(batch: HostileBatch): string {
  const fields = batch.forms.map((f) => Object.keys((f as { properties: object }).properties).length);
  const bytes = batch.forms.reduce((sum, f) => sum + JSON.stringify(f).length, 0);
  return `${batch.forms.length} question(s) through ${batch.door}, ${fields.join('+')} fields, ${(bytes / 1024).toFixed(0)} KB`;
}

/**
 * Sends the batch as one chunk of a server's output would arrive (all in one turn of the
 * event loop) to a real broker with the host's reading lane, each question declined as soon
 * as it is drawn; resolves when every question has settled.
 */
export async function sendBatch(batch: HostileBatch): Promise<void> {
  // The broker and the grouper share one lane, as in the extension.
  const lane = new TurnLane();
  const broker = new Broker(
    { render: async () => ({ action: 'decline' }) },
    { timeoutMs: () => 60_000, maxPendingPerAsker: () => 5, presentation: () => 'form', readingLane: lane },
  );
  const asker = { kind: 'mcp' as const, name: 'hostile' };
  const settle = (p: Promise<unknown>): Promise<unknown> => p.catch(() => undefined);
  if (batch.door === 'round') {
    const sections = batch.forms.map((requestedSchema, i) => ({ key: `q${i}`, message: `Question ${i}`, requestedSchema }));
    const request: ElicitRequest = { mode: 'group', asker, message: 'A round', sections };
    await settle(broker.ask(request));
    return;
  }
  const grouper = new BurstGrouper((request) => broker.ask(request), undefined, lane);
  const requests = batch.forms.map((requestedSchema, i): FormRequest => ({
    mode: 'form',
    asker,
    message: `Question ${i}`,
    requestedSchema,
  }));
  await Promise.all(requests.map((r) => settle(batch.door === 'burst' ? grouper.add(r) : broker.ask(r))));
}
