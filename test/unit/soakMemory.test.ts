import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostLines, hostMeasures, RSS_GROWTH_GOAL } from '../soak/runSoak';

const MB = 1024 * 1024;

/** The driver's lines for one host: its start and its end, RSS raw and once V8 gave back its free pages. */
function driverLines(rss: { start: number; end: number }, trimmed?: { start: number; end: number }): Array<Record<string, unknown>> {
  const memory = (bytes: number) => ({ rss: bytes, heapTotal: 0, heapUsed: 0, external: 2 * MB, arrayBuffers: 0 });
  return [
    {
      started: 50,
      heapAtStart: 80 * MB,
      memory: memory(rss.start),
      rssParts: { RssAnon: rss.start - 60 * MB },
      ...(trimmed ? { trimmed: { rss: trimmed.start, rssParts: { RssAnon: trimmed.start - 60 * MB } } } : {}),
      at: Date.now() - 5 * 60_000,
    },
    {
      measured: {
        worstBlockMs: 250,
        p99BlockMs: 40,
        heapAfterGc: 90 * MB,
        memory: memory(rss.end),
        rssParts: { RssAnon: rss.end - 60 * MB },
        ...(trimmed ? { trimmed: { rss: trimmed.end, rssParts: { RssAnon: trimmed.end - 60 * MB } } } : {}),
      },
    },
  ];
}

describe('the soak report of the host memory', () => {
  it('says RSS once V8 gave back its free pages, with the goal met or not', () => {
    const met = hostMeasures(driverLines({ start: 320 * MB, end: 450 * MB }, { start: 250 * MB, end: 280 * MB }))!;
    assert.equal(met.trimmedAtStart?.rss, 250 * MB);
    assert.equal(met.trimmedAtEnd?.rss, 280 * MB);
    const lines = hostLines(met);
    assert.ok(lines.includes('extension host RSS: 320.0 MB at the start, 450.0 MB at the end (130.0 MB growth)'), lines.join('\n'));
    assert.ok(
      lines.includes(
        `extension host RSS once V8 gave back its free pages: 250.0 MB at the start, 280.0 MB at the end (30.0 MB growth; goal at most ${RSS_GROWTH_GOAL / MB}.0 MB: met)`,
      ),
      lines.join('\n'),
    );

    const over = hostLines(hostMeasures(driverLines({ start: 320 * MB, end: 450 * MB }, { start: 250 * MB, end: 331 * MB }))!);
    assert.ok(
      over.some((line) => line.endsWith('(81.0 MB growth; goal at most 50.0 MB: NOT met)')),
      over.join('\n'),
    );
  });

  it('reads a log from before the trimmed measure without it', () => {
    const host = hostMeasures(driverLines({ start: 320 * MB, end: 450 * MB }))!;
    assert.equal(host.trimmedAtEnd, undefined);
    assert.ok(!hostLines(host).some((line) => line.includes('free pages')));
  });
});
