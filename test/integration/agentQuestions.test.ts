/**
 * Today's agents' questions through the ACP client: the fixture agent (official
 * SDK) sends codex-acp's blocking and non-blocking forms and claude-agent-acp's
 * AskUserQuestion form exactly as those agents do (test/fixtures/agent-questions.mjs);
 * the real broker draws them; a scripted person answers as the form page does
 * (widget values, "Other…" chosen and text typed, collected by formState); the
 * assertions are on the answer the agent recorded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AcpConnection } from '../../src/acp/connection';
import type { Broker, Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import { collectAnswer, startingValues, type RawValues } from '../../src/core/form/formState';
import { OTHER_CHOICE, questionFields } from '../../src/core/form/otherAnswer';
import { NONE_OF_THE_ABOVE } from '../fixtures/agent-questions.mjs';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { scriptedBroker } from '../support/scriptedRenderer';
import { waitUntil } from '../support/waitUntil';

const agentFile = join(__dirname, '..', 'fixtures', 'acp-agent.mjs');
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'elicit-acp-questions-')));

/** A person at the form: starts from what the page shows, changes these widgets, submits. */
function answerAsPerson(question: Question, changes: RawValues): ElicitResult {
  const form = question.form!;
  const { content, errors } = collectAnswer(form, { ...startingValues(form, {}, undefined), ...changes });
  assert.deepEqual(errors, {}, 'the page would refuse this answer');
  return { action: 'accept', content };
}

describe('today’s agents’ questions through the ACP client', () => {
  let connection: AcpConnection;
  let record: string;
  let sessionId: string;
  const answers: Array<(q: Question, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>> = [];
  const seen: Question[] = [];
  let broker: Broker;

  /** A connection to the fixture agent whose questions go to the scripted person. */
  function fixtureConnection(): AcpConnection {
    return new AcpConnection(
      { name: 'fixture', command: process.execPath, args: [agentFile], env: { RECORD_FILE: record, FIXTURE_NAME: 'fixture' } },
      {
        ask: (request) => broker.ask(request),
        permission: () => Promise.reject(new Error('no permission expected')),
        readTextFile: () => Promise.reject(new Error('no file expected')),
        writeTextFile: () => Promise.reject(new Error('no file expected')),
        roots: () => [workspace],
        log: () => undefined,
        defaultCwd: workspace,
      },
    );
  }

  before(async () => {
    record = newRecordFile();
    ({ broker } = scriptedBroker((q, signal) => {
      seen.push(q);
      const next = answers.shift();
      assert.ok(next, `an unexpected question arrived: ${q.request.message}`);
      return next(q, signal);
    }));
    connection = fixtureConnection();
    await connection.start();
    ({ sessionId } = await connection.newSession(workspace));
  });
  after(async () => {
    await connection.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function ask(shape: string, scenario = 'agent-question'): Promise<unknown> {
    const turns = readRecords(record).filter((r) => r.kind === 'turn-end').length;
    await connection.prompt(sessionId, `${scenario} ${shape}`);
    await waitForRecords(record, turns + 1, (r) => r.kind === 'turn-end');
    const got = readRecords(record).filter((r) => r.kind === 'agent-question');
    assert.ok(got.length > 0, 'the agent recorded no answer');
    const last = got[got.length - 1]!;
    assert.equal(last.error, undefined, `the agent got an error: ${JSON.stringify(last.error)}`);
    return last.result;
  }

  it('codex blocking question: Other… reaches codex as "None of the above" with the note; the secret as typed', async () => {
    answers.push((q) => {
      assert.deepEqual(
        questionFields(q.form!).map((f) => f.name),
        ['next_step', 'deploy_token'],
        'two questions, the note inside the first',
      );
      return answerAsPerson(q, { next_step: OTHER_CHOICE, next_step_note: 'Inspect flaky logs', deploy_token: 'tok-7' });
    });
    assert.deepEqual(await ask('codex-blocking'), {
      action: 'accept',
      content: { next_step: NONE_OF_THE_ABOVE, next_step_note: 'Inspect flaky logs', deploy_token: 'tok-7' },
    });
  });

  it("codex's own timer (autoResolutionMs) reaches the question as its deadline, and the agent's cancel at the end closes it", async () => {
    let closedAfter: number | undefined;
    let deadline: number | undefined;
    const asked = Date.now();
    answers.push(
      (q, signal) =>
        new Promise<ElicitResult>((resolve) => {
          deadline = q.request.autoResolvesAt;
          signal.addEventListener('abort', () => {
            closedAfter = Date.now() - asked;
            resolve({ action: 'cancel' });
          });
        }),
    );
    const told: Array<number | undefined> = [];
    const events = connection.onEvent((e) => e.kind === 'question' && told.push(e.info.autoResolvesAt));
    const result = await ask('codex-blocking 1500', 'agent-question-timed');
    events.dispose();
    assert.ok(deadline !== undefined && deadline >= asked + 1500 && deadline <= Date.now() + 1500, `deadline ${deadline}`);
    // The agent panel's transcript card counts the same deadline down.
    assert.deepEqual(told, [deadline, deadline]);
    assert.ok(closedAfter !== undefined && closedAfter >= 1400, `the question closed when codex gave up (${closedAfter} ms)`);
    // The cancelled request is answered "cancel"; codex-acp has gone on with no answers by then.
    assert.deepEqual(result, { action: 'cancel' });
  });

  it('codex non-blocking question: one answered with an option, one with Other…, each question’s own fields', async () => {
    answers.push((q) => {
      assert.equal(questionFields(q.form!).length, 2);
      return answerAsPerson(q, { question_0: 'SQLite', question_1: OTHER_CHOICE, question_1_note: 'Only if the schema changes' });
    });
    assert.deepEqual(await ask('codex-async'), {
      action: 'accept',
      content: { question_0: 'SQLite', question_1: NONE_OF_THE_ABOVE, question_1_note: 'Only if the schema changes' },
    });
  });

  it('claude AskUserQuestion: Other… on the single-select, options plus Other… on the multi-select', async () => {
    answers.push((q) => {
      assert.equal(questionFields(q.form!).length, 2);
      return answerAsPerson(q, {
        question_0: OTHER_CHOICE,
        question_0_custom: 'yarn',
        question_1: ['Lint', 'Tests', OTHER_CHOICE],
        question_1_custom: 'Format check',
      });
    });
    assert.deepEqual(await ask('claude-ask'), {
      action: 'accept',
      content: { question_0_custom: 'yarn', question_1: ['Lint', 'Tests'], question_1_custom: 'Format check' },
    });
  });

  // A question left in front of the person after its turn ended belongs to the agent's process: it goes with it.
  it('codex non-blocking question withdrawn at the end of its turn stays, marked turn ended, and closes when the agent exits', async () => {
    const agent = fixtureConnection();
    await agent.start();
    const own = await agent.newSession(workspace);
    let turnEnded: AbortSignal | undefined;
    let closed = false;
    answers.push(
      (q, signal) =>
        new Promise<ElicitResult>((resolve) => {
          turnEnded = q.request.mode === 'form' ? q.request.nonBlocking?.turnEnded : undefined;
          signal.addEventListener('abort', () => {
            closed = true;
            resolve({ action: 'cancel' });
          });
        }),
    );
    try {
      // The agent withdraws it after 800 ms ($/cancel_request) and ends its turn.
      await agent.prompt(own.sessionId, 'agent-question-withdrawn codex-async 800');
      await waitUntil(() => turnEnded?.aborted === true, 'the question is marked turn ended');
      assert.equal(closed, false, 'a withdrawn question stays in front of the person (Dismiss)');
      assert.equal(broker.pending().length, 1);
    } finally {
      await agent.stop();
    }
    await waitUntil(() => closed, 'the question closes when its agent exits');
    await waitUntil(() => broker.pending().length === 0, 'nothing is left pending');
  });
});
