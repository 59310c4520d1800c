/**
 * The soak's ledger (test/soak/ledger.ts, issue #37) judges a run from the askers' logs, the
 * harness's faults and the person's answers. A clean run has no problem; each kind of fault the
 * soak exists to catch, planted alone into an otherwise clean run, is found and named.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatReport, judge, type LedgerEvent } from '../soak/ledger';

/** A clean run: answered by the phone, declined in the editor, one withdrawn by its asker, one gone with its killed asker. */
function cleanRun(): LedgerEvent[] {
  return [
    { event: 'asked', asker: 's01', question: 's01-1', at: 1 },
    { event: 'gave', question: 's01-1', via: 'phone', action: 'accept', content: { token: 's01-1', bpm: 120 }, at: 2 },
    { event: 'fate', asker: 's01', question: 's01-1', fate: 'answered', content: { bpm: 120, token: 's01-1' }, at: 3 },
    { event: 'asked', asker: 's02', question: 's02-1', at: 4 },
    { event: 'gave', question: 's02-1', via: 'editor', action: 'decline', at: 5 },
    { event: 'fate', asker: 's02', question: 's02-1', fate: 'declined', at: 6 },
    { event: 'asked', asker: 's02', question: 's02-2', at: 7 },
    { event: 'fault', kind: 'asker cancels', asker: 's02', at: 8 },
    { event: 'fate', asker: 's02', question: 's02-2', fate: 'withdrawn', at: 8 },
    { event: 'asked', asker: 's03', question: 's03-1', at: 9 },
    { event: 'fault', kind: 'server killed', asker: 's03', at: 10 },
    { event: 'died', asker: 's03', at: 10 },
    { event: 'asked', asker: 's03', question: 's03-2', at: 11 },
    { event: 'fate', asker: 's03', question: 's03-2', fate: 'cancelled', at: 12 },
  ];
}

describe('soak ledger', () => {
  it('finds nothing wrong in a clean run, and counts each fate, fault and answer', () => {
    const report = judge(cleanRun());
    assert.deepEqual(report.problems, []);
    assert.equal(report.asked, 5);
    assert.deepEqual(report.fates, { answered: 1, declined: 1, cancelled: 1, withdrawn: 1, error: 0, 'gone with its asker': 1 });
    assert.deepEqual(report.faults, { 'asker cancels': 1, 'server killed': 1 });
    assert.deepEqual(report.given, { phone: 1, editor: 1 });
    assert.match(formatReport(report), /problems: none/);
  });

  it('names a question that never ended while its asker lived', () => {
    const events = cleanRun().filter((e) => !(e.event === 'fate' && e.question === 's03-2'));
    assert.deepEqual(
      judge(events).problems.map((p) => [p.kind, p.question]),
      [['no fate', 's03-2']],
    );
  });

  it('names a question with two fates (answered twice, or answered and cancelled)', () => {
    const events: LedgerEvent[] = [...cleanRun(), { event: 'fate', asker: 's02', question: 's02-1', fate: 'cancelled', at: 13 }];
    assert.deepEqual(
      judge(events).problems.map((p) => [p.kind, p.question]),
      [['two fates', 's02-1']],
    );
  });

  it('names an answer that reached another asker', () => {
    const events = cleanRun().map((e) =>
      e.event === 'fate' && e.question === 's01-1' ? { ...e, content: { token: 's02-1', bpm: 120 } } : e,
    );
    const problems = judge(events).problems;
    assert.deepEqual(
      problems.map((p) => [p.kind, p.question]),
      [['wrong asker', 's01-1']],
    );
    assert.match(problems[0]!.detail, /s02-1/);
  });

  it('names an answer the person did not give (changed on the way, or made up)', () => {
    const changed = cleanRun().map((e) =>
      e.event === 'fate' && e.question === 's01-1' ? { ...e, content: { token: 's01-1', bpm: 121 } } : e,
    );
    const kinds = judge(changed).problems.map((p) => p.kind);
    assert.deepEqual(kinds, ['not given', 'given, not delivered']);
  });

  it('names an answer Elicit took that never reached its living asker (an answer dropped on reload)', () => {
    const events = cleanRun().map((e) =>
      e.event === 'fate' && e.question === 's01-1' ? { ...e, fate: 'cancelled' as const, content: undefined } : e,
    );
    assert.deepEqual(
      judge(events).problems.map((p) => [p.kind, p.question]),
      [['given, not delivered', 's01-1']],
    );
  });

  it('lets an answer go when its asker went first: withdrawn, an error, or killed', () => {
    const events: LedgerEvent[] = [
      { event: 'asked', asker: 's04', question: 's04-1', at: 1 },
      { event: 'gave', question: 's04-1', via: 'phone', action: 'accept', content: { token: 's04-1' }, at: 2 },
      { event: 'died', asker: 's04', at: 3 },
    ];
    const report = judge(events);
    assert.deepEqual(report.problems, []);
    assert.equal(report.fates['gone with its asker'], 1);
  });

  it('names a fate, or an answer, for a question no asker asked', () => {
    const events: LedgerEvent[] = [
      ...cleanRun(),
      { event: 'fate', asker: 's05', question: 's05-9', fate: 'answered', content: { token: 's05-9' }, at: 20 },
      { event: 'gave', question: 's06-1', via: 'phone', action: 'decline', at: 21 },
    ];
    assert.deepEqual(
      judge(events).problems.map((p) => [p.kind, p.question]),
      [
        ['never asked', 's05-9'],
        ['never asked', 's06-1'],
      ],
    );
  });

  it('takes a recurring question answered from memory with the remembered answer, and names one answered otherwise', () => {
    const colour = { colour: 'green' };
    const recurring = (n: number, content: Record<string, unknown>): LedgerEvent[] => [
      { event: 'asked', asker: 'r01', question: `r01-${n}`, recurring: true, at: 20 + n },
      { event: 'fate', asker: 'r01', question: `r01-${n}`, fate: 'answered', content, at: 21 + n },
    ];
    const remembered: LedgerEvent = { event: 'remembered', asker: 'r01', content: colour, at: 20 };
    const clean = judge([...cleanRun(), remembered, ...recurring(1, colour), ...recurring(2, colour), ...recurring(3, colour)]);
    assert.deepEqual(clean.problems, []);
    assert.deepEqual(clean.given, { phone: 1, editor: 2, memory: 2 });

    const otherAnswer = judge([...cleanRun(), remembered, ...recurring(1, colour), ...recurring(2, { colour: 'red' })]);
    assert.deepEqual(
      otherAnswer.problems.map((p) => [p.kind, p.question]),
      [['not given', 'r01-2']],
    );
    const neverChosen = judge([...cleanRun(), ...recurring(1, colour)]);
    assert.deepEqual(
      neverChosen.problems.map((p) => [p.kind, p.question]),
      [['not given', 'r01-1']],
    );
  });

  it('names an asker that fell silent: configured, and asking nothing in the last stretch before the stop', () => {
    const run: LedgerEvent[] = [
      { event: 'asker', asker: 's01', at: 0 },
      { event: 'asker', asker: 's02', at: 0 },
      { event: 'asker', asker: 's03', at: 0 },
      { event: 'asked', asker: 's01', question: 's01-1', at: 1_000 },
      { event: 'fate', asker: 's01', question: 's01-1', fate: 'cancelled', at: 1_100 },
      { event: 'asked', asker: 's02', question: 's02-1', at: 95_000 },
      { event: 'fate', asker: 's02', question: 's02-1', fate: 'cancelled', at: 95_100 },
      { event: 'stopped asking', at: 100_000 },
    ];
    assert.deepEqual(
      judge(run, 45_000).problems.map((p) => [p.kind, p.question, p.detail]),
      [
        ['silenced', 's01', 'asked nothing in the last 99 s before the stop'],
        ['silenced', 's03', 'never asked before the stop'],
      ],
    );
    // A run shorter than the silence allowed judges no silence.
    assert.deepEqual(judge(run, 120_000).problems, []);
  });

  it("counts a round whose caller's tool call failed as reported to its asker, and its answer as not owed", () => {
    const events: LedgerEvent[] = [
      { event: 'asked', asker: 'm01', question: 'm01-c1', at: 1 },
      { event: 'gave', question: 'm01-c1', via: 'phone', action: 'accept', content: { token: 'm01-c1' }, at: 2 },
      { event: 'call failed', question: 'm01-c1', message: 'connection dropped', at: 3 },
      // A call that failed before its server asked anything is no question at all.
      { event: 'call failed', question: 'm01-c2', at: 4 },
    ];
    const report = judge(events);
    assert.deepEqual(report.problems, []);
    assert.equal(report.fates.error, 1);
    assert.equal(report.asked, 1);
  });

  it("finds a task's question left waiting at its server when its call ended and nothing kept the cancel from it", () => {
    const events: LedgerEvent[] = [
      // Cancelled at its server as its call ended: a fate there.
      { event: 'asked', asker: 'v01', question: 'v01-c1', task: true, at: 1 },
      { event: 'fate', asker: 'v01', question: 'v01-c1', fate: 'error', message: 'the client cancelled the task', at: 3 },
      { event: 'call failed', question: 'v01-c1', at: 3 },
      // Its server never heard.
      { event: 'asked', asker: 'v01', question: 'v01-c2', task: true, at: 4 },
      { event: 'call failed', question: 'v01-c2', at: 20_000 },
      // Its server hung 4 s before: the cancel may not have got through.
      { event: 'asked', asker: 'v02', question: 'v02-c3', task: true, at: 5 },
      { event: 'fault', kind: 'server hung', asker: 'v02', at: 16_000 },
      { event: 'call failed', question: 'v02-c3', at: 20_000 },
      // Its server was killed meanwhile.
      { event: 'asked', asker: 't01', question: 't01-c4', task: true, at: 6 },
      { event: 'died', asker: 't01', at: 7 },
      { event: 'call failed', question: 't01-c4', at: 8 },
      // A hang long before is no excuse.
      { event: 'asked', asker: 'v03', question: 'v03-c5', task: true, at: 9 },
      { event: 'fault', kind: 'server hung', asker: 'v03', at: 10 },
      { event: 'call failed', question: 'v03-c5', at: 30_000 },
    ];
    const report = judge(events);
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.question]),
      [
        ['task left waiting', 'v01-c2'],
        ['task left waiting', 'v03-c5'],
      ],
    );
    assert.equal(report.fates.error, 3);
  });

  it('holds a round kept across the reload to a fate at its asker, though the reload ended its process', () => {
    const events: LedgerEvent[] = [
      { event: 'asked', asker: 'm01', question: 'm01-p1', at: 1 },
      { event: 'kept round', question: 'm01-p1', at: 2 },
      { event: 'died', asker: 'm01', at: 3 },
      { event: 'gave', question: 'm01-p1', via: 'editor', action: 'accept', content: { token: 'm01-p1', n: 4 }, at: 4 },
      { event: 'fate', asker: 'm01', question: 'm01-p1', fate: 'answered', content: { token: 'm01-p1', n: 4 }, at: 5 },
    ];
    const finished = judge(events);
    assert.deepEqual(finished.problems, []);
    assert.deepEqual(finished.keptRounds, { kept: 1, answered: 1 });
    assert.match(formatReport(finished), /rounds kept across a reload: 1, answered after it: 1/);
    // The same round never finished: lost with the reload, which a kept round must not be.
    const lost = judge(events.slice(0, 4));
    assert.deepEqual(
      lost.problems.map((p) => [p.kind, p.question]),
      [
        ['no fate', 'm01-p1'],
        ['given, not delivered', 'm01-p1'],
      ],
    );
    assert.deepEqual(lost.keptRounds, { kept: 1, answered: 0 });
  });

  it('takes an answer sent as the phone went away as maybe given: it may reach its asker, and need not', () => {
    const sent: LedgerEvent = {
      event: 'gave',
      question: 's01-1',
      via: 'phone',
      action: 'accept',
      content: { token: 's01-1', bpm: 90 },
      uncertain: true,
      at: 2,
    };
    const reached: LedgerEvent[] = [
      { event: 'asked', asker: 's01', question: 's01-1', at: 1 },
      sent,
      { event: 'fate', asker: 's01', question: 's01-1', fate: 'answered', content: { token: 's01-1', bpm: 90 }, at: 3 },
    ];
    assert.deepEqual(judge(reached).problems, []);
    const lost: LedgerEvent[] = [
      { event: 'asked', asker: 's01', question: 's01-1', at: 1 },
      sent,
      { event: 'fate', asker: 's01', question: 's01-1', fate: 'cancelled', at: 3 },
    ];
    assert.deepEqual(judge(lost).problems, []);
  });
});
