/**
 * A choice question with a free-text companion, named by Elicit's own annotation
 * (`_meta["elicit/otherAnswer"]`, otherAnswer.ts): asked as one question with an
 * "Other…" answer, and answered with exactly the fields the asker reads. The
 * agents' own shapes become this annotation on the ACP side (agentConventions.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import type { ChoiceField, Field, FormModel, MultiChoiceField, TextField } from '../../src/core/form/fields';
import { collectAnswer, fieldProblemIn, makeDraft, readDraft, startingValues, type RawValues } from '../../src/core/form/formState';
import { composeGroup, splitGroupAnswer, summarizeAnswers } from '../../src/core/form/group';
import { normalize } from '../../src/core/form/normalize';
import { OTHER_ANSWER_META, OTHER_CHOICE, OTHER_TEXT_MISSING, questionFields } from '../../src/core/form/otherAnswer';
import { choosePresentation } from '../../src/core/form/presentation';
import { checkAnswer } from '../../src/core/form/fieldRules';

type Json = Record<string, unknown>;

const OWN_ANSWER = 'Something else';
const marked = (mark: unknown, property: Json): Json => ({ ...property, _meta: { [OTHER_ANSWER_META]: mark } });

/** A single choice whose own answer sends OWN_ANSWER and the text, a multi-select whose text is an answer of its own, and a plain token. */
function schema(): Json {
  return {
    type: 'object',
    properties: {
      plan: marked(
        { text: 'plan_text', option: OWN_ANSWER },
        { type: 'string', title: 'What next?', oneOf: [{ const: 'Test' }, { const: 'Stop' }, { const: OWN_ANSWER }] },
      ),
      plan_text: { type: 'string', title: 'Your own answer' },
      checks: marked({ text: 'checks_text' }, { type: 'array', items: { anyOf: [{ const: 'Lint' }, { const: 'Types' }] } }),
      checks_text: { type: 'string' },
      token: { type: 'string', writeOnly: true },
    },
    required: ['plan', 'token'],
  };
}
const form = (): FormModel => normalize(schema());

function field<K extends Field['kind']>(model: FormModel, name: string, kind: K): Extract<Field, { kind: K }> {
  const found = model.fields.find((f) => f.name === name);
  assert.ok(found, `no field ${name}`);
  assert.equal(found.kind, kind);
  return found as Extract<Field, { kind: K }>;
}

/** What the widgets hold when the person has done nothing, then these changes. */
function raws(model: FormModel, changes: RawValues): RawValues {
  return { ...startingValues(model, {}, undefined), ...changes };
}

describe('a choice with an Other answer: detection', () => {
  it('the annotation names the text, and the option Other… sends where there is one', () => {
    const model = form();
    assert.deepEqual(field(model, 'plan', 'choice').other, { text: 'plan_text', option: OWN_ANSWER });
    assert.equal(field(model, 'plan_text', 'text').otherOf, 'plan');
    assert.deepEqual(field(model, 'checks', 'multiChoice').other, { text: 'checks_text' });
    assert.equal(field(model, 'checks_text', 'text').otherOf, 'checks');
    assert.deepEqual(
      questionFields(model).map((f) => f.name),
      ['plan', 'checks', 'token'],
    );
  });

  describe('pairs nothing without a well-formed annotation of a plain optional text', () => {
    const choice = (mark: unknown, extra: Json = {}): Json =>
      marked(mark, { type: 'string', oneOf: [{ const: 'a' }, { const: OWN_ANSWER }], ...extra });
    const cases: Record<string, Json> = {
      'companion-like names without the annotation': { pick: { type: 'string', enum: ['a', OWN_ANSWER] }, pick_note: { type: 'string' } },
      'an annotation naming no field': { pick: choice({ text: 'missing' }), pick_note: { type: 'string' } },
      'an annotation naming a number': { pick: choice({ text: 'n' }), n: { type: 'number' } },
      'an annotation naming another choice': { pick: choice({ text: 'other' }), other: { type: 'string', enum: ['x'] } },
      'an annotation naming its own field': { pick: choice({ text: 'pick' }) },
      'a text that is not a string name': { pick: choice({ text: 3 }), pick_note: { type: 'string' } },
      'an option that is not a string': { pick: choice({ text: 'pick_note', option: 1 }), pick_note: { type: 'string' } },
      'an option the choice does not offer': { pick: choice({ text: 'pick_note', option: 'b' }), pick_note: { type: 'string' } },
      'an option on a multi-select': {
        pick: marked({ text: 'pick_note', option: 'a' }, { type: 'array', items: { anyOf: [{ const: 'a' }] } }),
        pick_note: { type: 'string' },
      },
      'an annotation on a text question': { pick: marked({ text: 'pick_note' }, { type: 'string' }), pick_note: { type: 'string' } },
      'a required text': { pick: choice({ text: 'pick_note' }), pick_note: { type: 'string' } },
      'a text with a pattern': { pick: choice({ text: 'pick_note' }), pick_note: { type: 'string', pattern: '^x$' } },
      'a text with a format': { pick: choice({ text: 'pick_note' }), pick_note: { type: 'string', format: 'email' } },
      'a text with a minimum length': { pick: choice({ text: 'pick_note' }), pick_note: { type: 'string', minLength: 2 } },
      'a text with a default': { pick: choice({ text: 'pick_note' }), pick_note: { type: 'string', default: 'x' } },
    };
    for (const [name, properties] of Object.entries(cases)) {
      it(name, () => {
        const required = name === 'a required text' ? ['pick_note'] : [];
        const model = normalize({ type: 'object', properties, required });
        for (const f of model.fields) {
          assert.equal((f as ChoiceField | MultiChoiceField).other, undefined, `${f.name} was paired`);
          assert.equal((f as TextField).otherOf, undefined, `${f.name} was paired`);
        }
        assert.equal(questionFields(model).length, model.fields.length);
      });
    }
  });

  it('a text named by two choices belongs to the first', () => {
    const model = normalize({
      type: 'object',
      properties: {
        first: marked({ text: 'note' }, { type: 'string', enum: ['a'] }),
        second: marked({ text: 'note' }, { type: 'string', enum: ['b'] }),
        note: { type: 'string' },
      },
    });
    assert.deepEqual(field(model, 'first', 'choice').other, { text: 'note' });
    assert.equal(field(model, 'second', 'choice').other, undefined);
    assert.equal(field(model, 'note', 'text').otherOf, 'first');
  });
});

describe('a choice with an Other answer: the answer the asker receives', () => {
  it('a listed option is sent alone, even with text left in the Other box', () => {
    const model = form();
    const { content, errors } = collectAnswer(model, raws(model, { plan: 'Test', plan_text: 'leftover', token: 'tok-1' }));
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { plan: 'Test', token: 'tok-1' });
  });

  it('Other… sends the annotated option and the text', () => {
    const model = form();
    const { content, errors } = collectAnswer(model, raws(model, { plan: OTHER_CHOICE, plan_text: 'Inspect logs', token: 'tok-1' }));
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { plan: OWN_ANSWER, plan_text: 'Inspect logs', token: 'tok-1' });
    assert.deepEqual(validateAnswer(model, content), {}, 'the host’s check agrees');
  });

  it('Other… with nothing typed is refused, by the page and by the host', () => {
    const model = form();
    const values = raws(model, { plan: OTHER_CHOICE, token: 'tok-1' });
    assert.equal(collectAnswer(model, values).errors.plan_text, OTHER_TEXT_MISSING);
    assert.equal(fieldProblemIn(model, values, field(model, 'plan_text', 'text')), OTHER_TEXT_MISSING);
    assert.equal(checkAnswer(model, { plan: OWN_ANSWER, token: 'tok-1' }).plan_text, OTHER_TEXT_MISSING);
  });

  it('without an option, Other… sends only the text; an option sends only the choice', () => {
    const single = normalize({
      type: 'object',
      properties: { tool: marked({ text: 'tool_text' }, { type: 'string', enum: ['npm', 'pnpm'] }), tool_text: { type: 'string' } },
    });
    assert.deepEqual(collectAnswer(single, raws(single, { tool: OTHER_CHOICE, tool_text: 'yarn' })).content, { tool_text: 'yarn' });
    assert.deepEqual(collectAnswer(single, raws(single, { tool: 'pnpm', tool_text: 'yarn' })).content, { tool: 'pnpm' });
  });

  it('a multi-select: the ticked options and the Other… text, each in its own field', () => {
    const model = form();
    const { content, errors } = collectAnswer(
      model,
      raws(model, { plan: 'Stop', checks: ['Lint', OTHER_CHOICE], checks_text: 'Format', token: 't' }),
    );
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { plan: 'Stop', checks: ['Lint'], checks_text: 'Format', token: 't' });
    assert.deepEqual(validateAnswer(model, content), {});
    assert.deepEqual(
      collectAnswer(model, raws(model, { plan: 'Stop', checks: [OTHER_CHOICE], checks_text: 'Format', token: 't' })).content,
      { plan: 'Stop', checks_text: 'Format', token: 't' },
      'Other… alone: the text is the whole answer',
    );
  });

  it('a group (a burst, a round) keeps the pair under composed names and splits it back to the asker’s names', () => {
    const model = composeGroup([{ key: 'r1', message: 'm', requestedSchema: schema() }]);
    assert.deepEqual(field(model, '0:plan', 'choice').other, { text: '0:plan_text', option: OWN_ANSWER });
    const { content } = collectAnswer(model, raws(model, { '0:plan': OTHER_CHOICE, '0:plan_text': 'Why', '0:token': 't' }));
    assert.deepEqual(splitGroupAnswer(model, { action: 'accept', content }).r1, {
      action: 'accept',
      content: { plan: OWN_ANSWER, plan_text: 'Why', token: 't' },
    });
  });
});

describe('a choice with an Other answer: secrets and drafts', () => {
  it('a secret field is masked beside a pair, and a draft never keeps it', () => {
    const model = form();
    assert.equal(field(model, 'token', 'text').secret, true);
    const draft = makeDraft(model, 7, raws(model, { plan: OTHER_CHOICE, plan_text: 'Why', token: 'tok-secret' }));
    assert.equal(JSON.stringify(draft).includes('tok-secret'), false);
    assert.deepEqual(
      readDraft(model, 7, draft),
      { plan: OTHER_CHOICE, plan_text: 'Why', checks: null, checks_text: '' },
      'Other… comes back chosen, the rest as the person left it',
    );
  });

  it('a secret Other… text is masked too, and summarized as hidden', () => {
    const secret = schema() as { properties: Record<string, Json> };
    secret.properties.plan_text = { type: 'string', writeOnly: true };
    const model = normalize(secret);
    assert.equal(field(model, 'plan_text', 'text').otherOf, 'plan');
    assert.equal(field(model, 'plan_text', 'text').secret, true);
    const values = raws(model, { plan: OTHER_CHOICE, plan_text: 'hunter2', token: 't' });
    assert.equal(JSON.stringify(makeDraft(model, 1, values)).includes('hunter2'), false);
    const { content } = collectAnswer(model, values);
    const summary = summarizeAnswers(model, { action: 'accept', content }, 'm');
    assert.equal(JSON.stringify(summary).includes('hunter2'), false);
  });
});

describe('the presentation rule', () => {
  it('a question with its Other… text counts as one step', () => {
    const two = normalize({
      type: 'object',
      properties: {
        a: marked({ text: 'a_text' }, { type: 'string', enum: ['x', 'y'] }),
        a_text: { type: 'string' },
        b: marked({ text: 'b_text' }, { type: 'array', items: { anyOf: [{ const: 'x' }] } }),
        b_text: { type: 'string' },
      },
    });
    assert.equal(choosePresentation(two, 'auto'), 'quickInput', 'two questions, not four fields');
  });

  it('a later round of a request stays a form, however short', () => {
    const model = normalize({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } });
    assert.equal(choosePresentation(model, 'auto', { followUp: false }), 'quickInput');
    assert.equal(choosePresentation(model, 'auto', { followUp: true }), 'form');
    assert.equal(choosePresentation(model, 'quickInput', { followUp: true }), 'quickInput', 'the person’s own setting wins');
  });
});
