/**
 * Today's agents' choice questions with a free-text companion, through the ACP
 * side's translation (src/acp/agentConventions.ts) and the form model: recognised
 * only in their exact shapes, asked as one question with an "Other…" answer, and
 * answered with exactly the fields the agent reads, under its own names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentElicitRequest, inElicitTerms, isNonBlocking } from '../../src/acp/agentConventions';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import type { ChoiceField, Field, FormModel, MultiChoiceField, TextField } from '../../src/core/form/fields';
import { collectAnswer, fieldProblemIn, makeDraft, readDraft, startingValues, type RawValues } from '../../src/core/form/formState';
import { composeGroup, splitGroupAnswer, summarizeAnswers } from '../../src/core/form/group';
import { normalize } from '../../src/core/form/normalize';
import { OTHER_CHOICE, OTHER_TEXT_MISSING, questionFields } from '../../src/core/form/otherAnswer';
import { choosePresentation } from '../../src/core/form/presentation';
import { checkAnswer } from '../../src/core/form/fieldRules';
import type { ElicitRequest } from '../../src/core/request';
import { claudeAskParams, codexAsyncParams, codexBlockingParams, NONE_OF_THE_ABOVE } from '../fixtures/agent-questions.mjs';

/** The schema an agent's params become on the ACP side, as every window and the phone receive it. */
function translated(params: Record<string, unknown>): unknown {
  const request = agentElicitRequest('elicitation/create', params, { kind: 'acp', name: 'agent' }, new AbortController().signal);
  assert.equal(request.mode, 'form');
  return (request as Extract<ElicitRequest, { mode: 'form' }>).requestedSchema;
}

const codex = (): FormModel => normalize(translated(codexBlockingParams('s')));
const codexAsync = (): FormModel => normalize(translated(codexAsyncParams('s')));
const claude = (): FormModel => normalize(translated(claudeAskParams('s')));

function field<K extends Field['kind']>(form: FormModel, name: string, kind: K): Extract<Field, { kind: K }> {
  const found = form.fields.find((f) => f.name === name);
  assert.ok(found, `no field ${name}`);
  assert.equal(found.kind, kind);
  return found as Extract<Field, { kind: K }>;
}

/** What the widgets hold when the person has done nothing, then these changes. */
function raws(form: FormModel, changes: RawValues): RawValues {
  return { ...startingValues(form, {}, undefined), ...changes };
}

describe('an agent question with an Other answer: detection', () => {
  it('codex (blocking): <id> with "None of the above" and <id>_note (role user_note, questionId) are one question', () => {
    const form = codex();
    assert.deepEqual(field(form, 'next_step', 'choice').other, { text: 'next_step_note', option: NONE_OF_THE_ABOVE });
    assert.equal(field(form, 'next_step_note', 'text').otherOf, 'next_step');
    assert.deepEqual(
      questionFields(form).map((f) => f.name),
      ['next_step', 'deploy_token'],
    );
  });

  it('codex (async): question_N / question_N_note are paired the same way', () => {
    const form = codexAsync();
    assert.deepEqual(field(form, 'question_0', 'choice').other, { text: 'question_0_note', option: NONE_OF_THE_ABOVE });
    assert.deepEqual(field(form, 'question_1', 'choice').other, { text: 'question_1_note', option: NONE_OF_THE_ABOVE });
    assert.equal(questionFields(form).length, 2);
  });

  it('claude: question_N (single or multi-select) and question_N_custom titled "Other" are one question', () => {
    const form = claude();
    assert.deepEqual(field(form, 'question_0', 'choice').other, { text: 'question_0_custom' });
    assert.deepEqual(field(form, 'question_1', 'multiChoice').other, { text: 'question_1_custom' });
    assert.equal(field(form, 'question_1_custom', 'text').otherOf, 'question_1');
    assert.equal(questionFields(form).length, 2);
  });

  describe('never merges an ordinary server’s fields', () => {
    const codexNote = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      type: 'string',
      title: 'Additional answer or note',
      _meta: { codex: { questionId: 'pick', role: 'user_note', isSecret: false } },
      ...extra,
    });
    const codexChoice = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      type: 'string',
      oneOf: [{ const: 'a' }, { const: NONE_OF_THE_ABOVE }],
      _meta: { codex: { isOther: true, isSecret: false } },
      ...extra,
    });
    const cases: Record<string, Record<string, unknown>> = {
      'the same names without _meta': { pick: { type: 'string', enum: ['a', NONE_OF_THE_ABOVE] }, pick_note: { type: 'string' } },
      'a note without role user_note': { pick: codexChoice(), pick_note: codexNote({ _meta: { codex: { questionId: 'pick' } } }) },
      'a note naming another question': {
        pick: codexChoice(),
        pick_note: codexNote({ _meta: { codex: { questionId: 'other', role: 'user_note' } } }),
      },
      'a note not named <id>_note': { pick: codexChoice(), remarks: codexNote() },
      'a choice without isOther': { pick: codexChoice({ _meta: { codex: { isOther: false } } }), pick_note: codexNote() },
      'a choice without "None of the above"': { pick: codexChoice({ oneOf: [{ const: 'a' }, { const: 'b' }] }), pick_note: codexNote() },
      'a required note': { pick: codexChoice(), pick_note: codexNote() },
      'a custom field not titled "Other"': {
        question_0: { type: 'string', enum: ['a', 'b'] },
        question_0_custom: { type: 'string', title: 'Custom' },
      },
      'a custom field with a pattern': {
        question_0: { type: 'string', enum: ['a', 'b'] },
        question_0_custom: { type: 'string', title: 'Other', pattern: '^x$' },
      },
      'a custom field beside a text question': { question_0: { type: 'string' }, question_0_custom: { type: 'string', title: 'Other' } },
      'a custom field of another name': { choice_0: { type: 'string', enum: ['a'] }, choice_0_custom: { type: 'string', title: 'Other' } },
    };
    for (const [name, properties] of Object.entries(cases)) {
      it(name, () => {
        const required = name === 'a required note' ? ['pick_note'] : [];
        const form = normalize(inElicitTerms({ type: 'object', properties, required }));
        for (const f of form.fields) {
          assert.equal((f as ChoiceField | MultiChoiceField).other, undefined, `${f.name} was paired`);
          assert.equal((f as TextField).otherOf, undefined, `${f.name} was paired`);
        }
        assert.equal(questionFields(form).length, form.fields.length);
      });
    }
  });
});

describe('an agent question with an Other answer: the answer the agent receives', () => {
  it('codex: a listed option is sent alone, even with text left in the Other box', () => {
    const form = codex();
    const { content, errors } = collectAnswer(
      form,
      raws(form, { next_step: 'Run tests', next_step_note: 'leftover', deploy_token: 'tok-1' }),
    );
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { next_step: 'Run tests', deploy_token: 'tok-1' });
  });

  it('codex: Other… sends "None of the above" and the text as the note', () => {
    const form = codex();
    const { content, errors } = collectAnswer(
      form,
      raws(form, { next_step: OTHER_CHOICE, next_step_note: 'Inspect flaky logs', deploy_token: 'tok-1' }),
    );
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { next_step: NONE_OF_THE_ABOVE, next_step_note: 'Inspect flaky logs', deploy_token: 'tok-1' });
    assert.deepEqual(validateAnswer(form, content), {}, 'the host’s check agrees');
  });

  it('Other… with nothing typed is refused, by the page and by the host', () => {
    const form = codex();
    const values = raws(form, { next_step: OTHER_CHOICE, deploy_token: 'tok-1' });
    assert.equal(collectAnswer(form, values).errors.next_step_note, OTHER_TEXT_MISSING);
    assert.equal(fieldProblemIn(form, values, field(form, 'next_step_note', 'text')), OTHER_TEXT_MISSING);
    assert.equal(checkAnswer(form, { next_step: NONE_OF_THE_ABOVE, deploy_token: 'tok-1' }).next_step_note, OTHER_TEXT_MISSING);
  });

  it('codex (async): nothing is required, and an unanswered question sends nothing', () => {
    const form = codexAsync();
    const { content, errors } = collectAnswer(form, raws(form, { question_1: OTHER_CHOICE, question_1_note: 'Only if needed' }));
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { question_1: NONE_OF_THE_ABOVE, question_1_note: 'Only if needed' });
  });

  it('claude single-select: Other… sends only question_N_custom; an option sends only question_N', () => {
    const form = claude();
    assert.deepEqual(collectAnswer(form, raws(form, { question_0: OTHER_CHOICE, question_0_custom: 'yarn' })).content, {
      question_0_custom: 'yarn',
    });
    assert.deepEqual(collectAnswer(form, raws(form, { question_0: 'pnpm', question_0_custom: 'yarn' })).content, { question_0: 'pnpm' });
  });

  it('claude multi-select: the ticked options and the Other… text, each in its own field', () => {
    const form = claude();
    const { content, errors } = collectAnswer(form, raws(form, { question_1: ['Lint', OTHER_CHOICE], question_1_custom: 'Format' }));
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { question_1: ['Lint'], question_1_custom: 'Format' });
    assert.deepEqual(validateAnswer(form, content), {});
    assert.deepEqual(
      collectAnswer(form, raws(form, { question_1: [OTHER_CHOICE], question_1_custom: 'Format' })).content,
      { question_1_custom: 'Format' },
      'Other… alone: the text is the whole answer',
    );
  });

  it('a group (a burst, a round) keeps the pair under composed names and splits it back to the agent’s names', () => {
    const params = codexBlockingParams('s');
    const form = composeGroup([{ key: 'r1', message: params.message, requestedSchema: translated(params) }]);
    assert.deepEqual(field(form, '0:next_step', 'choice').other, { text: '0:next_step_note', option: NONE_OF_THE_ABOVE });
    const { content } = collectAnswer(form, raws(form, { '0:next_step': OTHER_CHOICE, '0:next_step_note': 'Why', '0:deploy_token': 't' }));
    assert.deepEqual(splitGroupAnswer(form, { action: 'accept', content }).r1, {
      action: 'accept',
      content: { next_step: NONE_OF_THE_ABOVE, next_step_note: 'Why', deploy_token: 't' },
    });
  });
});

describe('an agent question with an Other answer: secrets and drafts', () => {
  it('codex isSecret masks the field, and a draft never keeps it', () => {
    const form = codex();
    assert.equal(field(form, 'deploy_token', 'text').secret, true);
    const draft = makeDraft(form, 7, raws(form, { next_step: OTHER_CHOICE, next_step_note: 'Why', deploy_token: 'tok-secret' }));
    assert.equal(JSON.stringify(draft).includes('tok-secret'), false);
    assert.deepEqual(readDraft(form, 7, draft), { next_step: OTHER_CHOICE, next_step_note: 'Why' }, 'Other… comes back chosen');
  });

  it('a secret question’s Other… text is masked too, and summarized as hidden', () => {
    const schema = structuredClone(codexBlockingParams('s').requestedSchema) as { properties: Record<string, Record<string, unknown>> };
    schema.properties.next_step!._meta = { codex: { isOther: true, isSecret: true } };
    schema.properties.next_step_note!._meta = { codex: { questionId: 'next_step', role: 'user_note', isSecret: true } };
    const form = normalize(inElicitTerms(schema));
    assert.equal(field(form, 'next_step_note', 'text').secret, true);
    const values = raws(form, { next_step: OTHER_CHOICE, next_step_note: 'hunter2', deploy_token: 't' });
    assert.equal(JSON.stringify(makeDraft(form, 1, values)).includes('hunter2'), false);
    const { content } = collectAnswer(form, values);
    const summary = summarizeAnswers(form, { action: 'accept', content }, 'm');
    assert.equal(JSON.stringify(summary).includes('hunter2'), false);
  });
});

describe('the presentation rule for agent questions', () => {
  it('a question with its Other… text counts as one step', () => {
    assert.equal(choosePresentation(claude(), 'auto'), 'quickInput', 'two questions, not four fields');
  });
});

describe('the translation itself', () => {
  it('never changes the agent’s own object, and keeps every field name', () => {
    const params = codexBlockingParams('s');
    const sent = JSON.stringify(params);
    const schema = translated(params) as { properties: Record<string, unknown> };
    assert.equal(JSON.stringify(params), sent);
    assert.deepEqual(Object.keys(schema.properties), Object.keys(params.requestedSchema.properties as object));
  });

  it('a schema with nothing of an agent’s is passed on as it is', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', enum: ['x'] } } };
    assert.equal(inElicitTerms(schema), schema);
    assert.equal(inElicitTerms('not a schema'), 'not a schema');
  });

  it("codex's timer becomes the question's deadline, and its async mark a non-blocking question", () => {
    const before = Date.now();
    const request = agentElicitRequest(
      'elicitation/create',
      codexBlockingParams('s'),
      { kind: 'acp', name: 'codex' },
      new AbortController().signal,
    );
    assert.ok(
      request.autoResolvesAt !== undefined && request.autoResolvesAt >= before + 60_000 && request.autoResolvesAt <= Date.now() + 60_000,
    );
    assert.equal(isNonBlocking(codexAsyncParams('s')), true);
    assert.equal(isNonBlocking(codexBlockingParams('s')), false);
    assert.equal(isNonBlocking({ ...codexAsyncParams('s'), mode: 'url' }), false);
  });
});
